//! `faster-link`: the linker wrapper that lets comparisons relink their own
//! binary in other code layouts (see `faster-runtime/src/layout/`).
//! `cargo faster test` and `cargo faster --against REV` link through it (it
//! is the host's linker for their builds, `CARGO_TARGET_<HOST>_LINKER`).
//!
//! It runs `cc` (or `$FASTER_LINKER`) with rustc's arguments, unchanged,
//! and afterwards keeps what a later relink needs beside each binary that
//! links faster (`keep`), in the format the runtime reads
//! (`faster_runtime::__internal::material`). Only this program links and
//! keeps: a test binary only reads what it kept, and relinks.

mod keep;

use faster_runtime::__internal::LINKER_VARIABLE;
use std::ffi::OsString;
use std::process::{Command, ExitCode};

/// Links, keeps the material, and ends with the real linker's exit code.
///
/// A link the wrapper cannot keep material for still succeeds: the binary
/// is as the real linker made it, and its comparisons report why their
/// verdicts hold for this build only.
fn main() -> ExitCode {
    let arguments: Vec<OsString> = std::env::args_os().skip(1).collect();
    let linker = std::env::var_os(LINKER_VARIABLE)
        .filter(|linker| !linker.is_empty())
        .unwrap_or_else(|| "cc".into());
    let status = match Command::new(&linker).args(&arguments).status() {
        Ok(status) => status,
        Err(error) => {
            eprintln!(
                "faster-link: could not run the linker `{}`: {error} (set {LINKER_VARIABLE} to \
                 the linker to run)",
                linker.to_string_lossy()
            );
            return ExitCode::FAILURE;
        }
    };
    if !status.success() {
        let code = status.code().unwrap_or(1);
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    let utf8: Option<Vec<String>> = arguments
        .iter()
        .map(|argument| argument.to_str().map(str::to_string))
        .collect();
    if let (Some(arguments), Some(linker), Ok(directory)) =
        (utf8, linker.to_str(), std::env::current_dir())
    {
        keep::keep(linker, &arguments, &directory);
    }
    ExitCode::SUCCESS
}
