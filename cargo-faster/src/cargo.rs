//! Running cargo for either revision: the workspace's metadata, and
//! `cargo test --no-run`, whose messages name the test binaries it built
//! and the packages it compiled — both read through `cargo_metadata`.

use crate::executable::Executable;
use cargo_metadata::{Message, Metadata, MetadataCommand, Package};
use faster_runtime::__internal::group::{self, Tie};
use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// The current workspace: where it is, where cargo builds, and its members.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// Its root, which holds its `Cargo.lock`.
    pub root: PathBuf,
    /// Cargo's target directory.
    pub target: PathBuf,
    /// Its members, by package id.
    pub members: Vec<String>,
}

/// One revision's `cargo test --no-run`: where, and with what in place of
/// cargo's defaults.
#[derive(Debug, Clone, Copy)]
pub struct Build<'a> {
    /// Where cargo runs.
    pub directory: &'a Path,
    /// `--manifest-path`, when given.
    pub manifest: Option<&'a Path>,
    /// `--target-dir`.
    pub target: &'a Path,
    /// `RUSTC`, when given.
    pub rustc: Option<&'a Path>,
    /// `RUSTC_WORKSPACE_WRAPPER`, when given (see [`crate::wrapper`]).
    pub wrapper: Option<&'a Path>,
}

/// What `cargo test --no-run` built.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Built {
    /// The test binaries.
    pub executables: Vec<Executable>,
    /// Every package it compiled or found fresh, by id and manifest.
    pub packages: Vec<(String, PathBuf)>,
    /// Whether it made binaries of the packages' own (`<profile>/<bin>`,
    /// which integration tests run through `CARGO_BIN_EXE_<name>`).
    pub binaries: bool,
}

/// Why `cargo test --no-run` gave no test binaries.
#[derive(Debug, Clone, PartialEq)]
pub enum BuildError {
    /// Cargo could not be run, or not listened to.
    NotRun(String),
    /// Cargo failed, saying this on stderr (shown already).
    Failed(String),
}

impl Cargo {
    fn command(&self, directory: &Path) -> Command {
        let mut command = Command::new(&self.program);
        command.current_dir(directory);
        command
    }

    /// `cargo metadata --no-deps` of the workspace around `directory`, or
    /// of `manifest`'s. What cargo says on stderr is in the error, not
    /// shown: its warnings come again from the build, and a base's
    /// manifests are read before it is built, which says what is wrong.
    fn metadata(&self, directory: &Path, manifest: Option<&Path>) -> Result<Metadata, String> {
        let mut metadata = MetadataCommand::new();
        metadata
            .cargo_path(&self.program)
            .current_dir(directory)
            .no_deps();
        if let Some(manifest) = manifest {
            metadata.manifest_path(manifest);
        }
        let output = group::spawn(
            metadata
                .cargo_command()
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
            Tie::ToThisThread,
        )
        .and_then(group::Owned::wait_with_output)
        .map_err(|error| format!("could not run cargo: {error}"))?;
        if !output.status.success() {
            let said = String::from_utf8_lossy(&output.stderr);
            return Err(format!("cargo metadata failed: {}", said.trim_end()));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        MetadataCommand::parse(text)
            .map_err(|error| format!("cargo metadata printed no JSON it knows: {error}"))
    }

    /// Where cargo builds the workspace around `directory`, and its members.
    pub fn workspace(&self, directory: &Path) -> Result<Workspace, String> {
        let metadata = self.metadata(directory, self.manifest_path.as_deref())?;
        Ok(Workspace {
            root: metadata.workspace_root.into(),
            target: metadata.target_directory.into(),
            members: metadata
                .workspace_members
                .into_iter()
                .map(|id| id.repr)
                .collect(),
        })
    }

    /// Every path package a build of the workspace around `directory`
    /// reads, by name and directory: its members and, from them, every
    /// path dependency (optional ones too: cargo reads them all), without
    /// asking a registry; and the workspace's root. Paths as cargo gives
    /// them. `manifest` is the one to read, if not the one `directory`
    /// finds.
    pub fn path_packages(
        &self,
        directory: &Path,
        manifest: Option<&Path>,
    ) -> Result<(Vec<(String, PathBuf)>, PathBuf), String> {
        let metadata = self.metadata(directory, manifest)?;
        let root = metadata.workspace_root.clone().into();
        let mut pending: Vec<(Package, PathBuf)> = metadata
            .packages
            .into_iter()
            .map(|package| {
                let directory = directory_of(package.manifest_path.as_std_path()).to_path_buf();
                (package, directory)
            })
            .collect();
        let mut found: Vec<(String, PathBuf)> = Vec::new();
        while let Some((package, directory)) = pending.pop() {
            if found.iter().any(|(_, seen)| *seen == directory) {
                continue;
            }
            found.push((package.name, directory));
            for dependency in package.dependencies {
                let Some(path) = dependency.path else {
                    continue;
                };
                if !found.iter().any(|(_, seen)| seen == path.as_std_path()) {
                    pending.extend(self.path_package(path.as_std_path())?);
                }
            }
        }
        Ok((found, root))
    }

    /// The package at `directory`, a path dependency's as cargo names it,
    /// with that directory. Its manifest is read where it really is: cargo
    /// looks for a manifest's workspace in the folders above it, and the
    /// folders above a link are not those of the folder it leads to (a
    /// base reaches a package outside the repository through a link in
    /// the cache, inside the repository's own workspace).
    fn path_package(&self, directory: &Path) -> Result<Option<(Package, PathBuf)>, String> {
        let manifest = directory.join("Cargo.toml");
        let manifest = std::fs::canonicalize(&manifest).unwrap_or(manifest);
        let metadata = self
            .metadata(directory_of(&manifest), Some(&manifest))
            .map_err(|error| format!("{error}, reading {}", manifest.display()))?;
        let package = metadata
            .packages
            .into_iter()
            .find(|package| package.manifest_path == manifest);
        Ok(package.map(|package| (package, directory.to_path_buf())))
    }

    /// Builds the test binaries of `build`, as `cargo test --no-run` does,
    /// and says what it built. What cargo says on stderr is shown as it
    /// comes, and kept for the error.
    pub fn test_binaries(&self, build: &Build) -> Result<Built, BuildError> {
        let mut command = self.command(build.directory);
        command.args([
            "test",
            "--no-run",
            "--message-format=json-render-diagnostics",
            "--profile",
            &self.profile,
        ]);
        command.args(&self.flags);
        if let Some(manifest) = build.manifest {
            command.arg("--manifest-path").arg(manifest);
        }
        command.arg("--target-dir").arg(build.target);
        if let Some(rustc) = build.rustc {
            command.env("RUSTC", rustc);
        }
        if let Some(wrapper) = build.wrapper {
            command.env(crate::wrapper::VARIABLE, wrapper);
        }
        if let Some((variable, linker)) = &self.linker {
            command.env(variable, linker);
        }
        // Cargo's stderr is read through a pipe: keep its colours where ours
        // would have them.
        if std::io::stderr().is_terminal() && std::env::var_os("CARGO_TERM_COLOR").is_none() {
            command.arg("--color=always");
        }
        // In a group of its own, with rustc and the linkers it starts: ended
        // with this process however it ends (`group`).
        let mut owned = group::spawn(
            command
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
            Tie::ToThisThread,
        )
        .map_err(|error| BuildError::NotRun(format!("could not run cargo: {error}")))?;
        let child = &mut owned.child;
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
            (Ok(_), Ok(status)) if status.success() => Ok(built(&messages)),
            (Ok(_), Ok(_)) => Err(BuildError::Failed(said)),
            (Err(error), _) | (_, Err(error)) => Err(BuildError::NotRun(format!(
                "could not read what cargo said: {error}"
            ))),
        }
    }
}

impl Workspace {
    /// The path packages `built` compiled from inside this workspace's root
    /// that are not its members (a crate it excludes, say), by manifest:
    /// cargo names those by their place in the root, as it does the
    /// members, but without the wrapper's path, so a copy of the workspace
    /// elsewhere — the base's worktree — would compile them under the same
    /// names.
    pub fn named_alike_elsewhere(&self, built: &Built) -> Vec<PathBuf> {
        built
            .packages
            .iter()
            .filter(|(id, manifest)| {
                // `path+file:///w/v#0.1.0`, or `v 0.1.0 (path+file:///w/v)`
                // from cargo before 1.77.
                id.contains("path+file:")
                    && manifest.starts_with(&self.root)
                    && !self.members.contains(id)
            })
            .map(|(_, manifest)| manifest.clone())
            .collect()
    }
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

fn directory_of(manifest: &Path) -> &Path {
    manifest.parent().unwrap_or(manifest)
}

/// What cargo's JSON messages say was built.
fn built(messages: &str) -> Built {
    let mut built = Built::default();
    for message in Message::parse_stream(messages.as_bytes()).flatten() {
        let Message::CompilerArtifact(artifact) = message else {
            continue;
        };
        let manifest = artifact.manifest_path.into_std_path_buf();
        let package = (artifact.package_id.repr, manifest.clone());
        if !built.packages.contains(&package) {
            built.packages.push(package);
        }
        match artifact.executable {
            Some(path) if artifact.profile.test => built.executables.push(Executable {
                path: path.into_std_path_buf(),
                directory: directory_of(&manifest).to_path_buf(),
            }),
            Some(_) if artifact.target.is_bin() => built.binaries = true,
            _ => {}
        }
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cargo's messages for a package `demo` with a library, its test and
    /// an integration test, and its dependency `itoa`: as cargo 1.95 wrote
    /// them, shortened.
    const MESSAGES: &str = r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#itoa@1.0.19","manifest_path":"/home/me/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/itoa-1.0.19/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"itoa","src_path":"/home/me/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/itoa-1.0.19/src/lib.rs","edition":"2021","doc":true,"doctest":true,"test":true},"profile":{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":false},"features":[],"filenames":["/w/target/release/deps/libitoa-93bee6d51e4296ed.rlib","/w/target/release/deps/libitoa-93bee6d51e4296ed.rmeta"],"executable":null,"fresh":true}
{"reason":"compiler-artifact","package_id":"path+file:///w/demo#0.1.0","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"demo","src_path":"/w/demo/src/lib.rs","edition":"2021","doc":true,"doctest":true,"test":true},"profile":{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":true},"features":[],"filenames":["/w/target/release/deps/demo-1a2b"],"executable":"/w/target/release/deps/demo-1a2b","fresh":false}
{"reason":"compiler-artifact","package_id":"path+file:///w/demo#0.1.0","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"demo","src_path":"/w/demo/src/lib.rs","edition":"2021","doc":true,"doctest":true,"test":true},"profile":{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":false},"features":[],"filenames":["/w/target/release/deps/libdemo-5e6f.rlib"],"executable":null,"fresh":false}
{"reason":"compiler-artifact","package_id":"path+file:///w/demo#0.1.0","manifest_path":"/w/demo/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"speed","src_path":"/w/demo/tests/speed.rs","edition":"2021","doc":false,"doctest":false,"test":true},"profile":{"opt_level":"3","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":true},"features":[],"filenames":["/w/target/release/deps/speed-3c4d"],"executable":"/w/target/release/deps/speed-3c4d","fresh":false}
{"reason":"build-finished","success":true}
not json"#;

    #[test]
    fn test_binaries_and_packages_are_read_from_cargos_messages() {
        let built = built(MESSAGES);
        assert_eq!(
            built.executables,
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
        let ids: Vec<&str> = built.packages.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "registry+https://github.com/rust-lang/crates.io-index#itoa@1.0.19",
                "path+file:///w/demo#0.1.0"
            ]
        );
        assert!(!built.binaries);
        let with_binary = MESSAGES.replace(
            r#""kind":["lib"],"crate_types":["lib"],"name":"demo""#,
            r#""kind":["bin"],"crate_types":["bin"],"name":"demo""#,
        );
        let with_binary = with_binary.replacen(
            r#""filenames":["/w/target/release/deps/libdemo-5e6f.rlib"],"executable":null"#,
            r#""filenames":["/w/target/release/demo"],"executable":"/w/target/release/demo""#,
            1,
        );
        assert!(super::built(&with_binary).binaries);
    }

    #[test]
    fn only_packages_in_the_root_that_are_not_members_are_named_alike() {
        let workspace = Workspace {
            root: "/w".into(),
            target: "/w/target".into(),
            members: vec!["path+file:///w/demo#0.1.0".into()],
        };
        let mut built = built(MESSAGES);
        assert_eq!(
            workspace.named_alike_elsewhere(&built),
            Vec::<PathBuf>::new()
        );
        let vendored = PathBuf::from("/w/vendor/v/Cargo.toml");
        built
            .packages
            .push(("path+file:///w/vendor/v#0.1.0".into(), vendored.clone()));
        built.packages.push((
            "path+file:///elsewhere/helper#0.1.0".into(),
            "/elsewhere/helper/Cargo.toml".into(),
        ));
        assert_eq!(workspace.named_alike_elsewhere(&built), [vendored]);
    }
}
