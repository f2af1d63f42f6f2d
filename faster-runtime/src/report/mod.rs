//! The result of one comparison as data: [`Report`] and its
//! per-input and per-process figures, the outcome of a registered
//! comparison, the versioned document they are stored as (schema
//! [`SCHEMA`]), where they were measured, and the units figures are written
//! in ([`format_ns`], [`format_rate`]). Nothing here prints: the outputs
//! lay these out.
//!
//! Public as `faster::report`: the types a [`Report`]'s
//! fields hold, what its methods return, and the functions that write its
//! figures as the report does; the report itself is also at the root.

pub(crate) mod apart;
pub(crate) mod compiled_code;
pub(crate) mod document;
pub(crate) mod environment;
pub(crate) mod layouts;
mod measurement;
pub(crate) mod notice;
pub(crate) mod outcome;
pub(crate) mod run;
pub(crate) mod throughput;
pub(crate) mod units;
pub(crate) mod would_take;

pub use crate::stats::LinearFit;
pub use crate::stats::samples::{BatchLimit, Stop};
pub use crate::stats::verdict::NoiseFloor;
pub use apart::{BestOfApart, InputChange, InputsAgainstHeadline};
pub use compiled_code::{Callee, CompiledCode};
pub use document::SCHEMA;
pub use layouts::MeansApart;
pub use measurement::Measurement;
pub use notice::Notice;
pub use units::{format_ns, format_rate};
pub use would_take::{MOST_LAYOUTS_OF_A_RUN, Over, WouldTake};

pub(crate) use document::Document;
pub(crate) use environment::Environment;
pub(crate) use outcome::{Outcome, Source, Status};
pub(crate) use run::{RUN_FILE, RunDocument};

use crate::stats::verdict::{Expect, Undecided, Verdict};
use crate::time::Calibration;
use std::time::Duration;

/// The outcome of one comparison: the verdict, the figures behind it, and
/// anything the reader should know about how they were obtained.
///
/// `Display` prints the heading, the codeflash-style runtime line, the
/// speedup with its interval and the verdict, a per-input table when there
/// are several inputs (or throughput), and warnings — within 80 columns.
/// With `processes = N` the figures combine every process's: per-call times
/// are the best of all of them, and the rounds of all processes are kept,
/// in order, so every count agrees with the data.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// The heading, e.g. `sum_fast vs sum_naive`.
    pub name: String,
    /// What the interval shows against the noise floor.
    pub verdict: Verdict,
    /// Whether `verdict` reads `within noise` where the interval reads
    /// `faster` or `slower`, because the floor was too close to this
    /// machine's noise and the run was strict (`FASTER_STRICT=1`).
    pub downgraded: bool,
    /// Paired estimate of original time / candidate time (> 1: candidate
    /// faster): the geometric mean of the per-round ratios.
    pub speedup: f64,
    /// The 99% interval of `speedup`.
    pub ci: (f64, f64),
    /// The part of `ci`'s half-width, in log space, allowed for what
    /// neither more rounds nor more layouts narrow, added in quadrature
    /// (see [`Measurement::systematic`]).
    pub systematic: f64,
    /// Σ min(original) / Σ min(candidate): the "best of N" figure.
    pub best_speedup: f64,
    /// The paired estimate from plain per-call times (batch time / batch
    /// size), before the per-sample overhead was cleared: what Paoloni's
    /// regression corrected. Equal to `speedup` where batches did not vary.
    pub uncorrected_speedup: f64,
    /// The original's per-call time, summed over inputs: on each its
    /// minimum, or the regression slope where the batch size varied (with
    /// `processes = N`, the fastest any process measured).
    pub original_ns: f64,
    /// The candidate's per-call time, summed over inputs, likewise.
    pub candidate_ns: f64,
    /// Measured rounds ("best of N runs"), warm-up excluded.
    pub rounds: usize,
    /// Time spent measuring, output checks included: in one process, from
    /// the checks to the last round; in several (a replicated comparison),
    /// each slice's own such time, summed. Making the inputs is not
    /// counted, nor starting processes: it is not the wall time of the
    /// test.
    pub elapsed: Duration,
    /// The floor the verdict was judged against.
    pub noise_floor: f64,
    /// What the comparison had to show.
    pub expect: Expect,
    /// What a verdict that did not decide `expect` does to the run.
    pub if_undecided: Undecided,
    /// Per input figures, in input order.
    pub inputs: Vec<InputReport>,
    /// Whether outputs were compared before timing (`false` for `check = skip`).
    pub outputs_checked: bool,
    /// Why measuring stopped.
    pub stop: Stop,
    /// The timing source's name.
    pub timer: String,
    /// The timing source's measured reading cost and resolution.
    pub calibration: Calibration,
    /// Things the reader should know: a noisy machine, a short budget, ...
    pub warnings: Vec<String>,
    /// What else the machine did while measuring, where it could be told
    /// (measurements of at least 0.2 s, on Linux).
    pub load: Option<Load>,
    /// Each process's own figures, in the order they ran, where the
    /// comparison was measured in several (empty for one measured here).
    pub processes: Vec<ProcessSummary>,
    /// Whether the verdict is about the code or about this build: the
    /// layouts its processes ran in. `None` where no harness said (a
    /// [`compare_fns`](crate::compare_fns) report).
    pub scope: Option<Scope>,
    /// How the measuring loop was placed in memory: in several placements
    /// for short calls, whose spread the interval includes (with
    /// `processes = N`, the measuring process's).
    pub placement: Placement,
    /// Each measured round's `ln(original / candidate)`, in time order: the
    /// data the estimate and its interval are computed from (overhead
    /// cleared where the batch size varied).
    pub round_log_ratios: Vec<f64>,
    /// Whether the original ran first in each measured round, in time order.
    pub round_original_first: Vec<bool>,
    /// Rounds spent warming up before measuring (not in `rounds`).
    pub warm_up_rounds: usize,
    /// Where two GPU kernels ran (`faster::gpu`); `None` for functions
    /// compared on the CPU.
    pub gpu: Option<GpuInfo>,
    /// Where the original's and the candidate's code start within a 64-byte
    /// cache line, in bytes, in the process that measured: for a slice a
    /// server measured (read from the registered comparison's functions);
    /// `None` elsewhere, a report of slices combined included (each slice's
    /// is its [`ProcessSummary::offsets`]). Not part of the JSON document:
    /// a server's answer carries it beside the document.
    pub offsets: Option<[u8; 2]>,
    /// Across revisions, the function's source and timed machine code in
    /// each (`cargo faster`), where the platform can tell; `None` for
    /// other comparisons.
    pub compiled_code: Option<CompiledCode>,
}

/// The GPU a comparison of two kernels ran on, and how its samples were
/// taken. Which clock timed them is [`Report::timer`]: the GPU's own
/// timestamps, or the wall clock around each submission where the adapter
/// has no timestamp queries.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GpuInfo {
    /// The adapter's name (`NVIDIA GeForce RTX 4090`, `llvmpipe (LLVM 15.0.6,
    /// 256 bits)`).
    pub adapter: String,
    /// The graphics API it was driven through: `Vulkan`, `Metal`, `DX12`, ...
    pub backend: String,
    /// `discrete GPU`, `integrated GPU`, `virtual GPU`, `CPU` (a software
    /// rasterizer such as Mesa's lavapipe) or `other`.
    pub device_type: String,
    /// The driver and its version, as the adapter reports them (may be
    /// empty).
    pub driver: String,
    /// Bytes written between samples to flush the caches, so every sample
    /// starts cold; `None` when flushing was turned off (kernels meant to
    /// run warm).
    pub cache_flush_bytes: Option<u64>,
}

/// One input's figures.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct InputReport {
    /// The input's position in the input set.
    pub index: usize,
    /// Calls per timed sample of `[original, candidate]` (the smallest, where
    /// the size varied): each side's own, so both samples last about as long.
    pub batch_sizes: [u64; 2],
    /// What held the batches below the sample length the timer needs, where
    /// something did.
    pub batch_limit: Option<BatchLimit>,
    /// The original's per-call time: its minimum, or the regression slope.
    pub original_ns: f64,
    /// The candidate's per-call time, likewise.
    pub candidate_ns: f64,
    /// This input's paired speedup (geometric mean of its per-round ratios).
    pub speedup: f64,
    /// The per-sample overhead cleared before taking ratios.
    pub overhead_ns: f64,
    /// Paoloni's regression of minimum batch time on batch size for
    /// `[original, candidate]`, where the batch size varied.
    pub fits: [Option<LinearFit>; 2],
    /// A name for the input in tables and the JSON report
    /// ([`Report::with_input_labels`]); its index when `None`.
    pub label: Option<String>,
    /// Floating-point operations per call on this input (`flops = ...`,
    /// [`Report::with_flops`]), for GFLOP/s.
    pub flops: Option<u64>,
    /// Bytes read and written per call on this input (`bytes = ...`,
    /// [`Report::with_bytes`]), for GB/s.
    pub bytes: Option<u64>,
    /// Per measured round, `[original, candidate]` per-call time in
    /// nanoseconds (batch time / batch size), in time order: what the plot
    /// shows.
    pub round_ns: Vec<[f64; 2]>,
}

impl InputReport {
    /// How tables and warnings name the input: its label, or its index
    /// where it has none.
    pub fn name(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.index.to_string())
    }
}

/// The other work the machine did while a comparison was measured.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct Load {
    /// Other processes' CPU use, in cores (1 = one core kept busy).
    pub other_processes: f64,
    /// Other threads of this process (tests running alongside), in cores.
    pub other_threads: f64,
    /// The share of the machine's CPU time the hypervisor held back.
    pub steal: f64,
}

impl Load {
    /// The larger of each figure: the load of a measurement made of several
    /// (the processes of a replicated comparison).
    pub fn max(self, other: Load) -> Load {
        Load {
            other_processes: self.other_processes.max(other.other_processes),
            other_threads: self.other_threads.max(other.other_threads),
            steal: self.steal.max(other.steal),
        }
    }
}

/// Where the measuring loop ran: the choice between one loop and several
/// placements of it, what it rested on, and what each placement read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Placement {
    /// Under this per-call time the rounds take turns in several placements
    /// (the engine's `Plan::placement_threshold`).
    pub threshold_ns: f64,
    /// The shorter function's per-call time summed over inputs, as the
    /// warm-up measured it: what was set against the threshold.
    pub shorter_call_ns: f64,
    /// How many placements the rounds took turns in (1: the single loop).
    pub count: usize,
    /// Each placement's own paired speedup, in placement order; empty where
    /// there were too few rounds for an interval.
    pub speedups: Vec<f64>,
}

impl Placement {
    /// The lowest and the highest of the placements' speedups; `None`
    /// where there were too few rounds for each placement's own figure.
    pub fn range(&self) -> Option<(f64, f64)> {
        let mut speedups = self.speedups.iter().copied();
        let first = speedups.next()?;
        Some(speedups.fold((first, first), |(low, high), speedup| {
            (low.min(speedup), high.max(speedup))
        }))
    }

    /// How far apart the placements read: the largest speedup over the
    /// smallest, minus one (0 for a single loop, or without figures).
    pub fn spread(&self) -> f64 {
        self.range().map_or(0.0, |(low, high)| high / low - 1.0)
    }
}

/// One process's own figures in a comparison replicated across processes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ProcessSummary {
    /// Its paired speedup.
    pub speedup: f64,
    /// Its own 99% interval.
    pub ci: (f64, f64),
    /// The rounds it measured (its share of [`Report::rounds`]).
    pub rounds: usize,
    /// The slot it was measured in (from 1): the process, the server and,
    /// where layouts vary, the layout that measured it, as the
    /// replication recorded it when the slice came back.
    pub slot: u32,
    /// The layout of the binary it ran in (its `--shuffle-sections` seed),
    /// where layouts were varied.
    pub layout: Option<u32>,
    /// Where the original's and the candidate's timed code start within a
    /// 64-byte cache line, in bytes, where the process reported it (see
    /// `engine::offsets`); not part of the JSON document.
    pub offsets: Option<[u8; 2]>,
}

impl ProcessSummary {
    /// A slice's figures as a replication records them: `speedup` with its
    /// own interval `ci` over `rounds` rounds, measured in slot `slot`, in no
    /// layout and at no reported offsets. (For a simulation of the stopping
    /// rule; a replicated comparison makes its own.)
    pub fn new(speedup: f64, ci: (f64, f64), rounds: usize, slot: u32) -> ProcessSummary {
        ProcessSummary {
            speedup,
            ci,
            rounds,
            slot,
            layout: None,
            offsets: None,
        }
    }
}

/// How far a verdict reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scope {
    /// Each process ran in a layout of the binary of its own, so the
    /// interval covers where the linker puts the code: the verdict is about
    /// the source.
    Layouts,
    /// Every process ran this one binary, for the reason given: the verdict
    /// holds for this build, whose link order may favour either function.
    ThisBuild(String),
}

impl Report {
    /// Whether the verdict meets the expectation (`expect = ...`): and,
    /// where it did not decide it, whether undecided verdicts pass
    /// ([`Report::if_undecided`]).
    pub fn passed(&self) -> bool {
        self.verdict.meets(self.expect) && (self.decided() || self.if_undecided.passes(self.expect))
    }

    /// Whether the verdict decided what the expectation asks: `false` when
    /// the interval could not rule out a change of the floor's size in the
    /// direction `expect` cares about (see [`Verdict::decides`]).
    pub fn decided(&self) -> bool {
        self.floor().decides(self.verdict, self.ci, self.expect)
    }

    /// The floor the verdict was judged against, with its thresholds.
    pub fn floor(&self) -> NoiseFloor {
        NoiseFloor::new(self.noise_floor)
    }

    /// The smallest change (a fraction, either way) an interval as wide as
    /// this one judges (see [`Verdict::judged_beyond`]): what an undecided
    /// report says it could judge.
    pub fn judged_beyond(&self) -> f64 {
        self.floor().judged_beyond(self.ci)
    }
}

/// Reports made by hand, for the tests of everything that renders one.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A report of the design's example: one input, 32.8 µs → 29.2 µs.
    pub(crate) fn report(speedup: f64, ci: (f64, f64), verdict: Verdict, expect: Expect) -> Report {
        let rounds = 315;
        Report {
            name: "sum_fast vs sum_naive".into(),
            verdict,
            downgraded: false,
            speedup,
            ci,
            systematic: crate::config::plan::SYSTEMATIC_ALLOWANCE,
            best_speedup: speedup,
            uncorrected_speedup: speedup,
            original_ns: 32_812.0,
            candidate_ns: 29_204.0,
            rounds,
            elapsed: Duration::from_millis(120),
            noise_floor: 0.05,
            expect,
            if_undecided: Undecided::Pass,
            inputs: vec![input(0, 32_812.0, 29_204.0, rounds)],
            outputs_checked: true,
            stop: Stop::Converged,
            timer: "monotonic clock".into(),
            calibration: Calibration {
                reading_cost_ns: 25.0,
                resolution_ns: 1.0,
                empty_call_ns: 0.3,
            },
            warnings: vec![],
            load: None,
            processes: vec![],
            scope: None,
            placement: Placement {
                threshold_ns: 10.0,
                shorter_call_ns: 29_204.0,
                count: 1,
                speedups: vec![speedup],
            },
            round_log_ratios: (0..rounds)
                .map(|round| speedup.ln() + 0.001 * (round % 3) as f64)
                .collect(),
            round_original_first: (0..rounds).map(|round| round % 2 == 0).collect(),
            warm_up_rounds: 6,
            gpu: None,
            offsets: None,
            compiled_code: None,
        }
    }

    /// The measurement of [`report`]'s figures, not yet judged.
    pub(crate) fn measurement(speedup: f64, ci: (f64, f64)) -> Measurement {
        report(speedup, ci, Verdict::WithinNoise, Expect::Report).measurement()
    }

    /// One input whose rounds drift upwards together on both sides.
    pub(crate) fn input(
        index: usize,
        original_ns: f64,
        candidate_ns: f64,
        rounds: usize,
    ) -> InputReport {
        InputReport {
            index,
            batch_sizes: [64, 64],
            batch_limit: None,
            original_ns,
            candidate_ns,
            speedup: original_ns / candidate_ns,
            overhead_ns: 0.0,
            fits: [None, None],
            label: None,
            flops: None,
            bytes: None,
            round_ns: (0..rounds)
                .map(|round| {
                    let drift = 1.0 + 0.01 * round as f64;
                    [original_ns * drift, candidate_ns * drift]
                })
                .collect(),
        }
    }

    /// A regression guard that could not judge: 1.03x slower [99% CI 0.87x
    /// – 1.22x] at a 5% floor, where only a change beyond 24% could be
    /// judged.
    pub(crate) fn undecided_guard() -> Report {
        report(
            0.97,
            (0.8214, 1.1456),
            Verdict::WithinNoise,
            Expect::NotSlower,
        )
    }

    /// The issue's `parse_uri` across revisions: 1.012x slower within noise
    /// overall, while its three short inputs read 1.81x, 1.52x and 1.16x
    /// slower and the long fourth one 1.00x.
    pub(crate) fn parse_uri() -> Report {
        let mut report = report(
            1.0 / 1.012,
            (0.99, 1.01),
            Verdict::WithinNoise,
            Expect::NotSlower,
        );
        report.inputs = vec![
            input(0, 3.50, 6.51, 315),
            input(1, 4.10, 6.23, 315),
            input(2, 8.00, 9.28, 315),
            input(3, 900.0, 900.0, 315),
        ];
        report.original_ns = report.inputs.iter().map(|input| input.original_ns).sum();
        report.candidate_ns = report.inputs.iter().map(|input| input.candidate_ns).sum();
        for (input, slower) in report.inputs.iter_mut().zip([1.81, 1.52, 1.16, 1.0]) {
            input.speedup = 1.0 / slower;
        }
        report
    }

    /// Three inputs, as the quickstart's duplicate finder has.
    pub(crate) fn three_inputs() -> Report {
        let mut report = report(8.95, (8.78, 9.11), Verdict::Faster, Expect::Faster);
        report.name = "has_duplicate_sorted vs has_duplicate_naive".into();
        report.inputs = vec![
            input(0, 3_790.0, 1_860.0, 315),
            input(1, 301_000.0, 26_400.0, 315),
            input(2, 100_000.0, 15_700.0, 315),
        ];
        report.original_ns = report.inputs.iter().map(|input| input.original_ns).sum();
        report.candidate_ns = report.inputs.iter().map(|input| input.candidate_ns).sum();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecided_guard_passes_unless_undecided_verdicts_fail() {
        let mut guard = fixtures::undecided_guard();
        assert!(!guard.decided() && guard.passed());
        assert!((guard.judged_beyond() - 0.24).abs() < 0.0005);
        guard.if_undecided = Undecided::Fail;
        assert!(!guard.passed());
        // The same interval asked only to report never fails on timing.
        guard.expect = Expect::Report;
        assert!(!guard.decided() && guard.passed());
        // A narrow within-noise guard decided, whatever the choice.
        let mut settled =
            fixtures::report(1.0, (0.97, 1.03), Verdict::WithinNoise, Expect::NotSlower);
        settled.if_undecided = Undecided::Fail;
        assert!(settled.decided() && settled.passed());
        // A `faster` expectation not shown faster fails, decided or not.
        let unsure = fixtures::report(1.06, (1.02, 1.10), Verdict::WithinNoise, Expect::Faster);
        assert!(!unsure.decided() && !unsure.passed());
    }

    #[test]
    fn placements_read_from_their_lowest_to_their_highest() {
        let placement = |speedups: Vec<f64>| Placement {
            threshold_ns: 10.0,
            shorter_call_ns: 1.3,
            count: 8,
            speedups,
        };
        let apart = placement(vec![0.2502, 0.3101, 0.2500, 0.2503]);
        assert_eq!(apart.range(), Some((0.2500, 0.3101)));
        assert!((apart.spread() - (0.3101 / 0.2500 - 1.0)).abs() < 1e-12);
        // One loop agrees with itself; no figures, no spread either.
        assert_eq!(placement(vec![1.12]).spread(), 0.0);
        assert_eq!(placement(vec![]).range(), None);
        assert_eq!(placement(vec![]).spread(), 0.0);
    }
}
