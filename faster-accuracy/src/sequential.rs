//! The traditional method, measured in the same run for contrast: all of
//! the original, then all of the candidate, for the same total time as the
//! engine took, with the engine's batch sizes (each side its own) and
//! timing source.
//!
//! Its estimate is the ratio of mean per-call times; its interval is the
//! naive one (batches taken as independent, the delta method for the ratio
//! of means), judged against the same noise floor as the engine's. What it
//! cannot see is the drift of the machine between its two halves.

use crate::timing::time_calls;
use faster::Verdict;
use std::time::{Duration, Instant};

/// What the sequential method concludes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sequential {
    /// Mean original time / mean candidate time.
    pub speedup: f64,
    /// The naive 99% interval.
    pub ci: (f64, f64),
    pub verdict: Verdict,
}

/// The two-sided 99% normal quantile.
const Z_99: f64 = 2.575_829;

/// Measures `original` for half of `total`, then `candidate` for the other
/// half, each side in batches of its own size from `batch_sizes`
/// (`[original, candidate]` per input, as the engine chose them).
pub fn measure<I, F: FnMut(&I)>(
    inputs: &[I],
    original: F,
    candidate: F,
    batch_sizes: &[[u64; 2]],
    total: Duration,
    noise_floor: f64,
) -> Sequential {
    let half = total / 2;
    let side = |index: usize| {
        batch_sizes
            .iter()
            .map(|sizes| sizes[index])
            .collect::<Vec<u64>>()
    };
    let original = per_round_ns(inputs, original, &side(0), half);
    let candidate = per_round_ns(inputs, candidate, &side(1), half);
    let speedup = original.mean / candidate.mean;
    let log_error = (original.squared_relative_error() + candidate.squared_relative_error()).sqrt();
    let ci = (
        speedup * (-Z_99 * log_error).exp(),
        speedup * (Z_99 * log_error).exp(),
    );
    Sequential {
        speedup,
        ci,
        verdict: Verdict::from_interval(ci, noise_floor),
    }
}

/// The mean per-call time of one side, summed over the inputs, and its
/// naive standard error.
struct SideMean {
    mean: f64,
    standard_error: f64,
}

impl SideMean {
    fn squared_relative_error(&self) -> f64 {
        (self.standard_error / self.mean).powi(2)
    }
}

/// Rounds over every input (one batch each) for `duration`, at least two.
fn per_round_ns<I, F: FnMut(&I)>(
    inputs: &[I],
    mut function: F,
    batch_sizes: &[u64],
    duration: Duration,
) -> SideMean {
    let start = Instant::now();
    let mut rounds: Vec<f64> = Vec::new();
    while rounds.len() < 2 || start.elapsed() < duration {
        let per_call_ns: f64 = inputs
            .iter()
            .zip(batch_sizes)
            .map(|(input, &batch)| time_calls(&mut function, input, batch) / batch as f64)
            .sum();
        rounds.push(per_call_ns);
    }
    let n = rounds.len() as f64;
    let mean = rounds.iter().sum::<f64>() / n;
    let variance = rounds.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    SideMean {
        mean,
        standard_error: (variance / n).sqrt(),
    }
}
