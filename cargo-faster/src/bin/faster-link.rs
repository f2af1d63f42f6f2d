//! `faster-link`: the linker wrapper that lets comparisons relink their own
//! binary in other code layouts (see `faster_runtime::layout`). Set it as
//! the linker in the project's `.cargo/config.toml`:
//!
//! ```toml
//! [target.x86_64-unknown-linux-gnu]
//! linker = "faster-link"
//! ```
//!
//! It runs `cc` (or `$FASTER_LINKER`) with rustc's arguments, unchanged,
//! and keeps what a later relink needs beside each binary that links
//! faster.

fn main() {
    std::process::exit(faster_runtime::layout::link_main());
}
