//! The slices of a comparison as one measurement ([`combine_slices`]):
//! every slice's rounds kept, the speedup and interval over the layouts
//! (`super::over_layouts`), and whether they settled the verdict.

use super::over_layouts;
use crate::report::notice;
use crate::report::{Measurement, ProcessSummary};
use crate::stats;
use crate::stats::samples::Stop;
use crate::stats::verdict::NoiseFloor;

/// The measurements of a comparison's slices (at least one), in the order
/// they were measured, each summarised in `summaries` under its slot, as
/// one measurement: the first slice's is its frame (heading, timer,
/// placement), every slice's rounds are appended in order, the speedup and
/// interval are over the slices' own estimates
/// ([`stats::across_processes`]); each input's per-call times are the
/// fastest any slice measured, the headline times their sums (as in one
/// process) and the best-of figure their ratio; observations a later slice
/// made (other load, a timer that fell back) are kept where the earlier
/// ones did not make the same. It stopped converged where the slices
/// settled at `floor`, else on its budget (or the most slices). The
/// interval is widened by `systematic` (see `super::over_layouts`).
pub(super) fn combine_slices(
    slices: Vec<Measurement>,
    summaries: Vec<ProcessSummary>,
    floor: NoiseFloor,
    systematic: f64,
) -> Measurement {
    let mut slices = slices.into_iter();
    let mut combined = slices.next().expect("a comparison measured in no slice");
    let later: Vec<Measurement> = slices.collect();
    let all: Vec<&Measurement> = std::iter::once(&combined).chain(&later).collect();
    let geometric_mean = |values: &mut dyn Iterator<Item = f64>| {
        stats::mean(&values.map(f64::ln).collect::<Vec<_>>()).exp()
    };
    let uncorrected_speedup = geometric_mean(&mut all.iter().map(|m| m.uncorrected_speedup));
    let input_speedups: Vec<f64> = (0..combined.inputs.len())
        .map(|input| {
            geometric_mean(
                &mut all
                    .iter()
                    .filter_map(|slice| slice.inputs.get(input).map(|i| i.speedup)),
            )
        })
        .collect();
    let elapsed = all.iter().map(|slice| slice.elapsed).sum();
    let layouts = over_layouts(&summaries, systematic);
    let (speedup, ci) = match &layouts {
        Some(layouts) => (layouts.interval.center.exp(), layouts.interval.exp_bounds()),
        None => (
            geometric_mean(&mut summaries.iter().map(|p| p.speedup)),
            (0.0, f64::INFINITY),
        ),
    };

    for slice in later {
        append(&mut combined, slice);
    }
    for (input, speedup) in combined.inputs.iter_mut().zip(input_speedups) {
        input.speedup = speedup;
    }
    combined.original_ns = combined.inputs.iter().map(|input| input.original_ns).sum();
    combined.candidate_ns = combined.inputs.iter().map(|input| input.candidate_ns).sum();
    combined.speedup = speedup;
    combined.ci = ci;
    combined.systematic = if layouts.is_some() { systematic } else { 0.0 };
    combined.elapsed = elapsed;
    // Slices measure fixed cycles, never a precision of their own: the
    // comparison converged where its slices settled, else its budget (or
    // the most slices) ended it.
    combined.stop = if layouts.is_some_and(|layouts| layouts.settle(floor)) {
        Stop::Converged
    } else {
        Stop::Budget
    };
    combined.uncorrected_speedup = uncorrected_speedup;
    combined.best_speedup = combined.original_ns / combined.candidate_ns;
    combined.processes = summaries;
    // The first slice's, where each slice's is its process's.
    combined.offsets = None;
    combined
}

/// A later slice's rounds, best times and observations added to `parent`'s
/// (the combined measurement so far; its stop is [`combine_slices`]' to
/// say).
fn append(parent: &mut Measurement, child: Measurement) {
    parent.rounds += child.rounds;
    parent.warm_up_rounds += child.warm_up_rounds;
    parent.round_log_ratios.extend(child.round_log_ratios);
    parent
        .round_original_first
        .extend(child.round_original_first);
    parent.load = match (parent.load, child.load) {
        (Some(ours), Some(theirs)) => Some(ours.max(theirs)),
        (ours, theirs) => ours.or(theirs),
    };
    for (input, theirs) in parent.inputs.iter_mut().zip(child.inputs) {
        input.original_ns = input.original_ns.min(theirs.original_ns);
        input.candidate_ns = input.candidate_ns.min(theirs.candidate_ns);
        input.round_ns.extend(theirs.round_ns);
    }
    notice::gather(&mut parent.notices, child.notices);
}
