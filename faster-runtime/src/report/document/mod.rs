//! The versioned form of an [`Outcome`]: the `faster/report/v1` JSON
//! document (specified in `faster-runtime/schema/report-v1.schema.json`)
//! that the report files, `--format json` and the processes of a replicated
//! comparison all carry. It reads back into a [`Report`], so the one format
//! also travels from a child process to its parent.
//!
//! JSON has no infinity or NaN: such a figure is written as `null` and read
//! back as NaN (the interval's unbounded high end as infinity).

mod context;
mod measured;
mod outcome;
mod values;

pub use measured::Slice;

use super::environment::{Environment, utc_now};
use super::outcome::{Outcome, Status};
use super::{Over, Report, WouldTake};
use crate::config::by_name;
use crate::error::{Error, OnlyIn};
use crate::stats::verdict::{Expect, Undecided, Verdict};
use context::{CompiledCodeDoc, ScopeDoc};
use measured::MeasuredDoc;
use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::report::fixtures::{report, three_inputs};
    use crate::report::outcome::Source;
    use crate::report::{CompiledCode, GpuInfo, Load, ProcessSummary, Scope};
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
