//! The fixture crate of `accuracy --layouts` on disk, and cargo driven on
//! it: a library that depends on faster by path (a dev-dependency, as a
//! user's does), in a scratch directory with its own target directory,
//! rebuilt per build with other unrelated code and another link order, and
//! its test binary's symbols checked.
//!
//! The link order comes from a build script that passes
//! `-Wl,--shuffle-sections=*=SEED` (lld's) with `cargo:rustc-link-arg`,
//! the seed read from [`SEED_VARIABLE`]: a build script's link arguments
//! reach only its own package's linked targets (here the unit-test binary
//! alone: cargo refuses `rustc-link-arg-tests` in a package without a
//! `tests/` target), so a new seed rebuilds the fixture and nothing else,
//! which [`Fixture::build`] checks.

use super::kinds::KINDS;
use super::library;
use super::symbols::functions;
use crate::defaults::at_defaults;
use crate::scratch::scratch;
use cargo_metadata::Message;
use cargo_metadata::diagnostic::DiagnosticLevel;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// The fixture's package and library name.
pub const CRATE: &str = "layouts_fixture";

/// The environment variable the build script reads the link order from.
pub const SEED_VARIABLE: &str = "LAYOUTS_FIXTURE_LINK_SEED";

const BUILD_SCRIPT: &str = r#"//! The test binary's link order: lld's --shuffle-sections, seeded from the
//! environment, for this package's linked targets only.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SEED_VARIABLE");
    if let Ok(seed) = std::env::var("SEED_VARIABLE") {
        println!("cargo:rustc-link-arg=-Wl,--shuffle-sections=*={seed}");
    }
}
"#;

/// The fixture crate in a scratch directory, removed when dropped (unless
/// kept).
pub struct Fixture {
    scratch: TempDir,
    pub root: PathBuf,
    pub target: PathBuf,
    /// `CARGO_TARGET_<HOST>_LINKER` and its value, for every cargo command.
    linker: Option<(String, PathBuf)>,
    keep: bool,
}

/// One cargo command's end.
pub struct Ran {
    pub success: bool,
    /// `None` when a signal ended it.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

/// What building one layout came to.
pub struct Built {
    pub wall: Duration,
    /// The packages cargo compiled (not fresh), the fixture among them.
    pub compiled: Vec<String>,
    pub test_binary: PathBuf,
}

impl Fixture {
    /// The crate, depending on the faster workspace at `faster`, linked
    /// through `linker` when given.
    pub fn create(faster: &Path, linker: Option<&Path>, keep: bool) -> Result<Fixture, String> {
        let scratch = scratch("layouts", keep)?;
        let linker = match linker {
            Some(path) => Some((linker_variable()?, path.to_path_buf())),
            None => None,
        };
        let fixture = Fixture {
            root: scratch.path().join(CRATE),
            target: scratch.path().join("target"),
            scratch,
            linker,
            keep,
        };
        std::fs::create_dir_all(fixture.root.join("src"))
            .map_err(|error| format!("{}: {error}", fixture.root.display()))?;
        fixture.write("Cargo.toml", &manifest(CRATE, faster))?;
        fixture.write(
            "build.rs",
            &BUILD_SCRIPT.replace("SEED_VARIABLE", SEED_VARIABLE),
        )?;
        // faster's own lock file, where there is one: the dependencies build
        // at the versions faster is tested with, without asking the index.
        if let Ok(lock) = std::fs::read_to_string(faster.join("Cargo.lock")) {
            fixture.write("Cargo.lock", &lock)?;
        }
        fixture.write("src/lib.rs", &library::root())?;
        for kind in KINDS {
            fixture.write(&format!("src/{}.rs", kind.name), &kind.module())?;
        }
        Ok(fixture)
    }

    fn write(&self, path: &str, text: &str) -> Result<(), String> {
        std::fs::write(self.root.join(path), text).map_err(|error| format!("{path}: {error}"))
    }

    /// The linker the builds go through, for the header.
    pub fn linker(&self) -> String {
        if let Some((variable, path)) = &self.linker {
            return format!("{} ({variable})", path.display());
        }
        // Asks rustc for the host only where `--linker` did not.
        match linker_variable().map(|variable| (std::env::var(&variable), variable)) {
            Ok((Ok(value), variable)) => format!("{value} ({variable}, from the environment)"),
            _ => "rustc's default".to_string(),
        }
    }

    /// Builds the layout of `unrelated` unrelated functions and link order
    /// `seed` (`cargo test --release --no-run`), and checks the test binary.
    pub fn build(&self, unrelated: usize, seed: u64) -> Result<Built, String> {
        self.write("src/unrelated.rs", &library::unrelated(0..unrelated))?;
        let ran = self.cargo(
            &["test", "--release", "--no-run", "--message-format=json"],
            seed,
        )?;
        let messages = parse_build_messages(&ran.stdout);
        if !ran.success {
            return Err(format!(
                "building the fixture (seed {seed}) failed:\n{}{}",
                messages.errors.join("\n"),
                tail(&ran.stderr, 30)
            ));
        }
        let test_binary = messages
            .test_binary
            .ok_or_else(|| format!("cargo built no test binary:\n{}", tail(&ran.stderr, 30)))?;
        check_symbols(&test_binary)?;
        Ok(Built {
            wall: ran.wall,
            compiled: messages.compiled,
            test_binary,
        })
    }

    /// Removes the report files of earlier runs.
    pub fn clear_reports(&self) -> Result<(), String> {
        let reports = self.target.join("faster");
        match std::fs::remove_dir_all(&reports) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("{}: {error}", reports.display()))
            }
            _ => Ok(()),
        }
    }

    /// With `--keep`, moves the reports of build `build`'s run `run` to
    /// `reports/build-B-run-R/` beside the crate, for reading later (each
    /// process's slices and layouts are in them); else leaves them to the
    /// next run's [`Fixture::clear_reports`].
    pub fn keep_reports(&self, build: usize, run: usize) -> Result<(), String> {
        if !self.keep {
            return Ok(());
        }
        let kept = self.scratch.path().join("reports");
        let to = kept.join(format!("build-{build}-run-{run}"));
        std::fs::create_dir_all(&kept)
            .and_then(|()| std::fs::rename(self.target.join("faster"), &to))
            .map_err(|error| format!("{}: {error}", to.display()))
    }

    /// Where the runtime writes the library's unit tests' reports.
    pub fn reports(&self) -> PathBuf {
        self.target.join("faster").join("src")
    }

    /// `cargo ARGUMENTS` in the fixture, with link order `seed`, the
    /// runtime's defaults (no `FASTER_*`, no `CI`, which would raise the
    /// noise floor) and the fixture's own target directory.
    pub fn cargo(&self, arguments: &[&str], seed: u64) -> Result<Ran, String> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = Command::new(&cargo);
        command
            .args(arguments)
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", &self.target)
            .env(SEED_VARIABLE, seed.to_string());
        at_defaults(&mut command);
        if let Some((variable, path)) = &self.linker {
            command.env(variable, path);
        }
        let started = Instant::now();
        let output = command
            .output()
            .map_err(|error| format!("could not run {}: {error}", cargo.to_string_lossy()))?;
        Ok(Ran {
            success: output.status.success(),
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            wall: started.elapsed(),
        })
    }
}

/// `CARGO_TARGET_<HOST TRIPLE>_LINKER`.
fn linker_variable() -> Result<String, String> {
    Ok(format!(
        "CARGO_TARGET_{}_LINKER",
        host_triple()?.to_uppercase().replace(['-', '.'], "_")
    ))
}

/// The `Cargo.toml` of a generated crate `name`: a workspace of its own
/// that depends on the faster workspace at `faster` as a user's crate does.
pub fn manifest(name: &str, faster: &Path) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dev-dependencies]\nfaster-test = {{ path = {:?} }}\n\n\
         [workspace]\n",
        faster.display().to_string()
    )
}

/// The host's target triple, from `rustc -vV`.
pub fn host_triple() -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|error| format!("could not run rustc -vV: {error}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(|host| host.trim().to_string())
        .ok_or_else(|| format!("rustc -vV names no host:\n{text}"))
}

/// What cargo's JSON messages of a build say.
#[derive(Debug, Default, PartialEq)]
pub struct BuildMessages {
    /// Packages with an artifact that was not fresh, in order, once each.
    pub compiled: Vec<String>,
    /// The fixture's unit-test executable.
    pub test_binary: Option<PathBuf>,
    /// The compiler's rendered errors.
    pub errors: Vec<String>,
}

/// Reads `cargo --message-format=json` output.
pub fn parse_build_messages(stdout: &str) -> BuildMessages {
    let mut messages = BuildMessages::default();
    for message in Message::parse_stream(stdout.as_bytes()).flatten() {
        match message {
            Message::CompilerArtifact(artifact) => {
                let package = artifact.target.name;
                if !artifact.fresh && !messages.compiled.contains(&package) {
                    messages.compiled.push(package.clone());
                }
                if package == CRATE && artifact.profile.test {
                    if let Some(path) = artifact.executable {
                        messages.test_binary = Some(path.into_std_path_buf());
                    }
                }
            }
            Message::CompilerMessage(compiled)
                if compiled.message.level == DiagnosticLevel::Error =>
            {
                messages.errors.extend(compiled.message.rendered);
            }
            _ => {}
        }
    }
    messages
}

/// Checks that every comparison compares two functions: each side a
/// symbol of its own at its own address (not merged, not folded by the
/// linker).
fn check_symbols(binary: &Path) -> Result<(), String> {
    let defined = functions(binary, &format!("{CRATE}::"))?;
    for kind in KINDS {
        for pair in kind.symbols(CRATE) {
            let [first, second] = [&pair[0], &pair[1]].map(|name| defined.get(name).copied());
            match (first, second) {
                (Some(first), Some(second)) if first != second => {}
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "{} and {} are one function in {} (merged): the comparison would \
                         time one function against itself",
                        pair[0],
                        pair[1],
                        binary.display()
                    ));
                }
                _ => {
                    return Err(format!(
                        "{} or {} is not a symbol of {}",
                        pair[0],
                        pair[1],
                        binary.display()
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The target `name` of a package, as cargo's messages describe it.
    fn target(name: &str) -> serde_json::Value {
        json!({
            "kind": ["lib"], "crate_types": ["lib"], "name": name,
            "src_path": format!("/t/{name}/src/lib.rs"), "edition": "2024",
            "doc": true, "doctest": true, "test": true,
        })
    }

    /// Cargo's line for an artifact of `name` (its test executable where
    /// `executable`), as cargo 1.95 writes it.
    fn artifact(name: &str, fresh: bool, executable: Option<&str>) -> String {
        json!({
            "reason": "compiler-artifact",
            "package_id": format!("path+file:///t/{name}#0.0.0"),
            "manifest_path": format!("/t/{name}/Cargo.toml"),
            "target": target(name),
            "profile": {
                "opt_level": "3", "debuginfo": 0, "debug_assertions": false,
                "overflow_checks": false, "test": executable.is_some(),
            },
            "features": [],
            "filenames": [executable.unwrap_or("/t/release/deps/libx.rlib")],
            "executable": executable,
            "fresh": fresh,
        })
        .to_string()
    }

    /// Cargo's line for a diagnostic of the fixture at `level`.
    fn diagnostic(level: &str, rendered: &str) -> String {
        json!({
            "reason": "compiler-message",
            "package_id": "path+file:///t/layouts_fixture#0.0.0",
            "manifest_path": "/t/layouts_fixture/Cargo.toml",
            "target": target(CRATE),
            "message": {
                "$message_type": "diagnostic", "message": rendered, "code": null,
                "level": level, "spans": [], "children": [], "rendered": rendered,
            },
        })
        .to_string()
    }

    #[test]
    fn build_messages_tell_what_was_compiled_and_the_test_binary() {
        let binary = "/t/release/deps/layouts_fixture-0a1b";
        let stdout = [
            artifact("serde", true, None),
            r#"{"reason":"build-script-executed","package_id":"path+file:///t/layouts_fixture#0.0.0","linked_libs":[],"linked_paths":[],"cfgs":[],"env":[],"out_dir":"/t/out"}"#.into(),
            artifact(CRATE, false, None),
            artifact(CRATE, false, Some(binary)),
            // Another package's test binary is not the fixture's.
            artifact("other", false, Some("/t/release/deps/other-2c3d")),
            diagnostic("warning", "warning: unused variable: `x`"),
            r#"{"reason":"build-finished","success":true}"#.into(),
            "not json".into(),
        ]
        .join("\n");
        let messages = parse_build_messages(&stdout);
        assert_eq!(messages.compiled, [CRATE, "other"]);
        assert_eq!(messages.test_binary.as_deref(), Some(Path::new(binary)));
        assert!(messages.errors.is_empty());

        let failed = parse_build_messages(&diagnostic("error", "error[E0308]: mismatched types"));
        assert_eq!(failed.errors, ["error[E0308]: mismatched types"]);
        assert_eq!(failed.test_binary, None);
    }
}
