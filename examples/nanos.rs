//! Nanosecond functions: does the engine measure a 2 ns function as well as a
//! 2 µs one? Prints, per scale, the A/A verdicts and error, a true 1.25x
//! speedup's error with and without Paoloni's regression, and the fits' R².
//!
//! ```text
//! cargo run --release --example nanos -- [--runs 200] [--timer wall|cycles|thread-cpu]
//! ```
//!
//! Workloads: `steps` xorshift-multiply steps carried from call to call
//! (so calls cannot overlap), and at the smallest scale a single step on
//! independent calls. At this scale a call's fixed cost (the call, the loop,
//! carrying state through memory) is a large share of its time, so the true
//! time ratio is not the step ratio: it is measured by a reference
//! independent of the engine, 1 000 alternating batches of ≈ 1 ms each in the
//! engine's loop shape, median of their ratios.

use faster::time::TimerKind;
use faster::{Config, Verdict, compare_fns};
use faster_runtime::__internal::median;
use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

#[inline(always)]
fn step(state: u64) -> u64 {
    (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// `steps` dependent steps, seeded by the previous call's result.
fn carried(steps: u32) -> impl FnMut(&u64) {
    let carry = Cell::new(1_u64);
    move |_: &u64| {
        let mut state = carry.get();
        for _ in 0..steps {
            state = step(state);
        }
        carry.set(state);
    }
}

/// One step on the input itself: calls are independent and overlap.
fn independent() -> impl FnMut(&u64) -> u64 {
    |seed: &u64| step(*seed)
}

/// Times `calls` calls in the engine's loop shape.
fn time_calls<O, F: FnMut(&u64) -> O>(function: &mut F, calls: u64) -> f64 {
    let input = 7_u64;
    let start = Instant::now();
    for _ in 0..calls {
        black_box(function(black_box(&input)));
    }
    start.elapsed().as_nanos() as f64
}

/// The reference ratio of two functions: alternating ≈ 1 ms batches.
fn reference<O, A: FnMut(&u64) -> O, B: FnMut(&u64) -> O>(
    mut original: A,
    mut candidate: B,
) -> (f64, f64) {
    let per_call = time_calls(&mut original, 1_000_000) / 1e6;
    let calls = (1e6 / per_call) as u64;
    let ratios: Vec<f64> = (0..1_000)
        .map(|pair| {
            if pair % 2 == 0 {
                let original_ns = time_calls(&mut original, calls);
                original_ns / time_calls(&mut candidate, calls)
            } else {
                let candidate_ns = time_calls(&mut candidate, calls);
                time_calls(&mut original, calls) / candidate_ns
            }
        })
        .collect();
    (median(&ratios), per_call)
}

/// What one cell of runs came to.
#[derive(Default)]
struct Cell_ {
    errors: Vec<f64>,
    naive_errors: Vec<f64>,
    r_squared: Vec<f64>,
    seconds: Vec<f64>,
    faster: usize,
    slower: usize,
    covered: usize,
    runs: usize,
    per_call_ns: f64,
}

fn run_cell<O, A, B>(
    runs: usize,
    truth: f64,
    config: &Config,
    mut make: impl FnMut() -> (A, B),
) -> Cell_
where
    O: PartialEq + std::fmt::Debug,
    A: FnMut(&u64) -> O,
    B: FnMut(&u64) -> O,
{
    let mut cell = Cell_ {
        runs,
        ..Cell_::default()
    };
    for _ in 0..runs {
        let (original, candidate) = make();
        let report =
            compare_fns("nanos", &[7_u64], original, candidate, config).expect("outputs agree");
        cell.errors.push((report.speedup / truth - 1.0).abs());
        cell.naive_errors
            .push((report.uncorrected_speedup / truth - 1.0).abs());
        cell.seconds.push(report.elapsed.as_secs_f64());
        cell.per_call_ns = report.candidate_ns;
        for fit in report.inputs[0].fits.iter().flatten() {
            cell.r_squared.push(fit.r_squared);
        }
        cell.covered += usize::from(report.ci.0 <= truth && truth <= report.ci.1);
        match report.verdict {
            Verdict::Faster => cell.faster += 1,
            Verdict::Slower => cell.slower += 1,
            Verdict::WithinNoise => {}
        }
    }
    cell
}

fn print_cell(label: &str, truth: f64, cell: &mut Cell_) {
    let worst = cell.errors.iter().copied().fold(0.0, f64::max);
    let min_r2 = cell.r_squared.iter().copied().fold(1.0, f64::min);
    let median_r2 = if cell.r_squared.is_empty() {
        f64::NAN
    } else {
        median(&cell.r_squared)
    };
    println!(
        "{label:<22} {:>8} {truth:>7.4} {:>5} {:>9.3}% {:>9.3}% {:>9.3}% {:>6} {:>6} {:>7}% {:>8.5} {:>8.5} {:>7.3}s",
        faster::report::format_ns(cell.per_call_ns),
        cell.runs,
        100.0 * median(&cell.errors),
        100.0 * worst,
        100.0 * median(&cell.naive_errors),
        cell.faster,
        cell.slower,
        100 * cell.covered / cell.runs,
        median_r2,
        min_r2,
        median(&cell.seconds),
    );
}

fn main() {
    let mut runs = 200;
    let mut config = Config::default();
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    for pair in arguments.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or_default();
        match pair[0].as_str() {
            "--runs" => runs = value.parse().expect("--runs takes a count"),
            "--timer" => config.timer = TimerKind::parse(value).expect("--timer"),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    println!(
        "nanos: {runs} A/A runs and {} runs at 1.25 per scale, timer {:?}, default settings",
        runs / 2,
        config.timer
    );
    println!(
        "{:<22} {:>8} {:>7} {:>5} {:>10} {:>10} {:>10} {:>6} {:>6} {:>8} {:>8} {:>8} {:>8}",
        "case",
        "per call",
        "truth",
        "runs",
        "med err",
        "worst",
        "naive err",
        "faster",
        "slower",
        "covered",
        "med R²",
        "min R²",
        "time"
    );

    // The smallest scale: one step on independent calls.
    let mut cell = run_cell(runs, 1.0, &config, || (independent(), independent()));
    print_cell("A/A independent", 1.0, &mut cell);

    for steps in [1_u32, 6, 30] {
        let mut cell = run_cell(runs, 1.0, &config, || (carried(steps), carried(steps)));
        print_cell(&format!("A/A {steps} steps"), 1.0, &mut cell);
    }
    // True speedups of about 1.25: 5 vs 4, 10 vs 8, 30 vs 24 steps, truth
    // measured (a call's fixed cost makes it less than the step ratio).
    for (slow, fast) in [(5_u32, 4_u32), (10, 8), (30, 24), (150, 120)] {
        let (truth, _) = reference(carried(slow), carried(fast));
        let mut cell = run_cell(runs / 2, truth, &config, || (carried(slow), carried(fast)));
        print_cell(&format!("{slow} vs {fast} steps"), truth, &mut cell);
    }
}
