//! Runs a real `cargo` on a fixture crate under `tests/fixtures/` (or any
//! crate of a user's, such as the one `tests/docs/` writes), one child cargo
//! at a time, for the tests that check what a user's own `cargo test`
//! prints and how it exits.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// One child cargo at a time: a second one compiling next to a timed
/// comparison would be the noise the comparison must not see.
static CHILD_CARGO: Mutex<()> = Mutex::new(());

/// What a child cargo did.
pub struct Run {
    /// Its exit code (`None` when a signal ended it).
    pub code: Option<i32>,
    /// stdout and stderr together: libtest's report and failures go to
    /// stdout, cargo's own messages to stderr.
    pub output: String,
}

impl Run {
    /// Whether it exited with 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// `cargo <subcommand> <arguments>` on the fixture `fixture` (its manifest
/// under `tests/fixtures/<fixture>/`), offline, in the fixtures' shared
/// target directory, with the documented defaults rather than this shell's
/// `FASTER_*` settings.
pub fn cargo(fixture: &str, subcommand: &[&str], arguments: &[&str]) -> Run {
    cargo_with_env(fixture, subcommand, arguments, &[])
}

/// [`cargo`] with these variables set for it (and the test binaries it runs).
pub fn cargo_with_env(
    fixture: &str,
    subcommand: &[&str],
    arguments: &[&str],
    variables: &[(&str, &str)],
) -> Run {
    let manifest =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/{fixture}/Cargo.toml"));
    cargo_on(&manifest, subcommand, arguments, variables)
}

/// [`cargo_with_env`] on the crate whose manifest is `manifest`, wherever it
/// is. The shared target directory is given as `CARGO_TARGET_DIR`, which
/// every subcommand accepts (`cargo add` takes no `--target-dir`).
pub fn cargo_on(
    manifest: &Path,
    subcommand: &[&str],
    arguments: &[&str],
    variables: &[(&str, &str)],
) -> Run {
    let _one_at_a_time = CHILD_CARGO
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let target_dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fixtures");
    let mut command = Command::new(env!("CARGO"));
    command
        .args(subcommand)
        .args(["--offline", "--manifest-path"])
        .arg(manifest)
        .args(arguments)
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_TERM_COLOR", "never");
    for (name, _) in std::env::vars_os() {
        let name_text = name.to_string_lossy();
        if name_text.starts_with("FASTER_") || name_text == "GITHUB_STEP_SUMMARY" {
            command.env_remove(&name);
        }
    }
    command.envs(variables.iter().copied());
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("cargo runs");
    Run {
        code: status.code(),
        output: format!(
            "{}\n{}",
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&stderr)
        ),
    }
}
