//! What a report's figures say about the measurement itself, as warnings a
//! reader can act on, each naming the cause it found: the budget was too
//! short, samples too short for the timer, a poor regression fit, a
//! function that costs about nothing, an interval too wide to decide.
//! (That outputs were not compared is said where it is known, and why:
//! `engine::compare` for `check = skip`, `revision::compare` across
//! revisions.) (Figures that read apart are no warning: the report
//! says beside them which one the verdict rests on; see
//! [`Report::best_of_apart`].)
//!
//! Everything here is read off a finished [`Report`] and its [`Config`], so
//! it runs once on the final figures — also those combined from several
//! processes — and never on a part of them.

use crate::config::Config;
use crate::indexes::format_inputs;
use crate::report::layouts::means_apart;
use crate::report::units::{format_ns, format_percent};
use crate::report::{InputReport, MeansApart, Report, Scope};
use crate::stats::median;
use crate::stats::samples::{BatchLimit, Stop};

/// Below this R², Paoloni's regression is not trusted and the report says so
/// (in quiet conditions the fits come far closer to 1).
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
    budget_too_short(report, config, &mut found);
    samples_too_short(report, config, &mut found);
    poor_fits(report, &mut found);
    nothing_measured(report, &mut found);
    too_wide_to_decide(report, config, &mut found);
    report.warnings.extend(found);
}

fn budget_too_short(report: &Report, config: &Config, found: &mut Vec<String>) {
    if report.stop == Stop::Budget && report.rounds < config.plan.min_rounds {
        found.push(format!(
            "only {} rounds fit in max_time = {:?}: the interval is wide; raise max_time",
            report.rounds, config.max_time,
        ));
    }
}

/// Samples shorter than the timer needs: one warning naming the inputs
/// where they are and, for each, what held its batches short as the
/// sampler recorded it (see [`BatchLimit`]).
fn samples_too_short(report: &Report, config: &Config, found: &mut Vec<String>) {
    let min_sample_ns = report.calibration.min_sample_ns();
    let several = report.inputs.len() > 1;
    let short: Vec<(&InputReport, f64)> = report
        .inputs
        .iter()
        .map(|input| {
            let [original_batch, candidate_batch] = input.batch_sizes;
            let sample_ns = (input.original_ns * original_batch as f64)
                .min(input.candidate_ns * candidate_batch as f64);
            (input, sample_ns)
        })
        .filter(|&(_, sample_ns)| sample_ns < min_sample_ns / 2.0)
        .collect();
    if short.is_empty() {
        return;
    }
    let lengths = if several && short.len() > NAMED {
        // Hundreds of inputs: their range, not a number each.
        let lengths = short.iter().map(|&(_, sample_ns)| sample_ns);
        let lowest = lengths.clone().fold(f64::INFINITY, f64::min);
        let highest = lengths.fold(0.0, f64::max);
        let inputs: Vec<&InputReport> = short.iter().map(|&(input, _)| input).collect();
        let (low, high) = (format_ns(lowest), format_ns(highest));
        let range = if low == high {
            low
        } else {
            format!("{low} to {high}")
        };
        format!("{range} on {}", inputs_named(&inputs))
    } else {
        let lengths: Vec<String> = short
            .iter()
            .map(|(input, sample_ns)| match several {
                true => format!("{} on input {}", format_ns(*sample_ns), input.name()),
                false => format_ns(*sample_ns),
            })
            .collect();
        lengths.join(", ")
    };
    let causes: Vec<String> = [Some(BatchLimit::Budget), Some(BatchLimit::Memory), None]
        .into_iter()
        .filter_map(|limit| {
            let inputs: Vec<&InputReport> = short
                .iter()
                .filter(|(input, _)| input.batch_limit == limit)
                .map(|&(input, _)| input)
                .collect();
            let why = short_because(limit, config);
            match (inputs.len(), several) {
                (0, _) => None,
                (_, false) => Some(format!("The batches stayed short because {why}")),
                (_, true) => Some(format!(
                    "On {} they stayed short because {why}",
                    inputs_named(&inputs)
                )),
            }
        })
        .collect();
    found.push(format!(
        "samples last {} against the {} the timer needs to stay under 0.1% of them: the \
         timer's cost weighs on the ratio. {}",
        lengths,
        format_ns(min_sample_ns),
        causes.join(" "),
    ));
}

/// Most inputs a warning names one by one before it counts the rest: a
/// function with 2,048 inputs would otherwise name each.
const NAMED: usize = 4;

/// How a warning names some inputs: by index as ranges (`inputs 0–2047`),
/// or where they have labels, the first few by label and how many more.
fn inputs_named(inputs: &[&InputReport]) -> String {
    if inputs.iter().all(|input| input.label.is_none()) {
        let indexes: Vec<usize> = inputs.iter().map(|input| input.index).collect();
        return format_inputs(&indexes);
    }
    let plural = if inputs.len() == 1 { "" } else { "s" };
    let names = inputs.iter().map(|input| input.name()).collect();
    format!("input{plural} {}", first_few(names, ", "))
}

/// `items` joined by `separator`, the first [`NAMED`] of them and then how
/// many more: `a, b, c, d and 2044 more`.
fn first_few(mut items: Vec<String>, separator: &str) -> String {
    if items.len() <= NAMED {
        return items.join(separator);
    }
    let more = items.len() - NAMED;
    items.truncate(NAMED);
    format!("{} and {more} more", items.join(separator))
}

/// Why a batch stayed short, as the sampler found it, and what helps.
fn short_because(limit: Option<BatchLimit>, config: &Config) -> String {
    match limit {
        Some(BatchLimit::Budget) => format!(
            "a longer batch would not have fit in the budget (max_time = {:?}{}): raise \
             max_time.",
            config.max_time,
            if config.processes > 1 {
                format!(", shared by at least {} processes", config.processes)
            } else {
                String::new()
            },
        ),
        Some(BatchLimit::Memory) => "every call needs its own clone of an argument taken by \
            value or by `&mut` that is not `Copy`, and the clones' memory caps the batch: take \
            that argument by reference."
            .into(),
        None => "the batch was sized for the calls' time while tuning and warming up, and the \
            measured calls were more than twice as fast (calls still cold then, or a machine \
            busier then): a longer max_warm_up lets them warm before the batch is sized."
            .into(),
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
            first_few(poor, "; "),
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
                _ => first_few(
                    free.iter()
                        .map(|&(index, ns)| format!("{} on input {index}", format_ns(ns)))
                        .collect(),
                    ", ",
                ),
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

/// An interval wider than the floor on both sides when the budget ran out
/// (in one process, or across the slices of several, which measure while
/// undecided as long as it lasts), where that left the expectation
/// undecided (a guard whose interval is wide only on the side it does not
/// care about has its answer); the warning names what made it wide.
fn too_wide_to_decide(report: &Report, config: &Config, found: &mut Vec<String>) {
    let ran_out = report.stop == Stop::Budget || !report.processes.is_empty();
    if report.decided() || !ran_out || report.floor().narrower_than(report.ci) {
        return;
    }
    let floor = format_percent(config.noise_floor);
    let placements_apart = report.placement.spread();
    found.push(if placements_apart > config.noise_floor {
        // The width is where the loop lands, which no budget narrows.
        format!(
            "the interval is wider than the noise floor ({floor}) on both sides because the \
             measuring loop's placements alone read {} apart: at this per-call time no budget \
             decides it; compare a larger piece of work per call (such as the loop that calls \
             this function)",
            format_percent(placements_apart),
        )
    } else if let Some((spread, count)) = layouts_apart(report) {
        // The width is where the linker puts the code: real, and the same
        // on any machine.
        format!(
            "the interval is wider than the noise floor ({floor}) on both sides because the \
             {count} layouts of the binary read {} apart{}, further than each slice's own \
             interval reaches: where the linker puts this code moves it more than the floor, \
             which a quieter machine does not change and a longer max_time narrows only as the \
             square root of the layouts' number; compare a larger piece of work per call (the \
             code that calls this function), or judge at a floor the layouts allow \
             (noise_floor = {:.2})",
            format_percent(spread.spread()),
            if spread.middle {
                " (the middle 80%)"
            } else {
                ""
            },
            report.judged_beyond(),
        )
    } else {
        format!(
            "the interval is wider than the noise floor ({floor}) on both sides: too noisy to \
             decide within max_time = {:?}; raise max_time or run on a quieter machine",
            config.max_time,
        )
    });
}

/// How far apart the layouts of the binary read (as the scope note says
/// it, [`means_apart`]) and how many there were, where each ran in a
/// layout of its own and they read further apart than a typical slice's
/// own interval is wide: then the layouts, not the noise within each,
/// widened the interval.
fn layouts_apart(report: &Report) -> Option<(MeansApart, usize)> {
    if report.scope != Some(Scope::Layouts) {
        return None;
    }
    let means = report.slot_means();
    let apart = means_apart(&means)?;
    let widths: Vec<f64> = report
        .processes
        .iter()
        .map(|process| (process.ci.1 / process.ci.0).ln())
        .filter(|width| width.is_finite())
        .collect();
    let typical_width = if widths.is_empty() {
        0.0
    } else {
        median(&widths)
    };
    ((apart.high / apart.low).ln() > typical_width).then_some((apart, means.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::report;
    use crate::stats::verdict::{Expect, Verdict};

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
    fn figures_that_read_apart_are_not_a_warning() {
        // The report says so beside them (see `Report::best_of_apart`).
        let mut apart = report(2.95, (2.9, 3.0), Verdict::Faster, Expect::Faster);
        apart.best_speedup = 8.99 / 2.25;
        assert_eq!(reviewed(apart), Vec::<String>::new());
    }

    /// A report of one 9 µs call per sample, where the timer (25 ns a
    /// reading) needs 25 µs, whose batches `limit` held short.
    fn short_samples(limit: Option<BatchLimit>) -> Vec<String> {
        let mut short = report(1.02, (1.01, 1.03), Verdict::WithinNoise, Expect::Report);
        short.inputs[0].original_ns = 9_000.0;
        short.inputs[0].candidate_ns = 8_800.0;
        short.inputs[0].batch_sizes = [1, 1];
        short.inputs[0].batch_limit = limit;
        reviewed(short)
    }

    #[test]
    fn short_samples_name_what_held_their_batches_short() {
        let budget = short_samples(Some(BatchLimit::Budget));
        assert_eq!(budget.len(), 1, "{budget:?}");
        assert_eq!(
            budget[0],
            "samples last 8.80 µs against the 25.0 µs the timer needs to stay under 0.1% of \
             them: the timer's cost weighs on the ratio. The batches stayed short because a \
             longer batch would not have fit in the budget (max_time = 3s, shared by at least 4 \
             processes): raise max_time."
        );
        let memory = short_samples(Some(BatchLimit::Memory));
        assert!(
            memory[0]
                .contains("the clones' memory caps the batch: take that argument by reference")
                && !memory[0].contains("max_time"),
            "{}",
            memory[0]
        );
        // Nothing held them: they were sized for slower calls.
        let sized = short_samples(None);
        assert!(
            sized[0].contains("the measured calls were more than twice as fast")
                && !sized[0].contains("memory")
                && !sized[0].contains("raise max_time"),
            "{}",
            sized[0]
        );
    }

    #[test]
    fn short_samples_on_several_inputs_say_each_inputs_cause() {
        use crate::report::fixtures::input;
        let mut two = report(1.0, (0.99, 1.01), Verdict::WithinNoise, Expect::Report);
        two.inputs = vec![
            input(0, 9_000.0, 9_000.0, 315),
            input(1, 12_000.0, 12_000.0, 315),
        ];
        for (input, limit) in two
            .inputs
            .iter_mut()
            .zip([BatchLimit::Memory, BatchLimit::Budget])
        {
            input.batch_sizes = [1, 1];
            input.batch_limit = Some(limit);
        }
        let warnings = reviewed(two);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("samples last 9.00 µs on input 0, 12.0 µs on input 1 ")
                && warnings[0]
                    .contains("On input 1 they stayed short because a longer batch would not")
                && warnings[0]
                    .contains("On input 0 they stayed short because every call needs its own"),
            "{}",
            warnings[0]
        );
    }

    #[test]
    fn short_samples_on_thousands_of_inputs_say_a_range_not_each() {
        use crate::report::fixtures::input;
        let mut many = report(1.0, (0.99, 1.01), Verdict::WithinNoise, Expect::Report);
        many.inputs = (0..2048)
            .map(|index| {
                let time = 9_000.0 + index as f64;
                let mut short = input(index, time, time, 4);
                short.batch_sizes = [1, 1];
                short.batch_limit = Some(BatchLimit::Budget);
                short
            })
            .collect();
        let warnings = reviewed(many);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("samples last 9.00 µs to 11.0 µs on inputs 0–2047 against")
                && warnings[0].contains("On inputs 0–2047 they stayed short because a longer"),
            "{}",
            warnings[0]
        );
        assert!(warnings[0].len() < 600, "{}", warnings[0]);
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
    fn an_interval_widened_by_the_layouts_says_so_not_to_quiet_the_machine() {
        use crate::report::ProcessSummary;
        // The run-length encoder: layouts read 0.65x to 1.63x.
        let mut rle = report(0.98, (0.62, 1.55), Verdict::WithinNoise, Expect::NotSlower);
        rle.processes = [0.65, 0.9, 1.1, 1.63, 0.8, 1.3, 0.7, 1.2]
            .iter()
            .zip(1..)
            .map(|(&speedup, layout)| ProcessSummary {
                speedup,
                ci: (speedup / 1.05, speedup * 1.05),
                rounds: 16,
                slot: layout,
                layout: Some(layout),
                offsets: None,
            })
            .collect();
        rle.scope = Some(Scope::Layouts);
        let warnings = reviewed(rle.clone());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("because the 8 layouts of the binary read 150.8% apart")
                && warnings[0].contains("a quieter machine does not change")
                && !warnings[0].contains("run on a quieter machine"),
            "{}",
            warnings[0]
        );
        // The same spread within this one build is the noise's.
        rle.scope = Some(Scope::ThisBuild("layouts are off".into()));
        let warnings = reviewed(rle);
        assert!(
            warnings[0].contains("too noisy to decide") && warnings[0].contains("quieter machine"),
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
    fn a_free_function_and_an_undecided_budget_are_each_said() {
        let mut odd = report(1.0, (0.8, 1.25), Verdict::WithinNoise, Expect::Report);
        odd.inputs[0].candidate_ns = 0.1;
        odd.stop = Stop::Budget;
        let warnings = reviewed(odd);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("the candidate takes 0.10 ns")),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("too noisy to decide")),
            "{warnings:?}"
        );
    }
}
