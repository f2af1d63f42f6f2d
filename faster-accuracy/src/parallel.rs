//! `accuracy --parallel`: do test runners that run several tests at once
//! spoil the verdicts? A suite of comparisons (identical functions and
//! known ratios at three scales) is generated as a crate of its own, then
//! run again and again under `cargo test` and `cargo nextest run`, each with
//! its default parallelism and one test at a time; every comparison's JSON
//! report is read back and judged against its construction.
//!
//! ```text
//! accuracy --parallel [--runs 10]
//! ```
//!
//! Comparisons keep from timing each other through the lock in the target
//! directory (`target/faster/.lock`), which nextest's processes and libtest's
//! threads alike take in turn; what that costs shows in the wall time.

use crate::defaults::at_defaults;
use crate::options::Options;
use crate::workloads::ns_per_step;
use faster::Verdict;
use faster::report::format_ns;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// One comparison of the generated suite: `original` against `candidate`
/// steps of the chain, so the true speedup is `original / candidate`.
struct Case {
    original: u64,
    candidate: u64,
}

/// The suite: at ≈ 50 ns, 500 ns and 5 µs per call, three comparisons of a
/// function with itself and four known ratios.
fn cases(ns_per_step: f64) -> Vec<Case> {
    let mut cases = Vec::new();
    for target_ns in [50.0, 500.0, 5_000.0] {
        let steps = (target_ns / ns_per_step).round().max(4.0) as u64;
        for _ in 0..3 {
            cases.push(Case {
                original: steps,
                candidate: steps,
            });
        }
        for ratio in [1.1, 1.25, 2.0, 0.8] {
            let candidate = (steps as f64 / ratio).round() as u64;
            cases.push(Case {
                original: steps,
                candidate,
            });
        }
    }
    cases
}

/// How a run is started: a label and the cargo command line.
struct Runner {
    label: &'static str,
    command: &'static [&'static str],
    needs_nextest: bool,
}

const RUNNERS: [Runner; 4] = [
    Runner {
        label: "cargo test -- --test-threads 1",
        command: &["test", "--release", "--", "--test-threads", "1"],
        needs_nextest: false,
    },
    Runner {
        label: "cargo test (default threads)",
        command: &["test", "--release"],
        needs_nextest: false,
    },
    Runner {
        label: "cargo nextest run -j 1",
        command: &["nextest", "run", "--release", "-j", "1"],
        needs_nextest: true,
    },
    Runner {
        label: "cargo nextest run (default)",
        command: &["nextest", "run", "--release"],
        needs_nextest: true,
    },
];

/// What one runner's runs came to.
#[derive(Default)]
struct Tally {
    runs: usize,
    comparisons: usize,
    missing: usize,
    false_verdicts: usize,
    reversals: usize,
    /// |speedup / construction − 1| of every comparison.
    errors: Vec<f64>,
    /// Per case, every run's speedup.
    speedups: Vec<Vec<f64>>,
    wall: Vec<Duration>,
}

impl Tally {
    /// Per case, the median speedup over the runs.
    fn medians(&self) -> Vec<f64> {
        self.speedups
            .iter()
            .map(|runs| faster_runtime::__internal::median(runs))
            .collect()
    }

    /// |speedup / reference − 1| of every comparison, against a per-case
    /// reference (the one-at-a-time runner's medians).
    fn errors_against(&self, reference: &[f64]) -> Vec<f64> {
        self.speedups
            .iter()
            .zip(reference)
            .flat_map(|(runs, reference)| runs.iter().map(move |s| (s / reference - 1.0).abs()))
            .collect()
    }
}

/// `--parallel`.
pub fn parallel(options: &Options) -> ExitCode {
    let runs = options.runs.unwrap_or(10);
    let step_ns = ns_per_step();
    let cases = cases(step_ns);
    let fixture = match write_fixture(&cases) {
        Ok(fixture) => fixture,
        Err(error) => {
            eprintln!("accuracy: could not write the suite's crate: {error}");
            return ExitCode::FAILURE;
        }
    };
    let nextest = cargo(&fixture, &["nextest", "--version"], None).is_ok_and(|ok| ok);
    println!(
        "parallel runners: {} comparisons ({:.2} ns per chain step), {runs} runs per runner{}",
        cases.len(),
        step_ns,
        if nextest {
            ""
        } else {
            "; cargo nextest is not installed, its rows are skipped"
        },
    );
    for build in [
        &["test", "--release", "--no-run"][..],
        &["nextest", "run", "--release", "--no-run"],
    ] {
        if build[0] == "nextest" && !nextest {
            continue;
        }
        if !matches!(cargo(&fixture, build, None), Ok(true)) {
            eprintln!("accuracy: building the suite's crate failed");
            return ExitCode::FAILURE;
        }
    }
    println!(
        "{:<32} {:>5} {:>11} {:>7} {:>6} {:>9} {:>13} {:>13} {:>13} {:>12}",
        "runner",
        "runs",
        "comparisons",
        "missing",
        "false",
        "reversals",
        "median error",
        "worst error",
        "vs serial",
        "wall per run"
    );
    // Errors against the construction include what the chain's call costs
    // beside its steps (a few percent at 50 ns); against the one-at-a-time
    // runs' medians, only what running tests side by side changes.
    let mut serial: Option<Vec<f64>> = None;
    for runner in RUNNERS
        .iter()
        .filter(|runner| nextest || !runner.needs_nextest)
    {
        let tally = measure(&fixture, runner, &cases, runs);
        let reference = serial.get_or_insert_with(|| tally.medians()).clone();
        let percent = |value: f64| format!("{:.2}%", 100.0 * value);
        let mut errors = tally.errors.clone();
        errors.sort_by(f64::total_cmp);
        let mut wall = tally.wall.clone();
        wall.sort();
        println!(
            "{:<32} {:>5} {:>11} {:>7} {:>6} {:>9} {:>13} {:>13} {:>13} {:>12}",
            runner.label,
            tally.runs,
            tally.comparisons,
            tally.missing,
            tally.false_verdicts,
            tally.reversals,
            percent(faster_runtime::__internal::median(&errors)),
            percent(errors.last().copied().unwrap_or(f64::NAN)),
            percent(faster_runtime::__internal::median(
                &tally.errors_against(&reference)
            )),
            format_ns(
                wall.get(wall.len() / 2)
                    .map_or(f64::NAN, |d| d.as_nanos() as f64)
            ),
        );
    }
    ExitCode::SUCCESS
}

/// `runs` runs of the suite under `runner`, judged.
fn measure(fixture: &Path, runner: &Runner, cases: &[Case], runs: usize) -> Tally {
    let mut tally = Tally {
        speedups: vec![Vec::new(); cases.len()],
        ..Tally::default()
    };
    for run in 0..runs {
        let reports = fixture.join(format!("reports-{}-{run}", runner.label.replace(' ', "_")));
        let _ = std::fs::remove_dir_all(&reports);
        let started = Instant::now();
        // The suite's comparisons only report (expect = report): a run's
        // exit code says nothing about verdicts, which the reports hold.
        let _ = cargo(fixture, runner.command, Some(&reports));
        tally.wall.push(started.elapsed());
        tally.runs += 1;
        for (index, case) in cases.iter().enumerate() {
            let truth = case.original as f64 / case.candidate as f64;
            match read_report(&reports, index) {
                Some((speedup, verdict)) => {
                    tally.comparisons += 1;
                    tally.errors.push((speedup / truth - 1.0).abs());
                    tally.speedups[index].push(speedup);
                    let identical = case.original == case.candidate;
                    if identical && verdict != Verdict::WithinNoise.name() {
                        tally.false_verdicts += 1;
                    }
                    let wrong_way = (truth > 1.0 && verdict == Verdict::Slower.name())
                        || (truth < 1.0 && verdict == Verdict::Faster.name());
                    if !identical && wrong_way {
                        tally.reversals += 1;
                    }
                }
                None => tally.missing += 1,
            }
        }
    }
    tally
}

/// Comparison `index`'s speedup and verdict from its JSON report under
/// `reports`.
fn read_report(reports: &Path, index: usize) -> Option<(f64, String)> {
    let path = reports
        .join("src")
        .join(format!("parallel_suite.faster_c{index}.json"));
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let result = &document["result"];
    Some((
        result["speedup"].as_f64()?,
        result["verdict"].as_str()?.to_string(),
    ))
}

/// Runs cargo in the suite's crate, its reports going to `reports`;
/// `Ok(success)`, or the error starting it.
fn cargo(fixture: &Path, arguments: &[&str], reports: Option<&Path>) -> std::io::Result<bool> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .args(arguments)
        .current_dir(fixture)
        .env("CARGO_TARGET_DIR", fixture.join("target"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    at_defaults(&mut command);
    if let Some(reports) = reports {
        command.env("FASTER_OUTPUT_DIR", reports);
    }
    Ok(command.status()?.success())
}

/// The suite as a crate of its own under the workspace's target directory:
/// one comparison per case, each the same chain at two lengths.
fn write_fixture(cases: &[Case]) -> std::io::Result<PathBuf> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the suite lives in the workspace");
    let fixture = workspace.join("target/parallel-suite");
    std::fs::create_dir_all(fixture.join("src"))?;
    std::fs::write(
        fixture.join("Cargo.toml"),
        format!(
            "[package]\nname = \"parallel_suite\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nfaster-test = {{ path = {:?} }}\n\n[workspace]\n",
            workspace.display().to_string()
        ),
    )?;
    let mut source = format!("{FIXTURE_HEAD}{CARRIED_CHAIN}");
    for (index, case) in cases.iter().enumerate() {
        source.push_str(&format!(
            "\npub fn o{index}() -> u64 {{ carried({}) }}\n\n\
             #[cfg_attr(test, faster::compare(original = o{index}, expect = report, check = skip))]\n\
             pub fn c{index}() -> u64 {{ carried({}) }}\n",
            case.original, case.candidate
        ));
    }
    std::fs::write(fixture.join("src/lib.rs"), source)?;
    Ok(fixture)
}

/// The generated crate's root: its doc line and the carried chain.
const FIXTURE_HEAD: &str = "//! Generated by `accuracy --parallel`: one comparison per case.\n";

/// The chain of `workloads::chain`, carried from call to call through a
/// thread-local so that calls cannot overlap, as the suite's own are
/// (`--suite-cost`'s crate is made of it too).
pub const CARRIED_CHAIN: &str = r#"
use std::cell::Cell;
use std::hint::black_box;

thread_local! {
    static CARRY: Cell<u64> = const { Cell::new(1) };
}

#[inline(never)]
fn chain(seed: u64, steps: u64) -> u64 {
    let mut state = seed;
    for _ in 0..black_box(steps) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        // SAFETY: an empty template that only claims to change `state`.
        unsafe {
            std::arch::asm!("/* {state} */", state = inout(reg) state, options(nomem, nostack, preserves_flags));
        }
    }
    state
}

fn carried(steps: u64) -> u64 {
    CARRY.with(|carry| {
        let next = chain(carry.get(), steps);
        carry.set(next);
        next
    })
}
"#;
