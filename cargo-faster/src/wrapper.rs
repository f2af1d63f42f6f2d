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
//!
//! Cargo also mixes that path into each member's `-C metadata`, from which
//! rustc derives every symbol's name and the code's partition into units:
//! two revisions of the same code, built through wrappers at two paths,
//! would link to different binaries, and the same layout seed would place
//! their functions apart (on hex's `encode`, identical code, a layout read
//! 0.77x to 1.32x where the same binary reads 1.00x). So the wrapper
//! replaces the member's `-C metadata` with one made of what names the
//! crate alone ([`same_metadata`]), and the current code is built through a
//! wrapper too (`BuildOf::Current`), at a path of its own: identical code
//! gets identical symbols on both sides, its files still apart.

use crate::cache::key;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The name this program answers to as the wrapper.
const NAME: &str = "rustc-wrapper";

/// The variable through which cargo runs a wrapper for the workspace's
/// members.
pub const VARIABLE: &str = "RUSTC_WORKSPACE_WRAPPER";

/// Which revision's build a wrapper is for: each has its own path, so
/// cargo keeps their members' files apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildOf {
    /// The base revision.
    Base,
    /// The current code.
    Current,
}

impl BuildOf {
    fn folder(self) -> &'static str {
        match self {
            BuildOf::Base => "base",
            BuildOf::Current => "current",
        }
    }
}

/// The wrapper of `build_of` under `faster` (`<target>/faster`), made now
/// where it is missing or leads elsewhere than this program.
pub fn place(faster: &Path, build_of: BuildOf) -> Result<PathBuf, String> {
    let this = std::env::current_exe()
        .map_err(|error| format!("cannot find this program to wrap rustc with: {error}"))?;
    let folder = faster.join(NAME).join(build_of.folder());
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

/// The wrapper `cargo faster test`, run in `directory`, builds the current
/// code through, as `cargo faster --against` does, so the two share the
/// current code's files in `faster`'s build; `None` where the project sets
/// a wrapper of its own, which then builds both.
pub fn for_tests(faster: &Path, directory: &Path) -> Result<Option<PathBuf>, String> {
    let config_files = key::config_files(&[directory], key::cargo_home().as_deref());
    let own = std::env::var(VARIABLE).ok();
    match project_wrapper(own.as_deref(), config_files.keys().map(PathBuf::as_path)) {
        Some(_) => Ok(None),
        None => place(faster, BuildOf::Current).map(Some),
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
    let arguments: Vec<OsString> = arguments.collect();
    let metadata = same_metadata(&arguments, std::env::var("CARGO_PKG_NAME").ok().as_deref());
    let mut command = Command::new(&rustc);
    command.args(with_metadata(arguments, &metadata));
    Some(run(command, &rustc))
}

/// The `-C metadata` of a member compiled with `arguments` (rustc's, from
/// cargo) in package `package`: a digest of what tells the crate apart from
/// the others of the build (its package, name, kinds, whether it is a
/// test, its `--cfg`s and its root file, which cargo gives relative to the
/// package), and of nothing that names a place: the same on both sides for
/// the same code.
pub fn same_metadata(arguments: &[OsString], package: Option<&str>) -> String {
    let text: Vec<String> = arguments
        .iter()
        .map(|argument| argument.to_string_lossy().into_owned())
        .collect();
    let mut named: Vec<&str> = vec![package.unwrap_or("")];
    let mut cfgs: Vec<&str> = Vec::new();
    let mut words = text.iter().map(String::as_str).peekable();
    while let Some(word) = words.next() {
        match word {
            "--crate-name" | "--crate-type" | "--edition" => {
                named.push(word);
                named.extend(words.next());
            }
            "--cfg" => cfgs.extend(words.next()),
            "--test" => named.push(word),
            _ if word.ends_with(".rs") && !word.starts_with('-') => named.push(word),
            _ if word.starts_with("--crate-type=") || word.starts_with("--edition=") => {
                named.push(word)
            }
            _ => {}
        }
    }
    cfgs.sort_unstable();
    let parts: Vec<u8> = named
        .iter()
        .chain(&cfgs)
        .flat_map(|part| part.bytes().chain([0]))
        .collect();
    key::content_hash(&parts)
}

/// `arguments` with every `-C metadata=...` replaced by `metadata` (cargo
/// writes it as two arguments, `-C` and `metadata=...`).
fn with_metadata(arguments: Vec<OsString>, metadata: &str) -> Vec<OsString> {
    let replacement = format!("metadata={metadata}");
    let mut previous_was_codegen = false;
    arguments
        .into_iter()
        .map(|argument| {
            let text = argument.to_string_lossy();
            let replaced = if previous_was_codegen && text.starts_with("metadata=") {
                Some(OsString::from(&replacement))
            } else if text.starts_with("-Cmetadata=") {
                Some(OsString::from(format!("-C{replacement}")))
            } else {
                None
            };
            previous_was_codegen = text == "-C";
            replaced.unwrap_or(argument)
        })
        .collect()
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
        let temp = tempfile::tempdir().unwrap();
        let faster = temp.path().join("faster");
        let wrapper = place(&faster, BuildOf::Base).unwrap();
        assert_eq!(wrapper.file_stem().unwrap(), NAME);
        assert_ne!(place(&faster, BuildOf::Current).unwrap(), wrapper);
        assert!(is_this(&wrapper, &std::env::current_exe().unwrap()));
        let made = std::fs::symlink_metadata(&wrapper)
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(place(&faster, BuildOf::Base).unwrap(), wrapper);
        let again = std::fs::symlink_metadata(&wrapper)
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(made, again, "an existing wrapper is left as it is");
    }

    #[test]
    fn a_member_gets_the_same_metadata_wherever_it_is_built_and_another_crate_not() {
        let arguments = |metadata: &str, extra: &str, crate_type: &str| -> Vec<OsString> {
            [
                "--crate-name",
                "hex",
                "--edition=2018",
                "src/lib.rs",
                "--crate-type",
                crate_type,
                "-C",
                metadata,
                "-C",
                extra,
                "--out-dir",
                "/somewhere/deps",
                "--cfg",
                "feature=\"std\"",
                "--cfg",
                "feature=\"alloc\"",
            ]
            .map(OsString::from)
            .to_vec()
        };
        let base = arguments("metadata=1111", "extra-filename=-aaaa", "lib");
        let current = arguments("metadata=2222", "extra-filename=-bbbb", "lib");
        let metadata = same_metadata(&base, Some("hex"));
        assert_eq!(metadata, same_metadata(&current, Some("hex")));
        assert_ne!(
            metadata,
            same_metadata(
                &arguments("metadata=1111", "extra-filename=-aaaa", "rlib"),
                Some("hex")
            )
        );
        assert_ne!(metadata, same_metadata(&base, Some("other")));
        let rewritten = with_metadata(base, &metadata);
        assert!(rewritten.contains(&OsString::from(format!("metadata={metadata}"))));
        assert!(!rewritten.contains(&OsString::from("metadata=1111")));
        // Its files stay apart.
        assert!(rewritten.contains(&OsString::from("extra-filename=-aaaa")));
        let joined = with_metadata(vec!["-Cmetadata=9".into()], &metadata);
        assert_eq!(
            joined,
            vec![OsString::from(format!("-Cmetadata={metadata}"))]
        );
    }

    #[test]
    fn a_wrapper_the_project_sets_is_named() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
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
    }
}
