//! Building both revisions' test binaries with cargo: the current code in
//! place, the base revision in a worktree of its commit, cached by commit.
//!
//! Under `<target>/faster/base/`: `<commit>/src` is the worktree,
//! `<commit>/<profile>/` holds copies of its test binaries and
//! `build.json`, which names them and what built them (see
//! [`cache::Key`]: the compiler, the profile and the flags, and the cargo
//! configuration files and variables that change a build); `target/` is
//! cargo's target directory for every base revision, so a new base commit
//! recompiles only what changed. When `build.json` matches, nothing is
//! built at all; when it does not, the line that says the base is rebuilt
//! says what changed. A few base commits are kept, the least recently used
//! beyond them removed (see [`cache::prune`]).

use crate::cache::prune::{self, InUse};
use crate::cache::{self, Key, Lookup, key};
use crate::executable::Executable;
use crate::git::Repository;
use crate::{build_failure, sources};
use serde_json::Value;
use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How cargo is run for both revisions.
#[derive(Debug, Clone)]
pub struct Cargo {
    /// The cargo binary: `$CARGO` (set when run as `cargo faster`), else
    /// `cargo`.
    pub program: OsString,
    /// `--profile`.
    pub profile: String,
    /// What to build (`-p`, `--workspace`, `--features`, ...).
    pub flags: Vec<String>,
    /// `--manifest-path`, as given.
    pub manifest_path: Option<PathBuf>,
    /// The linker both revisions are linked with (`faster-link`, so each
    /// binary can be relinked in other layouts) and the variable that sets
    /// it for the host (`CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER`).
    pub linker: Option<(String, PathBuf)>,
}

/// The current workspace: where it is and where cargo builds.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// Its root, which holds its `Cargo.lock`.
    pub root: PathBuf,
    /// Cargo's target directory.
    pub target: PathBuf,
}

impl Cargo {
    fn command(&self, directory: &Path) -> Command {
        let mut command = Command::new(&self.program);
        command.current_dir(directory);
        command
    }

    /// `cargo metadata --no-deps` of the workspace around `directory`, or
    /// of `manifest`'s.
    fn metadata(&self, directory: &Path, manifest: Option<&Path>) -> Result<Value, String> {
        let mut command = self.command(directory);
        command.args(["metadata", "--format-version", "1", "--no-deps"]);
        if let Some(manifest) = manifest {
            command.arg("--manifest-path").arg(manifest);
        }
        let output = command
            .stderr(Stdio::inherit())
            .output()
            .map_err(|error| format!("could not run cargo: {error}"))?;
        if !output.status.success() {
            return Err("cargo metadata failed (see above)".into());
        }
        serde_json::from_slice(&output.stdout)
            .map_err(|error| format!("cargo metadata printed no JSON: {error}"))
    }

    /// Where cargo builds the workspace around `directory`.
    pub fn workspace(&self, directory: &Path) -> Result<Workspace, String> {
        let metadata = self.metadata(directory, self.manifest_path.as_deref())?;
        Ok(Workspace {
            root: metadata_path(&metadata, "workspace_root")?,
            target: metadata_path(&metadata, "target_directory")?,
        })
    }

    /// Every path package a build of the workspace around `directory`
    /// reads, by name and directory: its members and, from them, every
    /// path dependency (optional ones too: cargo reads them all), without
    /// asking a registry; and the workspace's root. Paths as cargo gives
    /// them.
    pub fn path_packages(
        &self,
        directory: &Path,
    ) -> Result<(Vec<(String, PathBuf)>, PathBuf), String> {
        let metadata = self.metadata(directory, self.manifest_path.as_deref())?;
        let root = metadata_path(&metadata, "workspace_root")?;
        let mut pending: Vec<Value> = packages_of(&metadata, None);
        let mut found: Vec<(String, PathBuf)> = Vec::new();
        while let Some(package) = pending.pop() {
            let (Some(name), Some(manifest)) = (
                package["name"].as_str(),
                package["manifest_path"].as_str().map(Path::new),
            ) else {
                continue;
            };
            let directory = directory_of(manifest).to_path_buf();
            if found.iter().any(|(_, seen)| *seen == directory) {
                continue;
            }
            found.push((name.to_string(), directory));
            let dependencies = package["dependencies"].as_array().into_iter().flatten();
            for path in dependencies.filter_map(|dependency| dependency["path"].as_str()) {
                let path = Path::new(path);
                if !found.iter().any(|(_, seen)| seen == path) {
                    let manifest = path.join("Cargo.toml");
                    let metadata = self
                        .metadata(directory_of(&manifest), Some(&manifest))
                        .map_err(|error| format!("{error}, reading {}", manifest.display()))?;
                    pending.extend(packages_of(&metadata, Some(&manifest)));
                }
            }
        }
        Ok((found, root))
    }

    /// Builds the test binaries of the workspace around `directory` (with
    /// `manifest`, when given) and returns them, as `cargo test --no-run`
    /// does; with `target` and `rustc` in place of the defaults when given.
    /// What cargo says on stderr is shown as it comes, and kept for the
    /// error.
    pub fn test_binaries(
        &self,
        directory: &Path,
        manifest: Option<&Path>,
        target: Option<&Path>,
        rustc: Option<&Path>,
    ) -> Result<Vec<Executable>, BuildError> {
        let mut command = self.command(directory);
        command.args([
            "test",
            "--no-run",
            "--message-format=json-render-diagnostics",
            "--profile",
            &self.profile,
        ]);
        command.args(&self.flags);
        if let Some(manifest) = manifest {
            command.arg("--manifest-path").arg(manifest);
        }
        if let Some(target) = target {
            command.arg("--target-dir").arg(target);
        }
        if let Some(rustc) = rustc {
            command.env("RUSTC", rustc);
        }
        if let Some((variable, linker)) = &self.linker {
            command.env(variable, linker);
        }
        // Cargo's stderr is read through a pipe: keep its colours where ours
        // would have them.
        if std::io::stderr().is_terminal() && std::env::var_os("CARGO_TERM_COLOR").is_none() {
            command.arg("--color=always");
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| BuildError::NotRun(format!("could not run cargo: {error}")))?;
        let stderr = child.stderr.take().expect("piped");
        let echo = std::thread::spawn(move || echoed(stderr));
        let mut messages = String::new();
        let read = child
            .stdout
            .take()
            .expect("piped")
            .read_to_string(&mut messages);
        let status = child.wait();
        let said = echo.join().unwrap_or_default();
        match (read, status) {
            (Ok(_), Ok(status)) if status.success() => Ok(executables(&messages)),
            (Ok(_), Ok(_)) => Err(BuildError::Failed(said)),
            (Err(error), _) | (_, Err(error)) => Err(BuildError::NotRun(format!(
                "could not read what cargo said: {error}"
            ))),
        }
    }
}

/// Why `cargo test --no-run` gave no test binaries.
#[derive(Debug, Clone, PartialEq)]
pub enum BuildError {
    /// Cargo could not be run, or not listened to.
    NotRun(String),
    /// Cargo failed, saying this on stderr (shown already).
    Failed(String),
}

/// Copies `stderr` to ours as it comes; what it said.
fn echoed(mut stderr: impl Read) -> String {
    let (mut said, mut chunk) = (Vec::new(), [0; 8192]);
    while let Ok(read @ 1..) = stderr.read(&mut chunk) {
        let mut ours = std::io::stderr().lock();
        let _ = ours.write_all(&chunk[..read]);
        let _ = ours.flush();
        said.extend_from_slice(&chunk[..read]);
    }
    String::from_utf8_lossy(&said).into_owned()
}

/// The packages `cargo metadata` lists: all, or the one of `manifest`.
fn packages_of(metadata: &Value, manifest: Option<&Path>) -> Vec<Value> {
    let packages = metadata["packages"].as_array().into_iter().flatten();
    packages
        .filter(|package| {
            manifest.is_none_or(|manifest| package["manifest_path"].as_str() == manifest.to_str())
        })
        .cloned()
        .collect()
}

fn directory_of(manifest: &Path) -> &Path {
    manifest.parent().unwrap_or(manifest)
}

/// A path `cargo metadata` gives in `field`.
fn metadata_path(metadata: &Value, field: &str) -> Result<PathBuf, String> {
    metadata[field]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| format!("cargo metadata gave no {field}"))
}

/// The test binaries in cargo's JSON messages.
fn executables(messages: &str) -> Vec<Executable> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["profile"]["test"] == true
        })
        .filter_map(|message| {
            let path = message["executable"].as_str()?;
            let manifest = Path::new(message["manifest_path"].as_str()?);
            Some(Executable {
                path: PathBuf::from(path),
                directory: manifest.parent()?.to_path_buf(),
            })
        })
        .collect()
}

/// The base revision to build: which commit, named how, from which
/// repository, for which workspace.
pub struct Base<'a> {
    /// The repository.
    pub repository: &'a Repository,
    /// The commit.
    pub commit: &'a str,
    /// How messages name it.
    pub name: &'a str,
    /// The current workspace.
    pub workspace: &'a Workspace,
    /// The compiler that builds it (see [`crate::toolchain::toolchain`]).
    pub rustc: &'a Path,
    /// The compiler's `rustc -vV`, which the cache's [`Key`] holds.
    pub version: &'a str,
}

impl Base<'_> {
    /// The base revision's test binaries: from the cache when it holds this
    /// commit built from the same [`Key`], else built now and cached; with
    /// the hold that keeps other runs from pruning them while they are used.
    /// Older base commits beyond a few are pruned (see [`prune`]).
    pub fn test_binaries(
        &self,
        cargo: &Cargo,
        directory: &Path,
    ) -> Result<(Vec<Executable>, InUse), String> {
        let base = self.workspace.target.join("faster").join("base");
        let commit_dir = base.join(&self.commit[..12.min(self.commit.len())]);
        let build_dir = commit_dir.join(&cargo.profile);
        let in_use = InUse::take(&commit_dir)?;
        let key = self.key(cargo, directory, &base);
        match cache::cached(&build_dir, &key, &self.workspace.root) {
            Lookup::Built(cached) => {
                eprintln!(
                    "cargo faster: the base revision {} is built already ({})",
                    self.name,
                    build_dir.display()
                );
                self.prune(&base, &commit_dir, false);
                return Ok((cached, in_use));
            }
            Lookup::Stale(why) => eprintln!(
                "cargo faster: the base revision {} is rebuilt: {why}",
                self.name
            ),
            Lookup::Absent => {}
        }
        let built = self.build(cargo, directory, (&base, &commit_dir), (&build_dir, &key))?;
        self.prune(&base, &commit_dir, true);
        Ok((built, in_use))
    }

    /// What this base build is from: the commit, the compiler, the command
    /// line, and the configuration files and variables cargo reads for it
    /// — those around `directory`, where cargo runs for the current code,
    /// and around `base`, where the base's worktree is.
    fn key(&self, cargo: &Cargo, directory: &Path, base: &Path) -> Key {
        Key {
            commit: self.commit.to_string(),
            rustc: self.version.to_string(),
            profile: cargo.profile.clone(),
            flags: cargo.flags.clone(),
            manifest_path: cargo.manifest_path.clone(),
            linker: cargo.linker.as_ref().map(|(_, linker)| linker.clone()),
            config_files: key::config_files(&[directory, base], key::cargo_home().as_deref()),
            environment: key::environment(std::env::vars_os()),
        }
    }

    /// Builds the base revision in a worktree in `commit_dir` (under
    /// `base`) and keeps its test binaries in `build_dir`, recorded under
    /// `key`.
    fn build(
        &self,
        cargo: &Cargo,
        directory: &Path,
        (base, commit_dir): (&Path, &Path),
        (build_dir, key): (&Path, &Key),
    ) -> Result<Vec<Executable>, String> {
        let started = Instant::now();
        let (packages, workspace_root) = cargo.path_packages(directory)?;
        let sources = sources::lay_out(
            self.repository,
            self.commit,
            &commit_dir.join("src"),
            (&packages, &workspace_root),
        )?;
        let worktree = &sources.worktree;
        eprintln!(
            "cargo faster: building the base revision {} in {}",
            self.name,
            worktree.display()
        );
        if let Some(notice) = sources.notice() {
            eprintln!("cargo faster: {notice}");
        }
        let inside = |path: &Path| -> Result<PathBuf, String> {
            let path = std::fs::canonicalize(path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let root = std::fs::canonicalize(&self.repository.root)
                .map_err(|error| format!("{}: {error}", self.repository.root.display()))?;
            let relative = path.strip_prefix(&root).map_err(|_| {
                format!(
                    "{} is outside the repository {}",
                    path.display(),
                    root.display()
                )
            })?;
            Ok(worktree.join(relative))
        };
        let base_directory = inside(directory)?;
        let base_manifest = cargo.manifest_path.as_deref().map(inside).transpose()?;
        share_lock_file(&self.workspace.root, &inside(&self.workspace.root)?);
        // Taken before building: a change while it builds is seen next time.
        let shared = cache::fingerprints(&sources.shared);
        let built = cargo
            .test_binaries(
                &base_directory,
                base_manifest.as_deref(),
                Some(&base.join(prune::SHARED_TARGET)),
                Some(self.rustc),
            )
            .map_err(|error| {
                build_failure::of_base(error, self.name, (&base_directory, worktree), cargo)
            })?;
        let kept = cache::keep(&built, build_dir, key, shared)?;
        eprintln!(
            "cargo faster: built the base revision {} in {:.1} s",
            self.name,
            started.elapsed().as_secs_f64()
        );
        Ok(kept)
    }

    /// Prunes the base commits under `base` beyond the few kept, never
    /// `commit_dir`'s, and says what is kept when `built` now or when
    /// anything was removed.
    fn prune(&self, base: &Path, commit_dir: &Path, built: bool) {
        let pruned = prune::prune(base, commit_dir, self.repository, prune::KEPT);
        for failure in &pruned.failures {
            eprintln!("cargo faster: {failure}");
        }
        if built || pruned.removed > 0 {
            let shown = base.strip_prefix(&self.workspace.root).unwrap_or(base);
            let bytes = prune::disk_usage(base);
            eprintln!("cargo faster: {}", pruned.summary(shown, bytes));
        }
    }
}

/// A base revision whose commit tracks no `Cargo.lock` gets the current
/// workspace's, so both builds use the same versions of their
/// dependencies. `current` and `base` are the workspace's root in each.
fn share_lock_file(current: &Path, base: &Path) {
    let (current, base) = (current.join("Cargo.lock"), base.join("Cargo.lock"));
    if current.exists() && !base.exists() {
        let _ = std::fs::copy(current, base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_binaries_are_read_from_cargos_messages() {
        let messages = r#"{"reason":"compiler-artifact","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["lib"]},"profile":{"test":true},"executable":"/w/target/release/deps/demo-1a2b"}
{"reason":"compiler-artifact","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["lib"]},"profile":{"test":false},"executable":null}
{"reason":"compiler-artifact","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["test"]},"profile":{"test":true},"executable":"/w/target/release/deps/speed-3c4d"}
{"reason":"build-finished","success":true}
not json"#;
        assert_eq!(
            executables(messages),
            vec![
                Executable {
                    path: "/w/target/release/deps/demo-1a2b".into(),
                    directory: "/w/demo".into(),
                },
                Executable {
                    path: "/w/target/release/deps/speed-3c4d".into(),
                    directory: "/w/demo".into(),
                },
            ]
        );
    }
}
