//! The terminal: each comparison's report (`pretty`) or only libtest's
//! `test NAME ... ok` line (`terse`), the machine's state once, a progress
//! line on stderr while measuring, and at the end the summary table and
//! libtest's `test result:` line.
//!
//! Under libtest (the generated `#[test]`s) libtest prints the result lines
//! itself: the terminal then prints only what libtest cannot, the report of
//! a comparison that passed, and the report of one that failed travels in
//! its panic message ([`failure_message`]), where libtest shows failures.
//!
//! What holds for the whole run is said once: under `faster::main()` at
//! its start or end, under libtest (no end of the run) with the first
//! report it concerns — the machine's state, a debug build, other load,
//! timings that varied, and why verdicts hold for this build only.

mod apart;
mod columns;
mod inputs;
mod report;
mod scope;
mod summary;

pub use report::{render, verdict_line};
pub use summary::table;

use super::style::{Style, Tone, wrap};
use super::{Note, Output, Run, Summary, notices, undecided};
use crate::report::{Environment, Outcome, Report, Scope, Status};
use report::render_in_run;
use scope::Reason;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// How much the terminal shows of each comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Each report.
    Pretty,
    /// Only the `test NAME ... ok` lines.
    Terse,
}

/// Who prints libtest's own lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Harness {
    /// `faster::main()`: this output prints them, like libtest would.
    Faster,
    /// libtest, around each generated `#[test]`.
    Libtest,
}

/// The terminal output.
pub struct Terminal<W: Write> {
    out: W,
    style: Style,
    detail: Detail,
    harness: Harness,
}

impl<W: Write> Terminal<W> {
    /// Reports into `out` (stdout).
    pub fn new(out: W, style: Style, detail: Detail, harness: Harness) -> Self {
        Terminal {
            out,
            style,
            detail,
            harness,
        }
    }

    fn say(&mut self, text: &str) {
        // A closed pipe is not worth a panic: the exit code still tells.
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }
}

/// What a process has said of what holds for its whole run: under libtest,
/// where there is no end of the run, each is said once, with the first
/// report it concerns.
static START_SAID: AtomicBool = AtomicBool::new(false);
static LOAD_SAID: [AtomicBool; 3] = [const { AtomicBool::new(false) }; 3];
static TIMINGS_SAID: AtomicBool = AtomicBool::new(false);

/// The reasons this process's reports have given for verdicts that hold
/// for this build only: a later report with the same reason refers to it.
static REASONS_GIVEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Held while a generated test prints its report, so that the tests
/// libtest runs alongside print in the order they said things in: the
/// report that gives a reason comes above those that refer to it.
static LIBTEST_PRINTING: Mutex<()> = Mutex::new(());

/// Where `outcome`'s report gives why its verdict holds for this build only
/// under libtest: in full where no report of this process gave that reason
/// yet, noting it as given where `giving` (a report printed now; a failure's
/// panic message, which libtest prints at its end, leaves it to the next).
fn libtest_reason(outcome: &Outcome, giving: bool) -> Reason {
    let Ok(Report {
        scope: Some(Scope::ThisBuild(reason)),
        ..
    }) = &outcome.result
    else {
        return Reason::InFull;
    };
    let mut given = REASONS_GIVEN.lock().unwrap_or_else(PoisonError::into_inner);
    if given.contains(reason) {
        Reason::Above
    } else {
        if giving {
            given.push(reason.clone());
        }
        Reason::InFull
    }
}

/// The run's notices not said yet in this process, for a generated test's
/// report.
fn libtest_notices(outcome: &Outcome, style: Style) -> String {
    let mut said = Vec::new();
    if !START_SAID.swap(true, Ordering::Relaxed) {
        // A build that does not enforce timing says so, and how to, also
        // where its verdicts pass (the README promises the hint).
        let debug_build = !outcome.enforced;
        said.extend(notices::at_start(Environment::current(), debug_build));
    }
    let load = outcome.result.as_ref().ok().and_then(|report| report.load);
    for (kind, notice) in notices::load_of_one(load) {
        if !LOAD_SAID[kind as usize].swap(true, Ordering::Relaxed) {
            said.push(notice);
        }
    }
    let timings = notices::timings_vary_from(outcome);
    if timings.is_some() && !TIMINGS_SAID.swap(true, Ordering::Relaxed) {
        said.extend(timings);
    }
    warning_lines(&said, style)
}

impl<W: Write> Output for Terminal<W> {
    fn begin(&mut self, run: &Run<'_>) {
        let mut text = format!("\n{}\n", running_line(run.selected()));
        if self.detail == Detail::Pretty {
            let start = notices::at_start(run.environment, run.debug_build);
            text.push_str(&warning_lines(&start, self.style));
        }
        self.say(&text);
    }

    fn comparison(&mut self, outcome: &Outcome, notes: &mut Vec<Note>) {
        let _in_order = (self.harness == Harness::Libtest).then(|| {
            LIBTEST_PRINTING
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        });
        let status = if outcome.status() == Status::Skipped {
            // A pretty report has said why already.
            result_word(outcome, self.style, self.detail == Detail::Terse)
        } else if outcome.passed() {
            self.style.paint(Tone::Good, "ok")
        } else {
            self.style.paint(Tone::Bad, "FAILED")
        };
        let text = match (self.harness, self.detail) {
            (Harness::Faster, Detail::Pretty) => format!(
                "{}test {} ... {status}\n\n",
                report_with_notes(outcome, notes, self.style, Reason::AtTheEnd),
                outcome.test
            ),
            (Harness::Faster, Detail::Terse) => {
                let problems = notes.iter().filter_map(|note| match note {
                    Note::Problem(problem) => Some(problem),
                    Note::Written { .. } => None,
                });
                for problem in problems {
                    eprintln!("faster: {}: {problem}", outcome.test);
                }
                format!("test {} ... {status}\n", outcome.test)
            }
            // libtest prints the result line; a failure's report goes into
            // the panic message, where libtest collects failures.
            (Harness::Libtest, Detail::Pretty) if outcome.passed() => {
                let reason = libtest_reason(outcome, true);
                libtest_notices(outcome, self.style)
                    + &report_with_notes(outcome, notes, self.style, reason)
            }
            (Harness::Libtest, _) => String::new(),
        };
        self.say(&text);
    }

    fn end(&mut self, summary: &Summary<'_>, _notes: &mut Vec<Note>) {
        let mut text = String::new();
        // Sections are separated by one blank line; a pretty report ends
        // with one already.
        if self.detail == Detail::Terse || summary.outcomes.is_empty() {
            text.push('\n');
        }
        let several = summary.outcomes.len() > 1;
        if self.detail == Detail::Terse && !summary.outcomes.is_empty() || several {
            text.push_str(&table(summary.outcomes, self.style));
            text.push('\n');
        }
        let mut run_wide = notices::load(summary.outcomes, summary.load);
        run_wide.extend(notices::timings_vary(summary.outcomes, summary.load));
        run_wide.extend(notices::this_build_only(summary.outcomes));
        if !run_wide.is_empty() {
            text.push_str(&warning_lines(&run_wide, self.style));
            text.push('\n');
        }
        text.push_str(&closing(summary, self.style, false));
        self.say(&text);
    }
}

/// libtest's word for a comparison with nothing to compare, `ignored`,
/// followed by why (as libtest follows it with an ignored test's reason)
/// when `with_why`.
pub fn result_word(outcome: &Outcome, style: Style, with_why: bool) -> String {
    let word = style.paint(Tone::Dim, "ignored");
    match &outcome.result {
        Err(why) if with_why => format!("{word}, {why}"),
        _ => word,
    }
}

/// `running 2 comparisons`.
pub fn running_line(count: usize) -> String {
    let noun = if count == 1 {
        "comparison"
    } else {
        "comparisons"
    };
    format!("running {count} {noun}")
}

/// Notices as `⚠` lines wrapped at 80 columns.
fn warning_lines(notices: &[String], style: Style) -> String {
    let mut text = String::new();
    for notice in notices {
        for line in wrap(notice, "⚠ ", "  ") {
            text.push_str(&style.paint(Tone::Warn, &line));
            text.push('\n');
        }
    }
    text
}

/// The failures list and libtest's result line, its passes saying how
/// many were undecided. Under `--format bench` the
/// comparisons count as measured, as libtest counts benchmarks.
pub fn closing(summary: &Summary<'_>, style: Style, bench: bool) -> String {
    let mut text = String::new();
    let failures: Vec<&str> = summary
        .outcomes
        .iter()
        .filter(|outcome| !outcome.passed())
        .map(|outcome| outcome.test.as_str())
        .collect();
    if !failures.is_empty() {
        text.push_str("failures:\n");
        for name in &failures {
            text.push_str(&format!("    {name}\n"));
        }
        text.push('\n');
    }
    let (total, ignored) = (summary.outcomes.len(), summary.skipped());
    let (passed, measured) = if bench {
        (0, total - ignored)
    } else {
        (total - failures.len() - ignored, 0)
    };
    // libtest's meaning of passed, and how many of those could not judge,
    // so this line never reads more certain than the table above it.
    let of_which_undecided = match summary.undecided() {
        0 => String::new(),
        count => format!(" ({count} undecided)"),
    };
    let one_sided = notices::one_sided(summary.outcomes);
    for notice in &one_sided {
        for line in wrap(notice, "faster: ", "  ") {
            text.push_str(&style.paint(Tone::Bold, &line));
            text.push('\n');
        }
    }
    if !one_sided.is_empty() {
        text.push('\n');
    }
    let result = if failures.is_empty() {
        style.paint(Tone::Good, "ok")
    } else {
        style.paint(Tone::Bad, "FAILED")
    };
    // Across revisions the time is the measuring's: the builds before it
    // (most of a first run) are not in it, so it does not say `finished`.
    let took = if summary.against.is_some() {
        "measured in"
    } else {
        "finished in"
    };
    text.push_str(&format!(
        "test result: {result}. {passed} passed{of_which_undecided}; {} failed; {ignored} ignored; \
         {measured} measured; {} filtered out; {took} {:.2}s\n",
        failures.len(),
        summary.filtered_out,
        summary.elapsed.as_secs_f64(),
    ));
    if let Some(whole_run) = summary.whole_run {
        text.push_str(&format!(
            "{}: the whole run took {:.2}s, building both revisions included\n",
            summary.binary,
            whole_run.as_secs_f64()
        ));
    }
    text.push('\n');
    text
}

/// A comparison's report (or its error) followed by the files written for
/// it and any problem writing them; the reason a verdict holds for this
/// build only given where `reason` says.
fn report_with_notes(outcome: &Outcome, notes: &[Note], style: Style, reason: Reason) -> String {
    let mut text = match &outcome.result {
        Ok(report) => render_in_run(report, style, reason),
        Err(why) if outcome.status() == Status::Skipped => format!(
            "faster: {}\n  {why}\n",
            style.paint(Tone::Bold, &outcome.label),
        ),
        Err(error) => format!(
            "faster: {}\n{}\n",
            style.paint(Tone::Bold, &outcome.label),
            style.paint(Tone::Bad, &format!("  error: {error}"))
        ),
    };
    if outcome.status() == Status::NotEnforced {
        text.push_str(&style.paint(
            Tone::Warn,
            "  not enforced: a debug build (`cargo test --release` enforces it)",
        ));
        text.push('\n');
    }
    for note in notes {
        let line = match note {
            Note::Written { what, path } => {
                style.paint(Tone::Dim, &format!("  {what}: {}", shown(path)))
            }
            Note::Problem(problem) => style.paint(Tone::Warn, &format!("  ⚠ {problem}")),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// A path relative to the current directory when under it.
fn shown(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf));
    relative
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// What a generated `#[test]` panics with when its comparison fails: the
/// report and its files, then what was expected (or that undecided verdicts
/// fail) and where the attribute is.
pub fn failure_message(outcome: &Outcome, notes: &[Note]) -> String {
    let place = outcome.source.as_ref().map_or_else(String::new, |source| {
        format!(" (see {}:{})", source.file, source.line)
    });
    match &outcome.result {
        Ok(report) => {
            let reason = libtest_reason(outcome, false);
            let report_text = report_with_notes(outcome, notes, Style::PLAIN, reason);
            let expected = report.expect.name().replace('_', " ");
            if report.decided() {
                format!(
                    "{report_text}faster: {} is {}, but was expected to be {expected}{place}",
                    outcome.test, report.verdict,
                )
            } else if report.verdict.meets(report.expect) {
                // It met the expectation, undecided: the setting failed it.
                format!(
                    "{report_text}faster: {} is {}, and undecided verdicts fail here \
                     (--undecided fail or FASTER_UNDECIDED=fail){place}",
                    outcome.test,
                    undecided(report),
                )
            } else {
                format!(
                    "{report_text}faster: {} is {}, but was expected to be {expected}{place}",
                    outcome.test,
                    undecided(report),
                )
            }
        }
        Err(error) => format!("faster: {}{place}: {error}", outcome.label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{report, undecided_guard};
    use crate::report::{Report, Scope, Source};
    use crate::stats::verdict::{Expect, Undecided, Verdict};

    #[test]
    fn a_run_across_revisions_says_its_time_is_the_measurings_and_the_whole_runs_apart() {
        let outcomes = [outcome(report(
            1.0,
            (0.99, 1.01),
            Verdict::WithinNoise,
            Expect::NotSlower,
        ))];
        let summary = |against, whole_run| Summary {
            binary: "cargo faster",
            against,
            outcomes: &outcomes,
            filtered_out: 0,
            elapsed: std::time::Duration::from_millis(6_220),
            whole_run,
            load: None,
        };
        let main = Some("main (1a2b3c4)");
        let across = closing(&summary(main, None), Style::PLAIN, false);
        assert!(
            across.ends_with("0 filtered out; measured in 6.22s\n\n"),
            "{across}"
        );
        // The builds before the measuring, on a line of their own.
        let whole_run = Some(std::time::Duration::from_millis(41_300));
        let built_too = closing(&summary(main, whole_run), Style::PLAIN, false);
        assert!(
            built_too.ends_with(
                "0 filtered out; measured in 6.22s\ncargo faster: the whole run took 41.30s, \
                 building both revisions included\n\n"
            ),
            "{built_too}"
        );
        let alone = closing(&summary(None, None), Style::PLAIN, false);
        assert!(
            alone.ends_with("0 filtered out; finished in 6.22s\n\n"),
            "{alone}"
        );
    }

    fn outcome(report: Report) -> Outcome {
        Outcome {
            test: "mean::faster_mean_v2".into(),
            label: "mean_v2 vs mean".into(),
            source: Some(Source {
                path: "demo::mean::faster_mean_v2".into(),
                original: "mean".into(),
                file: "src/mean.rs".into(),
                line: 12,
                debug_assertions: false,
            }),
            result: Ok(report),
            enforced: true,
        }
    }

    #[test]
    fn a_loaded_run_of_seven_says_once_that_timings_varied_naming_the_comparisons() {
        use crate::report::Load;
        use std::time::Duration;
        let busy = Load {
            other_processes: 1.8,
            ..Load::default()
        };
        // Six of seven read their best-of times apart from their paired
        // speedups, as six of seven did on the loaded machine.
        let outcomes: Vec<Outcome> = (0..7)
            .map(|index| {
                let mut measured = report(1.5, (1.45, 1.55), Verdict::Faster, Expect::Faster);
                measured.best_speedup = if index == 3 { 1.5 } else { 2.1 };
                measured.load = Some(busy);
                Outcome {
                    test: format!("faster_{index}"),
                    ..outcome(measured)
                }
            })
            .collect();
        let tests: Vec<&str> = outcomes.iter().map(|o| o.test.as_str()).collect();
        let mut out = Vec::new();
        {
            let mut terminal =
                Terminal::new(&mut out, Style::PLAIN, Detail::Pretty, Harness::Faster);
            terminal.begin(&Run {
                tests: &tests,
                environment: Environment::current(),
                debug_build: false,
            });
            for outcome in &outcomes {
                terminal.comparison(outcome, &mut Vec::new());
            }
            let summary = Summary {
                binary: "speed",
                against: None,
                outcomes: &outcomes,
                filtered_out: 0,
                elapsed: Duration::from_secs(8),
                whole_run: None,
                load: Some(busy),
            };
            terminal.end(&summary, &mut Vec::new());
        }
        let text = String::from_utf8(out).unwrap();
        // Each report says its own figures, in two lines, and no warning.
        assert_eq!(
            text.matches("Best-of times against paired speedups")
                .count(),
            6
        );
        assert!(!text.contains("⚠ the best-of"), "{text}");
        // The run says why once, after the table, in a few lines.
        assert_eq!(text.matches("timings varied from call to call").count(), 1);
        let notice: Vec<&str> = text
            .lines()
            .skip_while(|line| !line.starts_with("⚠ timings varied"))
            .take_while(|line| !line.is_empty())
            .collect();
        assert!(
            notice[0].starts_with("⚠ timings varied from call to call in 6 of 7 comparisons"),
            "{text}"
        );
        assert!(notice.len() <= 5, "{}", notice.join("\n"));
        let said = notice
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            said.contains("other processes kept up to 180% of a core busy"),
            "{text}"
        );
    }

    /// Three passing reports whose verdicts hold for this build only, for
    /// `reason`, as the terminal of `harness` prints them.
    fn three_of_this_build(harness: Harness, reason: &str, enforced: bool) -> String {
        use std::time::Duration;
        let outcomes: Vec<Outcome> = (0..3)
            .map(|index| {
                let mut measured = report(1.5, (1.45, 1.55), Verdict::Faster, Expect::Faster);
                measured.scope = Some(Scope::ThisBuild(reason.into()));
                Outcome {
                    test: format!("faster_{index}"),
                    enforced,
                    ..outcome(measured)
                }
            })
            .collect();
        let mut out = Vec::new();
        {
            let mut terminal = Terminal::new(&mut out, Style::PLAIN, Detail::Pretty, harness);
            for outcome in &outcomes {
                terminal.comparison(outcome, &mut Vec::new());
            }
            if harness == Harness::Faster {
                let summary = Summary {
                    binary: "speed",
                    against: None,
                    outcomes: &outcomes,
                    filtered_out: 0,
                    elapsed: Duration::from_secs(3),
                    whole_run: None,
                    load: None,
                };
                terminal.end(&summary, &mut Vec::new());
            }
        }
        String::from_utf8(out).unwrap()
    }

    /// `text` on one line, as a wrapped sentence reads.
    fn unwrapped(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn why_a_verdict_holds_for_this_build_only_is_said_once_at_the_end_of_a_run() {
        let reason = "this binary was not linked through faster-link: `cargo faster test` runs \
                      the tests in layouts";
        let text = unwrapped(&three_of_this_build(Harness::Faster, reason, true));
        assert_eq!(
            text.matches(
                "The verdict holds for this build only, for the reason given at the end of the \
                 run."
            )
            .count(),
            3,
            "{text}"
        );
        assert_eq!(text.matches(reason).count(), 1, "{text}");
        assert!(
            text.contains(&format!(
                "⚠ the verdicts of all 3 comparisons hold for this build only: {reason}"
            )),
            "{text}"
        );
    }

    #[test]
    fn under_libtest_the_first_report_gives_the_reason_and_a_debug_build_says_to_use_release() {
        // A reason no other test gives: the process remembers reasons given.
        let reason = "a reason only this test gives, three lines long in the real run";
        let text = three_of_this_build(Harness::Libtest, reason, false);
        let reports: Vec<&str> = text.split("faster: ").skip(1).collect();
        assert_eq!(reports.len(), 3, "{text}");
        assert!(
            unwrapped(reports[0])
                .contains(&format!("The verdict holds for this build only: {reason}.")),
            "{text}"
        );
        for later in &reports[1..] {
            assert!(
                unwrapped(later)
                    .contains("The verdict holds for this build only, for the reason given above."),
                "{text}"
            );
        }
        // Passing in a build that does not enforce timing: the hint is
        // said once, with the first report.
        assert_eq!(
            unwrapped(&text)
                .matches("run `cargo test --release`")
                .count(),
            1,
            "{text}"
        );
        assert!(text.starts_with('⚠'), "{text}");
    }

    #[test]
    fn a_failure_says_what_was_expected_or_that_undecided_verdicts_fail() {
        let slower = report(0.8, (0.78, 0.82), Verdict::Slower, Expect::NotSlower);
        assert!(failure_message(&outcome(slower), &[]).ends_with(
            "faster: mean::faster_mean_v2 is slower, but was expected to be not slower \
                 (see src/mean.rs:12)"
        ));
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        let message = failure_message(&outcome(strict), &[]);
        assert!(
            message.ends_with(
                "faster: mean::faster_mean_v2 is undecided: only a change beyond 24% could be \
                 judged, and undecided verdicts fail here (--undecided fail or \
                 FASTER_UNDECIDED=fail) (see src/mean.rs:12)"
            ),
            "{message}"
        );
        let unsure = report(1.06, (1.02, 1.10), Verdict::WithinNoise, Expect::Faster);
        let message = failure_message(&outcome(unsure), &[]);
        assert!(
            message.ends_with(
                "faster: mean::faster_mean_v2 is undecided: only a change beyond 9% could be \
                 judged, but was expected to be faster (see src/mean.rs:12)"
            ),
            "{message}"
        );
    }
}
