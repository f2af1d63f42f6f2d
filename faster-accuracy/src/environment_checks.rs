//! The figures of issue 7: replication across processes and the noise
//! probe, each measured against what it claims.
//!
//! ```text
//! accuracy --replication [--runs 200] [--processes 5] [--load]
//! accuracy --probe-check [--runs 100] [--load]
//! ```
//!
//! `--replication` compares, at ≈ 3 ns and ≈ 50 ns per call, the same
//! function on both sides and a true 1.25x pair, each run replicated in
//! `--processes` processes (this one and fresh children of this binary): how
//! often the single-process and the replicated 99% intervals hold the truth,
//! false verdicts, and what replication costs in wall time.
//!
//! `--probe-check` sets the probe's estimate of the smallest difference this
//! machine resolves against the spread A/A runs of the probe's own length
//! actually show.
//!
//! `--stack-check` runs the same cells in one process with the measuring
//! loop's stack offset fixed and varied by round (`Config::vary_stack`), both
//! without the systematic allowance (which would hide any difference), and
//! compares coverage and error.

use crate::load::{self, BackgroundLoad};
use crate::options::Options;
use crate::reference;
use crate::workloads::{carried_chain, ns_per_step};
use faster::{Config, Verdict, compare_fns};
use faster_runtime::__internal::median;
use faster_runtime::__internal::{Measured, run_once, say};
use faster_runtime::__internal::{Replication, child_timeout, measure_fns};
use faster_runtime::__internal::{measure_noise, noise_probe_config};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What the command line asked for (also of `--placement`).
pub struct Settings {
    pub runs: usize,
    pub processes: usize,
    pub load: bool,
}

impl Settings {
    /// The options' runs, processes (at least 2) and load, with this
    /// check's defaults.
    pub fn of(options: &Options, default_runs: usize, default_processes: usize) -> Settings {
        Settings {
            runs: options.runs.unwrap_or(default_runs),
            processes: options.processes.unwrap_or(default_processes).max(2),
            load: options.load,
        }
    }
}

/// The child's part: the cell key names both step counts, so the child
/// measures exactly what its parent does.
pub fn child(key: &str) -> ExitCode {
    let steps: Vec<u64> = key
        .split('/')
        .filter_map(|part| part.parse().ok())
        .collect();
    let [original, candidate] = steps[..] else {
        eprintln!("accuracy: a child needs a key like `replicate/12/10`, not `{key}`");
        return ExitCode::from(2);
    };
    say(&Measured::of(&measure_fns(
        key,
        &[()],
        carried_chain(original),
        carried_chain(candidate),
        &Config::default(),
    )));
    ExitCode::SUCCESS
}

/// `--replication`.
pub fn replication(options: &Options) -> ExitCode {
    let settings = Settings::of(options, 200, 5);
    let _load = settings
        .load
        .then(|| BackgroundLoad::start(load::buffer_bytes()));
    let step_ns = ns_per_step();
    println!(
        "replication: {} runs per cell, {} processes each, {}, {:.3} ns per step",
        settings.runs,
        settings.processes,
        if settings.load {
            "under the background load"
        } else {
            "quiet"
        },
        step_ns,
    );
    println!(
        "{:<18} {:>7} {:>5} {:>13} {:>13} {:>10} {:>12} {:>12}",
        "cell",
        "truth",
        "runs",
        "1 process: CI",
        "N processes",
        "false",
        "1 process s",
        "N processes s"
    );
    let executable = std::env::current_exe().expect("this binary's path");
    let budget = Config::default().max_time;
    let timeout = child_timeout(budget);
    for (cell, original, candidate) in CELLS {
        let truth = truth_of(original, candidate);
        let key = format!("replicate/{original}/{candidate}");
        let arguments = vec!["--replication-child".to_string()];
        let (mut single, mut replicated, mut false_verdicts) = (0, 0, 0);
        let (mut single_seconds, mut replicated_seconds) = (Vec::new(), Vec::new());
        for _ in 0..settings.runs {
            let started = Instant::now();
            let here = measure_fns(
                &key,
                &[()],
                carried_chain(original),
                carried_chain(candidate),
                &Config::default(),
            )
            .expect("unit outputs agree");
            single_seconds.push(started.elapsed().as_secs_f64());
            let mut config = Config::default();
            config.processes = settings.processes;
            let mut replication = Replication::new(&config);
            let single_ci = here.ci;
            let slot = replication.next_slot();
            replication
                .record(slot, Ok(here), Duration::ZERO)
                .expect("a measurement");
            for index in 2..=settings.processes {
                let child = run_once(&executable, &arguments, &key, (index, budget), timeout)
                    .unwrap_or_else(|error| panic!("{error}"));
                let slot = replication.next_slot();
                replication
                    .record(slot, Ok(child), Duration::ZERO)
                    .expect("a measurement");
            }
            replicated_seconds.push(started.elapsed().as_secs_f64());
            let ci = replication.combined().ci;
            single += usize::from(single_ci.0 <= truth && truth <= single_ci.1);
            replicated += usize::from(ci.0 <= truth && truth <= ci.1);
            if original == candidate
                && Verdict::from_interval(ci, Config::default().noise_floor) != Verdict::WithinNoise
            {
                false_verdicts += 1;
            }
        }
        let percent = |count: usize| format!("{}%", 100 * count / settings.runs.max(1));
        println!(
            "{:<18} {:>7.4} {:>5} {:>13} {:>13} {:>10} {:>12.3} {:>12.3}",
            cell,
            truth,
            settings.runs,
            percent(single),
            percent(replicated),
            if original == candidate {
                false_verdicts.to_string()
            } else {
                "-".into()
            },
            median(&single_seconds),
            median(&replicated_seconds),
        );
    }
    ExitCode::SUCCESS
}

/// `--stack-check`.
pub fn stack_check(options: &Options) -> ExitCode {
    let settings = Settings::of(options, 100, 5);
    let _load = settings
        .load
        .then(|| BackgroundLoad::start(load::buffer_bytes()));
    println!(
        "stack check: {} runs per cell and setting, {}, no systematic allowance",
        settings.runs,
        if settings.load {
            "under the background load"
        } else {
            "quiet"
        },
    );
    println!(
        "{:<12} {:>7} {:>8} {:>10} {:>11} {:>11}",
        "cell", "truth", "stack", "CI holds", "median err", "median ±CI"
    );
    for (cell, original, candidate) in CELLS {
        let truth = truth_of(original, candidate);
        for vary_stack in [false, true] {
            let mut config = Config::default();
            config.vary_stack = vary_stack;
            config.plan_mut().systematic_allowance = 0.0;
            let (mut covered, mut errors, mut widths) = (0, Vec::new(), Vec::new());
            for _ in 0..settings.runs {
                let report = compare_fns(
                    cell,
                    &[()],
                    carried_chain(original),
                    carried_chain(candidate),
                    &config,
                )
                .expect("unit outputs agree");
                covered += usize::from(report.ci.0 <= truth && truth <= report.ci.1);
                errors.push((report.speedup / truth).ln().abs());
                widths.push((report.ci.1.ln() - report.ci.0.ln()) / 2.0);
            }
            println!(
                "{:<12} {:>7.4} {:>8} {:>9}% {:>10.3}% {:>10.3}%",
                cell,
                truth,
                if vary_stack { "varied" } else { "fixed" },
                100 * covered / settings.runs.max(1),
                100.0 * median(&errors),
                100.0 * median(&widths),
            );
        }
    }
    ExitCode::SUCCESS
}

/// The cells of `--replication` and `--stack-check`: a step costs ≈ 1.6 ns
/// and the call about as much, so one step is ≈ 3 ns per call, 30 steps
/// ≈ 50 ns; 5 against 4 and 30 against 24 steps are about 1.25x.
const CELLS: [(&str, u64, u64); 4] = [
    ("3ns/1.00", 1, 1),
    ("6ns/1.25", 5, 4),
    ("50ns/1.00", 30, 30),
    ("50ns/1.25", 30, 24),
];

/// The truth of a cell: exactly one for the same function on both sides,
/// else a 2 s reference measurement.
fn truth_of(original: u64, candidate: u64) -> f64 {
    if original == candidate {
        return 1.0;
    }
    reference::measure(
        &[()],
        carried_chain(original),
        carried_chain(candidate),
        Duration::from_secs(2),
        reference::BATCH,
    )
    .ratio
}

/// `--probe-check`.
pub fn probe_check(options: &Options) -> ExitCode {
    let settings = Settings::of(options, 100, 5);
    let _load = settings
        .load
        .then(|| BackgroundLoad::start(load::buffer_bytes()));
    let steps = (1_000.0 / ns_per_step()).round() as u64;
    let mut predicted = Vec::new();
    let mut observed = Vec::new();
    for _ in 0..settings.runs {
        predicted.push(measure_noise().resolvable);
        let report = compare_fns(
            "a/a",
            &[()],
            carried_chain(steps),
            carried_chain(steps),
            &noise_probe_config(),
        )
        .expect("unit outputs agree");
        observed.push(report.speedup.ln().abs());
    }
    let predicted_median = median(&predicted);
    // The probe claims a 99% bound: compare it with the 99th percentile of
    // what A/A runs of its length actually show.
    observed.sort_by(f64::total_cmp);
    let observed_99 = observed[((observed.len() - 1) as f64 * 0.99).round() as usize];
    println!(
        "probe check ({}): {} runs; probe's resolvable difference (median) {:.3}%, \
         A/A |error| 99th percentile {:.3}%, ratio {:.2} (within a factor of 2: {})",
        if settings.load {
            "under the background load"
        } else {
            "quiet"
        },
        settings.runs,
        100.0 * predicted_median,
        100.0 * observed_99,
        predicted_median / observed_99,
        (0.5..=2.0).contains(&(predicted_median / observed_99)),
    );
    ExitCode::SUCCESS
}
