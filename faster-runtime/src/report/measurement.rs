//! What measuring hands back: a comparison's figures as the engine
//! measured them, one slice's or every slice's combined, with no verdict and
//! no copy of the settings it was measured with. The judge
//! (`crate::judge`) turns one into a [`Report`](super::Report); a server
//! sends one to its parent (`crate::harness::Measured`).

use super::{GpuInfo, InputReport, Load, Notice, Placement, ProcessSummary, Report};
use crate::stats::samples::Stop;
use crate::stats::verdict::{Expect, Undecided, Verdict};
use crate::time::Calibration;
use std::time::Duration;

/// A comparison's figures as measured: the paired estimate and its 99%
/// interval, the rounds behind them, each input's figures and, where it was
/// measured in slices, each slice's own. The fields mean what the
/// [`Report`](super::Report) fields of the same names do, which are moved
/// here from.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Measurement {
    /// The heading, e.g. `sum_fast vs sum_naive`.
    pub name: String,
    /// Paired estimate of original time / candidate time.
    pub speedup: f64,
    /// The 99% interval of `speedup`.
    pub ci: (f64, f64),
    /// The part of `ci`'s half-width, in log space, allowed for what
    /// neither more rounds nor more layouts narrow (the plan's systematic
    /// allowance), added in quadrature; 0 where none was. What more
    /// measuring could narrow is the rest
    /// ([`Report::would_take`](super::Report::would_take) projects only that).
    pub systematic: f64,
    /// Σ min(original) / Σ min(candidate).
    pub best_speedup: f64,
    /// The paired estimate before the per-sample overhead was cleared.
    pub uncorrected_speedup: f64,
    /// The original's per-call time, summed over inputs.
    pub original_ns: f64,
    /// The candidate's per-call time, summed over inputs.
    pub candidate_ns: f64,
    /// Measured rounds, warm-up excluded.
    pub rounds: usize,
    /// Time spent measuring, output checks included.
    pub elapsed: Duration,
    /// Per input figures, in input order.
    pub inputs: Vec<InputReport>,
    /// Whether outputs were compared before timing.
    pub outputs_checked: bool,
    /// Why measuring stopped.
    pub stop: Stop,
    /// The timing source's name.
    pub timer: String,
    /// The timing source's reading cost and resolution.
    pub calibration: Calibration,
    /// What was observed while measuring (a timer that fell back, a
    /// thread that waited, outputs not compared and why).
    pub notices: Vec<Notice>,
    /// What else the machine did while measuring.
    pub load: Option<Load>,
    /// Each slice's own figures, under the slot it was measured in, in the
    /// order they ran (empty for a measurement in one process).
    pub processes: Vec<ProcessSummary>,
    /// How the measuring loop was placed in memory.
    pub placement: Placement,
    /// Each measured round's `ln(original / candidate)`, in time order.
    pub round_log_ratios: Vec<f64>,
    /// Whether the original ran first in each measured round.
    pub round_original_first: Vec<bool>,
    /// Rounds spent warming up before measuring.
    pub warm_up_rounds: usize,
    /// Where two GPU kernels ran; `None` on the CPU.
    pub gpu: Option<GpuInfo>,
    /// Where the original's and the candidate's code start within a cache
    /// line in the process that measured (a slice a server measured).
    pub offsets: Option<[u8; 2]>,
}

impl Report {
    /// The report of `measurement` with `verdict`, at `noise_floor`, held to
    /// `expect` (`if_undecided` what an undecided verdict does): the
    /// judge's verdict (`crate::judge`, which alone decides one), or the one
    /// a stored document recorded. No scope or compiled code yet: the
    /// judge's context, or the document's, adds them.
    pub(crate) fn recorded(
        measurement: Measurement,
        verdict: Verdict,
        (noise_floor, expect, if_undecided): (f64, Expect, Undecided),
    ) -> Report {
        let Measurement {
            name,
            speedup,
            ci,
            systematic,
            best_speedup,
            uncorrected_speedup,
            original_ns,
            candidate_ns,
            rounds,
            elapsed,
            inputs,
            outputs_checked,
            stop,
            timer,
            calibration,
            notices,
            load,
            processes,
            placement,
            round_log_ratios,
            round_original_first,
            warm_up_rounds,
            gpu,
            offsets,
        } = measurement;
        Report {
            name,
            verdict,
            downgraded: false,
            speedup,
            ci,
            systematic,
            best_speedup,
            uncorrected_speedup,
            original_ns,
            candidate_ns,
            rounds,
            elapsed,
            noise_floor,
            expect,
            if_undecided,
            inputs,
            outputs_checked,
            stop,
            timer,
            calibration,
            warnings: notices.iter().map(Notice::to_string).collect(),
            load,
            processes,
            scope: None,
            placement,
            round_log_ratios,
            round_original_first,
            warm_up_rounds,
            gpu,
            offsets,
            compiled_code: None,
        }
    }

    /// The measurement this report judged, its judgement and context set
    /// aside: what a reader of a stored report (a shard's document) hands
    /// the judge to judge it again.
    pub(crate) fn measurement(&self) -> Measurement {
        Measurement {
            name: self.name.clone(),
            speedup: self.speedup,
            ci: self.ci,
            systematic: self.systematic,
            best_speedup: self.best_speedup,
            uncorrected_speedup: self.uncorrected_speedup,
            original_ns: self.original_ns,
            candidate_ns: self.candidate_ns,
            rounds: self.rounds,
            elapsed: self.elapsed,
            inputs: self.inputs.clone(),
            outputs_checked: self.outputs_checked,
            stop: self.stop,
            timer: self.timer.clone(),
            calibration: self.calibration,
            // Already said: a stored report keeps its notices as words.
            notices: self.warnings.iter().cloned().map(Notice::Said).collect(),
            load: self.load,
            processes: self.processes.clone(),
            placement: self.placement.clone(),
            round_log_ratios: self.round_log_ratios.clone(),
            round_original_first: self.round_original_first.clone(),
            warm_up_rounds: self.warm_up_rounds,
            gpu: self.gpu.clone(),
            offsets: self.offsets,
        }
    }
}
