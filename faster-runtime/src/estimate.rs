//! The figures of one comparison, computed from its samples: the paired
//! estimate the verdict rests on, and the codeflash "best of N" figure.

use crate::sampler::{CONFIDENCE, Samples};
use crate::stats;

/// The numbers a report is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Geometric mean of the per-round ratios (original / candidate), after
    /// winsorizing their logs (see [`stats::winsorize`]).
    pub speedup: f64,
    /// Its 99% interval; `(0, ∞)` when there were too few rounds for one.
    pub ci: (f64, f64),
    /// Σ min(original) / Σ min(candidate) over the inputs.
    pub best_speedup: f64,
    /// Σ over inputs of the original's minimum per-call time.
    pub original_ns: f64,
    /// Σ over inputs of the candidate's minimum per-call time.
    pub candidate_ns: f64,
    /// Per input: minimum per-call times and the input's own paired speedup.
    pub per_input: Vec<InputEstimate>,
}

/// One input's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputEstimate {
    /// The original's minimum per-call time.
    pub original_ns: f64,
    /// The candidate's minimum per-call time.
    pub candidate_ns: f64,
    /// Geometric mean of this input's per-round ratios.
    pub speedup: f64,
}

impl Estimate {
    /// Computes every figure from the samples.
    pub fn from_samples(samples: &Samples) -> Estimate {
        let inputs = samples.batch_sizes.len();
        let per_input: Vec<InputEstimate> = (0..inputs)
            .map(|input| {
                let times = || samples.rounds.iter().map(move |round| round.per_call_ns[input]);
                let log_ratios: Vec<f64> =
                    times().map(|[original, candidate]| (original / candidate).ln()).collect();
                InputEstimate {
                    original_ns: stats::minimum(times().map(|[original, _]| original)),
                    candidate_ns: stats::minimum(times().map(|[_, candidate]| candidate)),
                    speedup: stats::mean(&stats::winsorize(&log_ratios, stats::WINSORIZE_SIGMAS)).exp(),
                }
            })
            .collect();
        let original_ns: f64 = per_input.iter().map(|input| input.original_ns).sum();
        let candidate_ns: f64 = per_input.iter().map(|input| input.candidate_ns).sum();
        let (speedup, ci) = match stats::robust_interval(&samples.log_ratios, CONFIDENCE) {
            Some(interval) => (interval.center.exp(), interval.exp_bounds()),
            None => (stats::median(&samples.log_ratios).exp(), (0.0, f64::INFINITY)),
        };
        Estimate {
            speedup,
            ci,
            best_speedup: original_ns / candidate_ns,
            original_ns,
            candidate_ns,
            per_input,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Calibration;
    use crate::sampler::{Round, Stop};

    #[test]
    fn figures_from_hand_made_rounds() {
        // Two inputs; the first ten times the second's cost.
        let rounds: Vec<Round> = (0..8)
            .map(|i| Round {
                original_first: i % 2 == 0,
                per_call_ns: vec![[1_000.0 + i as f64, 500.0], [100.0, 100.0 - i as f64]],
            })
            .collect();
        let samples = Samples {
            batch_sizes: vec![10, 100],
            log_ratios: rounds.iter().map(Round::log_ratio).collect(),
            rounds,
            warm_up_rounds: 0,
            stop: Stop::Converged,
            elapsed_ns: 0.0,
            calibration: Calibration {
                reading_cost_ns: 0.0,
                resolution_ns: 0.0,
            },
        };
        let estimate = Estimate::from_samples(&samples);
        assert_eq!(estimate.original_ns, 1_100.0);
        assert_eq!(estimate.candidate_ns, 500.0 + 93.0);
        assert_eq!(estimate.best_speedup, 1_100.0 / 593.0);
        assert_eq!(estimate.per_input[0].original_ns, 1_000.0);
        // Round 0's ratio is 1100 / 600.
        assert_eq!(samples.log_ratios[0], (1_100.0f64 / 600.0).ln());
        let (low, high) = estimate.ci;
        assert!(low < estimate.speedup && estimate.speedup < high);
        assert!(estimate.speedup > 1.8 && estimate.speedup < 1.9, "{estimate:?}");
    }
}
