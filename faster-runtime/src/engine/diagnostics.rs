//! What a report's figures say about the measurement itself, as warnings a
//! reader can act on: the best-of figure and the paired estimate disagree,
//! the budget was too short, samples too short for the timer, a poor
//! regression fit, a function that costs about nothing, unchecked outputs,
//! an interval too wide to decide.
//!
//! Everything here is read off a finished [`Report`] and its [`Config`], so
//! it runs once on the final figures — also those combined from several
//! processes — and never on a part of them.

use crate::config::Config;
use crate::report::Report;
use crate::report::units::{format_change, format_ns, format_percent};
use crate::stats::samples::Stop;
use crate::stats::verdict::Verdict;

/// How a warning that outputs were not compared starts.
pub const UNCHECKED: &str = "outputs were not checked";

/// Below this R², Paoloni's regression is not trusted and the report says so.
/// In quiet conditions the fits measured here exceed 0.999.
pub const MIN_R_SQUARED: f64 = 0.99;

/// A function measured at no more than this many empty calls is reported as
/// probably optimized away.
const EMPTY_CALL_MARGIN: f64 = 1.5;
/// ... and so is one under a fifth of a nanosecond (one cycle at 5 GHz),
/// whatever the empty call costs.
const MIN_REAL_CALL_NS: f64 = 0.2;

/// Adds to `report.warnings` what its figures show about the measurement.
pub fn review(report: &mut Report, config: &Config) {
    let mut found = Vec::new();
    estimates_disagree(report, config, &mut found);
    budget_too_short(report, config, &mut found);
    samples_too_short(report, &mut found);
    poor_fits(report, &mut found);
    nothing_measured(report, &mut found);
    // A comparison across revisions says itself which outputs and why.
    let explained = report.warnings.iter().any(|w| w.starts_with(UNCHECKED));
    if !report.outputs_checked && !explained {
        found.push(format!("{UNCHECKED} (check = skip)"));
    }
    too_wide_to_decide(report, config, &mut found);
    report.warnings.extend(found);
}

/// The best-of times and the paired estimate apart, for the whole
/// comparison or for one of several inputs: further apart than the noise
/// floor (what the user counts as a difference), or on different sides of
/// a verdict's threshold. The runtime line (or the input's row) then reads
/// otherwise than the ratio beside it, and the reader must know which one
/// the verdict used and why. Closer than that, the two differ as a minimum
/// and a mean of the same times do, which changes nothing the user should
/// do.
fn estimates_disagree(report: &Report, config: &Config, found: &mut Vec<String>) {
    let floor = config.noise_floor;
    let judged = |figure: f64| Verdict::from_interval((figure, figure), floor);
    let apart = |times: f64, paired: f64| {
        (times / paired).ln().abs() > floor.ln_1p() || judged(times) != judged(paired)
    };
    let mut disagreements = Vec::new();
    if apart(report.best_speedup, report.speedup) {
        disagreements.push(format!(
            "the best-of-{} times read {} but the paired estimate reads {}",
            report.rounds,
            format_change(report.best_speedup),
            format_change(report.speedup),
        ));
    }
    // With one input, its row is the headline's.
    if report.inputs.len() > 1 {
        for input in &report.inputs {
            let times = input.original_ns / input.candidate_ns;
            if apart(times, input.speedup) {
                disagreements.push(format!(
                    "input {}'s best-of times read {} but its paired estimate reads {}",
                    input.name(),
                    format_change(times),
                    format_change(input.speedup),
                ));
            }
        }
    }
    if !disagreements.is_empty() {
        found.push(format!(
            "{}: timings vary from call to call (a noisy machine, or work that varies, such as \
             allocation); the verdict rests on the paired estimate, which compares the two \
             functions in rounds run back to back rather than each one's luckiest run",
            disagreements.join("; "),
        ));
    }
}

fn budget_too_short(report: &Report, config: &Config, found: &mut Vec<String>) {
    if report.stop == Stop::Budget && report.rounds < config.min_rounds {
        found.push(format!(
            "only {} rounds fit in max_time = {:?}: the interval is wide; raise max_time",
            report.rounds, config.max_time,
        ));
    }
}

/// Samples shorter than the timer needs: one warning naming the inputs
/// where they are, with both reasons a batch stays short, since the report
/// does not say which one held it back (a `Copy` argument by value no
/// longer clones anything, so a short budget is the usual one).
fn samples_too_short(report: &Report, found: &mut Vec<String>) {
    let min_sample_ns = report.calibration.min_sample_ns();
    let name_inputs = report.inputs.len() > 1;
    let short: Vec<String> = report
        .inputs
        .iter()
        .filter_map(|input| {
            let [original_batch, candidate_batch] = input.batch_sizes;
            let sample_ns = (input.original_ns * original_batch as f64)
                .min(input.candidate_ns * candidate_batch as f64);
            (sample_ns < min_sample_ns / 2.0).then(|| match name_inputs {
                true => format!("{} on input {}", format_ns(sample_ns), input.index),
                false => format_ns(sample_ns),
            })
        })
        .collect();
    if !short.is_empty() {
        found.push(format!(
            "samples last {} against the {} the timer needs to stay under 0.1% of them: the \
             timer's cost weighs on the ratio. A batch stays this short where a longer one \
             would not fit in max_time (raise max_time), or where every call needs its own \
             clone of an argument taken by value or by `&mut` that is not `Copy`, and the \
             clones' memory caps the batch (take that argument by reference)",
            short.join(", "),
            format_ns(min_sample_ns),
        ));
    }
}

/// Paoloni's regression fits poorly: one warning naming every poor fit.
fn poor_fits(report: &Report, found: &mut Vec<String>) {
    let poor: Vec<String> = report
        .inputs
        .iter()
        .flat_map(|input| {
            ["original", "candidate"]
                .into_iter()
                .zip(&input.fits)
                .filter_map(move |(side, fit)| {
                    let fit = fit.as_ref().filter(|fit| fit.r_squared < MIN_R_SQUARED)?;
                    Some(format!(
                        "input {} {side}, R² = {:.4}",
                        input.index, fit.r_squared
                    ))
                })
        })
        .collect();
    if !poor.is_empty() {
        found.push(format!(
            "the time does not grow in line with the batch size ({}; under {MIN_R_SQUARED}): \
             the per-call time depends on how many calls run back to back, or the machine was \
             disturbed; rerun on a quieter machine, or make each call depend on the previous \
             one's result",
            poor.join("; "),
        ));
    }
}

/// A side that costs about what the empty measuring loop costs: one
/// warning for the whole comparison, naming each side and the inputs where
/// it does (a warning per input would repeat the same advice).
fn nothing_measured(report: &Report, found: &mut Vec<String>) {
    let empty_call_ns = report.calibration.empty_call_ns;
    let nothing_ns = (EMPTY_CALL_MARGIN * empty_call_ns).max(MIN_REAL_CALL_NS);
    let sides: Vec<String> = ["original", "candidate"]
        .into_iter()
        .enumerate()
        .filter_map(|(side_index, side)| {
            let free: Vec<(usize, f64)> = report
                .inputs
                .iter()
                .map(|input| {
                    (
                        input.index,
                        [input.original_ns, input.candidate_ns][side_index],
                    )
                })
                .filter(|&(_, per_call_ns)| per_call_ns <= nothing_ns)
                .collect();
            let times = match free.len() {
                0 => return None,
                // On every input: the range says it without a list.
                all if all == report.inputs.len() => {
                    let lowest = free.iter().map(|&(_, ns)| ns).fold(f64::INFINITY, f64::min);
                    let highest = free.iter().map(|&(_, ns)| ns).fold(0.0, f64::max);
                    let (low, high) = (format_ns(lowest), format_ns(highest));
                    if low == high {
                        low
                    } else {
                        format!("{low} to {high}")
                    }
                }
                _ => free
                    .iter()
                    .map(|&(index, ns)| format!("{} on input {index}", format_ns(ns)))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            Some(format!("the {side} takes {times}"))
        })
        .collect();
    if !sides.is_empty() {
        found.push(format!(
            "{} per call, about what the measuring loop costs with nothing in it ({}): either \
             the compiler optimized the work away (make the result depend on the input and \
             return it; faster passes both through black_box), or the work is so cheap that the \
             loop around it dominates and the ratio says little about the function",
            sides.join(" and "),
            format_ns(empty_call_ns),
        ));
    }
}

/// An interval wider than the floor on both sides when the budget ran out,
/// where that left the expectation undecided (a guard whose interval is
/// wide only on the side it does not care about has its answer).
fn too_wide_to_decide(report: &Report, config: &Config, found: &mut Vec<String>) {
    let (low, high) = report.ci;
    if !report.decided()
        && report.stop == Stop::Budget
        && high / low > (1.0 + config.noise_floor).powi(2)
    {
        let placements_apart = report.placement.spread();
        found.push(if placements_apart > config.noise_floor {
            // The width is where the loop lands, which no budget narrows.
            format!(
                "the interval is wider than the noise floor ({}) on both sides because the \
                 measuring loop's placements alone read {} apart: at this per-call time no \
                 budget decides it; compare a larger piece of work per call (such as the loop \
                 that calls this function)",
                format_percent(config.noise_floor),
                format_percent(placements_apart),
            )
        } else {
            format!(
                "the interval is wider than the noise floor ({}) on both sides: too noisy to \
                 decide within max_time = {:?}; raise max_time or run on a quieter machine",
                format_percent(config.noise_floor),
                config.max_time,
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::report;
    use crate::stats::verdict::Expect;

    fn reviewed(mut report: Report) -> Vec<String> {
        review(&mut report, &Config::default());
        report.warnings
    }

    #[test]
    fn a_clean_report_gets_no_warning() {
        let clean = report(1.25, (1.24, 1.26), Verdict::Faster, Expect::Faster);
        assert_eq!(reviewed(clean), Vec::<String>::new());
    }

    #[test]
    fn estimates_that_judge_differently_are_said_each_in_its_own_direction() {
        let mut slower = report(0.94, (0.93, 0.95), Verdict::Slower, Expect::Faster);
        slower.best_speedup = 1.01;
        let warnings = reviewed(slower);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with(
                "the best-of-315 times read 1% faster but the paired estimate reads 6.4% slower: \
                 timings vary"
            ),
            "{}",
            warnings[0]
        );
        assert!(
            warnings[0].contains("the verdict rests on the paired estimate"),
            "{}",
            warnings[0]
        );
    }

    #[test]
    fn estimates_further_apart_than_the_floor_are_said_on_the_same_side_too() {
        // The row: 8.99 µs → 2.25 µs reads 4x, the paired estimate 2.95x.
        let mut apart = report(2.95, (2.9, 3.0), Verdict::Faster, Expect::Faster);
        apart.best_speedup = 8.99 / 2.25;
        let warnings = reviewed(apart);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with(
                "the best-of-315 times read 4.00x faster but the paired estimate reads 2.95x \
                 faster"
            ),
            "{}",
            warnings[0]
        );
        // Within the floor (4% apart at 5%) and on the same side: a minimum
        // and a mean of the same times, nothing to say.
        let mut close = report(9.33, (9.15, 9.50), Verdict::Faster, Expect::Faster);
        close.best_speedup = 8.98;
        assert_eq!(reviewed(close), Vec::<String>::new());
        // Slower on both sides, 5% apart at a 5% floor: not past it.
        let mut slower = report(0.485, (0.48, 0.49), Verdict::Slower, Expect::Faster);
        slower.best_speedup = 0.485 * 1.049;
        assert_eq!(reviewed(slower), Vec::<String>::new());
        // At a floor of 100%, 35% apart on the same side is within it.
        let mut wide = report(2.95, (2.9, 3.0), Verdict::Faster, Expect::Faster);
        wide.best_speedup = 3.99;
        let config = Config {
            noise_floor: 1.0,
            ..Config::default()
        };
        review(&mut wide, &config);
        assert_eq!(wide.warnings, Vec::<String>::new());
    }

    #[test]
    fn an_input_whose_row_reads_otherwise_than_its_estimate_is_said() {
        use crate::report::fixtures::input;
        let mut split = report(0.87, (0.85, 0.89), Verdict::Slower, Expect::Faster);
        split.inputs = vec![
            input(0, 3_240.0, 3_530.0, 315),
            input(1, 10_500.0, 10_400.0, 315),
        ];
        split.inputs[1].speedup = 1.0 / 1.19;
        split.inputs[1].label = Some("192×192".into());
        let warnings = reviewed(split);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with(
                "input 192×192's best-of times read 1% faster but its paired estimate reads 19% \
                 slower: timings vary"
            ),
            "{}",
            warnings[0]
        );
    }

    #[test]
    fn an_interval_widened_by_placements_says_no_budget_decides_it() {
        let mut placed = report(1.6, (1.05, 2.4), Verdict::WithinNoise, Expect::Faster);
        placed.stop = Stop::Budget;
        placed.placement.count = 8;
        placed.placement.speedups = vec![1.3, 1.5, 1.7, 1.95];
        let warnings = reviewed(placed);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("placements alone read 50% apart") && !w.contains("max_time")),
            "{warnings:?}"
        );
    }

    #[test]
    fn too_noisy_to_decide_is_said_only_where_the_expectation_is_undecided() {
        let too_noisy = |interval, expect| {
            let mut wide = report(1.05, interval, Verdict::WithinNoise, expect);
            wide.stop = Stop::Budget;
            reviewed(wide)
                .iter()
                .any(|warning| warning.contains("too noisy to decide"))
        };
        // Wider than the floor on both sides, but not 5% slower: a
        // regression guard decided; asked for faster, it did not.
        assert!(!too_noisy((0.96, 1.2), Expect::NotSlower));
        assert!(too_noisy((0.96, 1.2), Expect::Faster));
        assert!(too_noisy((0.8, 1.2), Expect::NotSlower));
    }

    #[test]
    fn free_calls_on_several_inputs_are_one_warning_naming_each() {
        use crate::report::fixtures::input;
        let mut free = report(1.0, (0.99, 1.01), Verdict::WithinNoise, Expect::Report);
        free.inputs = vec![input(0, 0.37, 40.0, 315), input(1, 0.38, 0.36, 315)];
        for free_input in &mut free.inputs {
            free_input.batch_sizes = [1 << 20, 1 << 20];
        }
        let warnings = reviewed(free);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with(
                "the original takes 0.37 ns to 0.38 ns and the candidate takes 0.36 ns on \
                 input 1 per call"
            ),
            "{}",
            warnings[0]
        );
    }

    #[test]
    fn a_free_function_an_unchecked_output_and_an_undecided_budget_are_each_said() {
        let mut odd = report(1.0, (0.8, 1.25), Verdict::WithinNoise, Expect::Report);
        odd.inputs[0].candidate_ns = 0.1;
        odd.outputs_checked = false;
        odd.stop = Stop::Budget;
        let warnings = reviewed(odd);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("the candidate takes 0.10 ns")),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("check = skip")),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("too noisy to decide")),
            "{warnings:?}"
        );
    }
}
