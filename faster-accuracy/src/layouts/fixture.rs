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
use crate::defaults::at_defaults;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

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
    scratch: PathBuf,
    pub root: PathBuf,
    pub target: PathBuf,
    /// `CARGO_TARGET_<HOST>_LINKER` and its value, for every cargo command.
    linker: Option<(String, PathBuf)>,
    keep: bool,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.scratch);
        }
    }
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
        let scratch = std::env::temp_dir().join(format!("faster-layouts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let linker = match linker {
            Some(path) => Some((linker_variable()?, path.to_path_buf())),
            None => None,
        };
        let fixture = Fixture {
            root: scratch.join(CRATE),
            target: scratch.join("target"),
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
        let kept = self.scratch.join("reports");
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
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-artifact") => {
                let package = message["target"]["name"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string();
                if message["fresh"] == false && !messages.compiled.contains(&package) {
                    messages.compiled.push(package.clone());
                }
                if package == CRATE && message["profile"]["test"] == true {
                    if let Some(path) = message["executable"].as_str() {
                        messages.test_binary = Some(PathBuf::from(path));
                    }
                }
            }
            Some("compiler-message") if message["message"]["level"] == "error" => {
                if let Some(rendered) = message["message"]["rendered"].as_str() {
                    messages.errors.push(rendered.to_string());
                }
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
    let symbols = nm(binary)?;
    for kind in KINDS {
        for pair in kind.symbols(CRATE) {
            let [first, second] = [&pair[0], &pair[1]].map(|name| address_of(&symbols, name));
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

/// The defined symbols of `binary`, as `nm --defined-only --demangle`
/// lists them.
pub fn nm(binary: &Path) -> Result<String, String> {
    let output = Command::new("nm")
        .args(["--defined-only", "--demangle"])
        .arg(binary)
        .output()
        .map_err(|error| {
            format!("could not run nm (binutils) to read the fixture's symbols: {error}")
        })?;
    if !output.status.success() {
        return Err(format!(
            "nm {}: {}",
            binary.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The address of the function `name` in `nm --demangle` output, whose
/// names may end in the legacy mangling's hash (`::h0123456789abcdef`).
pub fn address_of(nm: &str, name: &str) -> Option<u64> {
    nm.lines().find_map(|line| {
        let mut fields = line.splitn(3, ' ');
        let (address, kind, symbol) = (fields.next()?, fields.next()?, fields.next()?);
        let bare = symbol
            .rsplit_once("::h")
            .filter(|(_, hash)| hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()))
            .map_or(symbol, |(bare, _)| bare);
        (matches!(kind, "t" | "T") && bare == name)
            .then(|| u64::from_str_radix(address, 16).ok())
            .flatten()
    })
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_found_with_or_without_their_hash() {
        let nm = "\
0000000000051a30 t layouts_fixture::parse::copy::h0123456789abcdef
0000000000051b00 t layouts_fixture::parse::original
0000000000051c00 T layouts_fixture::parse::copy_more::h0123456789abcdef
0000000000060000 d layouts_fixture::parse::twice
";
        assert_eq!(
            address_of(nm, "layouts_fixture::parse::copy"),
            Some(0x51a30)
        );
        assert_eq!(
            address_of(nm, "layouts_fixture::parse::original"),
            Some(0x51b00)
        );
        // Data is not a function; a longer name is another function.
        assert_eq!(address_of(nm, "layouts_fixture::parse::twice"), None);
        assert_eq!(address_of(nm, "layouts_fixture::parse::copy_"), None);
    }

    #[test]
    fn build_messages_tell_what_was_compiled_and_the_test_binary() {
        let stdout = r#"{"reason":"compiler-artifact","target":{"name":"serde"},"profile":{"test":false},"fresh":true,"executable":null}
{"reason":"build-script-executed","package_id":"x"}
{"reason":"compiler-artifact","target":{"name":"layouts_fixture"},"profile":{"test":false},"fresh":false,"executable":null}
{"reason":"compiler-artifact","target":{"name":"layouts_fixture"},"profile":{"test":true},"fresh":false,"executable":"/t/release/deps/layouts_fixture-0a1b"}
{"reason":"compiler-message","message":{"level":"warning","rendered":"warning: unused"}}
{"reason":"build-finished","success":true}
"#;
        let messages = parse_build_messages(stdout);
        assert_eq!(messages.compiled, ["layouts_fixture"]);
        assert_eq!(
            messages.test_binary.as_deref(),
            Some(Path::new("/t/release/deps/layouts_fixture-0a1b"))
        );
        assert!(messages.errors.is_empty());
        let failed = parse_build_messages(
            r#"{"reason":"compiler-message","message":{"level":"error","rendered":"error[E0308]: mismatched types"}}"#,
        );
        assert_eq!(failed.errors, ["error[E0308]: mismatched types"]);
        assert_eq!(failed.test_binary, None);
    }
}
