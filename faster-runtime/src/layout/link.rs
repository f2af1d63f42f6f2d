//! The linker wrapper `faster-link`: runs the real linker with rustc's
//! arguments, unchanged, and afterwards keeps the material of a binary that
//! links this runtime, so its comparisons can relink it in other layouts.

use super::material::Material;
use std::ffi::OsString;
use std::process::Command;

/// The variable naming the real linker `faster-link` runs (`cc` when it is
/// unset): set it (in `.cargo/config.toml`'s `[env]`) where the project
/// linked with another one before.
pub const LINKER_VARIABLE: &str = "FASTER_LINKER";

/// `faster-link`'s `main`: links, keeps the material, and returns the exit
/// code (the real linker's own when it failed).
///
/// A link the wrapper cannot keep material for still succeeds: the binary
/// is as the real linker made it, and its comparisons report why their
/// verdicts hold for this build only.
pub fn link_main() -> i32 {
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
            return 1;
        }
    };
    if !status.success() {
        return status.code().unwrap_or(1);
    }
    let utf8: Option<Vec<String>> = arguments
        .iter()
        .map(|argument| argument.to_str().map(str::to_string))
        .collect();
    if let (Some(arguments), Some(linker), Ok(directory)) =
        (utf8, linker.to_str(), std::env::current_dir())
    {
        Material::keep(linker, &arguments, &directory);
    }
    0
}
