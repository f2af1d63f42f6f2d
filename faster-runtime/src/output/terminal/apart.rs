//! The words under a report that resolve figures which read apart (see
//! [`Report::best_of_apart`] and [`Report::inputs_against_headline`]): the
//! figures side by side in one unit, which one the verdict rests on, and
//! why they differ; and a line for each input slower beyond the noise
//! floor under a verdict that does not say so ([`Report::inputs_changed`]).
//! Why timings vary, and what helps, the run says once
//! (`notices::timings_vary`).

use crate::report::units::{Ratio, decimals_apart, format_ns_apart, format_percent, format_speeds};
use crate::report::{InputChange, Report};
use crate::stats::verdict::Verdict;

/// The sentences that resolve `report`'s figures that read apart, none
/// where they agree:
///
/// ```text
/// Best-of times against paired speedups: 27.00x against 17.18x faster
/// overall, 1.27x against 1.02x faster on input 1. Timings vary from call to
/// call; the verdict rests on the paired speedups.
/// ```
pub fn apart_notes(report: &Report) -> Vec<String> {
    let mut notes = Vec::new();
    let apart = report.best_of_apart();
    if !apart.is_empty() {
        let figures: Vec<String> = apart
            .iter()
            .map(|figures| {
                let (best_of, paired) = (figures.best_of, figures.paired);
                let decimals = decimals_apart(best_of, paired);
                let speeds = format_speeds(best_of, paired, " against ", decimals);
                match &figures.input {
                    None => format!("{speeds} overall"),
                    Some(input) => format!("{speeds} on input {input}"),
                }
            })
            .collect();
        notes.push(format!(
            "Best-of times against paired speedups: {}. Timings vary from call to call; the \
             verdict rests on the paired speedups.",
            joined(&first_few(figures, "inputs")),
        ));
    }
    if let Some(against) = report.inputs_against_headline() {
        let inputs: Vec<String> = against
            .inputs
            .iter()
            .map(|(input, speedup)| format!("input {input} ({})", Ratio(*speedup, None)))
            .collect();
        let inputs = first_few(inputs, "inputs");
        let (heaviest, share) = &against.heaviest;
        notes.push(format!(
            "{} {} against the headline ({}): each round sums its inputs' times, and input \
             {heaviest} takes {} of the original's.",
            capitalized(&joined(&inputs)),
            if inputs.len() == 1 { "reads" } else { "read" },
            Ratio(report.speedup, None),
            format_percent(*share),
        ));
    }
    notes
}

/// Most slower inputs a report names, each on a line of its own, before it
/// counts the rest.
const SLOWER_NAMED: usize = 3;

/// A line for each input slower beyond the noise floor under a verdict that
/// is not `slower` (up to [`SLOWER_NAMED`], then how many more), which the
/// report shows as warnings:
///
/// ```text
/// input 1 reads 1.97x slower (best-of 5.73 ns → 10.2 ns), beyond the 5% floor:
/// the headline weighs it by its share of the original's time, 0.6%
/// ```
pub fn slower_inputs(report: &Report) -> Vec<String> {
    let slower: Vec<InputChange> = report
        .inputs_changed()
        .into_iter()
        .filter(|input| input.reads == Verdict::Slower)
        .collect();
    let floor = format_percent(report.noise_floor);
    let mut lines: Vec<String> = slower
        .iter()
        .take(SLOWER_NAMED)
        .map(|input| {
            let [original, candidate] = input.best_of_ns;
            let [original, candidate] = format_ns_apart(original, candidate);
            format!(
                "input {} reads {} (best-of {original} → {candidate}), beyond the {floor} floor: \
                 the headline weighs it by its share of the original's time, {}",
                input.name,
                Ratio(input.speedup, None),
                share(input.share),
            )
        })
        .collect();
    if slower.len() > SLOWER_NAMED {
        lines.push(format!(
            "{} more inputs read slower beyond the noise floor (the JSON report has each \
             input's speedup)",
            slower.len() - SLOWER_NAMED
        ));
    }
    lines
}

/// Most figures or inputs a sentence names before it counts the rest: a
/// function with 2,048 inputs could read apart on hundreds.
const NAMED: usize = 4;

/// The first [`NAMED`] of `items`, and `N more {what}` in place of the
/// rest.
fn first_few(mut items: Vec<String>, what: &str) -> Vec<String> {
    if items.len() > NAMED {
        let more = items.len() - (NAMED - 1);
        items.truncate(NAMED - 1);
        items.push(format!("{more} more {what}"));
    }
    items
}

/// A share of the original's time: `0.6%`, or `under 0.1%` where one
/// decimal would read `0%`.
fn share(fraction: f64) -> String {
    if fraction < 0.0005 {
        "under 0.1%".into()
    } else {
        format_percent(fraction)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn joined(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `text` with its first letter capital.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::style::{WIDTH, display_width};
    use crate::report::fixtures::{input, report, three_inputs};
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn a_headline_apart_from_its_runtime_line_says_which_the_verdict_rests_on() {
        // The issue's headline: 640 µs → 23.7 µs above 17.18x faster.
        let mut replicated = report(17.18, (16.9, 17.5), Verdict::Faster, Expect::Faster);
        replicated.best_speedup = 640.0 / 23.7;
        let text = replicated.to_string();
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains(
                "Best-of times against paired speedups: 27.00x against 17.18x faster overall. \
                 Timings vary from call to call; the verdict rests on the paired speedups."
            ),
            "{text}"
        );
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
        // One unit, each figure in its own direction.
        let mut split = report(0.94, (0.93, 0.95), Verdict::Slower, Expect::Faster);
        split.best_speedup = 1.01;
        assert_eq!(
            apart_notes(&split),
            [
                "Best-of times against paired speedups: 1.01x faster against 1.06x slower \
              overall. Timings vary from call to call; the verdict rests on the paired speedups."
            ]
        );
        // Either side of a 1% floor's threshold, 0.4% apart: the issue's
        // `1.01x against 1.01x slower`, now as far as they differ.
        let mut close = report(0.994, (0.99, 0.998), Verdict::WithinNoise, Expect::Report);
        close.noise_floor = 0.01;
        close.best_speedup = 0.990;
        assert!(
            apart_notes(&close)[0].contains("1.010x against 1.006x slower overall"),
            "{:?}",
            apart_notes(&close)
        );
        let mut halved = report(1.0 / 1.89, (0.5, 0.56), Verdict::Slower, Expect::Faster);
        halved.best_speedup = 1.0 / 2.03;
        assert!(
            apart_notes(&halved)[0].contains("2.03x against 1.89x slower overall"),
            "{:?}",
            apart_notes(&halved)
        );
    }

    #[test]
    fn the_issues_rle_says_why_its_inputs_read_against_the_headline() {
        let mut rle = three_inputs();
        rle.speedup = 1.0 / 1.03;
        rle.ci = (0.95, 1.0 / 0.91);
        rle.verdict = Verdict::WithinNoise;
        rle.expect = Expect::Report;
        rle.inputs = vec![
            input(0, 90_000.0, 96_300.0, 315),
            input(1, 5_600.0, 5_000.0, 315),
            input(2, 4_400.0, 2_895.0, 315),
        ];
        rle.inputs[0].speedup = 1.0 / 1.07;
        rle.original_ns = 100_000.0;
        rle.candidate_ns = 104_195.0;
        rle.best_speedup = 1.0 / 1.04;
        let notes = apart_notes(&rle);
        assert_eq!(
            notes,
            [
                "Input 1 (1.12x faster) and input 2 (1.52x faster) read against the headline \
              (1.03x slower): each round sums its inputs' times, and input 0 takes 90% of the \
              original's."
            ]
        );
        // In the report, after the table and before any warning.
        let text = rle.to_string();
        let table = text.find("paired speedup").unwrap();
        let note = text.find("Input 1 (1.12x faster)").unwrap();
        assert!(table < note, "{text}");
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
    }

    #[test]
    fn an_input_slower_beyond_the_floor_gets_a_line_under_a_passing_verdict() {
        // The issue's guard: 5.73 ns → 10.2 ns on one input, 1.01x slower
        // within noise overall.
        let mut guard = report(
            1.0 / 1.01,
            (0.97, 1.02),
            Verdict::WithinNoise,
            Expect::NotSlower,
        );
        guard.inputs = vec![input(0, 1_000.0, 1_000.0, 315), input(1, 5.73, 10.2, 315)];
        guard.inputs[1].speedup = 1.0 / 1.97;
        assert_eq!(
            slower_inputs(&guard),
            [
                "input 1 reads 1.97x slower (best-of 5.73 ns → 10.2 ns), beyond the 5% floor: \
                 the headline weighs it by its share of the original's time, 0.6%"
            ]
        );
        let text = guard.to_string();
        assert!(guard.passed(), "{text}");
        assert!(
            text.contains(
                "\n  ⚠ input 1 reads 1.97x slower (best-of 5.73 ns → 10.2 ns), beyond the 5% floor:\n    \
                 the headline weighs it by its share of the original's time, 0.6%\n"
            ),
            "{text}"
        );
        // Five of them: three named, two counted.
        guard.inputs = (0..6).map(|index| input(index, 9.0, 10.0, 315)).collect();
        guard.inputs[0].original_ns = 1_000.0;
        guard.inputs[0].speedup = 1.0;
        let lines = slower_inputs(&guard);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(
            lines[3].starts_with("2 more inputs read slower beyond the noise floor"),
            "{lines:?}"
        );
    }

    #[test]
    fn figures_that_agree_need_no_words() {
        assert!(apart_notes(&three_inputs()).is_empty());
    }
}
