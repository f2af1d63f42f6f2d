//! The figures of one comparison, computed from its samples: the paired
//! estimate the verdict rests on and its interval (across placements of the
//! measuring loop where there were several), the codeflash "best of N"
//! figure, and Paoloni's per-call times where the batch size varied.

use super::samples::{self, CONFIDENCE, Round, Samples, Side};
use crate::stats::{self, Interval, LinearFit, StatsError};

/// The numbers a report is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Geometric mean of the per-round ratios (original / candidate), each
    /// from overhead-cleared per-call times, after winsorizing their logs
    /// (see [`stats::winsorize`]).
    pub speedup: f64,
    /// Its 99% interval; `(0, ∞)` when there were too few rounds for one.
    pub ci: (f64, f64),
    /// Each placement of the measuring loop's own speedup, in placement
    /// order (one: the single loop); empty without an interval.
    pub placement_speedups: Vec<f64>,
    /// The same estimate from plain per-call times (batch time / size), to
    /// show what clearing the overhead changed.
    pub uncorrected_speedup: f64,
    /// Σ original / Σ candidate of the per-input times below.
    pub best_speedup: f64,
    /// Σ over inputs of the original's per-call time (see [`InputEstimate`]).
    pub original_ns: f64,
    /// Σ over inputs of the candidate's per-call time.
    pub candidate_ns: f64,
    /// Per input figures.
    pub per_input: Vec<InputEstimate>,
}

/// One input's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputEstimate {
    /// The original's per-call time: the regression slope where the batch
    /// size varied, else its minimum per-call time ("best of N").
    pub original_ns: f64,
    /// The candidate's, likewise.
    pub candidate_ns: f64,
    /// Geometric mean of this input's per-round ratios, overhead cleared.
    pub speedup: f64,
    /// The per-sample overhead cleared before taking ratios.
    pub overhead_ns: f64,
    /// Paoloni's regression for `[original, candidate]`, where the batch
    /// size varied.
    pub fits: [Option<LinearFit>; 2],
}

impl Estimate {
    /// Computes every figure from the samples; the interval is widened by
    /// `systematic` (see [`Plan::systematic_allowance`](crate::config::Plan::systematic_allowance)).
    pub fn from_samples(samples: &Samples, systematic: f64) -> Estimate {
        let overheads = samples.overheads();
        let per_input: Vec<InputEstimate> = (0..samples.inputs())
            .map(|input| input_estimate(samples, input, overheads[input]))
            .collect();
        let original_ns: f64 = per_input.iter().map(|input| input.original_ns).sum();
        let candidate_ns: f64 = per_input.iter().map(|input| input.candidate_ns).sum();
        let log_ratios = samples::log_ratios(&samples.rounds, &overheads);
        let (speedup, ci, placement_speedups) = match paired_interval(
            &log_ratios,
            &samples.rounds,
            samples.cycle_length(),
            samples.placements,
            systematic,
        ) {
            Ok(interval) => (
                interval.reported.center.exp(),
                interval.reported.exp_bounds(),
                interval
                    .placements
                    .iter()
                    .map(|center| center.exp())
                    .collect(),
            ),
            // Too few rounds for an interval: no bound on the ratio.
            Err(_) => (
                stats::median(&log_ratios).exp(),
                (0.0, f64::INFINITY),
                Vec::new(),
            ),
        };
        Estimate {
            speedup,
            ci,
            placement_speedups,
            uncorrected_speedup: robust_mean(&samples.uncorrected_log_ratios()).exp(),
            best_speedup: original_ns / candidate_ns,
            original_ns,
            candidate_ns,
            per_input,
        }
    }
}

/// The paired estimate's intervals, in log space.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedInterval {
    /// The statistical interval, which more rounds narrow: batch means over
    /// every round, or with several placements, within each placement's
    /// rounds, pooled ([`stats::pooled_robust_intervals`]).
    pub statistical: Interval,
    /// The interval reported and judged: the statistical one widened by the
    /// systematic allowance; with several placements, what another placement
    /// would measure ([`stats::across_placements`] of their own intervals,
    /// each so widened), its centre the mean of theirs.
    pub reported: Interval,
    /// Each placement's own estimate, in placement order (one entry for a
    /// single loop).
    pub placements: Vec<f64>,
}

/// The intervals of the paired estimate from each round's log ratio (in
/// time order, one per round of `rounds`), the rounds taking turns in
/// `placements` placements of the measuring loop, `ladder_cycle` rounds at a
/// time.
///
/// With one placement, the reported interval is the robust interval over
/// every round widened by `systematic` in quadrature. With several, each
/// placement's own rounds give its interval, so widened, and the reported
/// one is the interval of another placement's figure across them: where
/// placements agree it is about one placement's width, and where the loop's
/// placement moves the ratio it covers that spread.
///
/// Errors where the rounds, or one placement's rounds, are too few for an
/// interval.
pub fn paired_interval(
    log_ratios: &[f64],
    rounds: &[Round],
    cycle: usize,
    placements: usize,
    systematic: f64,
) -> Result<PairedInterval, StatsError> {
    if placements <= 1 {
        let statistical = stats::robust_interval(log_ratios, CONFIDENCE, cycle)?;
        return Ok(PairedInterval {
            statistical,
            reported: statistical.with_systematic(systematic),
            placements: vec![statistical.center],
        });
    }
    let series: Vec<Vec<f64>> = (0..placements)
        .map(|placement| {
            log_ratios
                .iter()
                .zip(rounds)
                .filter(|(_, round)| round.placement == placement)
                .map(|(&log_ratio, _)| log_ratio)
                .collect()
        })
        .collect();
    let (own, statistical) = stats::pooled_robust_intervals(&series, CONFIDENCE, cycle)?;
    let claimed: Vec<(f64, f64)> = own
        .iter()
        .map(|interval| {
            let widened = interval.with_systematic(systematic);
            (widened.center, widened.half_width)
        })
        .collect();
    let reported = Interval {
        blocks: statistical.blocks,
        ..stats::across_placements(&claimed, CONFIDENCE)?
    };
    Ok(PairedInterval {
        statistical,
        reported,
        placements: own.iter().map(|interval| interval.center).collect(),
    })
}

fn input_estimate(samples: &Samples, input: usize, overhead_ns: f64) -> InputEstimate {
    let fits = [Side::Original, Side::Candidate]
        .map(|side| samples::fit_input(&samples.rounds, input, side));
    let per_call = |side: Side| match fits[side as usize] {
        Some(fit) if fit.slope > 0.0 => fit.slope,
        _ => stats::minimum(
            samples
                .rounds
                .iter()
                .map(|round| round.per_call_ns[input][side as usize]),
        ),
    };
    let log_ratios: Vec<f64> = samples
        .rounds
        .iter()
        .map(|round| {
            let [original, candidate] = round.cleared_per_call_ns(input, overhead_ns);
            (original / candidate).ln()
        })
        .collect();
    InputEstimate {
        original_ns: per_call(Side::Original),
        candidate_ns: per_call(Side::Candidate),
        speedup: robust_mean(&log_ratios).exp(),
        overhead_ns,
        fits,
    }
}

/// The winsorized mean the paired estimate uses; `NaN` where a log ratio is
/// not finite (the sampler rules that out: every batch time it keeps is
/// positive and finite).
fn robust_mean(log_ratios: &[f64]) -> f64 {
    stats::winsorize(log_ratios, stats::WINSORIZE_SIGMAS)
        .map_or(f64::NAN, |values| stats::mean(&values))
}

#[cfg(test)]
mod tests {
    use super::samples::{Round, Stop};
    use super::*;
    use crate::time::Calibration;

    fn samples(rounds: Vec<Round>, ladders: Vec<&'static [u64]>) -> Samples {
        Samples {
            batch_sizes: rounds[0].batch_sizes.clone(),
            batch_limits: vec![None; rounds[0].batch_sizes.len()],
            ladders,
            rounds,
            placements: 1,
            shorter_call_ns: 0.0,
            warm_up_rounds: 0,
            stop: Stop::Converged,
            elapsed_ns: 0.0,
            calibration: Calibration {
                reading_cost_ns: 25.0,
                resolution_ns: 1.0,
                empty_call_ns: 0.0,
            },
        }
    }

    #[test]
    fn figures_from_hand_made_rounds() {
        // Two inputs; the first ten times the second's cost; fixed batches.
        let rounds: Vec<Round> = (0..8)
            .map(|i: usize| Round {
                original_first: i % 2 == 0,
                placement: 0,
                batch_sizes: vec![[10, 10], [100, 100]],
                per_call_ns: vec![[1_000.0 + i as f64, 500.0], [100.0, 100.0 - i as f64]],
            })
            .collect();
        let samples = samples(rounds, vec![&[1], &[1]]);
        let estimate = Estimate::from_samples(&samples, 0.0);
        assert_eq!(estimate.original_ns, 1_100.0);
        assert_eq!(estimate.candidate_ns, 500.0 + 93.0);
        assert_eq!(estimate.best_speedup, 1_100.0 / 593.0);
        assert_eq!(estimate.per_input[0].original_ns, 1_000.0);
        assert_eq!(estimate.per_input[0].fits, [None, None]);
        // Round 0's ratio is 1100 / 600.
        assert_eq!(samples.log_ratios()[0], (1_100.0f64 / 600.0).ln());
        let (low, high) = estimate.ci;
        assert!(low < estimate.speedup && estimate.speedup < high);
        assert!(
            estimate.speedup > 1.8 && estimate.speedup < 1.9,
            "{estimate:?}"
        );
        assert_eq!(estimate.speedup, estimate.uncorrected_speedup);
    }

    #[test]
    fn a_fixed_per_sample_cost_is_cleared_from_the_speedup_and_the_times() {
        // 2.5 ns against 2 ns, 50 ns per sample, batches of 200 on the ladder.
        let rounds: Vec<Round> = (0..64)
            .map(|round| {
                let batch = 200 * samples::ladder_step(samples::LADDER, round);
                Round {
                    original_first: round % 2 == 0,
                    placement: 0,
                    batch_sizes: vec![[batch, batch]],
                    per_call_ns: vec![[2.5, 2.0].map(|ns: f64| ns + 50.0 / batch as f64)],
                }
            })
            .collect();
        let estimate = Estimate::from_samples(&samples(rounds, vec![samples::LADDER]), 0.0);
        assert!((estimate.speedup - 1.25).abs() < 1e-9, "{estimate:?}");
        assert!((estimate.original_ns - 2.5).abs() < 1e-9);
        assert!((estimate.per_input[0].overhead_ns - 50.0).abs() < 1e-6);
        // Without clearing, the ratio is visibly pulled towards one.
        assert!(estimate.uncorrected_speedup < 1.24, "{estimate:?}");
    }
}
