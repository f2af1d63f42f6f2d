//! JUnit XML (`--format junit`, or `--junit PATH` beside any format): the
//! report CI systems read (GitLab, Jenkins, nextest's own). One
//! `<testcase>` per comparison, the speedup, its interval and the verdict
//! in `<properties>`, a `<failure>` carrying the verdict line when the
//! comparison fails, `<skipped>` when there was nothing to compare or the
//! verdict passed undecided, and the whole report as the failure's body or,
//! where none failed, its `<system-out>` (once, not in both).
//!
//! An undecided pass is `<skipped>` rather than a bare pass because that is
//! the one non-failing mark CI viewers show in their summaries (GitLab's
//! and Jenkins' test reports, the GitHub Actions JUnit reporters), with its
//! message: properties and output are only seen by opening the case, which
//! a green row never invites. Its judgement was skipped, not its run.

use super::files::{self, write_atomically};
use super::style::Style;
use super::terminal;
use super::{Note, Output, Summary, notices, undecided};
use crate::report::{Outcome, Status};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

/// Where the document goes once the run ends.
pub enum Destination<W: Write> {
    /// Printed (`--format junit`).
    Stream(W),
    /// Written atomically to a file (`--junit PATH`).
    File(PathBuf),
}

/// Collects the files written for each comparison and writes the document
/// at the end.
pub struct Junit<W: Write> {
    destination: Destination<W>,
    notes: Vec<Vec<Note>>,
}

impl<W: Write> Junit<W> {
    /// A document for `destination`.
    pub fn new(destination: Destination<W>) -> Self {
        Junit {
            destination,
            notes: Vec::new(),
        }
    }
}

impl<W: Write> Output for Junit<W> {
    fn comparison(&mut self, _outcome: &Outcome, notes: &mut Vec<Note>) {
        self.notes.push(notes.clone());
    }

    fn end(&mut self, summary: &Summary<'_>, notes: &mut Vec<Note>) {
        let cases: String = summary
            .outcomes
            .iter()
            .zip(&self.notes)
            .map(|(outcome, notes)| test_case(summary.binary, outcome, notes))
            .collect();
        let document = document(summary, &cases);
        match &mut self.destination {
            Destination::Stream(out) => {
                let _ = out.write_all(document.as_bytes());
                let _ = out.flush();
            }
            Destination::File(path) => {
                if let Err(error) = write_atomically(path, |out| out.write_all(document.as_bytes()))
                {
                    notes.push(Note::Problem(files::not_written(path, &error)));
                }
            }
        }
    }
}

/// The whole document around the collected test cases.
fn document(summary: &Summary<'_>, cases: &str) -> String {
    let tests = summary.outcomes.len();
    let failures = summary.failed();
    let skipped = summary.skipped() + summary.undecided();
    let seconds = summary.elapsed.as_secs_f64();
    let suite = escape(summary.binary);
    // What holds for the whole suite, as its own output after the cases.
    let notices = notices::one_sided(summary.outcomes);
    let said = if notices.is_empty() {
        String::new()
    } else {
        format!(
            "    <system-out>{}</system-out>\n",
            escape(&notices.join("\n"))
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <testsuites name=\"faster\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" \
         time=\"{seconds:.3}\">\n  \
         <testsuite name=\"{suite}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" \
         skipped=\"{skipped}\" time=\"{seconds:.3}\">\n{cases}{said}  </testsuite>\n\
         </testsuites>\n"
    )
}

/// One `<testcase>`, its class the test binary (as nextest names them).
fn test_case(binary: &str, outcome: &Outcome, notes: &[Note]) -> String {
    let mut properties: Vec<(&str, String)> = vec![("status", outcome.status().name().into())];
    let (seconds, failure, report_text) = match &outcome.result {
        Ok(report) => {
            properties.extend([
                ("verdict", report.verdict.to_string()),
                ("decided", report.decided().to_string()),
                ("judged_beyond", report.judged_beyond().to_string()),
                ("if_undecided", report.if_undecided.name().into()),
                ("expect", report.expect.name().into()),
                ("speedup", report.speedup.to_string()),
                ("ci_low", report.ci.0.to_string()),
                ("ci_high", report.ci.1.to_string()),
                ("noise_floor", report.noise_floor.to_string()),
                ("original_ns", report.original_ns.to_string()),
                ("candidate_ns", report.candidate_ns.to_string()),
                ("rounds", report.rounds.to_string()),
            ]);
            let failure = (outcome.status() == Status::Failed)
                .then(|| terminal::verdict_line(report).trim().to_string());
            (
                report.elapsed.as_secs_f64(),
                failure,
                terminal::render(report, Style::PLAIN),
            )
        }
        Err(error) => {
            let text = error.to_string();
            let first = text.lines().next().unwrap_or_default().to_string();
            (0.0, Some(first), text)
        }
    };
    for note in notes {
        if let Note::Written { what, path } = note {
            properties.push((what, path.display().to_string()));
        }
    }
    let mut case = format!(
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\">\n      <properties>\n",
        escape(binary),
        escape(&outcome.test),
    );
    properties.insert(1, ("label", outcome.label.clone()));
    let undecided_pass = match &outcome.result {
        Ok(report) if outcome.passed_undecided() => Some(undecided(report)),
        _ => None,
    };
    for (name, value) in &properties {
        let _ = writeln!(
            case,
            "        <property name=\"{name}\" value=\"{}\"/>",
            escape(value)
        );
    }
    case.push_str("      </properties>\n");
    if outcome.status() == Status::Skipped {
        let _ = writeln!(
            case,
            "      <skipped message=\"{}\"/>",
            escape(&report_text)
        );
    } else if let Some(message) = undecided_pass {
        let _ = writeln!(case, "      <skipped message=\"{}\"/>", escape(&message));
    } else if let Some(message) = failure {
        let kind = if outcome.result.is_ok() {
            "verdict"
        } else {
            "error"
        };
        // The report is the failure's body, so a viewer shows it once.
        let _ = writeln!(
            case,
            "      <failure type=\"{kind}\" message=\"{}\">{}</failure>\n    </testcase>",
            escape(&message),
            escape(&report_text)
        );
        return case;
    }
    let _ = writeln!(
        case,
        "      <system-out>{}</system-out>\n    </testcase>",
        escape(&report_text)
    );
    case
}

/// `text` as XML character data or an attribute value: the five special
/// characters as entities, and the control characters XML 1.0 forbids
/// (all below U+0020 but tab, newline and carriage return) as `?`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// `io::sink()` as the stream of a JUnit output that writes a file.
pub type NoStream = io::Sink;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_the_document_well_formed() {
        assert_eq!(
            escape("a < b && \"c\" > 'd'"),
            "a &lt; b &amp;&amp; &quot;c&quot; &gt; &apos;d&apos;"
        );
        assert_eq!(escape("bell\u{7}\ttab\nline"), "bell?\ttab\nline");
        assert_eq!(escape("µs → ✓"), "µs → ✓");
    }
}
