//! The versioned form of an [`Outcome`]: the `faster/report/v1` JSON
//! document (specified in `faster-runtime/schema/report-v1.schema.json`)
//! that the report files, `--format json` and the processes of a replicated
//! comparison all carry. It reads back into a [`Report`], so the one format
//! also travels from a child process to its parent.
//!
//! JSON has no infinity or NaN: such a figure is written as `null` and read
//! back as NaN (the interval's unbounded high end as infinity).

mod context;
mod outcome;
mod values;

use super::environment::{Environment, utc_now};
use super::outcome::{Outcome, Status};
use super::throughput::overall_rates;
use super::{
    InputReport, Load, Measurement, Notice, Over, Placement, ProcessSummary, Report, WouldTake,
};
use crate::config::by_name;
use crate::error::{Error, OnlyIn};
use crate::stats::LinearFit;
use crate::stats::samples::{BatchLimit, CONFIDENCE, Stop};
use crate::stats::verdict::{Expect, Undecided, Verdict};
use crate::time::Calibration;
use context::{CompiledCodeDoc, GpuDoc, ScopeDoc};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use values::nullable;

/// The schema identifier every document carries. A change that removes or
/// retypes a field gets a new version; new fields do not.
pub const SCHEMA: &str = "faster/report/v1";

/// The JSON document of one comparison (schema [`SCHEMA`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Document {
    schema: String,
    name: String,
    label: String,
    source: Option<SourceDoc>,
    time: String,
    #[serde(with = "by_name")]
    status: Status,
    error: Option<String>,
    /// Which revision alone has the function, where that is why there is
    /// no result: what a reader needs of such an error besides its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    only_in: Option<OnlyIn>,
    result: Option<ResultDoc>,
    environment: Environment,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SourceDoc {
    name: String,
    original: String,
    file: String,
    line: u32,
    debug_assertions: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ResultDoc {
    #[serde(with = "by_name")]
    verdict: Verdict,
    #[serde(with = "by_name")]
    expect: Expect,
    passed: bool,
    /// Derived from the verdict, interval, floor and expectation; written
    /// for readers, not read back (absent from documents of older versions).
    #[serde(default)]
    decided: bool,
    /// Derived from the interval and floor; `null` for an unbounded
    /// interval. Written for readers, not read back.
    #[serde(default)]
    judged_beyond: Option<f64>,
    /// Derived from the interval, its layouts and time; `null` where
    /// decided. Written for readers, not read back.
    #[serde(default)]
    would_take: Option<WouldTakeDoc>,
    #[serde(default, with = "by_name")]
    if_undecided: Undecided,
    /// See [`Report::downgraded`]; absent from documents written before it.
    #[serde(default)]
    downgraded: bool,
    noise_floor: f64,
    #[serde(flatten)]
    measured: MeasuredDoc,
    #[serde(default)]
    scope: Option<ScopeDoc>,
    /// Across revisions only; absent from documents written before it.
    #[serde(default)]
    compiled_code: Option<CompiledCodeDoc>,
}

/// A [`Measurement`]'s fields, as a report's result holds them beside its
/// judgement, and as a server sends a slice to its parent ([`Slice`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct MeasuredDoc {
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    ci: IntervalDoc,
    #[serde(deserialize_with = "nullable::number")]
    best_speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    uncorrected_speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    original_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    candidate_ns: f64,
    rounds: usize,
    warm_up_rounds: usize,
    #[serde(with = "by_name")]
    stop: Stop,
    elapsed_s: f64,
    outputs_checked: bool,
    throughput: Throughput,
    timer: TimerDoc,
    inputs: Vec<InputDoc>,
    #[serde(deserialize_with = "nullable::numbers")]
    round_log_ratios: Vec<f64>,
    round_original_first: Vec<bool>,
    processes: Vec<ProcessDoc>,
    placement: PlacementDoc,
    load: Option<LoadDoc>,
    warnings: Vec<String>,
    gpu: Option<GpuDoc>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PlacementDoc {
    threshold_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    shorter_call_ns: f64,
    count: usize,
    #[serde(deserialize_with = "nullable::numbers")]
    speedups: Vec<f64>,
    /// Derived from `speedups`; written for readers, not read back.
    #[serde(deserialize_with = "nullable::number")]
    spread: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct LoadDoc {
    other_processes: f64,
    other_threads: f64,
    steal: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct IntervalDoc {
    confidence: f64,
    #[serde(deserialize_with = "nullable::number")]
    low: f64,
    /// `null` when there were too few rounds for an interval.
    high: Option<f64>,
}

impl IntervalDoc {
    fn of((low, high): (f64, f64)) -> IntervalDoc {
        IntervalDoc {
            confidence: CONFIDENCE,
            low,
            high: high.is_finite().then_some(high),
        }
    }

    fn bounds(&self) -> (f64, f64) {
        (self.low, self.high.unwrap_or(f64::INFINITY))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Throughput {
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Rates {
    flop_per_s: Option<f64>,
    bytes_per_s: Option<f64>,
}

impl Rates {
    /// `(original, candidate)` of each rate, where known.
    fn pair(flops: Option<(f64, f64)>, bytes: Option<(f64, f64)>) -> [Rates; 2] {
        let side = |pick: fn((f64, f64)) -> f64| Rates {
            flop_per_s: flops.map(pick),
            bytes_per_s: bytes.map(pick),
        };
        [
            side(|(original, _)| original),
            side(|(_, candidate)| candidate),
        ]
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct TimerDoc {
    name: String,
    reading_cost_ns: f64,
    resolution_ns: f64,
    empty_call_ns: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Fits {
    original: Option<Fit>,
    candidate: Option<Fit>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Fit {
    intercept_ns: f64,
    slope_ns: f64,
    r_squared: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct InputDoc {
    index: usize,
    label: Option<String>,
    batch_sizes: [u64; 2],
    /// What held the batches short of the timer's sample length: `budget`,
    /// `memory`, or `null`.
    #[serde(default)]
    batch_limit: Option<String>,
    #[serde(deserialize_with = "nullable::number")]
    original_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    candidate_ns: f64,
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    #[serde(deserialize_with = "nullable::number")]
    overhead_ns: f64,
    fits: Fits,
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
    #[serde(deserialize_with = "nullable::pairs")]
    rounds_ns: Vec<[f64; 2]>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ProcessDoc {
    #[serde(deserialize_with = "nullable::number")]
    speedup: f64,
    ci: IntervalDoc,
    rounds: usize,
    /// Absent from documents written before it: then the layout, or the
    /// process's place.
    #[serde(default)]
    slot: Option<u32>,
    #[serde(default)]
    layout: Option<u32>,
}

impl Document {
    /// The document of a registered comparison's outcome.
    pub fn of(outcome: &Outcome) -> Document {
        let source = outcome.source.as_ref().map(|source| SourceDoc {
            name: outcome.test.clone(),
            original: source.original.clone(),
            file: source.file.clone(),
            line: source.line,
            debug_assertions: source.debug_assertions,
        });
        let (result, error) = match &outcome.result {
            Ok(report) => (Some(ResultDoc::of(report)), None),
            Err(error) => (None, Some(error.to_string())),
        };
        let only_in = match &outcome.result {
            Err(Error::OneSided { only_in }) => Some(*only_in),
            _ => None,
        };
        Document {
            schema: SCHEMA.into(),
            name: outcome.test.clone(),
            label: outcome.label.clone(),
            source,
            time: utc_now(),
            status: outcome.status(),
            error,
            only_in,
            result,
            environment: Environment::current().clone(),
        }
    }

    /// The document of a report of [`compare_fns`](crate::compare_fns):
    /// named by its heading, without a source, its expectation enforced.
    pub fn of_report(report: &Report) -> Document {
        Document::of(&Outcome {
            test: report.name.clone(),
            label: report.name.clone(),
            source: None,
            result: Ok(report.clone()),
            enforced: true,
        })
    }

    /// The comparison's name (its test name; across revisions, the tracked
    /// function's).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The report this document holds, or its error message when it holds
    /// none (or cannot be read back).
    pub fn into_report(self) -> Result<Report, String> {
        match self.result {
            Some(result) => Ok(result.into_report(self.label)),
            None => Err(self
                .error
                .unwrap_or_else(|| "no result and no error".into())),
        }
    }

    /// The document on one line (JSON Lines).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a document of plain data always serializes")
    }

    /// The document, indented for people.
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a document of plain data always serializes")
    }
}

/// What an undecided comparison would take to decide ([`WouldTake`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct WouldTakeDoc {
    judged_now: f64,
    over: String,
    measured: usize,
    needed: usize,
    /// `null` where no budget would.
    more_seconds: Option<f64>,
    said: String,
}

impl WouldTakeDoc {
    fn of(would_take: WouldTake) -> WouldTakeDoc {
        WouldTakeDoc {
            judged_now: would_take.judged_now,
            over: match would_take.over {
                Over::Layouts => "layouts",
                Over::Processes => "processes",
                Over::Rounds => "rounds",
            }
            .into(),
            measured: would_take.measured,
            needed: would_take.needed,
            more_seconds: would_take.more_time.map(|time| time.as_secs_f64()),
            said: would_take.to_string(),
        }
    }
}

impl ResultDoc {
    fn of(report: &Report) -> ResultDoc {
        ResultDoc {
            verdict: report.verdict,
            expect: report.expect,
            passed: report.passed(),
            decided: report.decided(),
            judged_beyond: Some(report.judged_beyond()).filter(|judged| judged.is_finite()),
            would_take: report.would_take().map(WouldTakeDoc::of),
            if_undecided: report.if_undecided,
            downgraded: report.downgraded,
            noise_floor: report.noise_floor,
            measured: MeasuredDoc::of(&report.measurement()),
            scope: report.scope.as_ref().map(ScopeDoc::of),
            compiled_code: report.compiled_code.as_ref().map(CompiledCodeDoc::of),
        }
    }

    /// The report again: its measurement, and the judgement and context
    /// the document recorded beside it.
    fn into_report(self, label: String) -> Report {
        let measurement = self.measured.into_measurement(label);
        let mut report = Report::recorded(
            measurement,
            self.verdict,
            (self.noise_floor, self.expect, self.if_undecided),
        );
        report.downgraded = self.downgraded;
        report.scope = self.scope.map(ScopeDoc::into_scope);
        report.compiled_code = self.compiled_code.map(CompiledCodeDoc::into_code);
        report
    }
}

impl MeasuredDoc {
    fn of(measurement: &Measurement) -> MeasuredDoc {
        let inputs = &measurement.inputs;
        let sum = |count: fn(&InputReport) -> Option<u64>| -> Option<u64> {
            inputs.iter().map(count).sum()
        };
        let [original, candidate] = Rates::pair(
            overall_rates(inputs, |input| input.flops),
            overall_rates(inputs, |input| input.bytes),
        );
        MeasuredDoc {
            speedup: measurement.speedup,
            ci: IntervalDoc::of(measurement.ci),
            best_speedup: measurement.best_speedup,
            uncorrected_speedup: measurement.uncorrected_speedup,
            original_ns: measurement.original_ns,
            candidate_ns: measurement.candidate_ns,
            rounds: measurement.rounds,
            warm_up_rounds: measurement.warm_up_rounds,
            stop: measurement.stop,
            elapsed_s: measurement.elapsed.as_secs_f64(),
            outputs_checked: measurement.outputs_checked,
            throughput: Throughput {
                flops: sum(|input| input.flops),
                bytes: sum(|input| input.bytes),
                original,
                candidate,
            },
            timer: TimerDoc {
                name: measurement.timer.clone(),
                reading_cost_ns: measurement.calibration.reading_cost_ns,
                resolution_ns: measurement.calibration.resolution_ns,
                empty_call_ns: measurement.calibration.empty_call_ns,
            },
            inputs: inputs.iter().map(InputDoc::of).collect(),
            round_log_ratios: measurement.round_log_ratios.clone(),
            round_original_first: measurement.round_original_first.clone(),
            processes: measurement
                .processes
                .iter()
                .map(|process| ProcessDoc {
                    speedup: process.speedup,
                    ci: IntervalDoc::of(process.ci),
                    rounds: process.rounds,
                    slot: Some(process.slot),
                    layout: process.layout,
                })
                .collect(),
            placement: PlacementDoc {
                threshold_ns: measurement.placement.threshold_ns,
                shorter_call_ns: measurement.placement.shorter_call_ns,
                count: measurement.placement.count,
                speedups: measurement.placement.speedups.clone(),
                spread: measurement.placement.spread(),
            },
            load: measurement.load.map(|load| LoadDoc {
                other_processes: load.other_processes,
                other_threads: load.other_threads,
                steal: load.steal,
            }),
            warnings: measurement.notices.iter().map(Notice::to_string).collect(),
            gpu: measurement.gpu.as_ref().map(GpuDoc::of),
        }
    }

    fn into_measurement(self, label: String) -> Measurement {
        Measurement {
            name: label,
            speedup: self.speedup,
            ci: self.ci.bounds(),
            best_speedup: self.best_speedup,
            uncorrected_speedup: self.uncorrected_speedup,
            original_ns: self.original_ns,
            candidate_ns: self.candidate_ns,
            rounds: self.rounds,
            elapsed: Duration::try_from_secs_f64(self.elapsed_s).unwrap_or_default(),
            inputs: self.inputs.into_iter().map(InputDoc::into_input).collect(),
            outputs_checked: self.outputs_checked,
            stop: self.stop,
            timer: self.timer.name,
            calibration: Calibration {
                reading_cost_ns: self.timer.reading_cost_ns,
                resolution_ns: self.timer.resolution_ns,
                empty_call_ns: self.timer.empty_call_ns,
            },
            notices: self.warnings.into_iter().map(Notice::Said).collect(),
            load: self.load.map(|load| Load {
                other_processes: load.other_processes,
                other_threads: load.other_threads,
                steal: load.steal,
            }),
            processes: (1..)
                .zip(self.processes)
                .map(|(place, process)| ProcessSummary {
                    speedup: process.speedup,
                    ci: process.ci.bounds(),
                    rounds: process.rounds,
                    slot: process.slot.or(process.layout).unwrap_or(place),
                    layout: process.layout,
                    offsets: None,
                })
                .collect(),
            placement: Placement {
                threshold_ns: self.placement.threshold_ns,
                shorter_call_ns: self.placement.shorter_call_ns,
                count: self.placement.count,
                speedups: self.placement.speedups,
            },
            round_log_ratios: self.round_log_ratios,
            round_original_first: self.round_original_first,
            warm_up_rounds: self.warm_up_rounds,
            gpu: self.gpu.map(GpuDoc::into_info),
            offsets: None,
        }
    }
}

/// A slice as a server sends it to its parent: its heading and measurement,
/// and beside them the offsets of the server's functions
/// ([`Measurement::offsets`]), which no stored document has.
#[derive(Debug, Serialize, Deserialize)]
pub struct Slice {
    name: String,
    #[serde(flatten)]
    measured: MeasuredDoc,
    /// What the slice observed, as data: its `warnings` in words are for
    /// people, these for the parent, which combines them.
    notices: Vec<Notice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offsets: Option<[u8; 2]>,
}

impl Slice {
    /// `measurement` as it crosses.
    pub fn of(measurement: &Measurement) -> Slice {
        Slice {
            name: measurement.name.clone(),
            measured: MeasuredDoc::of(measurement),
            notices: measurement.notices.clone(),
            offsets: measurement.offsets,
        }
    }

    /// The measurement again, in the parent.
    pub fn into_measurement(self) -> Measurement {
        Measurement {
            notices: self.notices,
            offsets: self.offsets,
            ..self.measured.into_measurement(self.name)
        }
    }
}

impl InputDoc {
    fn of(input: &InputReport) -> InputDoc {
        let [original, candidate] = Rates::pair(input.flop_rates(), input.byte_rates());
        let fit = |fit: &Option<LinearFit>| {
            fit.map(|fit| Fit {
                intercept_ns: fit.intercept,
                slope_ns: fit.slope,
                r_squared: fit.r_squared,
            })
        };
        InputDoc {
            index: input.index,
            label: input.label.clone(),
            batch_sizes: input.batch_sizes,
            batch_limit: input.batch_limit.map(|limit| limit.name().to_string()),
            original_ns: input.original_ns,
            candidate_ns: input.candidate_ns,
            speedup: input.speedup,
            overhead_ns: input.overhead_ns,
            fits: Fits {
                original: fit(&input.fits[0]),
                candidate: fit(&input.fits[1]),
            },
            flops: input.flops,
            bytes: input.bytes,
            original,
            candidate,
            rounds_ns: input.round_ns.clone(),
        }
    }

    fn into_input(self) -> InputReport {
        let fit = |fit: Option<Fit>| {
            fit.map(|fit| LinearFit {
                intercept: fit.intercept_ns,
                slope: fit.slope_ns,
                r_squared: fit.r_squared,
            })
        };
        InputReport {
            index: self.index,
            batch_sizes: self.batch_sizes,
            // A limit this version does not know is one it cannot name.
            batch_limit: self
                .batch_limit
                .and_then(|name| BatchLimit::parse(&name).ok()),
            original_ns: self.original_ns,
            candidate_ns: self.candidate_ns,
            speedup: self.speedup,
            overhead_ns: self.overhead_ns,
            fits: [fit(self.fits.original), fit(self.fits.candidate)],
            label: self.label,
            flops: self.flops,
            bytes: self.bytes,
            round_ns: self.rounds_ns,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::report::fixtures::{report, three_inputs};
    use crate::report::outcome::Source;
    use crate::report::{CompiledCode, GpuInfo, Scope};
    use crate::stats::verdict::Verdict;

    fn outcome(result: Result<Report, Error>) -> Outcome {
        Outcome {
            test: "dup::faster_has_duplicate_sorted".into(),
            label: "has_duplicate_sorted vs has_duplicate_naive".into(),
            source: Some(Source {
                path: "demo::dup::faster_has_duplicate_sorted".into(),
                original: "has_duplicate_naive".into(),
                file: "src/dup.rs".into(),
                line: 7,
                debug_assertions: false,
            }),
            result,
            enforced: true,
        }
    }

    #[test]
    fn a_report_survives_the_round_trip_through_its_document() {
        let mut original = three_inputs()
            .with_flops(&[2_000, 200_000, 60_000])
            .with_input_labels(["small", "large", "late"]);
        original.warnings.push("a warning".into());
        original.load = Some(Load {
            other_processes: 0.75,
            other_threads: 0.0,
            steal: 0.01,
        });
        original.processes = vec![ProcessSummary {
            speedup: 8.9,
            ci: (8.7, 9.1),
            rounds: 315,
            slot: 3,
            layout: Some(3),
            offsets: None,
        }];
        original.scope = Some(Scope::ThisBuild("a reason".into()));
        original.gpu = Some(GpuInfo {
            adapter: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            backend: "Vulkan".into(),
            device_type: "CPU".into(),
            driver: "llvmpipe".into(),
            cache_flush_bytes: Some(64 << 20),
        });
        original.compiled_code = Some(CompiledCode {
            source_unchanged: true,
            timed_loop_bytes: [456, 546],
            timed_loop_differs: true,
            callees_differing: vec![crate::report::Callee {
                name: "hex::val".into(),
                bytes: [Some(40), None],
                source_changed: true,
            }],
            not_followed: vec!["hex::visit".into()],
        });
        let line = Document::of(&outcome(Ok(original.clone()))).to_line();
        assert!(
            line.contains(
                r#""compiled_code":{"source_unchanged":true,"timed_loop_bytes":{"base":456,"current":546},"timed_loop_differs":true,"callees_differing":[{"name":"hex::val","bytes":{"base":40,"current":null},"source_changed":true}],"not_followed":["hex::visit"],"changed_alone":true}"#
            ),
            "{line}"
        );
        let back: Document = serde_json::from_str(&line).unwrap();
        let mut read = back.into_report().unwrap();
        // Elapsed time travels as seconds in a float.
        assert!((read.elapsed.as_secs_f64() - original.elapsed.as_secs_f64()).abs() < 1e-6);
        read.elapsed = original.elapsed;
        assert_eq!(read, original);
    }

    #[test]
    fn figures_json_cannot_hold_come_back_as_nan_and_an_open_interval_stays_open() {
        let mut odd = report(
            1.0,
            (0.0, f64::INFINITY),
            Verdict::WithinNoise,
            Expect::Report,
        );
        odd.best_speedup = f64::INFINITY;
        odd.inputs[0].round_ns[0] = [f64::NAN, 1.0];
        let line = Document::of(&outcome(Ok(odd))).to_line();
        assert!(line.contains(r#""high":null"#), "{line}");
        let read = serde_json::from_str::<Document>(&line)
            .unwrap()
            .into_report()
            .unwrap();
        assert_eq!(read.ci, (0.0, f64::INFINITY));
        assert!(read.best_speedup.is_nan());
        assert!(read.inputs[0].round_ns[0][0].is_nan());
    }

    #[test]
    fn an_undecided_guard_says_so_and_what_it_could_judge() {
        use crate::report::fixtures::undecided_guard;
        let mut guard = undecided_guard();
        guard.if_undecided = Undecided::Fail;
        let line = Document::of(&outcome(Ok(guard.clone()))).to_line();
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let result = &value["result"];
        assert_eq!(result["verdict"], "within_noise");
        assert_eq!(result["decided"], false);
        assert_eq!(result["if_undecided"], "fail");
        assert_eq!(result["passed"], false);
        assert_eq!(value["status"], "failed");
        let judged = result["judged_beyond"].as_f64().unwrap();
        assert!((judged - 0.24).abs() < 0.0005, "{judged}");
        // The choice travels back with the report; the derived fields are
        // recomputed, not read.
        let read = serde_json::from_str::<Document>(&line)
            .unwrap()
            .into_report()
            .unwrap();
        assert_eq!(read.if_undecided, Undecided::Fail);
        assert!(!read.decided() && !read.passed());
        // A decided report, and an open interval, which judges nothing.
        let decided = Document::of(&outcome(Ok(three_inputs()))).to_line();
        let value: serde_json::Value = serde_json::from_str(&decided).unwrap();
        assert_eq!(value["result"]["decided"], true);
        assert_eq!(value["result"]["if_undecided"], "pass");
        let open = report(
            1.0,
            (0.0, f64::INFINITY),
            Verdict::WithinNoise,
            Expect::Report,
        );
        let value: serde_json::Value =
            serde_json::from_str(&Document::of(&outcome(Ok(open))).to_line()).unwrap();
        assert!(value["result"]["judged_beyond"].is_null());
        assert_eq!(value["result"]["decided"], false);
    }

    #[test]
    fn an_error_is_a_document_without_a_result() {
        let document = Document::of(&outcome(Err(Error::NoInputs)));
        let value: serde_json::Value = serde_json::from_str(&document.to_line()).unwrap();
        assert_eq!(value["status"], "error");
        assert!(value["result"].is_null());
        assert_eq!(value["source"]["name"], "dup::faster_has_duplicate_sorted");
        assert!(
            document
                .into_report()
                .unwrap_err()
                .contains("input set is empty")
        );
    }
}
