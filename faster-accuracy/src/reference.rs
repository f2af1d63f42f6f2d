//! The truth a cell is judged against: a long reference measurement,
//! independent of the engine's statistics, taken in the cell's own noise
//! condition and spread over the same time as the cell's runs.
//!
//! Alternating batches of each side, the order swapped every pair, give one
//! ratio per pair (Σ original / Σ candidate per-call time over the inputs, as
//! the engine weighs them); the truth is their median, with the 99% interval
//! of that median from order statistics, so the reader sees how exactly the
//! truth itself is known.
//!
//! The pairs are taken in chunks between the runs, not all before them: a
//! ratio can move with the machine's state for seconds at a time (with an
//! earlier, unrolled chain, 4 vs 2 steps read 2.00 through a 10 s reference
//! and 1.31 through the fifty runs after it, in the engine and the
//! sequential method alike), and a truth taken only before the runs would
//! judge them against another period's machine.
//!
//! Both sides' batches last the same time (their call counts differ), for
//! two reasons measured here. A disturbance (a timer tick, a preemption)
//! hits a batch with a chance proportional to its length: with equal call
//! counts the slower side is hit more often and the median ratio moves up,
//! by 0.2–0.5% at a true 2.0 under other processes' load. And the timer's
//! cost, one reading per batch, then adds the same share to both sides and
//! cancels in the ratio.

use crate::timing::{calls_for, fastest_per_call_ns, time_calls};
use faster_runtime::__internal::median;
use std::time::{Duration, Instant};

/// The measured true speedup of one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Truth {
    /// Original time / candidate time.
    pub ratio: f64,
    /// Half the width of the median's 99% interval, relative to the median;
    /// zero for identical functions, whose truth is exact.
    pub uncertainty: f64,
    /// The medians of the first and the second half of the pairs, relative
    /// to each other: how much the truth moved while it was measured.
    pub drift: f64,
    /// How many alternating pairs it rests on.
    pub pairs: usize,
    /// Calls per batch of the original (of the first input), to set against
    /// the engine's.
    pub calls: u64,
}

impl Truth {
    /// The same function on both sides.
    pub fn exact_one() -> Truth {
        Truth {
            ratio: 1.0,
            uncertainty: 0.0,
            drift: 0.0,
            pairs: 0,
            calls: 0,
        }
    }
}

/// Each batch of the reference lasts about this long by default, or
/// [`MIN_SLOW_CALLS`] calls of the slower side when that is longer: five
/// times the engine's samples on a timer costing 50 ns, short enough that
/// most batches are undisturbed.
pub const BATCH: Duration = Duration::from_micros(250);
/// A batch holds at least this many calls of the slower side, so the faster
/// side's batch can match its length to within a fraction of a call. With
/// one call each, 2.5 ms against 2 ms, the longer batch is the likelier to
/// be interrupted, and the median ratio read 0.7987 for a built 0.8000 (and
/// 1.2568 for 1.2500 over three inputs) where the engine read the
/// construction; with four, 0.8002 and 1.2500.
const MIN_SLOW_CALLS: f64 = 4.0;
/// The reference never rests on fewer pairs than this (at 2 ms per call,
/// 0.5 s of pairs under load left the median uncertain by ±200%).
const MIN_PAIRS: usize = 200;

/// A reference measurement in progress: batch sizes fixed once, pairs added
/// chunk by chunk.
pub struct Reference<'a, I, F> {
    inputs: &'a [I],
    original: F,
    candidate: F,
    /// Per input, calls per batch of `[original, candidate]`.
    calls: Vec<[u64; 2]>,
    /// One ratio per alternating pair, in time order.
    ratios: Vec<f64>,
}

impl<'a, I, F: FnMut(&I)> Reference<'a, I, F> {
    /// Sizes the batches of `original` and `candidate` on `inputs` to about
    /// `batch` per side; measures nothing yet.
    pub fn new(inputs: &'a [I], mut original: F, mut candidate: F, batch: Duration) -> Self {
        let batch_ns = batch.as_nanos() as f64;
        let calls = inputs
            .iter()
            .map(|input| {
                let longest_call = fastest_per_call_ns(&mut original, input, 1, 3)
                    .max(fastest_per_call_ns(&mut candidate, input, 1, 3));
                let batch_ns = batch_ns.max(MIN_SLOW_CALLS * longest_call);
                [
                    calls_for(&mut original, input, batch_ns),
                    calls_for(&mut candidate, input, batch_ns),
                ]
            })
            .collect();
        Reference {
            inputs,
            original,
            candidate,
            calls,
            ratios: Vec::new(),
        }
    }

    /// Adds alternating pairs for `duration`.
    pub fn extend(&mut self, duration: Duration) {
        let start = Instant::now();
        while start.elapsed() < duration {
            self.pair();
        }
    }

    /// The truth from every pair so far, first measuring up to
    /// [`MIN_PAIRS`] if there are fewer.
    pub fn truth(&mut self) -> Truth {
        while self.ratios.len() < MIN_PAIRS {
            self.pair();
        }
        let ratios = &self.ratios;
        let half = ratios.len() / 2;
        let drift = median(&ratios[half..]) / median(&ratios[..half]) - 1.0;
        let mut sorted = ratios.clone();
        let (low, high) = median_interval(&mut sorted);
        let ratio = median(&sorted);
        Truth {
            ratio,
            uncertainty: (high - low) / 2.0 / ratio,
            drift,
            pairs: ratios.len(),
            calls: self.calls[0][0],
        }
    }

    /// One pair over every input, the original first in even pairs.
    fn pair(&mut self) {
        let original_first = self.ratios.len() % 2 == 0;
        let (mut original_ns, mut candidate_ns) = (0.0, 0.0);
        for (input, &[original_calls, candidate_calls]) in self.inputs.iter().zip(&self.calls) {
            let (original, candidate) = (&mut self.original, &mut self.candidate);
            let (o, c) = if original_first {
                let o = time_calls(original, input, original_calls);
                (o, time_calls(candidate, input, candidate_calls))
            } else {
                let c = time_calls(candidate, input, candidate_calls);
                (time_calls(original, input, original_calls), c)
            };
            original_ns += o / original_calls as f64;
            candidate_ns += c / candidate_calls as f64;
        }
        self.ratios.push(original_ns / candidate_ns);
    }
}

/// Measures `original` against `candidate` on `inputs` for `duration` at
/// once, in batches of about `batch` per side.
pub fn measure<I, F: FnMut(&I)>(
    inputs: &[I],
    original: F,
    candidate: F,
    duration: Duration,
    batch: Duration,
) -> Truth {
    let mut reference = Reference::new(inputs, original, candidate, batch);
    reference.extend(duration);
    reference.truth()
}

/// The distribution-free 99% interval of the median: the order statistics
/// `n/2 ± 2.576 · √n / 2`.
fn median_interval(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len() as f64;
    let reach = 2.576 * n.sqrt() / 2.0;
    let low = ((n / 2.0 - reach).floor().max(0.0)) as usize;
    let high = ((n / 2.0 + reach).ceil() as usize).min(values.len() - 1);
    (values[low], values[high])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_interval_narrows_with_more_values() {
        let mut few: Vec<f64> = (0..25).map(f64::from).collect();
        let mut many: Vec<f64> = (0..2_500).map(|i| f64::from(i) / 100.0).collect();
        let (low, high) = median_interval(&mut few);
        assert!(low < 12.0 && high > 12.0);
        let (low_many, high_many) = median_interval(&mut many);
        assert!(high_many - low_many < (high - low) / 5.0);
    }
}
