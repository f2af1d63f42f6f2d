//! Building both revisions' test binaries with cargo: the current code in
//! place, the base revision in a worktree of its commit, cached by commit.
//!
//! Under `<target>/faster/base/`: `<commit>/src` is the worktree,
//! `<commit>/<profile>/` holds copies of its test binaries and
//! `build.json`, which names them and what built them (the compiler's
//! version, the profile and the flags); `target/` is cargo's target
//! directory for every base revision, so a new base commit recompiles only
//! what changed. When `build.json` matches, nothing is built at all.

use crate::git::Repository;
use crate::{build_failure, sources};
use faster_runtime::layout::Layouts;
use faster_runtime::output::files::write_atomically;
use serde_json::{Value, json};
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

/// A test binary and the directory `cargo test` runs it in.
#[derive(Debug, Clone, PartialEq)]
pub struct Executable {
    /// The binary.
    pub path: PathBuf,
    /// Its package's directory.
    pub directory: PathBuf,
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
    /// The compiler's `rustc -vV`, which the cache's key holds.
    pub version: &'a str,
}

impl Base<'_> {
    /// The base revision's test binaries: from the cache when it holds this
    /// commit built as `cargo` says by this compiler, else built now and
    /// cached.
    pub fn test_binaries(
        &self,
        cargo: &Cargo,
        directory: &Path,
    ) -> Result<Vec<Executable>, String> {
        let (rustc, version) = (self.rustc, self.version);
        let base = self.workspace.target.join("faster").join("base");
        let commit_dir = base.join(&self.commit[..12.min(self.commit.len())]);
        let build_dir = commit_dir.join(&cargo.profile);
        let key = json!({
            "commit": self.commit,
            "rustc": version,
            "profile": cargo.profile,
            "flags": cargo.flags,
            "manifest_path": cargo.manifest_path,
            "linker": cargo.linker.as_ref().map(|(_, linker)| linker),
        });
        if let Some(cached) = cached(&build_dir, &key) {
            eprintln!(
                "cargo faster: the base revision {} is built already ({})",
                self.name,
                build_dir.display()
            );
            return Ok(cached);
        }

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
        let shared = fingerprints(&sources.shared);
        let built = cargo
            .test_binaries(
                &base_directory,
                base_manifest.as_deref(),
                Some(&base.join("target")),
                Some(rustc),
            )
            .map_err(|error| {
                build_failure::of_base(error, self.name, (&base_directory, worktree), cargo)
            })?;
        let kept = keep(&built, &build_dir, &key, &shared)?;
        eprintln!(
            "cargo faster: built the base revision {} in {:.1} s",
            self.name,
            started.elapsed().as_secs_f64()
        );
        Ok(kept)
    }
}

/// The fingerprint of each of `directories`, to record with a build that
/// used them.
fn fingerprints(directories: &[PathBuf]) -> Value {
    directories
        .iter()
        .map(|directory| {
            json!({
                "path": directory,
                "fingerprint": sources::fingerprint(directory),
            })
        })
        .collect()
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

/// The binaries `build_dir` caches for `key`, if all are there and the
/// directories outside the repository they were built with are unchanged.
fn cached(build_dir: &Path, key: &Value) -> Option<Vec<Executable>> {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(build_dir.join("build.json")).ok()?).ok()?;
    if manifest["key"] != *key {
        return None;
    }
    let shared = manifest["shared"].as_array()?;
    let recorded: Option<Vec<PathBuf>> = shared
        .iter()
        .map(|directory| directory["path"].as_str().map(PathBuf::from))
        .collect();
    if fingerprints(&recorded?) != manifest["shared"] {
        return None;
    }
    manifest["executables"]
        .as_array()?
        .iter()
        .map(|executable| {
            let path = PathBuf::from(executable["path"].as_str()?);
            let directory = PathBuf::from(executable["directory"].as_str()?);
            path.exists().then_some(Executable { path, directory })
        })
        .collect()
}

/// Copies `built` into `build_dir` (the next base build overwrites cargo's
/// own) and records them under `key`, with the `shared` directories'
/// fingerprints, the record written last and whole.
fn keep(
    built: &[Executable],
    build_dir: &Path,
    key: &Value,
    shared: &Value,
) -> Result<Vec<Executable>, String> {
    let bin = build_dir.join("bin");
    let _ = std::fs::remove_file(build_dir.join("build.json"));
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).map_err(|error| format!("{}: {error}", bin.display()))?;
    let mut kept = Vec::with_capacity(built.len());
    for executable in built {
        let file_name = executable
            .path
            .file_name()
            .ok_or("a test binary without a name")?;
        let copy = bin.join(file_name);
        std::fs::copy(&executable.path, &copy)
            .map_err(|error| format!("could not copy {}: {error}", executable.path.display()))?;
        // What relinking it in other layouts needs goes with it (a binary
        // not linked through faster-link has nothing to keep).
        if let Ok(layouts) = Layouts::of_executable(&executable.path) {
            layouts.keep_for_copy(&copy)?;
        }
        kept.push(Executable {
            path: copy,
            directory: executable.directory.clone(),
        });
    }
    let manifest = json!({
        "key": key,
        "shared": shared,
        "executables": kept.iter().map(|executable| json!({
            "path": executable.path,
            "directory": executable.directory,
        })).collect::<Vec<_>>(),
    });
    let path = build_dir.join("build.json");
    write_atomically(&path, |out| {
        serde_json::to_writer_pretty(out, &manifest).map_err(Into::into)
    })
    .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    Ok(kept)
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

    #[test]
    fn the_cache_holds_only_what_its_key_built() {
        let dir = std::env::temp_dir().join(format!("cargo-faster-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let binary = dir.join("built-1a2b");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&binary, b"not really a binary").unwrap();
        let built = [Executable {
            path: binary,
            directory: dir.clone(),
        }];
        let key = json!({"commit": "1a2b", "rustc": "rustc 1.95.0"});
        let build_dir = dir.join("release");
        let outside = dir.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        assert_eq!(cached(&build_dir, &key), None);
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, &shared).unwrap();
        assert_eq!(kept[0].path, build_dir.join("bin").join("built-1a2b"));
        assert_eq!(cached(&build_dir, &key), Some(kept.clone()));
        let other_compiler = json!({"commit": "1a2b", "rustc": "rustc 1.96.0"});
        assert_eq!(cached(&build_dir, &other_compiler), None);
        std::fs::write(outside.join("lib.rs"), "").unwrap();
        assert_eq!(
            cached(&build_dir, &key),
            None,
            "a directory outside the repository changed"
        );
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, &shared).unwrap();
        assert_eq!(cached(&build_dir, &key), Some(kept.clone()));
        std::fs::remove_file(&kept[0].path).unwrap();
        assert_eq!(cached(&build_dir, &key), None, "a binary is missing");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
