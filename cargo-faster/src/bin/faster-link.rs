//! `faster-link`: the linker wrapper that lets comparisons relink their own
//! binary in other code layouts (see `faster_runtime::layout`).
//! `cargo faster test` and `cargo faster --against` link through it (it
//! is the host's linker for their builds, `CARGO_TARGET_<HOST>_LINKER`).
//!
//! It runs `cc` (or `$FASTER_LINKER`) with rustc's arguments, unchanged,
//! and keeps what a later relink needs beside each binary that links
//! faster.

fn main() {
    std::process::exit(faster_runtime::layout::link_main());
}
