//! The `--placement` table: a row per case, over every process's runs.

use super::{Case, Run};
use crate::summary::quantile;
use faster::Verdict;
use faster::report::format_ns;
use faster_runtime::__internal::median;

/// The table: a row per case.
pub(super) fn table(cases: &[Case], runs: &[Run], processes: usize) -> String {
    let mut lines = vec![format!(
        "{:<10} {:>9} {:>19} {:>27} {:>17} {:>9} {:>9} {:>8} {:>9} {:>6} {:>5} {:>3} {:>17} {:>6}",
        "case",
        "steps",
        "per call",
        "reference: median [min–max]",
        "CI holds ref (*)",
        "processes",
        "med |err|",
        "max|err|",
        "med ±CI",
        "F/N/S",
        "wrong",
        "pl.",
        "spread: med / max",
        "time s"
    )];
    for (index, case) in cases.iter().enumerate() {
        let of_case: Vec<&Run> = runs.iter().filter(|run| run.case == index).collect();
        lines.push(row(case, &of_case, processes));
    }
    lines.push(
        "(*) in brackets, the misses where the reference read beyond every one of the \
         engine's placements"
            .into(),
    );
    lines.join("\n")
}

/// One case's figures over every process.
fn row(case: &Case, runs: &[&Run], processes: usize) -> String {
    let Case {
        name,
        original,
        candidate,
    } = case;
    let of =
        |figure: &dyn Fn(&Run) -> f64| -> Vec<f64> { runs.iter().map(|run| figure(run)).collect() };
    // One reference per process (every run of a process shares it).
    let mut references: Vec<f64> = (1..=processes)
        .filter_map(|process| runs.iter().find(|run| run.process == process))
        .map(|run| run.reference)
        .collect();
    let held = runs.iter().filter(|run| run.holds_reference()).count();
    let processes_held = (1..=processes)
        .filter(|&process| {
            runs.iter()
                .filter(|run| run.process == process)
                .all(|run| run.holds_reference())
        })
        .count();
    let mut errors = of(&|run| (run.speedup / run.reference).ln().abs());
    let widths = of(&|run| (run.ci.1.ln() - run.ci.0.ln()) / 2.0);
    let mut spreads = of(&|run| run.spread());
    let beyond = runs
        .iter()
        .filter(|run| !run.holds_reference() && run.reference_beyond_placements())
        .count();
    let seconds = of(&|run| run.seconds);
    let count = |verdict: Verdict| runs.iter().filter(|run| run.verdict == verdict).count();
    let wrong = if original == candidate {
        runs.iter()
            .filter(|run| run.verdict != Verdict::WithinNoise)
            .count()
    } else {
        let reversed = if original > candidate {
            Verdict::Slower
        } else {
            Verdict::Faster
        };
        runs.iter().filter(|run| run.verdict == reversed).count()
    };
    let budget_stops = runs.iter().filter(|run| run.budget_stop).count();
    let per_call = |side: usize| format_ns(median(&of(&|run| run.per_call_ns[side])));
    let placements: Vec<String> = {
        let mut counts: Vec<usize> = runs.iter().map(|run| run.placements).collect();
        counts.sort_unstable();
        counts.dedup();
        counts.iter().map(usize::to_string).collect()
    };
    format!(
        "{:<10} {:>9} {:>19} {:>27} {:>17} {:>9} {:>8.2}% {:>7.1}% {:>8.2}% {:>6} {:>5} {:>3} {:>17} {:>6.3}{}",
        name,
        format!("{original} vs {candidate}"),
        format!("{} vs {}", per_call(0), per_call(1)),
        format!(
            "{:.4} [{:.4}–{:.4}]",
            median(&references),
            quantile(&mut references, 0.0),
            quantile(&mut references, 1.0),
        ),
        format!("{held}/{} runs ({beyond})", runs.len()),
        format!("{processes_held}/{processes}"),
        100.0 * median(&errors),
        100.0 * quantile(&mut errors, 1.0),
        100.0 * median(&widths),
        format!(
            "{}/{}/{}",
            count(Verdict::Faster),
            count(Verdict::WithinNoise),
            count(Verdict::Slower)
        ),
        wrong,
        placements.join(","),
        format!(
            "{:.2}% / {:.1}%",
            100.0 * median(&spreads),
            100.0 * quantile(&mut spreads, 1.0)
        ),
        median(&seconds),
        if budget_stops > 0 {
            format!(" ({budget_stops} on the budget)")
        } else {
            String::new()
        },
    )
}
