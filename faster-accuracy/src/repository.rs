//! The fixture repositories of `accuracy --revisions` and `accuracy
//! --coverage`: a git repository of a library crate on the faster
//! workspace, in a scratch directory with its own target directory (so its
//! first build is a cold one), its commits, and the real `cargo-faster`
//! binary run in it, each function's report read back from its JSON lines.
//! What the commits hold is each mode's own.

use crate::defaults::at_defaults;
use crate::scratch::scratch;
use faster::Report;
use faster_runtime::__internal::Document;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The fixture's package, and the crate name its tracked functions'
/// names start with.
pub const PACKAGE: &str = "fixture";

/// The fixture's `Cargo.toml`: the faster workspace as a dependency by
/// path (its plots left out: nothing here reads them), a workspace of its
/// own.
pub fn manifest(description: &str) -> String {
    let faster = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the suite lives in the workspace");
    format!(
        "[package]\nname = \"{PACKAGE}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         description = {description:?}\npublish = false\n\n[dependencies]\n\
         faster-test = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        faster.display().to_string()
    )
}

/// The repository and its target directory, in one scratch directory
/// removed when dropped (unless kept).
pub struct Repository {
    /// Held for its removal when the repository is dropped.
    _scratch: TempDir,
    pub root: PathBuf,
    pub target: PathBuf,
}

impl Repository {
    /// An empty repository on branch `main` in a fresh scratch directory
    /// named after `mode`. `Cargo.lock` is ignored: a base commit without
    /// one gets the current one, so both revisions build the same versions.
    pub fn create(mode: &str, keep: bool) -> Result<Repository, String> {
        let scratch = scratch(mode, keep)?;
        let repository = Repository {
            root: scratch.path().join("repository"),
            target: scratch.path().join("target"),
            _scratch: scratch,
        };
        std::fs::create_dir_all(&repository.root)
            .map_err(|error| format!("{}: {error}", repository.root.display()))?;
        repository.write(".gitignore", "/Cargo.lock\n")?;
        repository.git(&["init", "--quiet", "--initial-branch=main"])?;
        Ok(repository)
    }

    /// Writes `text` to `path` in the working tree, its directory made.
    fn write(&self, path: &str, text: &str) -> Result<(), String> {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().expect("a file in the tree"))
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|error| format!("{}: {error}", path.display()))
    }

    /// Writes `files` (each a path in the tree and its text) and commits
    /// them, with whatever else changed, on top of the checked-out commit:
    /// the new commit's hash.
    pub fn commit(&self, files: &[(String, String)], message: &str) -> Result<String, String> {
        for (path, text) in files {
            self.write(path, text)?;
        }
        self.git(&["add", "--all"])?;
        self.git(&["commit", "--quiet", "--message", message])?;
        self.git(&["rev-parse", "HEAD"])
    }

    /// `git ARGUMENTS` in the repository: its output.
    pub fn git(&self, arguments: &[&str]) -> Result<String, String> {
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
            .output()
            .map_err(|error| format!("could not run git: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "git {arguments:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    /// One `cargo faster --against AGAINST --format json FLAGS...` in the
    /// checked-out commit, with the runtime's defaults (no `FASTER_*`).
    pub fn cargo_faster(
        &self,
        binary: &Path,
        against: &str,
        flags: &[&str],
    ) -> Result<Ran, String> {
        let started = Instant::now();
        let mut command = Command::new(binary);
        command
            .args(["faster", "--against", against, "--format", "json"])
            .args(flags)
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_NET_OFFLINE", "true");
        at_defaults(&mut command);
        let output = command
            .output()
            .map_err(|error| format!("could not run {}: {error}", binary.display()))?;
        let wall = started.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let functions = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| {
                let document: Document = serde_json::from_str(line)
                    .map_err(|error| format!("{error}: {line}\n{stderr}"))?;
                Ok((document.name().to_string(), document.into_report()))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if functions.is_empty() {
            return Err(format!("cargo faster compared nothing:\n{stderr}"));
        }
        Ok(Ran {
            code: output.status.code(),
            wall,
            functions,
            base_build: stderr
                .lines()
                .find_map(|line| line.strip_prefix("cargo faster: built the base revision "))
                .map(|rest| {
                    format!(
                        "the base built in {}",
                        rest.rsplit(" in ").next().unwrap_or(rest)
                    )
                }),
        })
    }
}

/// One `cargo faster` run.
pub struct Ran {
    pub code: Option<i32>,
    pub wall: Duration,
    /// Each function's name and report, or why it has none.
    pub functions: Vec<(String, Result<Report, String>)>,
    /// How long building the base took, when it was built.
    pub base_build: Option<String>,
}

/// Builds the `cargo-faster` binary (and the `faster-link` it relinks
/// layouts through) next to this one and returns its path.
pub fn build_cargo_faster() -> Result<PathBuf, String> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("a parent");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            "cargo-faster",
            "--manifest-path",
        ])
        .arg(workspace.join("Cargo.toml"))
        .status()
        .map_err(|error| format!("could not run cargo: {error}"))?;
    if !status.success() {
        return Err("building cargo-faster failed".into());
    }
    let here = std::env::current_exe().map_err(|error| error.to_string())?;
    let binary = here.with_file_name(format!("cargo-faster{}", std::env::consts::EXE_SUFFIX));
    binary
        .exists()
        .then_some(binary)
        .ok_or_else(|| format!("no cargo-faster next to {}", here.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_names_the_package_its_description_and_this_workspace() {
        let manifest = manifest("A \"quoted\" fixture.");
        assert!(manifest.starts_with("[package]\nname = \"fixture\"\n"));
        assert!(manifest.contains("description = \"A \\\"quoted\\\" fixture.\"\n"));
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        assert!(manifest.contains(&format!(
            "faster-test = {{ path = {:?}, default-features = false }}",
            workspace.display().to_string()
        )));
        assert!(manifest.ends_with("\n[workspace]\n"));
    }
}
