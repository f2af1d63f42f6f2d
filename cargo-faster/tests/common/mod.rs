//! What the integration tests share: a fixture crate in a scratch directory
//! of its own (a git repository with a fixed author and date where a test
//! compares commits), the manifest that makes it depend on this checkout's
//! `faster-test`, the target directory fixtures build in, and `cargo
//! faster` run in a fixture as a user runs it.
// Each test binary compiles this module whole and uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fixture's manifest: the package `PACKAGE`, depending on faster's
/// `faster-test` at `FASTER`, a workspace of its own (see [`manifest`]).
pub const MANIFEST: &str = r#"[package]
name = "PACKAGE"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
faster-test = { path = "FASTER", default-features = false }

[workspace]
"#;

/// This checkout of faster, whose `faster-test` the fixtures depend on.
pub fn checkout() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// The manifest of the package `package`, depending on this checkout's
/// `faster-test`.
pub fn manifest(package: &str) -> String {
    MANIFEST
        .replace("PACKAGE", package)
        .replace("FASTER", &checkout().to_string_lossy())
}

/// The target directory `name` under the one cargo builds these tests in
/// (`CARGO_TARGET_DIR`, else the workspace's `target/`): kept between runs,
/// so only the first run builds `faster` for the fixtures built there.
pub fn target(name: &str) -> PathBuf {
    // A relative `CARGO_TARGET_DIR` is read from the workspace's root, where
    // cargo runs; joining an absolute one gives it as it is.
    let builds =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| "target".into(), PathBuf::from);
    checkout().join(builds).join(name)
}

/// A fixture crate at `root`, in a scratch directory of its own removed
/// when dropped.
pub struct Fixture {
    /// The scratch directory, which holds `root` and what a test puts
    /// beside it.
    pub scratch: tempfile::TempDir,
    /// The crate's folder, `repository` in the scratch directory.
    pub root: PathBuf,
}

impl Fixture {
    /// An empty crate folder (its `src/` made) in a fresh scratch directory
    /// whose name starts with `prefix`.
    pub fn scratch(prefix: &str) -> Fixture {
        let scratch = tempfile::Builder::new().prefix(prefix).tempdir().unwrap();
        let root = scratch.path().join("repository");
        std::fs::create_dir_all(root.join("src")).unwrap();
        Fixture { scratch, root }
    }

    /// A git repository without commits in a fresh scratch directory (see
    /// [`Fixture::scratch`]), ignoring what cargo writes.
    pub fn repository(prefix: &str) -> Fixture {
        let fixture = Fixture::scratch(prefix);
        fixture.write(".gitignore", "/target\n/Cargo.lock\n");
        fixture.git(&["init", "--quiet", "--initial-branch=main"]);
        fixture
    }

    /// Writes `text` to `path` in the crate.
    pub fn write(&self, path: &str, text: &str) {
        std::fs::write(self.root.join(path), text).unwrap();
    }

    /// `git ARGUMENTS` in the fixture, with a fixed author and date: the
    /// same fixture has the same commits in every run. Its output.
    pub fn git(&self, arguments: &[&str]) -> String {
        let output = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args([
                "-c",
                "user.name=fixture",
                "-c",
                "user.email=fixture@example.com",
            ])
            .args(["-c", "commit.gpgsign=false"])
            .args(arguments)
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(output.status.success(), "git {arguments:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    /// Commits everything in the crate with `message`.
    pub fn commit(&self, message: &str) {
        self.git(&["add", "--all"]);
        self.git(&["commit", "--quiet", "--message", message]);
    }

    /// The commit whose subject starts with `prefix`.
    pub fn commit_of(&self, prefix: &str) -> String {
        let log = self.git(&["log", "--format=%H %s"]);
        let line = log
            .lines()
            .find(|line| line.split_once(' ').unwrap().1.starts_with(prefix))
            .unwrap();
        line[..40].to_string()
    }

    /// `cargo faster ARGUMENTS` in the fixture, building in `target`, as a
    /// user runs it: offline (from what this workspace's build has
    /// fetched), without colours, and without the `FASTER_` variables and
    /// job summary of the run that tests.
    pub fn command(&self, arguments: &[&str], target: &Path) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-faster"));
        command
            .arg("faster")
            .args(arguments)
            .current_dir(&self.root)
            .env("CARGO", env!("CARGO"))
            .env("CARGO_TARGET_DIR", target)
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TERM_COLOR", "never")
            .env_remove("GITHUB_STEP_SUMMARY");
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("FASTER_") {
                command.env_remove(&name);
            }
        }
        command
    }
}
