//! The outputs: every way a run's outcomes leave the process, each one
//! implementation of [`Output`] — the terminal (`pretty`, `terse`), JSON
//! lines, libtest's bench lines, JUnit XML, GitHub's job summary (and the
//! same Markdown as a pull-request comment), the report files (JSON and
//! SVG) and the run's document — fanned out by [`Outputs`].
//!
//! Outputs only render: they receive the same [`Outcome`] for every
//! comparison, whichever harness ran it, and never measure or judge.
//! Adding a format is one file here and one line where the harness picks
//! its outputs.

pub mod bench;
pub mod files;
pub mod github;
pub mod json;
pub mod junit;
pub mod notices;
#[cfg(feature = "plots")]
pub mod plot;
pub mod run_file;
pub mod style;
pub mod terminal;

use crate::error::OnlyIn;
use crate::report::units::{Ratio, format_percent};
use crate::report::{Environment, Load, Outcome, Report, Status};
use crate::stats::verdict::{Expect, Verdict};
use std::path::PathBuf;
use std::time::Duration;

/// What a run will do, as it starts.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// The test names of the comparisons it will run, in order.
    pub tests: &'a [&'a str],
    /// Where it runs, with what about the machine may disturb timing.
    pub environment: &'a Environment,
    /// Whether it times unoptimized code (a build with `debug_assertions`)
    /// whose verdicts are reported, not enforced.
    pub debug_build: bool,
}

impl Run<'_> {
    /// How many comparisons it will run.
    pub fn selected(&self) -> usize {
        self.tests.len()
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy)]
pub struct Summary<'a> {
    /// The test binary's name.
    pub binary: &'a str,
    /// Across revisions (`cargo faster --against`): how the base revision
    /// is named (`main (1a2b3c4)`), for headings.
    pub against: Option<&'a str>,
    /// Every comparison's outcome, in the order they ran.
    pub outcomes: &'a [Outcome],
    /// Registered comparisons the command line did not select.
    pub filtered_out: usize,
    /// Wall time of the whole run; across revisions, of the measuring
    /// (see `whole_run`).
    pub elapsed: Duration,
    /// Across revisions: the wall time of the whole `cargo faster` run,
    /// building both revisions and relinking their layouts included, where
    /// the caller said when it began.
    pub whole_run: Option<Duration>,
    /// The machine's other load from the run's start to its end, where that
    /// can be told: the notices fall back on it when the comparisons were
    /// each too short to tell their own.
    pub load: Option<Load>,
}

impl Summary<'_> {
    /// How many comparisons failed the run.
    pub fn failed(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| !outcome.passed())
            .count()
    }

    /// How many comparisons passed undecided (see [`Outcome::passed_undecided`]).
    pub fn undecided(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.passed_undecided())
            .count()
    }

    /// How many comparisons had nothing to compare (see [`Status::Skipped`]).
    pub fn skipped(&self) -> usize {
        self.outcomes
            .iter()
            .filter(|outcome| outcome.status() == Status::Skipped)
            .count()
    }
}

/// How many of `outcomes` are tracked functions that only the revision
/// `only_in` has: new ones, or removed ones.
pub fn one_sided(outcomes: &[Outcome], only_in: OnlyIn) -> usize {
    outcomes
        .iter()
        .filter(|outcome| outcome.only_in() == Some(only_in))
        .count()
}

/// What an undecided report says in every output, in place of its verdict:
/// `undecided: only a change beyond 24% could be judged`.
pub fn undecided(report: &Report) -> String {
    let judged = report.judged_beyond();
    if judged.is_finite() {
        format!(
            "undecided: only a change beyond {} could be judged",
            format_percent(judged)
        )
    } else {
        "undecided: too few rounds for an interval, so no change could be judged".into()
    }
}

/// What every output says a report's verdict is: the verdict, the words of
/// an undecided one ([`undecided`]), or `not slower` for a regression guard
/// (`expect = not_slower`) whose interval rules out a slowdown of the
/// floor's size but reaches past the floor on the faster side: `1.40x
/// faster [99% CI 1.04x – 1.90x]` is not what `within noise` says (no
/// change beyond the floor either way), and `not slower` is what it proved.
/// A verdict within noise names the floor (`within the 5% floor`): `1.040x
/// faster [99% CI 1.032x – 1.048x]` did change, by less than the floor.
/// The JSON document keeps the verdict's own name (`within_noise`).
pub fn verdict_words(report: &Report) -> String {
    if !report.decided() {
        undecided(report)
    } else if reads_within_floor(report) {
        format!("within the {} floor", format_percent(report.noise_floor))
    } else if report.verdict == Verdict::WithinNoise {
        "not slower".into()
    } else {
        report.verdict.to_string()
    }
}

/// Whether [`verdict_words`] says `within the X floor` (naming the floor
/// itself): a decided verdict within noise, but a guard's `not slower`.
pub fn reads_within_floor(report: &Report) -> bool {
    let [could_be_faster, _] = report.floor().could_be(report.ci);
    let not_slower = report.expect == Expect::NotSlower && could_be_faster;
    report.decided() && report.verdict == Verdict::WithinNoise && !not_slower
}

/// Most inputs a summary's row names as [changed](Report::inputs_changed)
/// before it counts the rest.
const CHANGED_NAMED: usize = 3;

/// The inputs of `report` that read beyond the noise floor on a side its
/// verdict does not say ([`Report::inputs_changed`]), in the words every
/// summary puts under the comparison's row, `None` where there is none:
/// `input 0 reads 1.81x slower, input 1 1.52x slower, beyond the 5% floor`.
pub fn inputs_changed_words(report: &Report) -> Option<String> {
    let changed = report.inputs_changed();
    let mut named: Vec<String> = changed
        .iter()
        .take(CHANGED_NAMED)
        .enumerate()
        .map(|(index, input)| {
            let reads = if index == 0 { " reads" } else { "" };
            format!("input {}{reads} {}", input.name, Ratio(input.speedup, None))
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    if changed.len() > CHANGED_NAMED {
        named.push(format!("{} more", changed.len() - CHANGED_NAMED));
    }
    Some(format!(
        "{}, beyond the {} floor",
        named.join(", "),
        format_percent(report.noise_floor)
    ))
}

/// What an output recorded about a comparison for the others to show: the
/// report files, chiefly, so the terminal can point at them.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// A file written for the comparison: `what` it holds (`plot`, `data`)
    /// and where.
    Written {
        /// What the file holds.
        what: &'static str,
        /// Where it is.
        path: PathBuf,
    },
    /// Something that went wrong writing one.
    Problem(String),
}

/// One way a run's outcomes leave the process.
///
/// Every method has a default that does nothing, so a format implements
/// what it needs: a per-comparison line, or one document at the end.
pub trait Output {
    /// The run starts.
    fn begin(&mut self, _run: &Run<'_>) {}

    /// A comparison is about to be measured for up to `budget`.
    fn measuring(&mut self, _test: &str, _budget: Duration) {}

    /// A comparison ended. `notes` holds what the outputs before this one
    /// recorded about it; an output may add its own.
    fn comparison(&mut self, _outcome: &Outcome, _notes: &mut Vec<Note>) {}

    /// The run ended. `notes` collects what went wrong writing a document
    /// written only now (a [`Note::Problem`]).
    fn end(&mut self, _summary: &Summary<'_>, _notes: &mut Vec<Note>) {}
}

/// The outputs of a run, called in the order they were added: an output
/// that writes files goes before those that point at them. They remember
/// every file that could not be written, which fails the run: a CI step
/// that reads it would find nothing, or an earlier run's.
#[derive(Default)]
pub struct Outputs<'a> {
    outputs: Vec<Box<dyn Output + 'a>>,
    unwritten: Vec<String>,
}

impl<'a> Outputs<'a> {
    /// No outputs yet.
    pub fn new() -> Self {
        Outputs::default()
    }

    /// Adds `output` after the others.
    pub fn add(&mut self, output: impl Output + 'a) {
        self.outputs.push(Box::new(output));
    }

    /// What could not be written so far, each said as the note said it.
    pub fn unwritten(&self) -> &[String] {
        &self.unwritten
    }

    fn remember_problems(&mut self, notes: &[Note]) {
        self.unwritten
            .extend(notes.iter().filter_map(|note| match note {
                Note::Problem(problem) => Some(problem.clone()),
                Note::Written { .. } => None,
            }));
    }

    /// See [`Output::begin`].
    pub fn begin(&mut self, run: &Run<'_>) {
        self.outputs.iter_mut().for_each(|output| output.begin(run));
    }

    /// See [`Output::measuring`].
    pub fn measuring(&mut self, test: &str, budget: Duration) {
        self.outputs
            .iter_mut()
            .for_each(|output| output.measuring(test, budget));
    }

    /// See [`Output::comparison`]; returns every output's notes.
    pub fn comparison(&mut self, outcome: &Outcome) -> Vec<Note> {
        let mut notes = Vec::new();
        for output in &mut self.outputs {
            output.comparison(outcome, &mut notes);
        }
        self.remember_problems(&notes);
        notes
    }

    /// See [`Output::end`]; what could not be written is then in
    /// [`Outputs::unwritten`].
    pub fn end(&mut self, summary: &Summary<'_>) {
        let mut notes = Vec::new();
        for output in &mut self.outputs {
            output.end(summary, &mut notes);
        }
        self.remember_problems(&notes);
    }
}
