//! The figures of issue 17: `cargo faster --against` on a fixture git
//! repository whose commits are known.
//!
//! ```text
//! accuracy --revisions [--runs 20] [--keep]
//! ```
//!
//! The fixture, made in a temporary directory with its own target
//! directory (so the first build is a cold one), is a library with two
//! tracked functions, `slowed` and `unchanged`, each a dependent chain of
//! 2 000 and 20 000 steps on its two inputs. Three commits: the base; a
//! comment added (nothing measured changes); `slowed` running 1.1·n steps
//! (the extra tenth continues the chain from its result, which it still
//! returns, so its outputs stay the same). The real `cargo-faster` binary
//! compares the comment commit against the base, and the slowdown against
//! the comment commit, `--runs` times each after one run that builds, in a
//! quiet machine and under the suite's time-varying background load.
//!
//! Targets: against the comment, no failure and no `faster` or `slower`
//! verdict; against the slowdown, `slowed` fails every time with a speedup
//! within 1% of 1/1.1 and `unchanged` never fails.

use crate::load::{self, BackgroundLoad};
use crate::machine;
use faster_runtime::report::{Document, Report};
use faster_runtime::stats::{median, verdict::Verdict};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

const MANIFEST: &str = r#"[package]
name = "fixture"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
faster = { path = "FASTER", default-features = false }

[workspace]
"#;

const BASE: &str = r#"//! A fixture of `accuracy --revisions`: two tracked functions, each a
//! dependent chain of `case.1` steps.

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

#[cfg(test)]
fn cases() -> Vec<(u64, u64)> {
    vec![(1, 2_000), (2, 20_000)]
}
"#;

/// The comment commit: a comment, nothing else.
fn commented() -> String {
    BASE.replace(
        "use std::hint::black_box;\n",
        "use std::hint::black_box;\n\n// A comment: nothing measured changes.\n",
    )
}

/// The slowdown commit: `slowed` runs a tenth more steps, continuing the
/// chain from its result, and returns the same.
fn slowed_down() -> String {
    commented().replace(
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    chain(case.0, case.1)\n}",
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    let state = chain(case.0, case.1);\n    \
         black_box(chain(state, case.1 / 10));\n    state\n}",
    )
}

/// What the command line asked for.
struct Settings {
    runs: usize,
    keep: bool,
}

fn settings(arguments: &[String]) -> Result<Settings, String> {
    let mut settings = Settings {
        runs: 20,
        keep: false,
    };
    let mut arguments = arguments.iter();
    while let Some(argument) = arguments.next() {
        match argument.as_str() {
            "--revisions" => {}
            "--runs" => {
                settings.runs = arguments
                    .next()
                    .and_then(|value| value.parse().ok())
                    .filter(|runs| *runs > 0)
                    .ok_or("--runs takes a whole number above 0")?;
            }
            "--keep" => settings.keep = true,
            other => return Err(format!("unknown argument {other} (see revisions.rs)")),
        }
    }
    Ok(settings)
}

/// `accuracy --revisions`.
pub fn revisions(arguments: &[String]) -> ExitCode {
    match settings(arguments).and_then(|settings| run(&settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("accuracy: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(settings: &Settings) -> Result<(), String> {
    let started = Instant::now();
    let cargo_faster = build_cargo_faster()?;
    let fixture = Fixture::create(settings.keep)?;
    println!(
        "faster accuracy suite: comparisons across revisions, {}",
        machine::now_utc()
    );
    println!(
        "machine: {}, {} cores; load average {} at the start",
        machine::cpu_model(),
        machine::cores(),
        machine::load_average()
    );
    println!(
        "fixture: {} (target {}); {} runs per phase after one that builds; cargo faster \
         --against REV --format json, defaults otherwise",
        fixture.root.display(),
        fixture.target.display(),
        settings.runs
    );

    let phases = [
        Phase {
            name: "comment",
            checkout: &fixture.commits[1],
            against: &fixture.commits[0],
            slowed_truth: 1.0,
        },
        Phase {
            name: "slowdown",
            checkout: &fixture.commits[2],
            against: &fixture.commits[1],
            slowed_truth: 1.0 / 1.1,
        },
    ];
    for phase in &phases {
        fixture.git(&["checkout", "--quiet", phase.checkout])?;
        let built = fixture.cargo_faster(&cargo_faster, phase.against)?;
        println!(
            "{}: the run that builds took {:.1} s ({}; this side {})",
            phase.name,
            built.wall.as_secs_f64(),
            built.base_build.as_deref().unwrap_or("the base was cached"),
            if phase.name == "comment" {
                "built cold, with its dependencies"
            } else {
                "rebuilt the fixture crate only"
            }
        );
    }

    println!();
    println!("{}", Tally::HEADER);
    let mut missed = Vec::new();
    for noise in ["quiet", "load"] {
        let load = (noise == "load").then(|| {
            let load = BackgroundLoad::start(load::buffer_bytes());
            std::thread::sleep(Duration::from_secs(1));
            load
        });
        for phase in &phases {
            fixture.git(&["checkout", "--quiet", phase.checkout])?;
            let mut tallies = [
                Tally::new("fixture::slowed"),
                Tally::new("fixture::unchanged"),
            ];
            let mut walls = Vec::new();
            let mut exits = 0;
            for _ in 0..settings.runs {
                let ran = fixture.cargo_faster(&cargo_faster, phase.against)?;
                if ran.base_build.is_some() {
                    return Err(format!("{}: the base was built again", phase.name));
                }
                walls.push(ran.wall.as_secs_f64());
                exits += usize::from(ran.code != Some(0));
                for tally in &mut tallies {
                    tally.add(&ran.functions);
                }
            }
            for tally in &tallies {
                let truth = if tally.name.ends_with("slowed") {
                    phase.slowed_truth
                } else {
                    1.0
                };
                println!(
                    "{}",
                    tally.row(phase.name, noise, truth, exits, median(&walls))
                );
                missed.extend(tally.misses(phase.name, noise, truth));
            }
        }
        drop(load);
    }
    println!();
    if missed.is_empty() {
        println!("every target met");
    } else {
        println!("targets missed:\n  {}", missed.join("\n  "));
    }
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(())
}

/// One comparison the issue judges: check `checkout` out, compare it
/// against `against`.
struct Phase<'a> {
    name: &'static str,
    checkout: &'a str,
    against: &'a str,
    /// The true speedup of `slowed` (base time / current time).
    slowed_truth: f64,
}

/// Builds the `cargo-faster` binary next to this one and returns its path.
fn build_cargo_faster() -> Result<PathBuf, String> {
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

/// The fixture repository and its target directory, in one scratch
/// directory removed when dropped (unless kept).
struct Fixture {
    scratch: PathBuf,
    root: PathBuf,
    target: PathBuf,
    /// The base, the comment, the slowdown.
    commits: [String; 3],
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
    fn create(keep: bool) -> Result<Fixture, String> {
        let scratch = std::env::temp_dir().join(format!("faster-revisions-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        let mut fixture = Fixture {
            root: scratch.join("repository"),
            target: scratch.join("target"),
            scratch,
            commits: Default::default(),
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
        for (index, (source, message)) in [
            (BASE.to_string(), "base"),
            (commented(), "a comment"),
            (slowed_down(), "slowed runs 1.1 n steps"),
        ]
        .into_iter()
        .enumerate()
        {
            fixture.write("src/lib.rs", &source)?;
            fixture.git(&["add", "--all"])?;
            fixture.git(&["commit", "--quiet", "--message", message])?;
            fixture.commits[index] = fixture.git(&["rev-parse", "HEAD"])?;
        }
        Ok(fixture)
    }

    fn write(&self, path: &str, text: &str) -> Result<(), String> {
        std::fs::write(self.root.join(path), text).map_err(|error| format!("{path}: {error}"))
    }

    /// `git ARGUMENTS` in the repository: its output.
    fn git(&self, arguments: &[&str]) -> Result<String, String> {
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
    fn cargo_faster(&self, binary: &Path, against: &str) -> Result<Ran, String> {
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
struct Ran {
    code: Option<i32>,
    wall: Duration,
    functions: Vec<(String, Result<Report, String>)>,
    /// How long building the base took, when it was built.
    base_build: Option<String>,
}

/// One function's runs in one phase.
struct Tally {
    name: &'static str,
    speedups: Vec<f64>,
    intervals: Vec<(f64, f64)>,
    verdicts: [usize; 3],
    failed: usize,
    errors: Vec<String>,
    elapsed: Vec<f64>,
}

impl Tally {
    const HEADER: &str = "| phase | noise | function | truth | runs | exit ≠ 0 | F/N/S | failed | \
                          median speedup | median / max error | within 1% | CI holds truth | \
                          time per function | time per run |\n\
                          | --- | --- | --- | --- | --: | --: | --- | --: | --: | --- | --: | --: | \
                          --: | --: |";

    fn new(name: &'static str) -> Tally {
        Tally {
            name,
            speedups: Vec::new(),
            intervals: Vec::new(),
            verdicts: [0; 3],
            failed: 0,
            errors: Vec::new(),
            elapsed: Vec::new(),
        }
    }

    fn add(&mut self, functions: &[(String, Result<Report, String>)]) {
        let Some((_, result)) = functions.iter().find(|(name, _)| name == self.name) else {
            self.failed += 1;
            self.errors.push("not reported".into());
            return;
        };
        match result {
            Ok(report) => {
                self.speedups.push(report.speedup);
                self.intervals.push(report.ci);
                self.elapsed.push(report.elapsed.as_secs_f64());
                self.verdicts[match report.verdict {
                    Verdict::Faster => 0,
                    Verdict::WithinNoise => 1,
                    Verdict::Slower => 2,
                }] += 1;
                self.failed += usize::from(!report.passed());
            }
            Err(error) => {
                self.failed += 1;
                self.errors.push(error.clone());
            }
        }
    }

    fn errors_of(&self, truth: f64) -> Vec<f64> {
        self.speedups
            .iter()
            .map(|speedup| (speedup / truth - 1.0).abs())
            .collect()
    }

    fn row(&self, phase: &str, noise: &str, truth: f64, exits: usize, wall: f64) -> String {
        let errors = self.errors_of(truth);
        let max_error = errors.iter().copied().fold(0.0, f64::max);
        let within = errors.iter().filter(|error| **error <= 0.01).count();
        let holds = self
            .intervals
            .iter()
            .filter(|(low, high)| *low <= truth && truth <= *high)
            .count();
        let [faster, within_noise, slower] = self.verdicts;
        let runs = self.speedups.len() + self.errors.len();
        format!(
            "| {phase} | {noise} | `{}` | {truth:.4} | {runs} | {exits} | {faster}/{within_noise}/\
             {slower} | {} | {:.4} | {:.2}% / {:.2}% | {within} | {holds} | {:.3} s | {wall:.2} s |",
            self.name,
            self.failed,
            median(&self.speedups),
            100.0 * median(&errors),
            100.0 * max_error,
            median(&self.elapsed),
        )
    }

    /// The issue's targets this function missed in this phase.
    fn misses(&self, phase: &str, noise: &str, truth: f64) -> Vec<String> {
        let mut missed: Vec<String> = self
            .errors
            .iter()
            .map(|error| format!("{phase}/{noise} {}: {error}", self.name))
            .collect();
        let slowed = truth < 1.0;
        let [faster, _, slower] = self.verdicts;
        if slowed {
            if self.failed < self.speedups.len() + self.errors.len() {
                missed.push(format!(
                    "{phase}/{noise} {}: passed in some runs",
                    self.name
                ));
            }
            let off = self
                .errors_of(truth)
                .iter()
                .filter(|error| **error > 0.01)
                .count();
            if off > 0 {
                missed.push(format!(
                    "{phase}/{noise} {}: {off} speedups more than 1% from {truth:.4}",
                    self.name
                ));
            }
        } else if self.failed > 0 || faster + slower > 0 {
            missed.push(format!(
                "{phase}/{noise} {}: {} failed, {faster} faster, {slower} slower",
                self.name, self.failed
            ));
        }
        missed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commits_change_what_they_say() {
        let commented = commented();
        assert_eq!(
            commented
                .lines()
                .filter(|line| !line.starts_with("//"))
                .collect::<Vec<_>>(),
            BASE.lines()
                .filter(|line| !line.starts_with("//"))
                .collect::<Vec<_>>(),
            "only a comment is added"
        );
        let slowed = slowed_down();
        assert!(slowed.contains("black_box(chain(state, case.1 / 10));"));
        assert_eq!(
            slowed.matches("chain(case.0, case.1)").count(),
            2,
            "`unchanged` is untouched"
        );
    }
}
