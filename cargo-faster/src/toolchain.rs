//! The compiler and the linker both revisions are built with: the
//! compiler cargo uses here, by path, and `faster-link`, installed beside
//! this program, so every binary can be relinked in other layouts.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `faster-link`, beside this program (`cargo install` puts both in one
/// place), with the variable that makes cargo link the host's binaries with
/// it; `None` where it is missing, or off Linux, where layouts do not vary.
pub fn layout_linker(version: &str) -> Option<(String, PathBuf)> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let linker = std::env::current_exe()
        .ok()?
        .with_file_name(format!("faster-link{}", std::env::consts::EXE_SUFFIX));
    let host = version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))?
        .trim();
    let variable = format!(
        "CARGO_TARGET_{}_LINKER",
        host.to_uppercase().replace(['-', '.'], "_")
    );
    linker.is_file().then_some((variable, linker))
}

/// The compiler cargo uses here, by path (so the base revision is built by
/// the same one, whatever toolchain file it has), and its full version.
pub fn toolchain(directory: &Path) -> Result<(PathBuf, String), String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let run = |arguments: &[&str]| -> Result<String, String> {
        let output = Command::new(&rustc)
            .args(arguments)
            .current_dir(directory)
            .output()
            .map_err(|error| format!("could not run rustc: {error}"))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
        } else {
            Err(format!("rustc {} failed", arguments.join(" ")))
        }
    };
    let sysroot = PathBuf::from(run(&["--print", "sysroot"])?);
    let path = sysroot
        .join("bin")
        .join(format!("rustc{}", std::env::consts::EXE_SUFFIX));
    let path = if path.exists() {
        path
    } else {
        PathBuf::from(&rustc)
    };
    Ok((path, run(&["-vV"])?))
}
