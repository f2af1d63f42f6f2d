//! The fixture of `accuracy --revisions`: its three commits' sources, the
//! repository made of them in a scratch directory, and one `cargo faster`
//! run in it, read back from its JSON reports.

use faster_runtime::report::{Document, Report};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const MANIFEST: &str = r#"[package]
name = "fixture"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
faster-test = { path = "FASTER", default-features = false }

[workspace]
"#;

const BASE: &str = r#"//! A fixture of `accuracy --revisions`: two tracked functions, each a
//! dependent chain of `case.1` steps, and a split-and-parse whose speed
//! hangs on where the linker puts it.

use std::hint::black_box;

/// `steps` dependent xorshift-multiply steps from `seed`, one per
/// iteration (the empty `asm!` keeps the compiler from unrolling it, as in
/// the accuracy suite's own chain).
#[inline(never)]
pub fn chain(seed: u64, steps: u64) -> u64 {
    let mut state = seed;
    for _ in 0..black_box(steps) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        // SAFETY: an empty instruction template that only claims to change
        // `state`'s register.
        unsafe {
            std::arch::asm!(
                "/* {state} */",
                state = inout(reg) state,
                options(nomem, nostack, preserves_flags),
            );
        }
    }
    state
}

#[cfg_attr(test, faster::track(inputs = cases))]
pub fn slowed(case: &(u64, u64)) -> u64 {
    chain(case.0, case.1)
}

#[cfg_attr(test, faster::track(inputs = cases))]
pub fn unchanged(case: &(u64, u64)) -> u64 {
    chain(case.0, case.1)
}

/// The sum of the comma-separated numbers (its loop inlined here, as
/// real code's is: a loop the linker can place well or badly).
#[cfg_attr(test, faster::track(inputs = lines))]
pub fn parse_sum(line: &str) -> u64 {
    line.split(',')
        .map(|field| field.trim().parse::<u64>().unwrap_or(0))
        .fold(0, u64::wrapping_add)
}

#[cfg(test)]
fn cases() -> Vec<(u64, u64)> {
    vec![(1, 2_000), (2, 20_000)]
}

#[cfg(test)]
fn lines() -> Vec<String> {
    let numbers: Vec<String> = (0..500_u64).map(|n| (n * 7_919 % 100_000).to_string()).collect();
    vec![numbers.join(",")]
}
"#;

/// The comment commit: a comment, nothing else.
fn commented() -> String {
    BASE.replace(
        "use std::hint::black_box;\n",
        "use std::hint::black_box;\n\n// A comment: nothing measured changes.\n",
    )
}

/// How many commits add unrelated code.
pub const UNRELATED_COMMITS: usize = 5;

/// Unrelated commit `k` (from 1): the comment commit with `8·k` helper
/// functions in a module of their own, which nothing tracked calls (a test
/// does, so they stay in the binary), placed before the tracked functions
/// in odd commits and after them in even ones: code that moves everything
/// else and changes nothing measured.
fn unrelated(k: usize) -> String {
    let helpers: String = (0..8 * k)
        .map(|i| {
            format!(
                "    pub fn helper_{i}(values: &[u64]) -> u64 {{\n        \
                 values.iter().map(|v| v.rotate_left({rotation}) ^ {i}).sum()\n    }}\n",
                rotation = i % 63 + 1
            )
        })
        .collect();
    let calls: String = (0..8 * k)
        .map(|i| format!("        total ^= helpers::helper_{i}(&values);\n"))
        .collect();
    let module = format!(
        "\npub mod helpers {{\n{helpers}}}\n\n#[test]\nfn helpers_run() {{\n    let values: \
         Vec<u64> = (0..64).collect();\n    let mut total = 0;\n{calls}    \
         assert_ne!(std::hint::black_box(total), 1);\n}}\n"
    );
    let base = commented();
    let anchor = "/// `steps` dependent xorshift-multiply steps";
    if k % 2 == 1 {
        base.replacen(anchor, &format!("{module}\n{anchor}"), 1)
    } else {
        format!("{base}{module}")
    }
}

/// The slowdown commit: the last unrelated commit with `slowed` running a
/// tenth more steps, continuing the chain from its result, and returning
/// the same.
fn slowed_down() -> String {
    unrelated(UNRELATED_COMMITS).replace(
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    chain(case.0, case.1)\n}",
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    let state = chain(case.0, case.1);\n    \
         black_box(chain(state, case.1 / 10));\n    state\n}",
    )
}

/// The fixture repository and its target directory, in one scratch
/// directory removed when dropped (unless kept).
pub struct Fixture {
    scratch: PathBuf,
    pub root: PathBuf,
    pub target: PathBuf,
    /// The base, the comment, the unrelated commits, the slowdown.
    pub commits: Vec<String>,
    keep: bool,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.scratch);
        }
    }
}

impl Fixture {
    /// The repository with its three commits, in a fresh scratch directory.
    pub fn create(keep: bool) -> Result<Fixture, String> {
        let scratch = std::env::temp_dir().join(format!("faster-revisions-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let mut fixture = Fixture {
            root: scratch.join("repository"),
            target: scratch.join("target"),
            scratch,
            commits: Vec::new(),
            keep,
        };
        std::fs::create_dir_all(fixture.root.join("src")).map_err(|error| error.to_string())?;
        let faster = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("a parent");
        fixture.write(
            "Cargo.toml",
            &MANIFEST.replace("FASTER", &faster.to_string_lossy()),
        )?;
        fixture.write(".gitignore", "/Cargo.lock\n")?;
        fixture.git(&["init", "--quiet", "--initial-branch=main"])?;
        let mut sources = vec![
            (BASE.to_string(), "base".to_string()),
            (commented(), "a comment".to_string()),
        ];
        sources.extend(
            (1..=UNRELATED_COMMITS).map(|k| (unrelated(k), format!("{} unrelated helpers", 8 * k))),
        );
        sources.push((slowed_down(), "slowed runs 1.1 n steps".to_string()));
        for (source, message) in sources {
            fixture.write("src/lib.rs", &source)?;
            fixture.git(&["add", "--all"])?;
            fixture.git(&["commit", "--quiet", "--message", &message])?;
            fixture.commits.push(fixture.git(&["rev-parse", "HEAD"])?);
        }
        Ok(fixture)
    }

    fn write(&self, path: &str, text: &str) -> Result<(), String> {
        std::fs::write(self.root.join(path), text).map_err(|error| format!("{path}: {error}"))
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

    /// One `cargo faster --against AGAINST --format json`.
    pub fn cargo_faster(&self, binary: &Path, against: &str) -> Result<Ran, String> {
        let started = Instant::now();
        let mut command = Command::new(binary);
        command
            .args(["faster", "--against", against, "--format", "json"])
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_NET_OFFLINE", "true")
            .env_remove("GITHUB_STEP_SUMMARY");
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("FASTER_") {
                command.env_remove(&name);
            }
        }
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
    pub functions: Vec<(String, Result<Report, String>)>,
    /// How long building the base took, when it was built.
    pub base_build: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commits_change_what_they_say() {
        let code = |source: &str| -> Vec<String> {
            source
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with("//"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(code(&commented()), code(BASE), "only a comment is added");
        for k in 1..=UNRELATED_COMMITS {
            let unrelated = unrelated(k);
            assert_eq!(unrelated.matches("pub fn helper_").count(), 8 * k);
            // Everything tracked is as it was, in order.
            let tracked = |source: &str| -> Vec<String> {
                code(source)
                    .into_iter()
                    .filter(|line| !line.contains("helper"))
                    .collect()
            };
            assert!(
                tracked(&unrelated)
                    .windows(3)
                    .any(|window| window[0] == "pub fn slowed(case: &(u64, u64)) -> u64 {"),
                "{unrelated}"
            );
        }
        let slowed = slowed_down();
        assert!(slowed.contains("black_box(chain(state, case.1 / 10));"));
        assert_eq!(
            slowed.matches("chain(case.0, case.1)").count(),
            2,
            "`unchanged` is untouched"
        );
    }
}
