//! GitHub Actions' job summary (`$GITHUB_STEP_SUMMARY`): a markdown table
//! with one row per comparison under a heading naming the test binary, and
//! what holds for the whole run (the machine, a debug build, other load),
//! said once. The same Markdown, laid out for a pull-request comment
//! (regressions first, undecided ones apart, the smallest change each
//! comparison could judge), is what `cargo faster merge` writes to post.

use super::{Note, Output, Summary, inputs_changed_words, notices, one_sided, verdict_words};
use crate::error::OnlyIn;
use crate::report::units::{Ratio, format_ns, format_percent};
use crate::report::{Environment, Outcome, Status};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The variable GitHub Actions sets to the job summary file.
pub const STEP_SUMMARY_VARIABLE: &str = "GITHUB_STEP_SUMMARY";

/// Appends a run's table to the job summary file, or writes it as a
/// pull-request comment.
///
/// Under `faster::main()` the whole table is appended when the run ends.
/// Under libtest, where each generated test runs on its own, each
/// comparison appends its row as it ends, and the first one of the process
/// writes the heading.
#[derive(Debug)]
pub struct StepSummary {
    path: PathBuf,
    per_comparison: bool,
    /// Written over `path` in sections (see [`StepSummary::comment`]).
    comment: bool,
    /// What the caller says of the whole run, quoted under the heading.
    notes: Vec<String>,
    /// The machine the run's comparisons were measured on.
    environment: Option<Environment>,
}

impl StepSummary {
    /// The table of a `faster::main()` run, appended to `path` at its end.
    pub fn whole_run(path: PathBuf) -> StepSummary {
        StepSummary {
            path,
            per_comparison: false,
            comment: false,
            notes: Vec::new(),
            environment: None,
        }
    }

    /// Rows appended to `path` one comparison at a time (libtest).
    pub fn row_by_row(path: PathBuf) -> StepSummary {
        StepSummary {
            per_comparison: true,
            ..StepSummary::whole_run(path)
        }
    }

    /// A pull-request comment written to `path` (replacing it) when the run
    /// ends: the regressions and errors first, then the passes, then the
    /// undecided ones apart, each row with the smallest change its interval
    /// could judge.
    pub fn comment(path: PathBuf) -> StepSummary {
        StepSummary {
            comment: true,
            ..StepSummary::whole_run(path)
        }
    }

    /// The same, with `notes` on the whole run quoted under the heading
    /// (which machines measured, what differs between them).
    pub fn with_notes(self, notes: Vec<String>) -> StepSummary {
        StepSummary { notes, ..self }
    }

    fn append(&self, text: &str, notes: &mut Vec<Note>) {
        let written = if self.comment {
            std::fs::write(&self.path, text)
        } else {
            append(&self.path, text)
        };
        if let Err(error) = written {
            // Named by what the file is: a comment's path is `--out`'s,
            // whether or not the job summary's variable is set.
            let what = if self.comment {
                "write the pull-request comment to"
            } else {
                "append to GITHUB_STEP_SUMMARY at"
            };
            notes.push(Note::Problem(format!(
                "could not {what} {}: {error}",
                self.path.display()
            )));
        }
    }
}

/// Whether this process has written its heading (libtest's tests of one
/// binary share one table).
static HEADING_WRITTEN: Mutex<bool> = Mutex::new(false);

impl Output for StepSummary {
    fn begin(&mut self, run: &super::Run<'_>) {
        self.environment = Some(run.environment.clone());
    }

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
        if self.per_comparison || (summary.outcomes.is_empty() && !self.comment) {
            return;
        }
        let mut text = heading(summary.binary, Some(summary));
        let debug_build = summary
            .outcomes
            .iter()
            .any(|o| o.status() == Status::NotEnforced);
        let environment = self.environment.as_ref();
        text.push_str(&quoted(&notices::at_start(
            environment.unwrap_or_else(|| Environment::current()),
            debug_build,
        )));
        for note in &self.notes {
            text.push_str(&format!("> {}\n\n", cell(note)));
        }
        if self.comment {
            text.push_str(&sections(summary.outcomes));
        } else {
            text.push_str(TABLE_HEADER);
            for outcome in summary.outcomes {
                text.push_str(&row(outcome));
            }
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

/// `### faster: `speed` — 2 comparisons, 1 failed`, `— 3 comparisons, 3
/// passed (1 undecided)`; across revisions, `### faster: `cargo faster`
/// against `main (1a2b3c4)` — …`.
fn heading(binary: &str, summary: Option<&Summary<'_>>) -> String {
    let against = summary
        .and_then(|summary| summary.against)
        .map_or_else(String::new, |base| format!(" against `{}`", code(base)));
    let counts = summary.map_or_else(String::new, |summary| {
        let total = summary.outcomes.len();
        let (failed, undecided) = (summary.failed(), summary.undecided());
        // The undecided among the passed, as the terminal and libtest count
        // them.
        let mut counts = match (failed, undecided) {
            (0, 0) => vec![format!("{} passed", total - summary.skipped())],
            (0, _) => vec![format!(
                "{} passed ({undecided} undecided)",
                total - summary.skipped()
            )],
            (_, 0) => vec![format!("{failed} failed")],
            _ => vec![format!("{failed} failed, {undecided} undecided")],
        };
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
            let would_take = report
                .would_take()
                .map_or_else(String::new, |would_take| format!("; {would_take}"));
            let note = if status == Status::NotEnforced {
                " (debug build: not enforced)".to_string()
            } else {
                report
                    .compiled_code
                    .as_ref()
                    .and_then(|code| code.short_note())
                    .map_or_else(String::new, |note| format!(" ({note})"))
            };
            let changed = inputs_changed_words(report)
                .map_or_else(String::new, |changed| format!("<br>⚠️ {}", cell(&changed)));
            format!(
                "| {name} | {} | {} | {} | {mark} {verdict}{would_take}{note}{changed} |
",
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

/// The comment's tables: the comparisons that failed the run, those that
/// passed decided, the undecided ones, and those in one revision only, each
/// under its heading where there are any, each row with the smallest change
/// its interval could judge.
fn sections(outcomes: &[Outcome]) -> String {
    let regression = |outcome: &&Outcome| !outcome.passed();
    let decided = |outcome: &&Outcome| outcome.passed() && !outcome.undecided();
    let one_sided = |outcome: &&Outcome| outcome.status() == Status::Skipped;
    let sections: [(&str, Vec<&Outcome>); 4] = [
        (
            "Regressions and errors",
            outcomes.iter().filter(regression).collect(),
        ),
        (
            "Passed",
            outcomes
                .iter()
                .filter(|outcome| decided(outcome) && !one_sided(outcome))
                .collect(),
        ),
        (
            "Undecided",
            outcomes
                .iter()
                .filter(|outcome| outcome.passed_undecided())
                .collect(),
        ),
        (
            "In one revision only",
            outcomes.iter().filter(one_sided).collect(),
        ),
    ];
    let mut text = String::new();
    for (title, rows) in sections.iter().filter(|(_, rows)| !rows.is_empty()) {
        text.push_str(&format!("#### {title} ({})\n\n", rows.len()));
        text.push_str(COMMENT_HEADER);
        for outcome in rows {
            let row = row(outcome);
            let judged = match &outcome.result {
                Ok(report) if report.judged_beyond().is_finite() => {
                    format_percent(report.judged_beyond())
                }
                _ => String::new(),
            };
            text.push_str(row.trim_end());
            text.push_str(&format!(" {judged} |\n"));
        }
        text.push('\n');
    }
    text
}

/// The header of a comment's table: the job summary's, and the smallest
/// change each comparison could judge.
const COMMENT_HEADER: &str = "| comparison | best-of original | best-of candidate | paired speedup [99% CI] | verdict | judges changes beyond |\n\
     | :-- | --: | --: | :-- | :-- | --: |\n";

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
             undecided: only a change beyond 24% could be judged; to judge 5% it would take about \
             27496 rounds (315 so far), 10.4s more of measuring |\n"
        );
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        assert!(
            row(&outcome(strict))
                .contains("| ❌ undecided: only a change beyond 24% could be judged; to judge 5%")
        );
        let outcomes = [outcome(undecided_guard()), outcome(three_inputs())];
        let summary = Summary {
            binary: "speed",
            against: None,
            outcomes: &outcomes,
            filtered_out: 0,
            elapsed: std::time::Duration::ZERO,
            whole_run: None,
            load: None,
        };
        assert_eq!(
            heading("speed", Some(&summary)),
            "\n### faster: `speed` — 2 comparisons, 2 passed (1 undecided)\n\n"
        );
    }

    #[test]
    fn inputs_beyond_the_floor_stand_in_the_row_of_the_job_summary_and_the_comment() {
        use crate::report::fixtures::parse_uri;
        let outcomes = [Outcome {
            test: "parse_uri".into(),
            label: String::new(),
            source: None,
            result: Ok(parse_uri()),
            enforced: true,
        }];
        let said = "✅ within the 5% floor<br>⚠️ input 0 reads 1.81x slower, input 1 1.52x slower, \
                    input 2 1.16x slower, beyond the 5% floor |";
        assert!(row(&outcomes[0]).contains(said), "{}", row(&outcomes[0]));
        let comment = sections(&outcomes);
        assert!(comment.contains(said), "{comment}");
    }

    #[test]
    fn a_file_that_cannot_be_written_is_named_by_what_it_is() {
        let temp = tempfile::tempdir().unwrap();
        // A folder where the file would be.
        let path = temp.path().to_path_buf();
        let problem = |summary: StepSummary| {
            let mut notes = Vec::new();
            summary.append("text", &mut notes);
            match &notes[..] {
                [Note::Problem(problem)] => problem.clone(),
                other => panic!("{other:?}"),
            }
        };
        let comment = problem(StepSummary::comment(path.clone()));
        assert!(
            comment.starts_with(&format!(
                "could not write the pull-request comment to {}: ",
                path.display()
            )),
            "{comment}"
        );
        let summary = problem(StepSummary::whole_run(path));
        assert!(
            summary.starts_with("could not append to GITHUB_STEP_SUMMARY at "),
            "{summary}"
        );
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(code("x`y"), "x'y");
        assert_eq!(lines("a | b\n  c <d>"), "a \\| b<br>c &lt;d&gt;");
    }
}
