//! How well GPU comparisons judge, on this machine's adapter: a kernel
//! against itself (no verdict is right), and the kernel against itself with
//! twice the loop trip count (a known ratio of about 2: `faster` is right,
//! and the speedup should match an independent measurement).
//!
//! ```text
//! cargo run --release --features gpu --example gpu_accuracy -- [--runs 20] [--cases long,short]
//! ```
//!
//! The kernel is `tests/gpu/kernels.rs`'s `busy`: every invocation runs a
//! chain of dependent multiply-add steps; one side runs `2·trips` steps, the
//! other `trips` steps of the step composed with itself, writing the same
//! result. The true ratio is below 2 by what a dispatch costs besides its
//! loop, so it is measured by a reference independent of the engine: 20
//! alternating passes of each kernel (order ABBA...), each pass holding as
//! many dispatches as fill about 100 ms, timed by the same GPU timestamps;
//! the median of the per-pair ratios, taken before and after the engine's
//! runs. Each comparison uses the default settings (3 s, 5% floor, caches
//! flushed before every sample).
//!
//! Measure on an otherwise quiet machine: lavapipe runs the kernels on the
//! CPU's cores, and the program prints the load average before and after.

#[path = "../tests/gpu/kernels.rs"]
#[allow(dead_code)] // The tests' other kernels.
mod kernels;

use faster::gpu::{Gpu, KernelOptions, compare_kernels, time_pass, wgpu};
use faster::{Config, Verdict, format_ns};
use kernels::{Busy, busy, busy_once, busy_twice};

type Record = fn(&mut wgpu::ComputePass<'_>, &Busy);

/// The two sizes: dispatches of milliseconds and of tens of microseconds,
/// where what a dispatch costs besides its loop weighs more.
const CASES: [(&str, u32, u32); 2] = [("long", 4_096, 500), ("short", 512, 50)];

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    }
}

/// The nanoseconds of one pass of `count` dispatches.
fn pass_ns(gpu: &Gpu, case: &Busy, record: Record, count: u32) -> f64 {
    time_pass(gpu, |pass| {
        for _ in 0..count {
            record(pass, case);
        }
    })
    .expect("the kernel runs")
}

/// The reference ratio of `original` to `candidate` time: the median of 20
/// alternating pairs of ≈ 100 ms passes.
fn reference(gpu: &Gpu, case: &Busy, original: Record, candidate: Record) -> f64 {
    let per_dispatch = pass_ns(gpu, case, candidate, 16) / 16.0;
    let count = (100e6 / per_dispatch).clamp(1.0, 65_536.0) as u32;
    let mut ratios: Vec<f64> = (0..20)
        .map(|pair| {
            if pair % 2 == 0 {
                let original_ns = pass_ns(gpu, case, original, count);
                original_ns / pass_ns(gpu, case, candidate, count)
            } else {
                let candidate_ns = pass_ns(gpu, case, candidate, count);
                pass_ns(gpu, case, original, count) / candidate_ns
            }
        })
        .collect();
    median(&mut ratios)
}

/// What `runs` comparisons of one pair came to.
struct Cell {
    speedups: Vec<f64>,
    seconds: Vec<f64>,
    intervals: Vec<(f64, f64)>,
    verdicts: [usize; 3],
    per_dispatch_ns: f64,
}

fn run_cell(gpu: &Gpu, case: &Busy, pair: (Record, Record), runs: usize) -> Cell {
    let mut cell = Cell {
        speedups: Vec::new(),
        seconds: Vec::new(),
        intervals: Vec::new(),
        verdicts: [0; 3],
        per_dispatch_ns: 0.0,
    };
    let cases = std::slice::from_ref(case);
    for _ in 0..runs {
        let report = compare_kernels(
            gpu,
            "busy",
            cases,
            pair.0,
            pair.1,
            &KernelOptions::default(),
            &Config::default(),
        )
        .expect("the kernels agree");
        cell.speedups.push(report.speedup);
        cell.seconds.push(report.elapsed.as_secs_f64());
        cell.per_dispatch_ns = report.candidate_ns;
        cell.intervals.push(report.ci);
        cell.verdicts[match report.verdict {
            Verdict::Faster => 0,
            Verdict::WithinNoise => 1,
            Verdict::Slower => 2,
        }] += 1;
    }
    cell
}

fn print_cell(label: &str, truth: f64, cell: &mut Cell) {
    let errors: Vec<f64> = cell
        .speedups
        .iter()
        .map(|speedup| speedup / truth - 1.0)
        .collect();
    let worst = errors
        .iter()
        .copied()
        .fold(0.0, |worst: f64, e| worst.max(e.abs()));
    let within = errors.iter().filter(|error| error.abs() <= 0.03).count();
    let covered = cell
        .intervals
        .iter()
        .filter(|(low, high)| (*low..=*high).contains(&truth))
        .count();
    let runs = cell.speedups.len();
    println!(
        "{label:<14} {:>9} {truth:>7.4} {runs:>5} {:>6} {:>6} {:>6} {:>9.4} {:>8.2}% {:>6}/{runs} {:>5}/{runs} {:>7.2}s",
        format_ns(cell.per_dispatch_ns),
        cell.verdicts[0],
        cell.verdicts[1],
        cell.verdicts[2],
        median(&mut cell.speedups),
        100.0 * worst,
        within,
        covered,
        median(&mut cell.seconds),
    );
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|load| {
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

fn main() {
    let mut runs = 20;
    let mut selected: Vec<String> = CASES.iter().map(|(name, ..)| name.to_string()).collect();
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    for pair in arguments.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or_default();
        match pair[0].as_str() {
            "--runs" => runs = value.parse().expect("--runs takes a count"),
            "--cases" => selected = value.split(',').map(str::to_string).collect(),
            "--bench" => {}
            other => panic!("unknown argument {other}; see the comment at the top"),
        }
    }
    let gpu = Gpu::new().unwrap_or_else(|error| panic!("{error}"));
    let adapter = gpu.adapter();
    println!(
        "gpu_accuracy: {} ({:?}, {:?}), {}, {runs} runs per pair, default settings; load {}",
        adapter.name,
        adapter.backend,
        adapter.device_type,
        if gpu.has_timestamps() {
            "GPU timestamps"
        } else {
            "no timestamp queries: wall clock"
        },
        load_average(),
    );
    println!(
        "{:<14} {:>9} {:>7} {:>5} {:>6} {:>6} {:>6} {:>9} {:>9} {:>8} {:>7} {:>8}",
        "pair",
        "dispatch",
        "truth",
        "runs",
        "faster",
        "within",
        "slower",
        "median",
        "worst",
        "≤ 3%",
        "in CI",
        "time"
    );
    for (name, invocations, trips) in CASES {
        if !selected.iter().any(|wanted| wanted == name) {
            continue;
        }
        let case = busy(&gpu, invocations, trips);
        let mut same = run_cell(&gpu, &case, (busy_once, busy_once), runs);
        print_cell(&format!("A/A {name}"), 1.0, &mut same);
        let before = reference(&gpu, &case, busy_twice, busy_once);
        let mut double = run_cell(&gpu, &case, (busy_twice, busy_once), runs);
        let after = reference(&gpu, &case, busy_twice, busy_once);
        let truth = (before + after) / 2.0;
        print_cell(&format!("2x {name}"), truth, &mut double);
        println!(
            "  reference ({invocations} invocations, {trips}/{} trips): {before:.4} before, {after:.4} after",
            2 * trips
        );
    }
    println!("load at the end: {}", load_average());
}
