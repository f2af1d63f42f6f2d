//! Replication across processes: the policy of measuring the same
//! comparison in several processes, each in a layout of the binary of its
//! own, and judging the spread between them.
//!
//! Within one process, paired rounds cancel drift, but some effects are
//! fixed for a process's lifetime, and others for a binary's: where the
//! linker put each function (a hot loop's fetch blocks and cache lines, the
//! branch predictor's entries) moves real functions from one link to the
//! next (by how much, as measured, is in `guide/layouts.md`), and where
//! heap and stack landed moves them a little from one process to the next.
//! An interval built inside one process shrinks below both. So a registered comparison is measured in slices, one in
//! each of several processes, each process in a layout of the binary of its
//! own where the harness can relink it (see `crate::layout`), and the
//! interval is over the slices ([`stats::across_processes`], fitted to the
//! functions' offsets from [`offsets::LAYOUTS_TO_STRATIFY`] layouts on):
//! the verdict is about the code, not one link.
//!
//! Its width goes as t(L−1)/√L over L layouts, so many short slices judge
//! finer than a few long ones at the same cost: each slice is a few cycles
//! of rounds ([`slice_config`]), the slices together about what one process
//! measuring alone does, and the processes that measure them live for the
//! whole run (the harness's servers), so a slice costs no start-up either.
//!
//! A slice is measured in a **slot** `k`, from 1: process `k` (as errors
//! and reports say it), layout `k` where layouts vary, `harness::servers`'
//! server `k`, and `process::cpu`'s CPU of slot `k`. Slice `i` (from 0)
//! goes to slot [`slot_of`]`(i)`, every slot in turn, pass after pass.
//!
//! It adapts: after `config.processes` slices (four by default) it stops
//! once the verdict is settled — the interval clear of both thresholds,
//! and, until there are enough layouts, every layout reading that verdict
//! and the layouts agreeing ([`settled`]) — and otherwise measures more,
//! in further layouts, up to
//! [`MOST_LAYOUTS`] or the budget. Starting, asking and stopping the
//! processes is `crate::process`'s; what a slice is and when to stop is
//! here. The parent combines the slices ([`combine_slices`]), keeping every round
//! of every process, so the counts in every output agree with the data.

use super::offsets;
use crate::config::Config;
use crate::error::Error;
use crate::report::{ProcessSummary, Report};
use crate::stats::samples::{CONFIDENCE, Stop};
use crate::stats::verdict::{NoiseFloor, Verdict};
use crate::stats::{self, Interval};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The most slots (processes and layouts) a comparison's slices go to
/// while its verdict is undecided (more where `config.processes` asks for
/// more); further slices go to them again, in turn.
pub const MOST_LAYOUTS: usize = 64;

/// The most slices a comparison measures, whatever its budget.
pub const MOST_SLICES: usize = 16 * MOST_LAYOUTS;

/// The slot (from 1) of slice `slice` (from 0) of a comparison whose least
/// count of processes is `least`: every slot in turn, pass after pass.
pub fn slot_of(slice: usize, least: usize) -> u32 {
    (slice % least.max(MOST_LAYOUTS)) as u32 + 1
}

/// One slice to measure: in which slot, with which configuration, and how
/// long the slot's process may take for it before it is stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceToMeasure {
    /// The slot that measures it (from 1; see the module's documentation).
    pub slot: u32,
    /// The slice's configuration ([`slice_config`]): its share of the
    /// budget, its precision, one process.
    pub config: Config,
    /// How long the process may take for it ([`child_timeout`] of its
    /// budget).
    pub timeout: Duration,
}

/// Measures as `config` says: with `measure_here` in this process where
/// `config.processes` is 1, else in slices `measure_slice` measures, at
/// least `config.processes` of them and more while the verdict is not
/// settled and the budget lasts, combined. Before each slice, `prepare`
/// readies its slot's binary (a layout made once per build, by relinking),
/// which the budget does not count: a first run would otherwise spend a
/// comparison's budget on linking, and judge it on fewer layouts than
/// every run after it.
pub fn measure(
    config: &Config,
    measure_here: impl FnOnce(&Config) -> Result<Report, Error>,
    mut prepare: impl FnMut(u32) -> Result<(), Error>,
    mut measure_slice: impl FnMut(SliceToMeasure) -> Result<Report, Error>,
) -> Result<Report, Error> {
    if config.processes <= 1 {
        return measure_here(config);
    }
    let mut reports: Vec<Report> = Vec::new();
    let mut disturbed = 0;
    let mut spent = Duration::ZERO;
    while !enough(config, &reports, spent) {
        // A slice measured again after a disturbance goes to the same slot:
        // slice `i` always ran in `slot_of(i)`, which combining reads.
        let slot = slot_of(reports.len(), config.processes);
        prepare(slot)?;
        let slice = slice_config(config, reports.len());
        let started = Instant::now();
        let measured = measure_slice(SliceToMeasure {
            slot,
            timeout: child_timeout(slice.max_time),
            config: slice,
        });
        spent += started.elapsed();
        match measured {
            Ok(report) => reports.push(report),
            Err(error) => after_failed_slice(error, config, &mut disturbed)?,
        }
    }
    let elapsed = reports.iter().map(|report| report.elapsed).sum();
    let mut combined = combine_slices(reports, config.processes);
    // The slices' own measuring, not their inputs' preparation nor the
    // servers' starts, which no budget counts (the schema says so).
    combined.elapsed = elapsed;
    Ok(combined)
}

/// The configuration each slice of a replicated comparison is measured
/// with: one process, its share of `config.max_time` (the whole budget
/// covers the least count of slices, `config.processes`), a warm-up as
/// much shorter (the servers are warm; only the comparison's own code and
/// data are not), and a fixed count of [`SLICE_CYCLES`] cycles of rounds
/// rather than a convergence of its own: the interval comes from the spread
/// of the slices' centres, so a short slice in one more layout buys more
/// than a long one in the same. Odd slices (`slice` counts from 0) swap
/// their rounds' orders ([`Config::swap_orders`]).
pub fn slice_config(config: &Config, slice: usize) -> Config {
    let least = config.processes.max(1) as u32;
    Config {
        processes: 1,
        max_time: config.max_time / least,
        max_warm_up: config.max_warm_up / least,
        cycles: Some(SLICE_CYCLES),
        swap_orders: slice % 2 == 1,
        ..config.clone()
    }
}

/// What `error`, ending one slice of a comparison measured with `config`,
/// does to the comparison (here and across revisions alike): `Ok` where
/// the slice is measured again, because its tuning and warm-up lost the
/// budget to something else (another process ran), not to the functions
/// (a pair of its rounds would have fit), and fewer than
/// `config.processes` slices were so far (`disturbed` counts them);
/// otherwise the error that ends the comparison, said of its whole budget,
/// which the user set.
pub fn after_failed_slice(
    error: Error,
    config: &Config,
    disturbed: &mut usize,
) -> Result<(), Error> {
    let Error::BudgetTooShort { round, .. } = error else {
        return Err(error);
    };
    if 2 * round >= slice_config(config, 0).max_time {
        return Err(Error::BudgetTooShort {
            round,
            max_time: config.max_time,
            processes: config.processes,
        });
    }
    *disturbed += 1;
    if *disturbed > config.processes {
        return Err(Error::Disturbed {
            slices: *disturbed,
            max_time: config.max_time,
        });
    }
    Ok(())
}

/// How many cycles of rounds a slice measures: each batch size of the
/// ladder in both orders, twice (16 rounds on the ladder, 4 at one size).
pub const SLICE_CYCLES: usize = 2;

/// How long a process may take for a slice: its budget twice over, plus
/// room to start, check outputs and calibrate.
pub fn child_timeout(budget: Duration) -> Duration {
    2 * budget + Duration::from_secs(30)
}

/// Whether a comparison measured in `reports` (one per slice, `elapsed`
/// spent on them) has enough slices: at least `config.processes`, and
/// then as soon as the verdict is settled ([`settled`]), one more slice
/// like the average would overrun the budget, or [`MOST_SLICES`] were
/// measured.
pub fn enough(config: &Config, reports: &[Report], elapsed: Duration) -> bool {
    let count = reports.len();
    if count < config.processes.max(1) {
        return false;
    }
    let per_process = elapsed / count as u32;
    (looks_at(count) && settled(&summaries(reports), config.processes, config.noise_floor))
        || elapsed + per_process > config.max_time
        || count >= config.processes.max(MOST_SLICES)
}

/// Whether the verdict is looked at after `slices` slices: after each one
/// below `LAYOUTS_TO_TRUST_THE_INTERVAL`, where every layout must read
/// the verdict ([`settled`]), then each time their count doubles (32, 64,
/// 128, ...). Each look is another chance for a 99% interval to miss, and a
/// comparison that stopped at the first look past a threshold read
/// identical work wrong more often than one in a hundred: 2 of 200 at a 2%
/// floor (a duplicate search looked at after every slice from 16 to 64).
pub fn looks_at(slices: usize) -> bool {
    slices < LAYOUTS_TO_TRUST_THE_INTERVAL || slices.is_power_of_two()
}

/// How many layouts the interval over them must have before it settles a
/// verdict alone ([`settled`]). At 16, the interval fitted to the offsets
/// (seven parameters, nine degrees of freedom left) settled identical
/// work wrong in 2 of the 48 comparisons it ended there (a run-length
/// encoder, a duplicate search), and in none of 68 at 32.
pub const LAYOUTS_TO_TRUST_THE_INTERVAL: usize = 32;

/// Whether more slices could still change the verdict on `processes`
/// (slices in slot order, at least `least` of them): its interval is clear
/// of both thresholds ([`Verdict::settled`]), and, before
/// `LAYOUTS_TO_TRUST_THE_INTERVAL` layouts, every layout's own mean reads
/// the same verdict, the interval is no wider than the noise floor on
/// either side (the layouts agree with each other), and each side's code
/// started at more than one offset among them, where the slices said
/// (`offsets::one_side_at_one_offset`). A build's layouts are one draw of
/// where the linker puts the code, repeated in every run, and their effects
/// are skewed: on hex's `encode`, identical code across revisions, layouts
/// 1 to 10 read 0.92x to 1.26x (most above 1.10x) in every run where all 64
/// averaged 1.00x, and the t interval over the first ten, [1.02x – 1.25x],
/// cleared a 2% floor; the one layout at 0.92x said it could not be
/// trusted. And a duplicate search's identical copies read 1.31x to 1.63x
/// faster over the first four layouts of one build, every layout `faster`,
/// in each run of that build: layouts that agree no better than that are
/// one draw of offsets, not yet their mean.
pub fn settled(processes: &[ProcessSummary], least: usize, noise_floor: f64) -> bool {
    over_layouts(processes, least).is_some_and(|layouts| layouts.settle(noise_floor))
}

/// The interval over the layouts of `processes` (slices in slot order, at
/// least `least` of them) that a combined report gives, in log space:
/// what [`combine_slices`] reports, from the processes' figures alone;
/// `None` for one process.
pub fn interval_over_layouts(processes: &[ProcessSummary], least: usize) -> Option<Interval> {
    over_layouts(processes, least).map(|layouts| layouts.interval)
}

/// Each report's own figures, as a process of a replicated comparison.
fn summaries<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Vec<ProcessSummary> {
    reports
        .into_iter()
        .map(|report| ProcessSummary {
            speedup: report.speedup,
            ci: report.ci,
            rounds: report.rounds,
            layout: None,
            offsets: report.offsets,
        })
        .collect()
}

/// The reports of a comparison's slices (at least one), in the order they
/// were measured, as one report: the first slice's is its frame (heading,
/// settings, timer, placement), every slice's rounds are appended in order,
/// the speedup and interval are over the slices' own estimates
/// ([`stats::across_processes`]) and the verdict is judged again; each
/// input's per-call times are the fastest any slice measured, the headline
/// times their sums (as in one process) and the best-of figure their
/// ratio; observations a later slice made (other load, a timer that fell
/// back) are kept where the earlier ones did not make the same.
pub fn combine_slices(slices: Vec<Report>, least: usize) -> Report {
    let mut slices = slices.into_iter();
    let mut combined = slices.next().expect("a comparison measured in no slice");
    let later: Vec<Report> = slices.collect();
    let all: Vec<&Report> = std::iter::once(&combined).chain(&later).collect();
    let geometric_mean = |values: &mut dyn Iterator<Item = f64>| {
        stats::mean(&values.map(f64::ln).collect::<Vec<_>>()).exp()
    };
    let processes = summaries(all.iter().copied());
    let uncorrected_speedup = geometric_mean(&mut all.iter().map(|r| r.uncorrected_speedup));
    let input_speedups: Vec<f64> = (0..combined.inputs.len())
        .map(|input| {
            geometric_mean(
                &mut all
                    .iter()
                    .filter_map(|report| report.inputs.get(input).map(|i| i.speedup)),
            )
        })
        .collect();
    let layouts = over_layouts(&processes, least);
    let (speedup, ci) = match &layouts {
        Some(layouts) => (layouts.interval.center.exp(), layouts.interval.exp_bounds()),
        None => (
            geometric_mean(&mut processes.iter().map(|p| p.speedup)),
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
    // Each slice judged its own interval by the same rule, because a slice
    // travels as a whole report (its document requires a verdict); the
    // comparison's verdict is the combined interval's.
    combined.verdict = Verdict::from_interval(ci, combined.noise_floor);
    // Slices measure fixed cycles, never a precision of their own: the
    // comparison converged where its slices settled, else its budget (or
    // the most slices) ended it.
    combined.stop = if layouts.is_some_and(|layouts| layouts.settle(combined.noise_floor)) {
        Stop::Converged
    } else {
        Stop::Budget
    };
    combined.uncorrected_speedup = uncorrected_speedup;
    combined.best_speedup = combined.original_ns / combined.candidate_ns;
    combined.processes = processes;
    // The first slice's, where each slice's is its process's.
    combined.offsets = None;
    combined
}

/// A comparison's slices over its layouts: the interval over the slices'
/// centres, Student's t over the spread of
/// their processes' means (each process's slices averaged, where there was
/// more than one pass), so a process and its layout count once however many
/// slices it measured. A slice's own interval is not a floor here, as it
/// was for whole processes each converged on its own: two cycles of rounds
/// give it too few blocks for an interval worth weighing (its t quantile
/// alone would be tens of standard errors), while the spread of the means
/// measures the same noise, and the layouts' besides, directly. From
/// [`offsets::LAYOUTS_TO_STRATIFY`] layouts on, where the slices reported
/// where each side's code starts in a cache line, the interval stratified
/// by those offsets ([`offsets::judging`]); and the layouts' own mean log
/// speedups, computed once for both the interval and whether it settles.
struct OverLayouts {
    interval: Interval,
    log_means: Vec<f64>,
    /// Whether the layouts moved one side's code but never the other's
    /// (`offsets::one_side_at_one_offset`).
    one_side_at_one_offset: bool,
}

impl OverLayouts {
    /// Whether it settles the verdict at `noise_floor` (see [`settled`]).
    fn settle(&self, noise_floor: f64) -> bool {
        let bounds = self.interval.exp_bounds();
        if !Verdict::settled(bounds, noise_floor) {
            return false;
        }
        if self.log_means.len() >= LAYOUTS_TO_TRUST_THE_INTERVAL {
            return true;
        }
        let verdict = Verdict::from_interval(bounds, noise_floor);
        let every_layout_reads_it = self.log_means.iter().all(|log_mean| {
            let mean = log_mean.exp();
            Verdict::from_interval((mean, mean), noise_floor) == verdict
        });
        // A verdict within noise is that narrow already.
        let layouts_agree =
            self.interval.half_width <= NoiseFloor::new(noise_floor).log_threshold();
        every_layout_reads_it && layouts_agree && !self.one_side_at_one_offset
    }
}

/// [`OverLayouts`] of `processes` (slices in slot order, at least `least`
/// of them); `None` where there is one process only.
fn over_layouts(processes: &[ProcessSummary], least: usize) -> Option<OverLayouts> {
    let slots: Vec<u32> = (0..processes.len())
        .map(|slice| slot_of(slice, least))
        .collect();
    let log_means = log_means_by_slot(processes, slots.iter().copied());
    let centers: Vec<(f64, Option<f64>)> = log_means.iter().map(|&mean| (mean, None)).collect();
    let plain = stats::across_processes(&centers, CONFIDENCE).ok()?;
    Some(OverLayouts {
        interval: offsets::judging(plain, processes, &slots, &log_means),
        log_means,
        one_side_at_one_offset: offsets::one_side_at_one_offset(processes),
    })
}

/// The mean log speedup of each slot's slices, in slot order: slice `i`
/// of `processes` ran in the `i`th of `slots`.
pub fn log_means_by_slot(
    processes: &[ProcessSummary],
    slots: impl IntoIterator<Item = u32>,
) -> Vec<f64> {
    let mut sums: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
    for (process, slot) in processes.iter().zip(slots) {
        let sum = sums.entry(slot).or_default();
        sum.0 += process.speedup.ln();
        sum.1 += 1.0;
    }
    sums.into_values().map(|(sum, count)| sum / count).collect()
}

/// Each slot's (layout's, where layouts vary) mean speedup over the slices
/// it measured of `report`, in slot order.
pub fn slot_means(report: &Report) -> Vec<f64> {
    // Without layouts, the slot the slices went to in turn.
    let slots = report
        .processes
        .iter()
        .enumerate()
        .map(|(slice, process)| process.layout.unwrap_or_else(|| slot_of(slice, 0)));
    log_means_by_slot(&report.processes, slots)
        .into_iter()
        .map(f64::exp)
        .collect()
}

/// From this many layouts on, how far apart they read is said of the middle
/// 80% of their means: a short slice reads its own noise as well as its
/// layout, and the extremes of dozens of them say more about the noise
/// than the layouts.
pub const MIDDLE_FROM: usize = 10;

/// How far apart the processes' (layouts') means read: the lowest and the
/// highest, or the 10th and 90th percentiles from [`MIDDLE_FROM`] means on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeansApart {
    /// The low end, as a speedup.
    pub low: f64,
    /// The high end, as a speedup.
    pub high: f64,
    /// Whether the ends are the middle 80%'s rather than the extremes.
    pub middle: bool,
}

impl MeansApart {
    /// The high end over the low, minus one: `0.10` for 10% apart.
    pub fn spread(&self) -> f64 {
        self.high / self.low - 1.0
    }
}

/// How far apart `means` read (see [`MeansApart`]); `None` for fewer than
/// two.
pub fn means_apart(means: &[f64]) -> Option<MeansApart> {
    if means.len() < 2 {
        return None;
    }
    let mut sorted = means.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() >= MIDDLE_FROM;
    let (low, high) = if middle {
        (
            stats::percentile(&sorted, 10.0),
            stats::percentile(&sorted, 90.0),
        )
    } else {
        (sorted[0], sorted[sorted.len() - 1])
    };
    Some(MeansApart { low, high, middle })
}

/// A later slice's rounds, best times and observations added to `parent`'s
/// (the combined report so far; its stop is [`combine_slices`]' to say).
fn append(parent: &mut Report, child: Report) {
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
    for warning in child.warnings {
        if !parent.warnings.iter().any(|seen| same_kind(seen, &warning)) {
            parent.warnings.push(warning);
        }
    }
}

/// Whether two observations say the same kind of thing (their opening
/// words, numbers aside): several processes seeing the same load say it once.
fn same_kind(one: &str, other: &str) -> bool {
    let kind = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphabetic() || *c == ' ')
            .take(30)
            .collect()
    };
    kind(one) == kind(other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use crate::stats::verdict::Expect;

    fn process(speedup: f64, half_width: f64) -> Report {
        let mut report = fixtures::report(
            speedup,
            (speedup * (-half_width).exp(), speedup * half_width.exp()),
            Verdict::Faster,
            Expect::Faster,
        );
        report.original_ns = 10.0 * speedup;
        report.candidate_ns = 10.0;
        report.inputs[0].original_ns = report.original_ns;
        report.inputs[0].candidate_ns = report.candidate_ns;
        report
    }

    #[test]
    fn a_budget_too_short_for_one_process_is_said_of_the_whole_comparison() {
        let error = measure(
            &Config {
                max_time: Duration::from_millis(200),
                ..Config::default()
            },
            |_| panic!("nothing is measured here"),
            |_| Ok(()),
            |slice| {
                Err(Error::BudgetTooShort {
                    round: Duration::from_millis(600),
                    max_time: slice.config.max_time,
                    processes: 1,
                })
            },
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("do not fit in max_time = \"200ms\" shared by 4 processes")
                && message.contains("raise max_time to at least \"24s\""),
            "{message}"
        );
    }

    #[test]
    fn each_slices_offsets_are_its_process_summarys() {
        let slices: Vec<Report> = [[0, 16], [32, 48]]
            .map(|offsets| Report {
                offsets: Some(offsets),
                ..process(4.0, 0.01)
            })
            .into();
        let combined = combine_slices(slices, 2);
        let offsets: Vec<Option<[u8; 2]>> = combined
            .processes
            .iter()
            .map(|process| process.offsets)
            .collect();
        assert_eq!(offsets, [Some([0, 16]), Some([32, 48])]);
        assert_eq!(combined.offsets, None, "each slice's is its process's");
    }

    #[test]
    fn four_processes_that_agree_on_a_large_speedup_decide_it() {
        let combined = combine_slices(
            [4.0, 4.12, 4.05, 4.08]
                .map(|speedup| process(speedup, 0.01))
                .into(),
            4,
        );
        assert_eq!(combined.verdict, Verdict::Faster, "{:?}", combined.ci);
        assert!(
            combined.ci.0 > 3.8 && combined.ci.1 < 4.3,
            "{:?}",
            combined.ci
        );
    }

    /// Runs [`measure`] with `config` on processes reading `speedups` in
    /// turn (round and round), each prepared just before its slice, and
    /// returns how many ran and the result.
    fn replicated(config: &Config, speedups: &[f64]) -> (usize, Result<Report, Error>) {
        let mut started = 0;
        let prepared = std::cell::Cell::new(None);
        let result = measure(
            config,
            |_| panic!("a replicated comparison measures nothing here"),
            |slot| {
                prepared.set(Some(slot));
                Ok(())
            },
            |slice| {
                assert_eq!(prepared.take(), Some(slice.slot), "prepared first");
                assert_eq!(slice.slot, slot_of(started, config.processes));
                assert_eq!(slice.config, slice_config(config, started));
                assert_eq!(
                    slice.config.swap_orders,
                    started % 2 == 1,
                    "slices take turns"
                );
                started += 1;
                Ok(process(speedups[(started - 1) % speedups.len()], 0.005))
            },
        );
        (started, result)
    }

    #[test]
    fn processes_that_agree_settle_the_verdict_at_the_least_count() {
        let (started, result) = replicated(&Config::default(), &[1.001, 0.999, 1.0, 1.002]);
        assert_eq!(started, 4);
        let report = result.unwrap();
        assert_eq!(report.processes.len(), 4);
        assert_eq!(report.verdict, Verdict::WithinNoise);
        assert_eq!(report.stop, Stop::Converged);
        assert!(
            Verdict::settled(report.ci, report.noise_floor),
            "{:?}",
            report.ci
        );
    }

    #[test]
    fn layouts_that_disagree_get_more_processes_until_the_verdict_settles() {
        // Identical work that reads 6% either side of even by layout: four
        // processes leave the interval across the floor; more narrow it.
        let (started, result) = replicated(&Config::default(), &[1.06, 0.94, 1.05, 0.95, 1.0]);
        let report = result.unwrap();
        assert!(started > 4 && started <= MOST_SLICES, "{started}");
        assert!(Verdict::settled(report.ci, 0.05), "{:?}", report.ci);
        assert!(report.ci.0 < 1.0 && 1.0 < report.ci.1, "{:?}", report.ci);
        assert_eq!(report.verdict, Verdict::WithinNoise);
    }

    #[test]
    fn an_unsettled_verdict_stops_at_the_budget_or_the_most_processes() {
        let spent = Config {
            max_time: Duration::from_nanos(4),
            ..Config::default()
        };
        let (started, _) = replicated(&spent, &[1.06, 0.94]);
        assert_eq!(
            started, 4,
            "the budget is spent: no process beyond the least"
        );
        // Slices that always straddle the floor, and a budget that never
        // ends: the most slices, then a verdict.
        let (started, result) = replicated(&Config::default(), &[1.20, 0.90]);
        assert_eq!(started, MOST_SLICES);
        let report = result.unwrap();
        assert_eq!(report.processes.len(), MOST_SLICES);
        // Its slices converged on nothing: the JSON says what ended it.
        assert_eq!(report.stop, Stop::Budget);
    }

    #[test]
    fn one_process_measures_here_and_a_failed_process_ends_the_comparison() {
        let config = Config {
            processes: 1,
            ..Config::default()
        };
        let report = measure(
            &config,
            |_| Ok(process(1.5, 0.01)),
            |_| Ok(()),
            |_| panic!("no process is started"),
        );
        assert_eq!(report.unwrap().speedup, 1.5);
        let mut started = 0;
        let failed = measure(
            &Config::default(),
            |_| panic!("nothing is measured here"),
            |_| Ok(()),
            |slice| {
                started += 1;
                Err(Error::Replication {
                    process: slice.slot as usize,
                    message: "it crashed".into(),
                })
            },
        );
        assert_eq!(started, 1);
        assert!(matches!(failed, Err(Error::Replication { process: 1, .. })));
    }

    #[test]
    fn a_combined_report_keeps_every_round_and_counts_them_once() {
        let slices: Vec<Report> = [1.25, 1.20, 1.30, 1.22, 1.28]
            .iter()
            .map(|&s| process(s, 0.001))
            .collect();
        let per_process = slices[0].rounds;
        let combined = combine_slices(slices, 4);
        assert_eq!(combined.processes.len(), 5);
        assert_eq!(combined.processes[0].speedup, 1.25);
        assert_eq!(combined.rounds, 5 * per_process);
        assert_eq!(combined.round_log_ratios.len(), combined.rounds);
        assert_eq!(combined.round_original_first.len(), combined.rounds);
        assert_eq!(combined.inputs[0].round_ns.len(), combined.rounds);
        // The processes disagree by ±4% where each claimed ±0.1%: the
        // interval says so, and all of it still clears a 5% floor.
        assert!(
            combined.ci.0 < 1.22 && combined.ci.1 > 1.28,
            "{:?}",
            combined.ci
        );
        assert_eq!(combined.verdict, Verdict::Faster);
        // The best-of figure is the best of every process.
        assert_eq!(combined.original_ns, 12.0);
        assert_eq!(combined.best_speedup, 1.2);
    }

    #[test]
    fn an_observation_every_process_makes_is_said_once() {
        let mut parent = process(1.25, 0.01);
        parent
            .warnings
            .push("other processes kept 50% of a core busy".into());
        let mut child = process(1.25, 0.01);
        child.warnings = vec![
            "other processes kept 70% of a core busy".into(),
            "steal was high".into(),
        ];
        let combined = combine_slices(vec![parent, child.clone(), child], 4);
        assert_eq!(
            combined.warnings,
            vec!["other processes kept 50% of a core busy", "steal was high"]
        );
    }

    #[test]
    fn a_slice_that_lost_its_budget_to_a_disturbance_is_measured_again_in_its_slot() {
        let mut started = 0;
        let mut slots = Vec::new();
        let report = measure(
            &Config::default(),
            |_| panic!("nothing is measured here"),
            |_| Ok(()),
            |slice| {
                started += 1;
                slots.push(slice.slot);
                if started == 2 {
                    return Err(Error::BudgetTooShort {
                        round: Duration::from_micros(5),
                        max_time: slice.config.max_time,
                        processes: 1,
                    });
                }
                Ok(process(1.5, 0.01))
            },
        )
        .unwrap();
        assert_eq!(report.processes.len(), 4);
        assert_eq!(started, 5);
        // Slice `i` ran in slot `slot_of(i)`, as combining reads.
        assert_eq!(slots, [1, 2, 2, 3, 4]);
    }

    #[test]
    fn a_disturbance_that_lasts_is_said_as_one_not_as_a_budget_too_short() {
        let config = Config::default();
        let error = measure(
            &config,
            |_| panic!("nothing is measured here"),
            |_| Ok(()),
            |slice| {
                Err(Error::BudgetTooShort {
                    round: Duration::from_micros(5),
                    max_time: slice.config.max_time,
                    processes: 1,
                })
            },
        )
        .unwrap_err();
        assert_eq!(
            error,
            Error::Disturbed {
                slices: config.processes + 1,
                max_time: config.max_time,
            }
        );
        let message = error.to_string();
        assert!(
            message.starts_with("other processes took the time of 5 slices"),
            "{message}"
        );
        assert!(message.contains("run on a quieter machine"), "{message}");
        // A round too long for its slice is the functions', said of the
        // whole budget at once.
        let mut disturbed = 0;
        let too_long = after_failed_slice(
            Error::BudgetTooShort {
                round: config.max_time,
                max_time: config.max_time / 4,
                processes: 1,
            },
            &config,
            &mut disturbed,
        );
        assert_eq!(
            too_long,
            Err(Error::BudgetTooShort {
                round: config.max_time,
                max_time: config.max_time,
                processes: config.processes,
            })
        );
        assert_eq!(disturbed, 0);
    }

    #[test]
    fn from_thirty_two_slices_the_verdict_is_looked_at_as_their_count_doubles() {
        let looked: Vec<usize> = (4..=130).filter(|&slices| looks_at(slices)).collect();
        let every_one: Vec<usize> = (4..32).collect();
        assert_eq!(looked, [every_one, vec![32, 64, 128]].concat());
    }

    #[test]
    fn a_few_layouts_settle_a_verdict_only_where_every_one_reads_it_and_they_agree() {
        let floor = 0.02;
        let slices = |speedups: &[f64]| -> Vec<ProcessSummary> {
            speedups
                .iter()
                .map(|&speedup| ProcessSummary {
                    speedup,
                    ci: (0.0, f64::INFINITY),
                    rounds: 16,
                    layout: None,
                    offsets: None,
                })
                .collect()
        };
        // hex's `encode` against itself, the first ten layouts as read:
        // the interval clears the 2% floor, the fourth layout does not.
        let hex = [1.10, 1.21, 1.26, 0.92, 1.19, 1.21, 1.19, 1.12, 1.00, 1.13];
        let interval = over_layouts(&slices(&hex), 4)
            .unwrap()
            .interval
            .exp_bounds();
        assert_eq!(
            Verdict::from_interval(interval, 0.02),
            Verdict::Faster,
            "{interval:?}"
        );
        assert!(!settled(&slices(&hex), 4, floor));
        // Every layout faster by more than the floor and agreeing within
        // it: settled at four; agreeing less closely than the floor (the
        // interval ±3.7%), not at four.
        let ten_percent = [1.10, 1.12, 1.09, 1.11];
        assert!(settled(&slices(&ten_percent), 4, 0.05));
        assert!(!settled(&slices(&ten_percent), 4, floor));
        // A duplicate search's identical copies, the first four layouts of
        // one build: `faster` in each, the interval [1.31x – 1.63x] (±11%).
        assert!(!settled(&slices(&[1.33, 1.62, 1.41, 1.50]), 4, 0.05));
        // Within noise in every layout: settled at four.
        assert!(settled(&slices(&[1.01, 0.99, 1.00, 1.02]), 4, 0.05));
        // From thirty-two layouts on, the interval decides alone.
        let mut many = vec![1.10; 30];
        many.push(1.01);
        assert!(!settled(&slices(&many), 4, floor));
        many.push(1.10);
        assert!(settled(&slices(&many), 4, floor));
    }

    #[test]
    fn slices_go_to_every_process_in_turn_and_count_once_per_process() {
        assert_eq!(
            [0, 63, 64, 130].map(|slice| slot_of(slice, 4)),
            [1, 64, 1, 3]
        );
        assert_eq!(slot_of(99, 100), 100);
        // Two passes over 64 layouts: each layout read 1.10 then 0.90, its
        // slices' own noise, so every layout's mean is 1.0 (in log space,
        // about): the interval is over 64 means, not 128 slices, and tight.
        let slices: Vec<ProcessSummary> = (0..128)
            .map(|slice| ProcessSummary {
                speedup: if slice < 64 { 1.1 } else { 1.0 / 1.1 },
                ci: (0.0, f64::INFINITY),
                rounds: 16,
                layout: None,
                offsets: None,
            })
            .collect();
        let interval = over_layouts(&slices, 4).unwrap().interval;
        assert_eq!(interval.blocks, 64);
        assert!(interval.half_width < 1e-9, "{interval:?}");
    }

    #[test]
    fn children_are_bounded_in_time() {
        assert_eq!(
            child_timeout(Duration::from_secs(3)),
            Duration::from_secs(36)
        );
    }
}
