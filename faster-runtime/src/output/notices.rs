//! What holds for a whole run rather than one comparison, said once: what
//! about the machine may disturb timing, a debug build, the other load the
//! machine carried while comparisons were measured, timings that varied
//! from call to call, why verdicts hold for this build only, and a run
//! across revisions that compared nothing. The terminal and the job
//! summary say these; each comparison's report does not repeat them.

use crate::error::OnlyIn;
use crate::report::{Environment, Load, Outcome, Report, Scope};

/// Other processes (or threads) using more than this share of one core are
/// worth saying.
const BUSY_CORES: f64 = 0.25;
/// Steal above this share of the machine's time is worth saying.
const STEAL_SHARE: f64 = 0.05;

/// Why a debug build's verdicts are not enforced, and what to do.
pub const DEBUG_BUILD: &str = "a debug build times unoptimized code, so its timing verdicts are \
reported, not enforced (outputs are still checked): run `cargo test --release`, or add \
`[profile.test] opt-level = 3` to Cargo.toml; FASTER_ENFORCE=1 enforces them anyway";

/// What is known when a run starts: the machine's state and whether it is
/// a debug build.
pub fn at_start(environment: &Environment, debug_build: bool) -> Vec<String> {
    let machine = environment
        .machine
        .iter()
        .map(|note| format!("this machine: {note}"));
    machine
        .chain(debug_build.then(|| DEBUG_BUILD.to_string()))
        .collect()
}

/// What a run across revisions says of its tracked functions in one
/// revision only: that it compared nothing, when every function is one (as
/// in the first change that adds `#[faster::track]`; such a run passes, as
/// nothing in it can have regressed), and how to keep comparing a renamed
/// function, when some are new and some removed.
pub fn one_sided(outcomes: &[Outcome]) -> Vec<String> {
    let new = super::one_sided(outcomes, OnlyIn::Current);
    let removed = super::one_sided(outcomes, OnlyIn::Base);
    let mut said = Vec::new();
    if new + removed > 0 && new + removed == outcomes.len() {
        let why = match (new, removed) {
            (_, 0) => "every tracked function is new in this revision".to_string(),
            (0, _) => "no tracked function of the base revision is in this one any more".into(),
            _ => format!("no tracked function is in both revisions ({new} new, {removed} removed)"),
        };
        said.push(format!(
            "nothing was compared: {why}; the run passes, as nothing can have regressed"
        ));
    }
    if new > 0 && removed > 0 {
        said.push(
            "a function renamed since the base revision reads as one removed and one new: \
             `#[faster::track(name = \"...\")]` with its old name keeps comparing it"
                .to_string(),
        );
    }
    said
}

/// The kinds of other load worth saying, with what to do about each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadKind {
    /// Other processes kept a core busy.
    OtherProcesses,
    /// Other threads of this process (tests alongside) kept a core busy.
    OtherThreads,
    /// The hypervisor held back CPU time.
    Steal,
}

impl LoadKind {
    const ALL: [LoadKind; 3] = [
        LoadKind::OtherProcesses,
        LoadKind::OtherThreads,
        LoadKind::Steal,
    ];

    /// How much of it `load` shows, when it is worth saying.
    fn of(self, load: &Load) -> Option<f64> {
        let (amount, threshold) = match self {
            LoadKind::OtherProcesses => (load.other_processes, BUSY_CORES),
            LoadKind::OtherThreads => (load.other_threads, BUSY_CORES),
            LoadKind::Steal => (load.steal, STEAL_SHARE),
        };
        (amount > threshold).then_some(amount)
    }

    /// The notice for the largest `amount` seen `during` the measurements
    /// (e.g. "while measuring 2 of 5 comparisons").
    fn notice(self, amount: f64, during: &str) -> String {
        let percent = 100.0 * amount;
        match self {
            LoadKind::OtherProcesses => format!(
                "{during}, other processes kept up to {percent:.0}% of a core busy: pairing \
                 cancels most of it, but stop what you can or raise noise_floor"
            ),
            LoadKind::OtherThreads => format!(
                "{during}, other threads of this process (tests running alongside) kept up to \
                 {percent:.0}% of a core busy: run with `--test-threads=1` for steadier figures"
            ),
            LoadKind::Steal => format!(
                "{during}, the hypervisor held back up to {percent:.0}% of the CPU time (steal): \
                 this virtual machine shares its cores; expect wider intervals"
            ),
        }
    }
}

/// What load the run's comparisons saw, each kind said once, with how many
/// comparisons saw it. Comparisons too short to tell their own load (under
/// 200 ms of measuring) leave it to the load over the `whole_run`.
pub fn load(outcomes: &[Outcome], whole_run: Option<Load>) -> Vec<String> {
    let loads: Vec<Load> = outcomes
        .iter()
        .filter_map(|outcome| outcome.result.as_ref().ok()?.load)
        .collect();
    LoadKind::ALL
        .into_iter()
        .filter_map(|kind| {
            let amounts: Vec<f64> = loads.iter().filter_map(|load| kind.of(load)).collect();
            let largest = amounts.iter().copied().reduce(f64::max);
            match (largest, whole_run.and_then(|load| kind.of(&load))) {
                (Some(largest), _) => Some(kind.notice(largest, &during(amounts.len(), outcomes))),
                (None, Some(over_run)) if loads.len() < outcomes.len() => {
                    Some(kind.notice(over_run, "during the run"))
                }
                _ => None,
            }
        })
        .collect()
}

/// "while measuring 2 of 5 comparisons", or for a single comparison "while
/// measuring".
fn during(seen: usize, outcomes: &[Outcome]) -> String {
    match outcomes.len() {
        1 => "while measuring".to_string(),
        out_of => format!("while measuring {seen} of {out_of} comparisons"),
    }
}

/// Most comparisons a notice names before it counts the rest.
const NAMED: usize = 4;

/// What a run says once of the comparisons whose best-of times and paired
/// speedups read apart (each report shows its own figures and which one
/// its verdict rests on): which comparisons, the cause the load each saw
/// points to (the load over the `whole_run` for those too short to tell
/// their own), and what helps.
pub fn timings_vary(outcomes: &[Outcome], whole_run: Option<Load>) -> Option<String> {
    let apart: Vec<&Outcome> = outcomes
        .iter()
        .filter(|outcome| {
            outcome
                .result
                .as_ref()
                .is_ok_and(|report| !report.best_of_apart().is_empty())
        })
        .collect();
    if apart.is_empty() {
        return None;
    }
    let tests: Vec<&str> = apart.iter().map(|outcome| outcome.test.as_str()).collect();
    let which = match outcomes.len() {
        1 => tests[0].to_string(),
        total => format!("{} of {total} comparisons ({})", apart.len(), named(&tests)),
    };
    let loads: Vec<Option<Load>> = apart
        .iter()
        .map(|outcome| outcome.result.as_ref().ok().and_then(|report| report.load))
        .collect();
    Some(timings_vary_in(&which, &loads, whole_run))
}

/// `a, b, c, d, 2 more`: the first [`NAMED`] of `tests`, then how many
/// more.
fn named(tests: &[&str]) -> String {
    let mut names: Vec<String> = tests
        .iter()
        .take(NAMED)
        .map(|test| test.to_string())
        .collect();
    if tests.len() > NAMED {
        names.push(format!("{} more", tests.len() - NAMED));
    }
    names.join(", ")
}

/// Why the run's verdicts that hold for this build only do, said once per
/// reason (each report says only that its verdict does): the reason is the
/// same for every comparison of a binary, and three lines long. Names the
/// comparisons where not all of them give it.
pub fn this_build_only(outcomes: &[Outcome]) -> Vec<String> {
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for outcome in outcomes {
        let Ok(Report {
            scope: Some(Scope::ThisBuild(reason)),
            ..
        }) = &outcome.result
        else {
            continue;
        };
        match reasons.iter_mut().find(|(given, _)| given == reason) {
            Some((_, tests)) => tests.push(&outcome.test),
            None => reasons.push((reason, vec![&outcome.test])),
        }
    }
    reasons
        .into_iter()
        .map(|(reason, tests)| {
            let which = match (tests.len(), outcomes.len()) {
                (1, 1) => "the verdict holds".to_string(),
                (1, _) => format!("the verdict of {} holds", tests[0]),
                (2, 2) => "the verdicts of both comparisons hold".to_string(),
                (some, total) if some == total => {
                    format!("the verdicts of all {total} comparisons hold")
                }
                (some, total) => format!(
                    "the verdicts of {some} of {total} comparisons ({}) hold",
                    named(&tests)
                ),
            };
            format!("{which} for this build only: {reason}")
        })
        .collect()
}

/// [`timings_vary`] for a harness without an end of run (libtest): said
/// with the first report whose figures read apart, of it and of those
/// after it that say so.
pub fn timings_vary_from(outcome: &Outcome) -> Option<String> {
    let report = outcome.result.as_ref().ok()?;
    if report.best_of_apart().is_empty() {
        return None;
    }
    let which = format!("{} (and in any report below that says so)", outcome.test);
    Some(timings_vary_in(&which, &[report.load], None))
}

/// The notice that timings varied in `which`, measured under `loads` (each
/// comparison's own, where it could be told).
fn timings_vary_in(which: &str, loads: &[Option<Load>], whole_run: Option<Load>) -> String {
    let seen = |kind: LoadKind| {
        let own = loads.iter().flatten().filter_map(|load| kind.of(load));
        let fallback = whole_run
            .filter(|_| loads.iter().any(Option::is_none))
            .and_then(|load| kind.of(&load));
        own.chain(fallback).reduce(f64::max)
    };
    let known = loads.iter().all(Option::is_some) || whole_run.is_some();
    let (cause, advice) = if let Some(busy) = seen(LoadKind::OtherProcesses) {
        (
            format!(
                "while other processes kept up to {:.0}% of a core busy",
                100.0 * busy
            ),
            "on a quieter machine the two agree",
        )
    } else if let Some(busy) = seen(LoadKind::OtherThreads) {
        (
            format!(
                "while other tests of this process ran alongside (up to {:.0}% of a core)",
                100.0 * busy
            ),
            "`--test-threads=1` keeps them apart",
        )
    } else if let Some(steal) = seen(LoadKind::Steal) {
        (
            format!(
                "while the hypervisor held back up to {:.0}% of the CPU time",
                100.0 * steal
            ),
            "a machine of its own would keep them together",
        )
    } else if known {
        (
            "with no other load on the machine, so the functions' own work varies (allocation, \
             caches, branch history)"
                .to_string(),
            "nothing needs doing, as the best-of times are the fragile figure",
        )
    } else {
        (
            "from a busy machine or from work that varies, such as allocation (the measurements \
             were too short to tell the load)"
                .to_string(),
            "where they still read apart on a quieter machine, it is the work",
        )
    };
    format!(
        "timings varied from call to call in {which}, {cause}: best-of times read apart from \
         paired speedups, and the verdicts rest on the paired ones, which pair rounds run back to \
         back; {advice}"
    )
}

/// The kinds of load one report shows, with their notices, for a harness
/// that has no end of run to say them at (libtest).
pub fn load_of_one(load: Option<Load>) -> Vec<(LoadKind, String)> {
    LoadKind::ALL
        .into_iter()
        .filter_map(|kind| Some((kind, kind.notice(kind.of(&load?)?, "while measuring"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::report;
    use crate::stats::verdict::{Expect, Verdict};

    fn outcome(load: Option<Load>) -> Outcome {
        let mut report = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster);
        report.load = load;
        Outcome {
            test: "t".into(),
            label: "t".into(),
            source: None,
            result: Ok(report),
            enforced: true,
        }
    }

    #[test]
    fn load_is_said_once_with_its_largest_figure_and_how_often() {
        let busy = |cores: f64| {
            Some(Load {
                other_processes: cores,
                ..Load::default()
            })
        };
        let outcomes = [
            outcome(busy(0.5)),
            outcome(busy(1.0)),
            outcome(busy(0.1)),
            outcome(None),
        ];
        let notices = load(&outcomes, busy(0.2));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].starts_with(
                "while measuring 2 of 4 comparisons, other processes kept up to 100% of a core busy"
            ),
            "{}",
            notices[0]
        );
        assert!(load(&[outcome(busy(0.1))], None).is_empty());
        let steal = Load {
            steal: 0.2,
            ..Load::default()
        };
        assert_eq!(load_of_one(Some(steal)).len(), 1);
        assert!(load_of_one(None).is_empty());
    }

    #[test]
    fn comparisons_too_short_to_tell_their_load_fall_back_on_the_whole_run() {
        let spinning = Load {
            other_processes: 1.0,
            ..Load::default()
        };
        let notices = load(&[outcome(None), outcome(None)], Some(spinning));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].starts_with("during the run, other processes kept up to 100%"),
            "{}",
            notices[0]
        );
        // Comparisons that each told their own load are not second-guessed.
        let quiet = Some(Load::default());
        assert!(load(&[outcome(quiet)], Some(spinning)).is_empty());
    }

    #[test]
    fn a_run_that_compared_nothing_says_so_and_why() {
        let one_sided_outcome = |only_in| Outcome {
            result: Err(crate::error::Error::OneSided { only_in }),
            ..outcome(None)
        };
        let (new, gone) = (
            one_sided_outcome(OnlyIn::Current),
            one_sided_outcome(OnlyIn::Base),
        );
        assert_eq!(
            one_sided(&[new.clone(), new.clone()]),
            [
                "nothing was compared: every tracked function is new in this revision; the run \
              passes, as nothing can have regressed"
            ]
        );
        let mixed = one_sided(&[new.clone(), gone.clone()]);
        assert!(
            mixed[0].starts_with(
                "nothing was compared: no tracked function is in both revisions (1 new, 1 removed)"
            ),
            "{mixed:?}"
        );
        assert!(mixed[1].starts_with("a function renamed"), "{mixed:?}");
        let all_gone = one_sided(std::slice::from_ref(&gone));
        assert!(
            all_gone[0].contains("of the base revision is in this one"),
            "{all_gone:?}"
        );
        assert!(one_sided(&[new.clone(), outcome(None)]).is_empty());
        let renamed = one_sided(&[new, gone, outcome(None)]);
        assert_eq!(renamed.len(), 1, "{renamed:?}");
        assert!(renamed[0].starts_with("a function renamed"), "{renamed:?}");
        assert!(one_sided(&[]).is_empty());
    }

    /// An outcome named `test` whose best-of times read `best_of` against
    /// its paired 1.5x, measured under `load`.
    fn varying(test: &str, best_of: f64, load: Option<Load>) -> Outcome {
        let mut outcome = outcome(load);
        outcome.test = test.into();
        if let Ok(report) = &mut outcome.result {
            report.best_speedup = best_of;
        }
        outcome
    }

    #[test]
    fn timings_that_vary_are_said_once_naming_the_comparisons_and_the_load_they_saw() {
        let busy = Some(Load {
            other_processes: 1.8,
            ..Load::default()
        });
        // Seven comparisons on a loaded machine, six of them apart.
        let outcomes: Vec<Outcome> = (0..7)
            .map(|index| {
                let best_of = if index == 3 { 1.5 } else { 2.1 };
                varying(&format!("faster_{index}"), best_of, busy)
            })
            .collect();
        let notice = timings_vary(&outcomes, None).expect("six read apart");
        assert!(
            notice.starts_with(
                "timings varied from call to call in 6 of 7 comparisons (faster_0, faster_1, \
                 faster_2, faster_4, 2 more), while other processes kept up to 180% of a core \
                 busy: best-of times read apart from paired speedups"
            ),
            "{notice}"
        );
        assert!(
            notice.ends_with("on a quieter machine the two agree"),
            "{notice}"
        );
        // Said in a few lines: the terminal wraps it at 80 columns.
        let lines = crate::output::style::wrap(&notice, "⚠ ", "  ");
        assert!(lines.len() <= 5, "{lines:?}");

        // Measured and quiet: the work itself varies, and nothing needs doing.
        let quiet = [varying("faster_dedup", 2.1, Some(Load::default()))];
        let notice = timings_vary(&quiet, None).unwrap();
        assert!(
            notice.contains("in faster_dedup, with no other load on the machine")
                && notice
                    .ends_with("nothing needs doing, as the best-of times are the fragile figure"),
            "{notice}"
        );
        // Too short to tell, and no load over the run either.
        let unknown = timings_vary(&[varying("faster_dedup", 2.1, None)], None).unwrap();
        assert!(unknown.contains("too short to tell the load"), "{unknown}");
        // Figures that agree say nothing.
        assert_eq!(
            timings_vary(&[varying("faster_dedup", 1.5, busy)], busy),
            None
        );
    }

    #[test]
    fn under_libtest_timings_are_said_with_the_first_report_that_shows_them() {
        let notice = timings_vary_from(&varying("faster_dedup", 2.1, None)).unwrap();
        assert!(
            notice.starts_with(
                "timings varied from call to call in faster_dedup (and in any report below that \
                 says so), from a busy machine"
            ),
            "{notice}"
        );
        assert_eq!(timings_vary_from(&varying("faster_dedup", 1.5, None)), None);
    }

    #[test]
    fn why_verdicts_hold_for_this_build_only_is_said_once_per_reason() {
        let unlinked = "this binary was not linked through faster-link";
        let scoped = |test: &str, reason: &str| {
            let mut outcome = outcome(None);
            outcome.test = test.into();
            if let Ok(report) = &mut outcome.result {
                report.scope = Some(Scope::ThisBuild(reason.into()));
            }
            outcome
        };
        let thirteen: Vec<Outcome> = (0..13)
            .map(|index| scoped(&format!("faster_{index}"), unlinked))
            .collect();
        assert_eq!(
            this_build_only(&thirteen),
            [format!(
                "the verdicts of all 13 comparisons hold for this build only: {unlinked}"
            )]
        );
        assert_eq!(
            this_build_only(&thirteen[..2]),
            [format!(
                "the verdicts of both comparisons hold for this build only: {unlinked}"
            )]
        );
        assert_eq!(
            this_build_only(&thirteen[..1]),
            [format!("the verdict holds for this build only: {unlinked}")]
        );
        // Two reasons: each once, naming the comparisons that give it.
        let mut mixed = thirteen[..3].to_vec();
        mixed.push(scoped(
            "faster_alone",
            "measured in this process only (processes = 1)",
        ));
        mixed.push(outcome(None));
        assert_eq!(
            this_build_only(&mixed),
            [
                format!(
                    "the verdicts of 3 of 5 comparisons (faster_0, faster_1, faster_2) hold for \
                     this build only: {unlinked}"
                ),
                "the verdict of faster_alone holds for this build only: measured in this \
                 process only (processes = 1)"
                    .to_string(),
            ]
        );
        assert!(this_build_only(&[outcome(None)]).is_empty());
    }

    #[test]
    fn a_debug_build_is_said_with_the_fix() {
        let notices = at_start(Environment::current(), true);
        let last = notices.last().unwrap();
        assert!(
            last.contains("--release") && last.contains("opt-level = 3"),
            "{last}"
        );
    }
}
