//! GitHub Actions' job summary (`$GITHUB_STEP_SUMMARY`): a markdown table
//! with one row per comparison under a heading naming the test binary, and
//! what holds for the whole run (the machine, a debug build, other load),
//! said once.

use super::{Note, Output, Summary, notices, one_sided, verdict_words};
use crate::error::OnlyIn;
use crate::report::units::{Ratio, format_ns};
use crate::report::{Environment, Outcome, Status};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The variable GitHub Actions sets to the job summary file.
pub const STEP_SUMMARY_VARIABLE: &str = "GITHUB_STEP_SUMMARY";

/// Appends a run's table to the job summary file.
///
/// Under `faster::main()` the whole table is appended when the run ends.
/// Under libtest, where each generated test runs on its own, each
/// comparison appends its row as it ends, and the first one of the process
/// writes the heading.
#[derive(Debug)]
pub struct StepSummary {
    path: PathBuf,
    per_comparison: bool,
}

impl StepSummary {
    /// The table of a `faster::main()` run, appended to `path` at its end.
    pub fn whole_run(path: PathBuf) -> StepSummary {
        StepSummary {
            path,
            per_comparison: false,
        }
    }

    /// Rows appended to `path` one comparison at a time (libtest).
    pub fn row_by_row(path: PathBuf) -> StepSummary {
        StepSummary {
            path,
            per_comparison: true,
        }
    }

    fn append(&self, text: &str, notes: &mut Vec<Note>) {
        if let Err(error) = append(&self.path, text) {
            notes.push(Note::Problem(format!(
                "could not append to GITHUB_STEP_SUMMARY ({}): {error}",
                self.path.display()
            )));
        }
    }
}

/// Whether this process has written its heading (libtest's tests of one
/// binary share one table).
static HEADING_WRITTEN: Mutex<bool> = Mutex::new(false);

impl Output for StepSummary {
    fn comparison(&mut self, outcome: &Outcome, notes: &mut Vec<Note>) {
        if !self.per_comparison {
            return;
        }
        let mut written = HEADING_WRITTEN
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut text = String::new();
        if !*written {
            text.push_str(&heading(&binary_of_test(), None));
            // The build's, whether or not this comparison's verdict passed.
            let debug_build = !outcome.enforced;
            text.push_str(&quoted(&notices::at_start(
                Environment::current(),
                debug_build,
            )));
            text.push_str(TABLE_HEADER);
            *written = true;
        }
        text.push_str(&row(outcome));
        self.append(&text, notes);
    }

    fn end(&mut self, summary: &Summary<'_>, notes: &mut Vec<Note>) {
        if self.per_comparison || summary.outcomes.is_empty() {
            return;
        }
        let mut text = heading(summary.binary, Some(summary));
        let debug_build = summary
            .outcomes
            .iter()
            .any(|o| o.status() == Status::NotEnforced);
        text.push_str(&quoted(&notices::at_start(
            Environment::current(),
            debug_build,
        )));
        text.push_str(TABLE_HEADER);
        for outcome in summary.outcomes {
            text.push_str(&row(outcome));
        }
        let mut run_wide = notices::load(summary.outcomes, summary.load);
        run_wide.extend(notices::timings_vary(summary.outcomes, summary.load));
        if !run_wide.is_empty() {
            text.push('\n');
            text.push_str(&quoted(&run_wide));
        }
        for notice in notices::one_sided(summary.outcomes) {
            text.push_str(&format!("\n> ℹ️ {}\n", cell(&notice)));
        }
        self.append(&text, notes);
    }
}

/// `### faster: `speed` — 2 comparisons, 1 failed`, `— 3 comparisons, 2
/// passed, 1 undecided`; across revisions, `### faster: `cargo faster`
/// against `main (1a2b3c4)` — …`.
fn heading(binary: &str, summary: Option<&Summary<'_>>) -> String {
    let against = summary
        .and_then(|summary| summary.against)
        .map_or_else(String::new, |base| format!(" against `{}`", code(base)));
    let counts = summary.map_or_else(String::new, |summary| {
        let total = summary.outcomes.len();
        let (failed, undecided) = (summary.failed(), summary.undecided());
        let mut counts = vec![if failed == 0 {
            format!("{} passed", total - summary.skipped() - undecided)
        } else {
            format!("{failed} failed")
        }];
        if undecided > 0 {
            counts.push(format!("{undecided} undecided"));
        }
        for (only_in, what) in [(OnlyIn::Current, "new"), (OnlyIn::Base, "removed")] {
            match one_sided(summary.outcomes, only_in) {
                0 => {}
                count => counts.push(format!("{count} {what}")),
            }
        }
        format!(
            " — {total} comparison{}, {}",
            if total == 1 { "" } else { "s" },
            counts.join(", ")
        )
    });
    format!("\n### faster: `{}`{against}{counts}\n\n", code(binary))
}

/// Notices, each a quoted paragraph.
fn quoted(notices: &[String]) -> String {
    notices
        .iter()
        .map(|notice| format!("> ⚠️ {}\n\n", cell(notice)))
        .collect()
}

/// The header of the table.
const TABLE_HEADER: &str = "| comparison | best-of original | best-of candidate | paired speedup [99% CI] | verdict |\n\
     | :-- | --: | --: | :-- | :-- |\n";

/// One row of the table. A verdict that did not decide its expectation
/// reads `❔ undecided: only a change beyond 24% could be judged` where it
/// passed, with `❌` where undecided verdicts fail.
fn row(outcome: &Outcome) -> String {
    let name = format!("`{}`", code(&outcome.test));
    match &outcome.result {
        Ok(report) => {
            let status = outcome.status();
            let mark = match status {
                Status::Passed if !report.decided() => "❔",
                Status::Passed => "✅",
                Status::NotEnforced => "⚠️",
                Status::Failed | Status::Error | Status::Skipped => "❌",
            };
            let verdict = verdict_words(report);
            let note = if status == Status::NotEnforced {
                " (debug build: not enforced)".to_string()
            } else {
                report
                    .compiled_code
                    .as_ref()
                    .and_then(|code| code.short_note())
                    .map_or_else(String::new, |note| format!(" ({note})"))
            };
            format!(
                "| {name} | {} | {} | {} | {mark} {verdict}{note} |\n",
                format_ns(report.original_ns),
                format_ns(report.candidate_ns),
                Ratio(report.speedup, Some(report.ci))
                    .to_string()
                    .replacen(" [99% CI ", " [", 1),
            )
        }
        Err(error) => format!(
            "| {name} | | | | {} {} |\n",
            match outcome.only_in() {
                Some(OnlyIn::Current) => "🆕",
                Some(OnlyIn::Base) => "➖",
                None => "❌ error:",
            },
            lines(&error.to_string())
        ),
    }
}

/// Text of several lines for inside a table cell, each line kept whole (an
/// error's first line says what, the next ones which input and both
/// outputs): HTML line breaks between them, HTML's own characters escaped.
fn lines(text: &str) -> String {
    let escaped: Vec<String> = text
        .lines()
        .map(|line| {
            cell(line.trim())
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect();
    escaped.join("<br>")
}

/// Text for inside a markdown table cell: no line breaks, pipes escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Text for inside backticks in a table cell.
fn code(text: &str) -> String {
    cell(&text.replace('`', "'"))
}

/// Appends `text` to the job summary file (one write, so concurrent
/// appenders do not interleave within it).
fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

/// The running test binary's name without cargo's hash
/// (`speed-1a2b3c4d5e6f7a8b` → `speed`).
pub fn binary_of_test() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(Path::file_stem)
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tests".into());
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::three_inputs;

    #[test]
    fn an_undecided_row_is_marked_apart_and_says_what_it_could_judge() {
        use crate::report::fixtures::undecided_guard;
        use crate::stats::verdict::Undecided;
        let outcome = |report| Outcome {
            test: "mean::faster_mean_v2".into(),
            label: String::new(),
            source: None,
            result: Ok(report),
            enforced: true,
        };
        assert_eq!(
            row(&outcome(undecided_guard())),
            "| `mean::faster_mean_v2` | 32.8 µs | 29.2 µs | 1.03x slower [1.15x faster – 1.22x slower] | ❔ \
             undecided: only a change beyond 24% could be judged |\n"
        );
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        assert!(
            row(&outcome(strict))
                .ends_with("| ❌ undecided: only a change beyond 24% could be judged |\n")
        );
        let outcomes = [outcome(undecided_guard()), outcome(three_inputs())];
        let summary = Summary {
            binary: "speed",
            against: None,
            outcomes: &outcomes,
            filtered_out: 0,
            elapsed: std::time::Duration::ZERO,
            load: None,
        };
        assert_eq!(
            heading("speed", Some(&summary)),
            "\n### faster: `speed` — 2 comparisons, 1 passed, 1 undecided\n\n"
        );
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(code("x`y"), "x'y");
        assert_eq!(lines("a | b\n  c <d>"), "a \\| b<br>c &lt;d&gt;");
    }
}
