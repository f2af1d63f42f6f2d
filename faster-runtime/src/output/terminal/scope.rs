//! The line that says how far a verdict reaches: across the layouts of the
//! binary its processes ran in (about the code), or this build only, and
//! why.

use crate::engine::replicate::{means_apart, process_means};
use crate::report::units::format_speeds;
use crate::report::{Report, Scope};

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
pub fn scope_note(report: &Report) -> Option<String> {
    let read = processes_read(report);
    let (count, slices) = counts(report);
    match (&report.scope, read) {
        (Some(Scope::Layouts), Some(read)) => Some(format!(
            "{slices}{count} layouts of the binary (the same code linked in another order, \
             one per process) read {read}, and the interval includes that."
        )),
        (Some(Scope::ThisBuild(reason)), Some(read)) => Some(format!(
            "{slices}{count} processes of this build read {read}. The verdict holds for this \
             build only: {reason}."
        )),
        (Some(Scope::ThisBuild(reason)), None) => {
            Some(format!("The verdict holds for this build only: {reason}."))
        }
        (Some(Scope::Layouts), None) => None,
        (None, read) => read.map(|read| format!("{slices}{count} processes read {read}.")),
    }
}

/// How many processes (layouts) the slices ran in, and `N slices in `
/// where some ran in the same one (more than one pass).
fn counts(report: &Report) -> (usize, String) {
    let slices = report.processes.len();
    let processes = process_means(report).len();
    let passes = if slices > processes {
        format!("{slices} slices in ")
    } else {
        String::new()
    };
    (processes, passes)
}

/// `1.03x faster to 1.07x slower (a spread of 10.3%)`, ascending in the
/// headline's direction, each end in its own, over the processes'
/// (layouts') means, where there are several (see [`means_apart`]).
fn processes_read(report: &Report) -> Option<String> {
    let apart = means_apart(&process_means(report))?;
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
        let note = scope_note(&spread).unwrap();
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
            scope_note(&narrow).unwrap(),
            "2 processes of this build read 1.000x to 1.001x faster (a spread of under 0.1%). \
             The verdict holds for this build only: layouts are off (FASTER_LAYOUTS=off)."
        );
    }
}
