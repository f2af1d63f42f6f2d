//! What the sampler records — rounds of paired batch times — and the per-call
//! times and ratios derived from them, including Paoloni's regression.
//!
//! A timed batch of `k` calls lasts `overhead + k · per_call`: the overhead is
//! paid once per sample (reading the timer, entering the loop, refilling the
//! pipeline after the timer's serializing read). Dividing by `k` leaves
//! `overhead / k` in every per-call time, which pulls a ratio towards 1. For
//! fast functions the sampler varies `k` across rounds; the minimum batch time
//! at each size, regressed on the size, gives the overhead (intercept) and
//! the per-call time free of it (slope), and R² says whether to trust them.

use crate::error::Phase;
use crate::stats::{self, LinearFit};
use crate::time::Calibration;

/// Confidence of every interval the engine reports.
pub const CONFIDENCE: f64 = 0.99;

/// One side of the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The baseline.
    Original,
    /// The function that claims to be faster.
    Candidate,
}

impl From<Side> for Phase {
    /// Which piece of user code runs for the side.
    fn from(side: Side) -> Phase {
        match side {
            Side::Original => Phase::Original,
            Side::Candidate => Phase::Candidate,
        }
    }
}

/// One round: every input once, one batch of each function per input.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// Whether the original ran first in each of this round's pairs.
    pub original_first: bool,
    /// Which placement of the measuring loop timed both sides' batches (0
    /// where there is one; see [`placement_of`]).
    pub placement: usize,
    /// Per input, the calls in the batches of `[original, candidate]`: each
    /// side's own, so both samples last about as long.
    pub batch_sizes: Vec<[u64; 2]>,
    /// Per input, the per-call time in nanoseconds of `[original, candidate]`
    /// (batch time / batch size, overhead included).
    pub per_call_ns: Vec<[f64; 2]>,
}

impl Round {
    /// `ln(Σ original / Σ candidate)` over the inputs, each per-call time
    /// first cleared of the per-sample `overhead_ns` of its input (none
    /// where `overhead_ns` has no entry for it): each input weighs by its
    /// time, as the codeflash sum of per-input times does.
    pub fn log_ratio(&self, overhead_ns: &[f64]) -> f64 {
        let (original, candidate) =
            (0..self.per_call_ns.len()).fold((0.0, 0.0), |(original, candidate), input| {
                let overhead = overhead_ns.get(input).copied().unwrap_or(0.0);
                let [input_original, input_candidate] = self.cleared_per_call_ns(input, overhead);
                (original + input_original, candidate + input_candidate)
            });
        (original / candidate).ln()
    }

    /// Input `input`'s per-call times of `[original, candidate]` with the
    /// per-sample `overhead_ns` cleared from each side's batch.
    pub fn cleared_per_call_ns(&self, input: usize, overhead_ns: f64) -> [f64; 2] {
        let [original, candidate] = self.per_call_ns[input];
        let [original_batch, candidate_batch] = self.batch_sizes[input];
        [
            original - overhead_ns / original_batch as f64,
            candidate - overhead_ns / candidate_batch as f64,
        ]
    }
}

crate::options::choices! {
    /// What held a batch below the length the timer needs (see
    /// [`Calibration::min_sample_ns`]), where something did: the report's
    /// warning about short samples names it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum BatchLimit {
        /// A longer batch would not have ended within a quarter of the budget
        /// while tuning.
        Budget = "budget",
        /// The subject's largest batch: a function that needs its own clone of
        /// an argument per call holds a batch's clones at once, and their
        /// memory caps it.
        Memory = "memory",
    }
}

crate::options::choices! {
    /// Why the sampler stopped.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Stop {
        /// The interval reached the target precision.
        Converged = "converged",
        /// The time budget was spent first.
        Budget = "budget",
    }
}

/// Everything the sampler measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// Per input, the tuned batch sizes of `[original, candidate]` the
    /// ladder multiplies.
    pub batch_sizes: Vec<[u64; 2]>,
    /// Per input, what held its batches below the length the timer needs,
    /// where something did.
    pub batch_limits: Vec<Option<BatchLimit>>,
    /// Per input, the multipliers of the batch size the rounds cycle through
    /// (`[1]` where the batch is too small for the overhead to matter).
    pub ladders: Vec<&'static [u64]>,
    /// The measured rounds, in time order.
    pub rounds: Vec<Round>,
    /// How many placements of the measuring loop the rounds took turns in
    /// (1: the single loop).
    pub placements: usize,
    /// The shorter side's per-call time summed over inputs, as the warm-up
    /// left it: what the number of placements was chosen by.
    pub shorter_call_ns: f64,
    /// Rounds spent warming up (not in `rounds`).
    pub warm_up_rounds: usize,
    /// Why measuring stopped.
    pub stop: Stop,
    /// Time from the start of tuning to the end of the last round.
    pub elapsed_ns: f64,
    /// The timer's measured cost and resolution.
    pub calibration: Calibration,
}

/// The batch-size multipliers for fast functions: a linear ladder, as in
/// Paoloni's method, spanning a factor of four so the intercept is well
/// determined.
pub const LADDER: &[u64] = &[1, 2, 3, 4];

/// Batches of fewer calls than this are not laddered: the function is slow
/// enough that the per-sample overhead is far under the noise, and one more
/// size would only lengthen each round.
pub const LADDER_MIN_BATCH: u64 = 64;

/// Rounds after which the measurement pattern repeats: both orders, at every
/// size of the longest ladder. It is also how long one placement of the
/// measuring loop keeps its turn ([`placement_of`]).
pub fn cycle_length(ladders: &[&[u64]]) -> usize {
    // An empty ladder is one size (see `ladder_step`).
    2 * ladders
        .iter()
        .map(|ladder| ladder.len())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The placement of the measuring loop in round `round`: each of
/// `placements` in turn for a whole [`cycle_length`], so every placement
/// sees both orders at every batch size and its own ratio is as balanced
/// as the whole run's.
pub fn placement_of(round: usize, ladders: &[&[u64]], placements: usize) -> usize {
    (round / cycle_length(ladders)) % placements.max(1)
}

/// The multiplier of round `round` on `ladder`: each size for one round of
/// each order, so the order effect cancels within a size (1 on an empty
/// ladder).
pub fn ladder_step(ladder: &[u64], round: usize) -> u64 {
    match ladder.len() {
        0 => 1,
        sizes => ladder[(round / 2) % sizes],
    }
}

/// Paoloni's regression for one input and side: the minimum batch time at
/// each batch size, regressed on the size. `None` without two sizes (or
/// with a batch time that is not finite).
pub fn fit_input(rounds: &[Round], input: usize, side: Side) -> Option<LinearFit> {
    let mut minima: Vec<(u64, f64)> = Vec::new();
    for round in rounds {
        let batch = round.batch_sizes[input][side as usize];
        let batch_ns = round.per_call_ns[input][side as usize] * batch as f64;
        match minima.iter_mut().find(|(size, _)| *size == batch) {
            Some((_, minimum)) => *minimum = minimum.min(batch_ns),
            None => minima.push((batch, batch_ns)),
        }
    }
    let points: Vec<(f64, f64)> = minima.iter().map(|&(size, ns)| (size as f64, ns)).collect();
    stats::linear_fit(&points).ok()
}

/// Per input, the overhead to clear from each sample before taking ratios:
/// the mean of both sides' regression intercepts (the same timer and loop
/// frame surround both, and a shared correction cancels in an A/A ratio where
/// two noisy ones would not), never negative and never more than
/// `max_overhead_ns` or half the smallest sample. Zero where the batch size
/// did not vary.
///
/// The cap matters: the overhead is what the timer costs per sample, and an
/// intercept far above that is noise in the fit (a slow function's few long
/// samples), which would otherwise be cleared from the other side's short ones.
pub fn overheads(rounds: &[Round], inputs: usize, max_overhead_ns: f64) -> Vec<f64> {
    (0..inputs)
        .map(|input| {
            let (Some(original), Some(candidate)) = (
                fit_input(rounds, input, Side::Original),
                fit_input(rounds, input, Side::Candidate),
            ) else {
                return 0.0;
            };
            // Half the smallest sample bounds it too: what is left of every
            // sample must stay a positive time.
            let smallest_sample = rounds
                .iter()
                .flat_map(|round| {
                    let [original, candidate] = round.per_call_ns[input];
                    let [original_batch, candidate_batch] = round.batch_sizes[input];
                    [
                        original * original_batch as f64,
                        candidate * candidate_batch as f64,
                    ]
                })
                .fold(f64::INFINITY, f64::min);
            let cap = max_overhead_ns.min(smallest_sample / 2.0).max(0.0);
            let overhead = (original.intercept + candidate.intercept) / 2.0;
            if overhead.is_finite() {
                overhead.clamp(0.0, cap)
            } else {
                0.0
            }
        })
        .collect()
}

/// The largest per-sample overhead [`overheads`] may clear, for a timer of
/// this calibration: its reading cost several times over (a reading, the loop
/// frame, the pipeline refilling after a serializing read).
pub fn max_overhead_ns(calibration: &Calibration) -> f64 {
    const READINGS: f64 = 4.0;
    READINGS * calibration.reading_cost_ns.max(calibration.resolution_ns)
}

/// Every round's log ratio, cleared of the per-sample overheads.
pub fn log_ratios(rounds: &[Round], overhead_ns: &[f64]) -> Vec<f64> {
    rounds
        .iter()
        .map(|round| round.log_ratio(overhead_ns))
        .collect()
}

impl Samples {
    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.batch_sizes.len()
    }

    /// Per input, the overheads cleared before taking ratios (see [`overheads`]).
    pub fn overheads(&self) -> Vec<f64> {
        overheads(
            &self.rounds,
            self.inputs(),
            max_overhead_ns(&self.calibration),
        )
    }

    /// Every round's log ratio, overhead cleared: what the verdict rests on.
    pub fn log_ratios(&self) -> Vec<f64> {
        log_ratios(&self.rounds, &self.overheads())
    }

    /// Every round's log ratio from plain per-call times (batch time / size),
    /// for showing what the regression corrects.
    pub fn uncorrected_log_ratios(&self) -> Vec<f64> {
        log_ratios(&self.rounds, &vec![0.0; self.inputs()])
    }

    /// Paoloni's regression for one input and side (see [`fit_input`]).
    pub fn fit(&self, input: usize, side: Side) -> Option<LinearFit> {
        fit_input(&self.rounds, input, side)
    }

    /// Rounds after which the measurement pattern repeats.
    pub fn cycle_length(&self) -> usize {
        cycle_length(&self.ladders)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds of two functions costing `per_call` ns, each sample paying
    /// `overhead` ns, over the ladder.
    fn rounds(per_call: [f64; 2], overhead: f64, base: u64) -> Vec<Round> {
        (0..16)
            .map(|round| {
                let batch = base * ladder_step(LADDER, round);
                Round {
                    original_first: round % 2 == 0,
                    placement: 0,
                    batch_sizes: vec![[batch, batch]],
                    per_call_ns: vec![
                        per_call.map(|ns| (ns * batch as f64 + overhead) / batch as f64),
                    ],
                }
            })
            .collect()
    }

    #[test]
    fn the_regression_recovers_overhead_and_per_call_time() {
        let rounds = rounds([2.5, 2.0], 60.0, 100);
        let fit = fit_input(&rounds, 0, Side::Original).unwrap();
        assert!((fit.intercept - 60.0).abs() < 1e-6 && (fit.slope - 2.5).abs() < 1e-9);
        assert!(fit.r_squared > 0.999_999);
        assert!((overheads(&rounds, 1, 100.0)[0] - 60.0).abs() < 1e-6);
        // An intercept above what the timer can cost is not cleared whole.
        assert_eq!(overheads(&rounds, 1, 40.0)[0], 40.0);
    }

    #[test]
    fn cleared_ratios_are_exact_where_plain_ones_are_pulled_towards_one() {
        let rounds = rounds([2.5, 2.0], 60.0, 100);
        let plain = log_ratios(&rounds, &[0.0]);
        let cleared = log_ratios(&rounds, &overheads(&rounds, 1, 100.0));
        for (plain, cleared) in plain.iter().zip(&cleared) {
            assert!((cleared.exp() - 1.25).abs() < 1e-9, "{}", cleared.exp());
            // 60 ns over batches of 100 to 400 calls: 1.217 to 1.242.
            assert!(
                plain.exp() < 1.245,
                "plain ratio {} should be biased",
                plain.exp()
            );
        }
    }

    #[test]
    fn without_a_ladder_nothing_is_cleared() {
        let rounds: Vec<Round> = (0..4)
            .map(|round: usize| Round {
                original_first: round % 2 == 0,
                placement: 0,
                batch_sizes: vec![[8, 10]],
                per_call_ns: vec![[100.0, 80.0]],
            })
            .collect();
        assert_eq!(fit_input(&rounds, 0, Side::Original), None);
        assert_eq!(overheads(&rounds, 1, 100.0), vec![0.0]);
    }

    #[test]
    fn each_side_clears_the_overhead_over_its_own_batch() {
        // The original batches 10 calls, the candidate 40: equal sample times.
        let round = Round {
            original_first: true,
            placement: 0,
            batch_sizes: vec![[10, 40]],
            per_call_ns: vec![[(400.0 + 50.0) / 10.0, (400.0 + 50.0) / 40.0]],
        };
        assert_eq!(round.cleared_per_call_ns(0, 50.0), [40.0, 10.0]);
        assert!((round.log_ratio(&[50.0]).exp() - 4.0).abs() < 1e-12);
    }

    #[test]
    fn the_ladder_cycles_each_size_through_both_orders() {
        let steps: Vec<u64> = (0..10).map(|round| ladder_step(LADDER, round)).collect();
        assert_eq!(steps, vec![1, 1, 2, 2, 3, 3, 4, 4, 1, 1]);
        assert_eq!(cycle_length(&[LADDER, &[1]]), 8);
        assert_eq!(cycle_length(&[&[1]]), 2);
        assert_eq!(cycle_length(&[&[]]), 2);
    }

    #[test]
    fn each_placement_keeps_its_turn_for_a_whole_ladder_cycle() {
        let ladders: [&[u64]; 1] = [LADDER];
        let turns: Vec<usize> = (0..40)
            .map(|round| placement_of(round, &ladders, 4))
            .collect();
        assert_eq!(&turns[..9], &[0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!((turns[31], turns[32]), (3, 0));
        // Within a turn, both orders at each size, as in the whole run.
        for placement in 0..4 {
            let steps: Vec<(u64, bool)> = (0..64)
                .filter(|&round| placement_of(round, &ladders, 4) == placement)
                .map(|round| (ladder_step(LADDER, round), round % 2 == 0))
                .collect();
            for size in LADDER {
                for first in [true, false] {
                    assert_eq!(steps.iter().filter(|&&s| s == (*size, first)).count(), 2);
                }
            }
        }
        assert_eq!(placement_of(17, &[&[1]], 1), 0);
    }
}
