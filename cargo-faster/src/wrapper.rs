//! The rustc wrapper that keeps the base revision's own crates apart from
//! the current code's in the one target directory both are built in, so
//! their dependencies are compiled once.
//!
//! Cargo names a package inside the workspace's root by its place there,
//! the same in the base's worktree as here: built into one target
//! directory, each revision would take the other's files for its own (its
//! sources older than them, cargo calls them fresh). But cargo mixes the
//! path of `RUSTC_WORKSPACE_WRAPPER` into the file names of the workspace's
//! members alone ("so that artifacts produced by the wrapper are cached
//! separately", its documentation says), so the base is built through a
//! wrapper, `<target>/faster/rustc-wrapper/rustc-wrapper`: this program,
//! linked there under that name, which runs the compiler it is given,
//! unchanged. A registry or git dependency, the same package at the same
//! version with the same features, has the same name in both builds and is
//! compiled for the first and fresh for the second.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The name this program answers to as the wrapper.
const NAME: &str = "rustc-wrapper";

/// The variable through which cargo runs a wrapper for the workspace's
/// members.
pub const VARIABLE: &str = "RUSTC_WORKSPACE_WRAPPER";

/// The wrapper under `faster` (`<target>/faster`), made now where it is
/// missing or leads elsewhere than this program.
pub fn place(faster: &Path) -> Result<PathBuf, String> {
    let this = std::env::current_exe()
        .map_err(|error| format!("cannot find this program to wrap rustc with: {error}"))?;
    let folder = faster.join(NAME);
    let path = folder.join(format!("{NAME}{}", std::env::consts::EXE_SUFFIX));
    if is_this(&path, &this) {
        return Ok(path);
    }
    let failed = |error: std::io::Error| format!("{}: {error}", path.display());
    std::fs::create_dir_all(&folder).map_err(failed)?;
    // Made beside it and renamed over it: a build running the old one keeps
    // running it.
    let staging = folder.join(format!(".{NAME}.{}", std::process::id()));
    let _ = std::fs::remove_file(&staging);
    make(&this, &staging).map_err(failed)?;
    std::fs::rename(&staging, &path).map_err(failed)?;
    Ok(path)
}

#[cfg(unix)]
fn make(this: &Path, at: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(this, at)
}

#[cfg(not(unix))]
fn make(this: &Path, at: &Path) -> std::io::Result<()> {
    std::fs::hard_link(this, at).or_else(|_| std::fs::copy(this, at).map(drop))
}

/// Whether `path` is this program: a link to it, or a copy as large.
fn is_this(path: &Path, this: &Path) -> bool {
    if cfg!(unix) {
        std::fs::read_link(path).is_ok_and(|target| target == this)
    } else {
        let size = |path: &Path| std::fs::metadata(path).map(|metadata| metadata.len()).ok();
        size(path).is_some() && size(path) == size(this)
    }
}

/// Why the wrapper cannot be used, when the project sets one for its
/// workspace's members already (in `environment`, or in one of the cargo
/// configuration files `config_files`): the base is then built as the
/// project says, in a target directory of its own.
pub fn project_wrapper<'a>(
    environment: Option<&str>,
    config_files: impl IntoIterator<Item = &'a Path>,
) -> Option<String> {
    if environment.is_some_and(|value| !value.is_empty()) {
        return Some(format!("{VARIABLE} is set"));
    }
    config_files.into_iter().find_map(|file| {
        let text = std::fs::read_to_string(file).ok()?;
        text.contains("rustc-workspace-wrapper")
            .then(|| format!("{} sets build.rustc-workspace-wrapper", file.display()))
    })
}

/// Runs the compiler cargo names when this program was run as the
/// wrapper (`rustc-wrapper RUSTC ARGS...`), and its exit code; `None` when
/// it was run as anything else.
pub fn run_if_wrapping() -> Option<ExitCode> {
    let mut arguments = std::env::args_os();
    let program = arguments.next()?;
    if Path::new(&program).file_stem()? != NAME {
        return None;
    }
    let Some(rustc) = arguments.next() else {
        eprintln!("{NAME}: cargo faster's wrapper runs the compiler it is given, and got none");
        return Some(ExitCode::FAILURE);
    };
    let mut command = Command::new(&rustc);
    command.args(arguments);
    Some(run(command, &rustc))
}

#[cfg(unix)]
fn run(mut command: Command, rustc: &OsString) -> ExitCode {
    use std::os::unix::process::CommandExt;
    let error = command.exec();
    eprintln!("{NAME}: could not run {}: {error}", rustc.to_string_lossy());
    ExitCode::FAILURE
}

#[cfg(not(unix))]
fn run(mut command: Command, rustc: &OsString) -> ExitCode {
    match command.status() {
        Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(error) => {
            eprintln!("{NAME}: could not run {}: {error}", rustc.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wrapper_is_this_program_by_its_name_made_once() {
        let faster =
            std::env::temp_dir().join(format!("cargo-faster-wrapper-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&faster);
        let wrapper = place(&faster).unwrap();
        assert_eq!(wrapper.file_stem().unwrap(), NAME);
        assert!(is_this(&wrapper, &std::env::current_exe().unwrap()));
        let made = std::fs::symlink_metadata(&wrapper)
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(place(&faster).unwrap(), wrapper);
        let again = std::fs::symlink_metadata(&wrapper)
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(made, again, "an existing wrapper is left as it is");
        std::fs::remove_dir_all(&faster).unwrap();
    }

    #[test]
    fn a_wrapper_the_project_sets_is_named() {
        let dir = std::env::temp_dir().join(format!("cargo-faster-own-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (plain, wrapping) = (dir.join("plain.toml"), dir.join("wrapping.toml"));
        std::fs::write(&plain, "[build]\njobs = 2\n").unwrap();
        std::fs::write(&wrapping, "[build]\nrustc-workspace-wrapper = \"w\"\n").unwrap();
        assert_eq!(project_wrapper(None, [plain.as_path()]), None);
        assert_eq!(project_wrapper(Some(""), [plain.as_path()]), None);
        assert_eq!(
            project_wrapper(Some("clippy-driver"), [plain.as_path()]).as_deref(),
            Some("RUSTC_WORKSPACE_WRAPPER is set")
        );
        assert_eq!(
            project_wrapper(None, [plain.as_path(), wrapping.as_path()]),
            Some(format!(
                "{} sets build.rustc-workspace-wrapper",
                wrapping.display()
            ))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
