//! How often is the verdict right? Compares dependent integer chains whose
//! true speedup is set by construction and prints, per case, the estimate's
//! accuracy, the verdicts and the time each comparison took.
//!
//! ```text
//! cargo run --release --example accuracy -- [--runs 100] [--ns 1000] [--ratios 1.0,1.25,0.8]
//! ```
//!
//! Each call runs a chain of shift-xor-multiply steps where every step depends on the
//! previous one, seeded by the previous call's result, so calls cannot overlap
//! in the CPU and time is proportional to the number of steps: an original of
//! `n` steps against a candidate of `n / r` steps is a true speedup of about
//! `r`. "About": each call also pays a fixed cost (the call, the loop), so
//! the truth is measured too, by a reference independent of the engine: 2 s
//! of alternating 1 ms batches of each function, the median of their ratios.

use faster::{Config, Verdict, compare_fns};
use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

/// `steps` dependent xorshift-multiply steps starting from `seed`. Unlike a
/// multiply-add chain, which the compiler may fold several steps at a time,
/// the shift-xor-multiply step cannot be combined, so time is proportional
/// to `steps`.
#[inline(never)]
fn chain(seed: u64, steps: u64) -> u64 {
    let mut state = seed;
    for _ in 0..black_box(steps) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
    state
}

/// A function of `steps` steps that carries its result into its next call.
fn carried(steps: u64) -> impl FnMut(&()) {
    let carry = Cell::new(1);
    move |_: &()| carry.set(chain(carry.get(), steps))
}

/// Nanoseconds per chain step on this machine, from one long chain.
fn ns_per_step() -> f64 {
    let steps = 50_000_000;
    let start = Instant::now();
    black_box(chain(black_box(1), steps));
    start.elapsed().as_nanos() as f64 / steps as f64
}

/// The reference ratio: alternating long batches, median of batch ratios.
fn reference_ratio(original_steps: u64, candidate_steps: u64, target_ns: f64) -> f64 {
    let calls = (1e6 / target_ns).ceil() as u64; // ≈ 1 ms per batch
    let mut original = carried(original_steps);
    let mut candidate = carried(candidate_steps);
    let mut ratios: Vec<f64> = (0..1_000)
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
    median(&mut ratios)
}

/// Times `calls` calls in the loop shape the engine uses (monomorphized, no
/// dynamic dispatch, whose extra cost per call would bias the reference).
fn time_calls<O, F: FnMut(&()) -> O>(function: &mut F, calls: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        black_box(function(black_box(&())));
    }
    start.elapsed().as_nanos() as f64
}

struct Options {
    runs: usize,
    target_ns: f64,
    ratios: Vec<f64>,
}

fn options() -> Options {
    let mut options = Options {
        runs: 100,
        target_ns: 1_000.0,
        ratios: vec![1.0, 1.25, 0.8],
    };
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    for pair in arguments.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or_default();
        match pair[0].as_str() {
            "--runs" => options.runs = value.parse().expect("--runs takes a count"),
            "--ns" => options.target_ns = value.parse().expect("--ns takes nanoseconds per call"),
            "--ratios" => {
                options.ratios = value
                    .split(',')
                    .map(|ratio| ratio.parse().expect("--ratios takes numbers like 1.0,1.25"))
                    .collect()
            }
            "--bench" => {}
            other => {
                panic!("unknown argument {other}; see the doc comment of examples/accuracy.rs")
            }
        }
    }
    options
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[middle - 1] + values[middle]) / 2.0
    } else {
        values[middle]
    }
}

fn main() {
    let options = options();
    let step_ns = ns_per_step();
    let original_steps = (options.target_ns / step_ns).round().max(1.0) as u64;
    let config = Config::default();
    println!(
        "accuracy: {} runs per case, original ≈ {} per call ({} steps of {:.3} ns), noise floor {}%, budget {:?}",
        options.runs,
        faster::format_ns(original_steps as f64 * step_ns),
        original_steps,
        step_ns,
        config.noise_floor * 100.0,
        config.max_time,
    );
    println!(
        "{:>6} {:>7} {:>6} {:>9} {:>9} {:>9} {:>8} {:>7} {:>7} {:>7} {:>9} {:>8}",
        "steps",
        "truth",
        "runs",
        "median",
        "med err",
        "worst",
        "covered",
        "faster",
        "noise",
        "slower",
        "med time",
        "rounds"
    );
    for &ratio in &options.ratios {
        let candidate_steps = (original_steps as f64 / ratio).round().max(1.0) as u64;
        let truth = if candidate_steps == original_steps {
            1.0 // the same function on both sides: exactly one
        } else {
            reference_ratio(original_steps, candidate_steps, options.target_ns)
        };
        let (mut speedups, mut errors, mut seconds, mut rounds) = (vec![], vec![], vec![], vec![]);
        let (mut covered, mut faster, mut noise, mut slower) = (0, 0, 0, 0);
        for _ in 0..options.runs {
            let report = compare_fns(
                "chain",
                &[()],
                carried(original_steps),
                carried(candidate_steps),
                &config,
            )
            .expect("outputs are unit, so they always agree");
            speedups.push(report.speedup);
            errors.push((report.speedup / truth - 1.0).abs());
            seconds.push(report.elapsed.as_secs_f64());
            rounds.push(report.rounds as f64);
            covered += usize::from(report.ci.0 <= truth && truth <= report.ci.1);
            match report.verdict {
                Verdict::Faster => faster += 1,
                Verdict::WithinNoise => noise += 1,
                Verdict::Slower => slower += 1,
            }
        }
        let worst = errors.iter().copied().fold(0.0, f64::max);
        println!(
            "{:>6.3} {:>7.4} {:>6} {:>8.4}x {:>8.2}% {:>8.2}% {:>7}% {:>7} {:>7} {:>7} {:>8.3}s {:>8.0}",
            original_steps as f64 / candidate_steps as f64,
            truth,
            options.runs,
            median(&mut speedups),
            100.0 * median(&mut errors),
            100.0 * worst,
            100 * covered / options.runs,
            faster,
            noise,
            slower,
            median(&mut seconds),
            median(&mut rounds),
        );
    }
}
