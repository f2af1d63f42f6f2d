//! The summary table at the end of a run of several comparisons: each
//! comparison's times, speedup and verdict on one line, within 80 columns.

use super::columns::Columns;
use crate::error::{Error, OnlyIn};
use crate::output::style::{Style, Tone, display_width, wrap};
use crate::output::{inputs_changed_words, one_sided, verdict_words};
use crate::report::units::{Ratio, format_ns, format_percent};
use crate::report::{Outcome, Report, Status};
use std::fmt::Write as _;

/// The summary of a run:
///
/// ```text
/// faster: 3 comparisons: 2 passed (1 undecided), 1 failed
///   comparison            best-of runtime   paired speedup  verdict
///   has_duplicate_sorted  405 µs → 44.0 µs  8.95x faster    ✓ faster
///   mean_v2               9.58 µs → 9.87 µs 1.03x slower    ? undecided (24%)
///     ⚠ input 0 reads 1.81x slower, beyond the 5% floor
///   sum_unrolled          ✗ error: the candidate returns a different result…
///   ? undecided (X%): the interval could not rule out a change of the noise
///     floor's size; only a change beyond X% could be judged
/// ```
pub fn table(outcomes: &[Outcome], style: Style) -> String {
    let mut out = String::new();
    let noun = if outcomes.len() == 1 {
        "comparison"
    } else {
        "comparisons"
    };
    let _ = writeln!(
        out,
        "faster: {} {noun}: {}",
        outcomes.len(),
        counts(outcomes, style)
    );

    // A report's row: name, runtime, speedup, verdict; an error's: the name,
    // then the error across the rest of the line.
    let rows: Vec<Vec<String>> = outcomes
        .iter()
        .map(|outcome| {
            let mut row = vec![outcome.test.clone()];
            if let Ok(report) = &outcome.result {
                row.extend([
                    format!(
                        "{} → {}",
                        format_ns(report.original_ns),
                        format_ns(report.candidate_ns)
                    ),
                    Ratio(report.speedup, None).to_string(),
                    verdict_cell(report, outcome.passed()),
                ]);
            }
            row
        })
        .collect();
    // The times are each function's best, the speedup the paired estimate:
    // the header says so, since the two may read apart on one line.
    let header = ["comparison", "best-of runtime", "paired speedup", "verdict"].map(String::from);
    let columns = Columns::fit(&header, &rows, 2, 12, false);
    let _ = writeln!(
        out,
        "{}",
        style.paint(Tone::Dim, &columns.line(&header, |_, cell| cell))
    );
    let mut unenforced = false;
    for (outcome, row) in outcomes.iter().zip(&rows) {
        let line = match &outcome.result {
            Ok(report) => {
                unenforced |= outcome.passed() && !report.passed();
                let tone = if report.passed() && report.decided() {
                    Tone::Good
                } else if outcome.passed() {
                    Tone::Warn
                } else {
                    Tone::Bad
                };
                columns.line(row, |column, cell| {
                    if column == 3 {
                        style.paint(tone, &cell)
                    } else {
                        cell
                    }
                })
            }
            Err(error) => {
                let (own_line, name) = columns.first(&row[0]);
                let row = error_row(&format!("  {name}"), outcome, error, style);
                match own_line {
                    Some(whole) => format!("  {whole}\n{row}"),
                    None => row,
                }
            }
        };
        let _ = writeln!(out, "{line}");
        if let Some(changed) = outcome.result.as_ref().ok().and_then(inputs_changed_words) {
            for line in wrap(&changed, "    ⚠ ", "      ") {
                let _ = writeln!(out, "{}", style.paint(Tone::Warn, &line));
            }
        }
    }
    if outcomes.iter().any(Outcome::undecided) {
        let note = "undecided (X%): the interval could not rule out a change of the noise \
                    floor's size; only a change beyond X% could be judged";
        for line in wrap(note, "  ? ", "    ") {
            let _ = writeln!(out, "{}", style.paint(Tone::Warn, &line));
        }
    }
    if unenforced {
        let _ = writeln!(
            out,
            "{}",
            style.paint(
                Tone::Warn,
                "  * debug build: timing verdicts are reported, not enforced"
            )
        );
    }
    out
}

/// The row of a comparison without a report: its `name` (padded to its
/// column), then the error, wrapped under itself rather than cut (its end
/// says which input, or what to do); for a function in one revision only,
/// which one, without the error's mark.
fn error_row(name: &str, outcome: &Outcome, error: &Error, style: Style) -> String {
    let error = error.to_string();
    let first_line = error.lines().next().unwrap_or("");
    let (text, tone) = if outcome.status() == Status::Skipped {
        (first_line.to_string(), Tone::Dim)
    } else {
        (format!("✗ error: {first_line}"), Tone::Bad)
    };
    let indent = " ".repeat(display_width(name) + 2);
    let lines: Vec<String> = wrap(&text, &indent, &indent)
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let lead = if index == 0 {
                format!("{name}  ")
            } else {
                indent.clone()
            };
            format!("{lead}{}", style.paint(tone, &line[indent.len()..]))
        })
        .collect();
    lines.join("\n")
}

/// `3 passed (1 undecided), 1 failed, 1 new`: the counts that are not zero
/// (passed always), the undecided ones among the passed, as libtest's
/// result line after the table counts them (so the two never read apart),
/// the failures in red.
fn counts(outcomes: &[Outcome], style: Style) -> String {
    let failed = outcomes.iter().filter(|outcome| !outcome.passed()).count();
    let undecided = outcomes
        .iter()
        .filter(|outcome| outcome.passed_undecided())
        .count();
    let (new, removed) = (
        one_sided(outcomes, OnlyIn::Current),
        one_sided(outcomes, OnlyIn::Base),
    );
    let passed = outcomes.len() - failed - new - removed;
    let mut passed = if failed == 0 {
        style.paint(Tone::Good, &format!("{passed} passed"))
    } else {
        format!("{passed} passed")
    };
    if undecided > 0 {
        let of_which = style.paint(Tone::Warn, &format!("{undecided} undecided"));
        passed.push_str(&format!(" ({of_which})"));
    }
    let mut counts = vec![passed];
    if failed > 0 {
        counts.push(style.paint(Tone::Bad, &format!("{failed} failed")));
    }
    for (count, what) in [(new, "new"), (removed, "removed")] {
        if count > 0 {
            counts.push(format!("{count} {what}"));
        }
    }
    counts.join(", ")
}

/// `✓ faster`, `✗ slower`, or `✗ slower*` when a debug build does not
/// enforce the miss; `? undecided (24%)` for a verdict that did not decide
/// its expectation, with the change it could judge (`✗` where that fails).
fn verdict_cell(report: &Report, passed: bool) -> String {
    let mark = match (report.passed(), report.decided()) {
        (true, true) => '✓',
        (true, false) => '?',
        (false, _) => '✗',
    };
    let note = if passed && !report.passed() { "*" } else { "" };
    if report.decided() {
        format!("{mark} {}{note}", verdict_words(report))
    } else {
        format!("{mark} undecided ({}){note}", judged_beyond(report))
    }
}

/// The change an undecided report could judge, in a cell: `24%`, or `∞`
/// for an open interval.
fn judged_beyond(report: &Report) -> String {
    let judged = report.judged_beyond();
    if judged.is_finite() {
        format_percent(judged)
    } else {
        "∞".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::style::WIDTH;
    use crate::report::fixtures::{report, three_inputs};
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn the_summary_fits_80_columns_whatever_the_names() {
        let fast = three_inputs();
        let slow = report(0.8, (0.78, 0.82), Verdict::Slower, Expect::Faster);
        let long = "a_crate::with::a_deeply::nested::module::path::to_the_candidate_function_name";
        let outcome = |test: &str, result: Result<Report, Error>, enforced: bool| Outcome {
            test: test.into(),
            label: String::new(),
            source: None,
            result,
            enforced,
        };
        let outcomes = [
            outcome("dup::faster_has_duplicate_sorted", Ok(fast), true),
            outcome(long, Ok(slow), false),
            outcome(
                "sum::faster_sum_wrong",
                Err(Error::Mismatch {
                    input: 1,
                    input_debug: None,
                    original: "501501".into(),
                    candidate: "500500".into(),
                }),
                true,
            ),
        ];
        let text = table(&outcomes, Style::PLAIN);
        // Only a name longer than the line runs past it.
        for line in text.lines().filter(|line| !line.contains(long)) {
            assert!(
                display_width(line) <= WIDTH,
                "{} columns: {line}",
                display_width(line)
            );
        }
        assert!(
            text.starts_with("faster: 3 comparisons: 2 passed, 1 failed\n"),
            "{text}"
        );
        // A long name is never cut: it has a line of its own, and its
        // figures follow under their headers.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|line| *line == format!("  {long}"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            lines[at + 1].trim_start().starts_with("32.8 µs → 29.2 µs"),
            "{text}"
        );
        assert!(text.contains("✗ error: the candidate returns"), "{text}");
        // A miss a debug build does not enforce is marked and explained.
        assert!(text.contains("✗ slower*"), "{text}");
        assert!(
            text.contains("* debug build: timing verdicts are reported, not enforced"),
            "{text}"
        );
        assert!(
            text.contains("best-of runtime    paired speedup  verdict\n"),
            "{text}"
        );
        assert!(
            text.contains("405 µs → 44.0 µs   8.95x faster    ✓ faster"),
            "{text}"
        );
    }

    #[test]
    fn inputs_beyond_the_floor_either_way_get_a_line_under_their_row() {
        use crate::report::fixtures::parse_uri;
        let outcome = |report: Report| Outcome {
            test: "parse_uri".into(),
            label: String::new(),
            source: None,
            result: Ok(report),
            enforced: true,
        };
        let text = table(&[outcome(parse_uri())], Style::PLAIN);
        assert!(
            text.contains(
                "✓ within the 5% floor\n    ⚠ input 0 reads 1.81x slower, input 1 1.52x slower, \
                 input 2 1.16x slower,\n      beyond the 5% floor\n"
            ),
            "{text}"
        );
        // A speedup of the short inputs is news under a headline of 1.00x.
        let mut faster = parse_uri();
        faster.inputs[0].speedup = 1.8;
        for input in &mut faster.inputs[1..] {
            input.speedup = 1.0;
        }
        let text = table(&[outcome(faster)], Style::PLAIN);
        assert!(
            text.contains("\n    ⚠ input 0 reads 1.80x faster, beyond the 5% floor\n"),
            "{text}"
        );
        // Inputs within the floor, or on the verdict's side: no line.
        let text = table(&[outcome(three_inputs())], Style::PLAIN);
        assert!(!text.contains('⚠'), "{text}");
    }

    #[test]
    fn a_guard_that_could_be_faster_is_marked_not_slower() {
        let guard = report(1.4, (1.04, 1.9), Verdict::WithinNoise, Expect::NotSlower);
        assert_eq!(verdict_cell(&guard, true), "✓ not slower");
    }

    #[test]
    fn an_undecided_guard_is_counted_apart_and_marked_with_what_it_could_judge() {
        use crate::report::fixtures::undecided_guard;
        use crate::stats::verdict::Undecided;
        let outcome = |test: &str, report: Report| Outcome {
            test: test.into(),
            label: String::new(),
            source: None,
            result: Ok(report),
            enforced: true,
        };
        let settled = report(1.0, (0.97, 1.03), Verdict::WithinNoise, Expect::NotSlower);
        let outcomes = [
            outcome("dup::faster_dedup", three_inputs()),
            outcome("mean::faster_mean_v2", undecided_guard()),
            outcome("sum::faster_sum_v2", settled),
        ];
        let text = table(&outcomes, Style::PLAIN);
        assert_eq!(
            text,
            "faster: 3 comparisons: 3 passed (1 undecided)\n  \
             comparison            best-of runtime    paired speedup  verdict\n  \
             dup::faster_dedup     405 µs → 44.0 µs   8.95x faster    ✓ faster\n  \
             mean::faster_mean_v2  32.8 µs → 29.2 µs  1.03x slower    ? undecided (24%)\n  \
             sum::faster_sum_v2    32.8 µs → 29.2 µs  1.00x           ✓ within the 5% floor\n  \
             ? undecided (X%): the interval could not rule out a change of the noise\n    \
             floor's size; only a change beyond X% could be judged\n"
        );
        // Where undecided verdicts fail, it is a failure like any other.
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        let text = table(&[outcome("mean::faster_mean_v2", strict)], Style::PLAIN);
        assert!(
            text.starts_with("faster: 1 comparison: 0 passed, 1 failed\n"),
            "{text}"
        );
        assert!(text.contains("✗ undecided (24%)\n"), "{text}");
    }

    #[test]
    fn an_error_is_wrapped_under_itself_not_cut() {
        let outcomes = [Outcome {
            test: "a_crate::text::parse_the_longest_lines".into(),
            label: String::new(),
            source: None,
            result: Err(Error::BehaviourChanged {
                input: 12,
                input_shown: "\"a,b\"".into(),
                base: "2".into(),
                current: "3".into(),
                also: vec![],
            }),
            enforced: true,
        }];
        // The name is wider than its column beside the headers: it keeps a
        // line of its own, never cut, and the error wraps under itself.
        let text = table(&outcomes, Style::PLAIN);
        let lines: Vec<&str> = text.lines().skip(2).collect();
        let column = " ".repeat(40);
        assert_eq!(
            lines,
            [
                "  a_crate::text::parse_the_longest_lines".to_string(),
                format!("{column}✗ error: the output changed since the"),
                format!("{column}base revision for input 12"),
            ],
            "{text}"
        );
        // A name that fits stays on the error's line.
        let short = [Outcome {
            test: "text::parse".into(),
            ..outcomes[0].clone()
        }];
        let text = table(&short, Style::PLAIN);
        assert!(
            text.contains("  text::parse  ✗ error: the output changed since the base revision"),
            "{text}"
        );
    }

    #[test]
    fn a_function_in_one_revision_is_counted_and_said_as_new_or_removed() {
        let outcomes = [
            Outcome {
                test: "demo::parse".into(),
                label: "demo::parse vs main".into(),
                source: None,
                result: Ok(report(
                    1.0,
                    (0.99, 1.01),
                    Verdict::WithinNoise,
                    Expect::NotSlower,
                )),
                enforced: true,
            },
            Outcome {
                test: "demo::added".into(),
                label: "demo::added vs main".into(),
                source: None,
                result: Err(Error::OneSided {
                    only_in: OnlyIn::Current,
                }),
                enforced: true,
            },
            Outcome {
                test: "demo::gone".into(),
                label: "demo::gone vs main".into(),
                source: None,
                result: Err(Error::OneSided {
                    only_in: OnlyIn::Base,
                }),
                enforced: true,
            },
        ];
        let text = table(&outcomes, Style::PLAIN);
        assert!(
            text.starts_with("faster: 3 comparisons: 1 passed, 1 new, 1 removed\n"),
            "{text}"
        );
        assert!(
            text.contains("demo::added  new in this revision: nothing to compare against yet\n"),
            "{text}"
        );
        assert!(
            text.contains("demo::gone   not in this revision any more: nothing to compare"),
            "{text}"
        );
    }
}
