//! What the runs of a cell add up to: per method, the estimate's accuracy,
//! the interval's coverage and the verdicts counted against the truth; and
//! which of the targets a cell misses.

use crate::matrix::{Cell, Workload};
use crate::reference::Truth;
use faster::Verdict;
use faster_runtime::__internal::median;

/// One method's conclusion in one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub speedup: f64,
    pub ci: (f64, f64),
    pub verdict: Verdict,
}

/// One run of the engine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineRun {
    pub outcome: Outcome,
    /// Wall time of the comparison (`Report::elapsed`).
    pub seconds: f64,
    pub rounds: usize,
    /// Whether the budget, not convergence, ended it.
    pub budget_stop: bool,
    /// Calls per timed sample of `[original, candidate]` (first input).
    pub batch: [u64; 2],
    /// How far past the budget it ran, in rounds (zero when within it).
    pub overrun_rounds: f64,
}

/// One run of a cell: the engine, then the sequential method for the same
/// time, then (on identical functions) the engine again for a fixed length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub engine: EngineRun,
    pub sequential: Option<Outcome>,
    pub fixed: Option<EngineRun>,
}

/// Everything measured for one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellResult {
    pub cell: Cell,
    /// What each side runs, e.g. `580 vs 464 steps`.
    pub construction: String,
    pub truth: Truth,
    pub runs: Vec<Run>,
    /// Wall time of the whole cell, reference included.
    pub seconds: f64,
}

/// One method's figures over a cell's runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tally {
    pub runs: usize,
    pub median_speedup: f64,
    /// Median of |estimate / truth − 1|.
    pub median_error: f64,
    /// Median of estimate / truth − 1: the error's systematic part.
    pub median_bias: f64,
    /// Median half-width of the 99% interval, relative to the estimate.
    pub median_half_width: f64,
    pub worst_error: f64,
    /// The 95th percentile of the error: about the half-width an interval
    /// needs to hold the truth in 95% of runs.
    pub p95_error: f64,
    /// Runs whose 99% interval holds the truth.
    pub covered: usize,
    /// Runs whose 99% interval meets the truth's own 99% interval: what
    /// coverage would be if the truth were known no better than that.
    pub covered_loosely: usize,
    /// Verdicts: faster, within noise, slower.
    pub faster: usize,
    pub within_noise: usize,
    pub slower: usize,
    /// Any verdict on identical functions.
    pub false_verdicts: usize,
    /// A verdict in the wrong direction.
    pub reversals: usize,
    /// `WithinNoise` where the true difference is at least twice the floor.
    pub misses: usize,
}

impl Tally {
    pub fn of(outcomes: &[Outcome], truth: &Truth, identical: bool, noise_floor: f64) -> Tally {
        let (low, high) = (
            truth.ratio * (1.0 - truth.uncertainty),
            truth.ratio * (1.0 + truth.uncertainty),
        );
        let truth = truth.ratio;
        let decisive = truth >= 1.0 + 2.0 * noise_floor || 1.0 / truth >= 1.0 + 2.0 * noise_floor;
        let biases: Vec<f64> = outcomes.iter().map(|o| o.speedup / truth - 1.0).collect();
        let mut errors: Vec<f64> = biases.iter().map(|bias| bias.abs()).collect();
        let half_widths: Vec<f64> = outcomes
            .iter()
            .map(|o| (o.ci.1 - o.ci.0) / 2.0 / o.speedup)
            .collect();
        let speedups: Vec<f64> = outcomes.iter().map(|o| o.speedup).collect();
        let count = |test: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| test(o)).count();
        Tally {
            runs: outcomes.len(),
            median_speedup: median(&speedups),
            median_error: median(&errors),
            median_bias: median(&biases),
            median_half_width: median(&half_widths),
            worst_error: errors.iter().copied().fold(0.0, f64::max),
            p95_error: quantile(&mut errors, 0.95),
            covered: count(&|o| o.ci.0 <= truth && truth <= o.ci.1),
            covered_loosely: count(&|o| o.ci.0 <= high && low <= o.ci.1),
            faster: count(&|o| o.verdict == Verdict::Faster),
            within_noise: count(&|o| o.verdict == Verdict::WithinNoise),
            slower: count(&|o| o.verdict == Verdict::Slower),
            false_verdicts: if identical {
                count(&|o| o.verdict != Verdict::WithinNoise)
            } else {
                0
            },
            reversals: if identical {
                0
            } else {
                count(&|o| {
                    (truth > 1.0 && o.verdict == Verdict::Slower)
                        || (truth < 1.0 && o.verdict == Verdict::Faster)
                })
            },
            misses: if decisive {
                count(&|o| o.verdict == Verdict::WithinNoise)
            } else {
                0
            },
        }
    }

    /// Share of runs whose interval holds the truth.
    pub fn coverage(&self) -> f64 {
        self.covered as f64 / self.runs.max(1) as f64
    }

    /// Share of runs whose interval meets the truth's interval.
    pub fn loose_coverage(&self) -> f64 {
        self.covered_loosely as f64 / self.runs.max(1) as f64
    }
}

/// The engine's timing over a cell's runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Timing {
    pub median_seconds: f64,
    pub max_seconds: f64,
    pub median_rounds: f64,
    /// Runs the budget ended.
    pub budget_stops: usize,
    /// Runs that went more than one round past the budget.
    pub overruns: usize,
}

impl Timing {
    pub fn of(runs: &[EngineRun]) -> Timing {
        let seconds: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        let rounds: Vec<f64> = runs.iter().map(|r| r.rounds as f64).collect();
        Timing {
            median_seconds: median(&seconds),
            max_seconds: seconds.iter().copied().fold(0.0, f64::max),
            median_rounds: median(&rounds),
            budget_stops: runs.iter().filter(|r| r.budget_stop).count(),
            overruns: runs.iter().filter(|r| r.overrun_rounds > 1.0).count(),
        }
    }
}

/// A cell's figures, per method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub engine: Tally,
    pub timing: Timing,
    pub sequential: Option<Tally>,
    /// The engine run for a fixed length (identical functions only).
    pub fixed: Option<Tally>,
    pub fixed_timing: Option<Timing>,
}

impl Summary {
    pub fn of(result: &CellResult, noise_floor: f64) -> Summary {
        let identical = result.cell.identical();
        let tally =
            |outcomes: Vec<Outcome>| Tally::of(&outcomes, &result.truth, identical, noise_floor);
        let engine: Vec<EngineRun> = result.runs.iter().map(|r| r.engine).collect();
        let fixed: Vec<EngineRun> = result.runs.iter().filter_map(|r| r.fixed).collect();
        let sequential: Vec<Outcome> = result.runs.iter().filter_map(|r| r.sequential).collect();
        Summary {
            engine: tally(engine.iter().map(|r| r.outcome).collect()),
            timing: Timing::of(&engine),
            sequential: (!sequential.is_empty()).then(|| tally(sequential)),
            fixed: (!fixed.is_empty()).then(|| tally(fixed.iter().map(|r| r.outcome).collect())),
            fixed_timing: (!fixed.is_empty()).then(|| Timing::of(&fixed)),
        }
    }
}

/// The targets (issue 3, item 2) this cell's engine figures miss,
/// each as a short phrase with the figure.
pub fn shortfalls(cell: &Cell, summary: &Summary) -> Vec<String> {
    let engine = &summary.engine;
    let runs = engine.runs;
    let mut missed = Vec::new();
    if cell.identical() && engine.false_verdicts * 200 > runs {
        missed.push(format!(
            "false verdicts {}/{runs} (≤ 1 in 200)",
            engine.false_verdicts
        ));
    }
    if engine.reversals > 0 {
        missed.push(format!("reversals {}/{runs} (none)", engine.reversals));
    }
    let (wanted, name) = if cell.ratio == 0.8 {
        (engine.slower, "slower")
    } else {
        (engine.faster, "faster")
    };
    if [1.25, 2.0, 0.8].contains(&cell.ratio) && wanted * 100 < runs * 99 {
        missed.push(format!("{name} {wanted}/{runs} (≥ 99%)"));
    }
    let tiny = matches!(cell.scale.workload, Workload::Chain { ns } if ns < 1e3);
    let error_target = if tiny { 0.02 } else { 0.01 };
    if engine.median_error >= error_target {
        missed.push(format!(
            "median error {:.2}% (< {:.0}%)",
            100.0 * engine.median_error,
            100.0 * error_target
        ));
    }
    if engine.coverage() < 0.95 {
        missed.push(format!("coverage {}/{runs} (≥ 95%)", engine.covered));
    }
    if cell.scale.name == "1us" && cell.ratio == 1.25 && summary.timing.median_seconds >= 1.0 {
        missed.push(format!(
            "median time {:.2} s (< 1 s)",
            summary.timing.median_seconds
        ));
    }
    if summary.timing.overruns > 0 {
        missed.push(format!(
            "over budget by > 1 round {}/{runs} (never)",
            summary.timing.overruns
        ));
    }
    missed
}

/// The `q` quantile (nearest rank); `NaN` when empty.
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let rank = (q * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::{Noise, SCALES};

    fn exact(ratio: f64) -> Truth {
        Truth {
            ratio,
            ..Truth::exact_one()
        }
    }

    fn outcome(speedup: f64, ci: (f64, f64), verdict: Verdict) -> Outcome {
        Outcome {
            speedup,
            ci,
            verdict,
        }
    }

    #[test]
    fn verdicts_are_counted_against_the_truth() {
        let outcomes = [
            outcome(1.25, (1.20, 1.30), Verdict::Faster),
            outcome(1.02, (0.90, 1.10), Verdict::WithinNoise), // a miss, covering
            outcome(0.90, (0.85, 0.94), Verdict::Slower),      // a reversal
        ];
        let tally = Tally::of(&outcomes, &exact(1.25), false, 0.05);
        assert_eq!((tally.faster, tally.within_noise, tally.slower), (1, 1, 1));
        assert_eq!(
            (tally.misses, tally.reversals, tally.false_verdicts),
            (1, 1, 0)
        );
        assert_eq!(tally.covered, 1);
        assert_eq!(tally.median_speedup, 1.02);
        assert!((tally.worst_error - (1.0 - 0.90 / 1.25)).abs() < 1e-12);
        assert_eq!(tally.p95_error, tally.worst_error);
        assert_eq!(quantile(&mut [3.0, 1.0, 2.0, 4.0], 0.5), 2.0);
    }

    #[test]
    fn any_verdict_on_identical_functions_is_false() {
        let outcomes = [
            outcome(1.0, (0.99, 1.01), Verdict::WithinNoise),
            outcome(1.07, (1.05, 1.09), Verdict::Faster),
        ];
        let tally = Tally::of(&outcomes, &Truth::exact_one(), true, 0.05);
        assert_eq!(
            (tally.false_verdicts, tally.reversals, tally.misses),
            (1, 0, 0)
        );
    }

    #[test]
    fn below_twice_the_floor_within_noise_is_no_miss() {
        let outcomes = [outcome(1.05, (1.0, 1.1), Verdict::WithinNoise)];
        assert_eq!(Tally::of(&outcomes, &exact(1.05), false, 0.05).misses, 0);
        assert_eq!(Tally::of(&outcomes, &exact(0.8), false, 0.05).misses, 1);
    }

    #[test]
    fn loose_coverage_allows_for_the_truths_own_uncertainty() {
        let outcomes = [outcome(1.251, (1.2505, 1.2515), Verdict::Faster)];
        let truth = Truth {
            uncertainty: 0.001,
            ..exact(1.2495)
        };
        let tally = Tally::of(&outcomes, &truth, false, 0.05);
        assert_eq!((tally.covered, tally.covered_loosely), (0, 1));
    }

    #[test]
    fn shortfalls_name_the_missed_targets() {
        let cell = Cell {
            scale: SCALES[2],
            ratio: 1.25,
            noise: Noise::Quiet,
        };
        let runs: Vec<Run> = (0..10)
            .map(|i| Run {
                engine: EngineRun {
                    outcome: outcome(
                        1.25,
                        (1.26, 1.3),
                        if i == 0 {
                            Verdict::WithinNoise
                        } else {
                            Verdict::Faster
                        },
                    ),
                    seconds: 0.02,
                    rounds: 32,
                    budget_stop: false,
                    batch: [32, 40],
                    overrun_rounds: 0.0,
                },
                sequential: None,
                fixed: None,
            })
            .collect();
        let result = CellResult {
            cell,
            construction: String::new(),
            truth: exact(1.25),
            runs,
            seconds: 1.0,
        };
        let missed = shortfalls(&cell, &Summary::of(&result, 0.05));
        assert_eq!(missed, vec!["faster 9/10 (≥ 99%)", "coverage 0/10 (≥ 95%)"]);
    }
}
