//! The line that says how far a verdict reaches: across the layouts of the
//! binary its processes ran in (about the code), or this build only, and
//! why — or, where the run gives that reason once, where it gives it.

use crate::report::units::format_speeds;
use crate::report::{Report, Scope};

/// Where a report whose verdict holds for this build only gives the
/// reason, which is the same for every comparison of a binary and three
/// lines long: a run of 13 comparisons said it 13 times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// In the report itself: a report on its own (`Display`, JUnit, a
    /// failure's panic message), or the first of a process under libtest.
    InFull,
    /// In an earlier report of this process (libtest, which has no end of
    /// the run to give it at).
    Above,
    /// In the run's closing lines (`faster::main()`, `cargo faster`).
    AtTheEnd,
}

/// What the processes read and what the verdict is about:
///
/// ```text
/// 9 layouts of the binary (the same code linked in another order, one per
/// process) read 1.03x faster to 1.07x slower (a spread of 10.3%), and the
/// interval includes that.
/// ```
///
/// How large a change a spread this wide still lets the interval judge is
/// the verdict's to say, where it did not decide (`? undecided: ...`).
///
/// The reason it holds for this build only is given where `reason` says.
pub fn scope_note(report: &Report, reason: Reason) -> Option<String> {
    let read = processes_read(report);
    let (count, slices) = counts(report);
    let this_build = |why: &str| match reason {
        Reason::InFull => format!("The verdict holds for this build only: {why}."),
        Reason::Above => {
            "The verdict holds for this build only, for the reason given above.".to_string()
        }
        Reason::AtTheEnd => "The verdict holds for this build only, for the reason given at \
                             the end of the run."
            .to_string(),
    };
    match (&report.scope, read) {
        (Some(Scope::Layouts), Some(read)) => Some(format!(
            "{slices}{count} layouts of the binary (the same code linked in another order, \
             one per process) read {read}, and the interval includes that."
        )),
        (Some(Scope::ThisBuild(why)), Some(read)) => Some(format!(
            "{slices}{count} processes of this build read {read}. {}",
            this_build(why)
        )),
        (Some(Scope::ThisBuild(why)), None) => Some(this_build(why)),
        (Some(Scope::Layouts), None) => None,
        (None, read) => read.map(|read| format!("{slices}{count} processes read {read}.")),
    }
}

/// How many processes (layouts) the slices ran in, and `N slices in `
/// where some ran in the same one (more than one pass).
fn counts(report: &Report) -> (usize, String) {
    let slices = report.processes.len();
    let processes = report.slot_means().len();
    let passes = if slices > processes {
        format!("{slices} slices in ")
    } else {
        String::new()
    };
    (processes, passes)
}

/// `1.03x faster to 1.07x slower (a spread of 10.3%)`, ascending in the
/// headline's direction, each end in its own, over the processes'
/// (layouts') means, where there are several (see [`Report::slots_apart`]).
fn processes_read(report: &Report) -> Option<String> {
    let apart = report.slots_apart()?;
    let slower = report.speedup < 1.0;
    let (low, high) = if slower {
        (apart.high, apart.low)
    } else {
        (apart.low, apart.high)
    };
    let spread = apart.spread();
    let decimals = if spread < 0.03 { 3 } else { 2 };
    Some(format!(
        "{} ({}a spread of {})",
        format_speeds(low, high, " to ", decimals),
        if apart.middle { "the middle 80%, " } else { "" },
        if spread < 0.001 {
            "under 0.1%".to_string()
        } else {
            format!("{:.1}%", 100.0 * spread)
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::terminal::render;
    use crate::report::ProcessSummary;
    use crate::report::fixtures::report;
    use crate::stats::verdict::{Expect, Verdict};

    /// A report whose processes read `speedups`, in the given scope.
    fn replicated(
        speedup: f64,
        ci: (f64, f64),
        verdict: Verdict,
        speedups: &[f64],
        scope: Scope,
    ) -> Report {
        let mut report = report(speedup, ci, verdict, Expect::Report);
        report.processes = speedups
            .iter()
            .zip(0..)
            .map(|(&speedup, layout)| ProcessSummary {
                speedup,
                ci: (speedup * 0.99, speedup / 0.99),
                rounds: 80,
                slot: layout,
                layout: Some(layout),
                offsets: None,
            })
            .collect();
        report.scope = Some(scope);
        report
    }

    #[test]
    fn layouts_that_disagree_say_how_far_apart_and_leave_the_judging_to_the_verdict() {
        let spread = replicated(
            0.99,
            (0.95, 1.03),
            Verdict::WithinNoise,
            &[0.93, 0.97, 1.02, 1.07],
            Scope::Layouts,
        );
        let note = scope_note(&spread, Reason::InFull).unwrap();
        assert!(
            note.starts_with("4 layouts of the binary (the same code linked in another order"),
            "{note}"
        );
        // The fastest layout read faster, the slowest slower: each end says
        // its own direction.
        assert!(
            note.contains("read 1.07x faster to 1.08x slower (a spread of 15.1%)"),
            "{note}"
        );
        assert!(note.ends_with("and the interval includes that."), "{note}");
        // The verdict line says what this interval could judge.
        assert!(
            render(&spread, crate::output::style::Style::PLAIN)
                .contains("? undecided: only a change beyond 9.3% could be judged"),
            "{}",
            spread
        );
    }

    #[test]
    fn this_build_says_why_and_a_narrow_reading_keeps_the_headlines_direction() {
        // The headline reads 1.001x faster at three decimals; so must the
        // processes' range, not a direction-less 1.00x.
        let narrow = replicated(
            1.001,
            (1.0, 1.002),
            Verdict::WithinNoise,
            &[1.0004, 1.0012],
            Scope::ThisBuild("layouts are off (FASTER_LAYOUTS=off)".into()),
        );
        assert_eq!(
            scope_note(&narrow, Reason::InFull).unwrap(),
            "2 processes of this build read 1.000x to 1.001x faster (a spread of under 0.1%). \
             The verdict holds for this build only: layouts are off (FASTER_LAYOUTS=off)."
        );
    }

    #[test]
    fn a_reason_given_elsewhere_in_the_run_is_referred_to_in_one_line() {
        let unlinked = replicated(
            13.26,
            (13.02, 13.49),
            Verdict::Faster,
            &[13.137, 13.305],
            Scope::ThisBuild("this binary was not linked through faster-link".into()),
        );
        assert_eq!(
            scope_note(&unlinked, Reason::Above).unwrap(),
            "2 processes of this build read 13.137x to 13.305x faster (a spread of 1.3%). The \
             verdict holds for this build only, for the reason given above."
        );
        let mut alone = unlinked.clone();
        alone.processes.clear();
        assert_eq!(
            scope_note(&alone, Reason::AtTheEnd).unwrap(),
            "The verdict holds for this build only, for the reason given at the end of the run."
        );
        // Layouts have no reason to give.
        let mut layouts = unlinked;
        layouts.scope = Some(Scope::Layouts);
        assert_eq!(
            scope_note(&layouts, Reason::Above),
            scope_note(&layouts, Reason::InFull)
        );
    }
}
