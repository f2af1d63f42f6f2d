//! A gallery of plots for a person to look at: made-up reports of every
//! shape the plot must read in (identical functions with outliers, a 2x
//! speedup, a change near the noise floor, a bimodal pair, several inputs,
//! a noiseless run of a few rounds, a debug build's long title), at 10, 300
//! and 3,000 rounds, and any real reports in a folder. Pixels are not tested; the pure choices behind
//! them are, in `scale`. Run it with
//!
//! ```text
//! FASTER_PLOT_GALLERY=/tmp/plots cargo test --release -p faster-runtime \
//!     --lib gallery -- --ignored
//! ```
//!
//! and `FASTER_PLOT_GALLERY_REPORTS=target/faster/src` to add the reports
//! (`*.json`) found there; render with `rsvg-convert -w 960 X.svg -o X.png`.

use super::svg;
use crate::report::{Document, Report, fixtures};
use crate::stats::verdict::{Expect, Verdict};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Normal};
use std::path::{Path, PathBuf};

/// How one made-up comparison's rounds vary.
struct Shape {
    name: &'static str,
    /// Each input's original and candidate per-call time, in ns.
    inputs: &'static [(f64, f64)],
    /// The spread of each side's per-call time from round to round, in log.
    noise: f64,
    /// The chance that a round's side is hit by an interrupt, which makes
    /// it up to 30 times longer.
    outliers: f64,
    /// The chance that a side runs in its slow mode (1.4x) in a round.
    bimodal: f64,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "identical-with-outliers",
        inputs: &[(55.0, 55.0)],
        noise: 0.04,
        outliers: 0.01,
        bimodal: 0.0,
    },
    Shape {
        name: "twice-as-fast",
        inputs: &[(3_200.0, 1_600.0)],
        noise: 0.05,
        outliers: 0.002,
        bimodal: 0.0,
    },
    Shape {
        name: "near-the-floor",
        inputs: &[(1_050.0, 1_000.0)],
        noise: 0.02,
        outliers: 0.002,
        bimodal: 0.0,
    },
    Shape {
        name: "bimodal",
        inputs: &[(120.0, 100.0)],
        noise: 0.03,
        outliers: 0.0,
        bimodal: 0.3,
    },
    Shape {
        name: "three-inputs",
        inputs: &[
            (3_790.0, 1_860.0),
            (301_000.0, 26_400.0),
            (100_000.0, 15_700.0),
        ],
        noise: 0.04,
        outliers: 0.005,
        bimodal: 0.0,
    },
];

/// A report of `rounds` rounds of `shape`, with an interval about as wide
/// as the engine's would be and the verdict it implies.
fn made_up(shape: &Shape, rounds: usize, seed: u64) -> Report {
    let mut rng = StdRng::seed_from_u64(seed);
    let noise = Normal::new(0.0, shape.noise.max(1e-12)).expect("a spread ≥ 0");
    let mut report = fixtures::report(1.0, (1.0, 1.0), Verdict::WithinNoise, Expect::Faster);
    report.name = format!("{} ({rounds} rounds)", shape.name);
    report.rounds = rounds;
    report.inputs = (0..shape.inputs.len())
        .map(|index| fixtures::input(index, 1.0, 1.0, 0))
        .collect();
    let mut drift = 0.0;
    for _ in 0..rounds {
        // The machine's load moves both sides together, slowly.
        drift = 0.95 * drift + 0.02 * noise.sample(&mut rng) / shape.noise.max(1e-12);
        for (input, &(original, candidate)) in report.inputs.iter_mut().zip(shape.inputs) {
            let mut side = |base: f64| {
                let mut time = base * (drift + noise.sample(&mut rng)).exp();
                if rng.random_bool(shape.bimodal) {
                    time *= 1.4;
                }
                if rng.random_bool(shape.outliers) {
                    time *= rng.random_range(2.0..30.0);
                }
                time
            };
            input.round_ns.push([side(original), side(candidate)]);
        }
    }
    finish(&mut report);
    report
}

/// The figures a made-up report's rounds imply.
fn finish(report: &mut Report) {
    report.round_log_ratios = (0..report.rounds)
        .map(|round| {
            let sum = |side: usize| -> f64 {
                report
                    .inputs
                    .iter()
                    .map(|input| input.round_ns[round][side])
                    .sum()
            };
            (sum(0) / sum(1)).ln()
        })
        .collect();
    report.round_original_first = (0..report.rounds).map(|round| round % 2 == 0).collect();
    for input in &mut report.inputs {
        let least = |side: usize| {
            input
                .round_ns
                .iter()
                .map(|times| times[side])
                .fold(f64::INFINITY, f64::min)
        };
        input.original_ns = least(0);
        input.candidate_ns = least(1);
        input.speedup = input.original_ns / input.candidate_ns;
    }
    report.original_ns = report.inputs.iter().map(|input| input.original_ns).sum();
    report.candidate_ns = report.inputs.iter().map(|input| input.candidate_ns).sum();
    report.best_speedup = report.original_ns / report.candidate_ns;
    let logs = &report.round_log_ratios;
    let n = logs.len().max(1) as f64;
    let mean = logs.iter().sum::<f64>() / n;
    let spread = (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    // Wider than a plain t-interval, as the engine's is for correlated rounds.
    let half = 2.58 * 1.5 * spread / n.sqrt();
    report.speedup = mean.exp();
    report.uncorrected_speedup = report.speedup;
    report.ci = ((mean - half).exp(), (mean + half).exp());
    report.verdict = Verdict::from_interval(report.ci, report.noise_floor);
}

/// Rounds without any noise: every round reads the same.
fn noiseless(rounds: usize) -> Report {
    let mut report = fixtures::report(1.0, (1.0, 1.0), Verdict::WithinNoise, Expect::Faster);
    report.name = format!("noiseless ({rounds} rounds)");
    report.rounds = rounds;
    report.inputs = vec![fixtures::input(0, 1_300.0, 1_000.0, 0)];
    report.inputs[0].round_ns = vec![[1_300.0, 1_000.0]; rounds];
    finish(&mut report);
    report
}

fn write(dir: &Path, stem: &str, report: &Report, debug_build: bool) {
    let svg = svg(report, debug_build).expect("the plot draws");
    let path = dir.join(format!("{stem}.svg"));
    std::fs::write(&path, &svg).expect("the gallery's folder is writable");
    assert!(
        svg.len() < 400_000,
        "{}: {} bytes, too big a plot",
        path.display(),
        svg.len()
    );
}

#[test]
#[ignore = "writes plots for a person to look at: FASTER_PLOT_GALLERY=DIR"]
fn gallery() {
    let dir = std::env::var_os("FASTER_PLOT_GALLERY").map_or_else(
        || std::env::temp_dir().join("faster-plot-gallery"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&dir).expect("the gallery's folder can be made");
    for (seed, shape) in SHAPES.iter().enumerate() {
        for rounds in [10, 300, 3_000] {
            let report = made_up(shape, rounds, seed as u64);
            write(&dir, &format!("{}-{rounds}", shape.name), &report, false);
        }
    }
    write(&dir, "noiseless-5", &noiseless(5), false);
    // A long name in a debug build's title, and a regression guard.
    write(&dir, "debug-build", &fixtures::three_inputs(), true);
    write(&dir, "undecided-guard", &fixtures::undecided_guard(), false);
    let Some(reports) = std::env::var_os("FASTER_PLOT_GALLERY_REPORTS") else {
        return;
    };
    for entry in std::fs::read_dir(reports).expect("the reports' folder is readable") {
        let path = entry.expect("a folder entry").path();
        if path.extension().is_none_or(|extension| extension != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a report is readable");
        let document: Document = serde_json::from_str(&text).expect("a report is a document");
        if let Ok(report) = document.into_report() {
            let stem = path.file_stem().expect("a file name").to_string_lossy();
            write(&dir, &format!("real-{stem}"), &report, false);
        }
    }
}
