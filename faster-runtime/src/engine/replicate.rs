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
//! goes to slot [`slot_of`]`(i)`, every slot in turn, pass after pass: a
//! [`Replication`] plans it, and records each slice's figures under the
//! slot that measured it ([`ProcessSummary::slot`]), which everything after
//! (the interval, the diagnostics, the outputs) reads and never recomputes.
//!
//! It adapts: after `config.processes` slices (four by default) it stops
//! once the verdict is settled — the interval clear of both thresholds,
//! and, until there are enough layouts, every layout reading that verdict
//! and the layouts agreeing ([`settled`]) — and otherwise measures more,
//! in further layouts, up to
//! [`MOST_LAYOUTS`] or the budget. Starting, asking and stopping the
//! processes is `crate::process`'s; what a slice is and when to stop is
//! here, for every driver: a comparison in one binary ([`measure_slices`]), a
//! function across revisions (pair by pair, `harness::against`) and the
//! accuracy suite. The slices combine into one [`Measurement`], keeping
//! every round of every process, so the counts in every output agree with
//! the data; judging it is `crate::judge`'s.

mod combine;

use super::offsets;
use crate::config::{Config, Plan};
use crate::error::Error;
use crate::report::layouts::log_means_by_slot;
use crate::report::would_take::project;
use crate::report::{MOST_LAYOUTS_OF_A_RUN, Measurement, ProcessSummary};
use crate::stats::samples::CONFIDENCE;
use crate::stats::verdict::NoiseFloor;
use crate::stats::{self, Interval};
use combine::combine_slices;
use std::time::{Duration, Instant};

/// The most slots (processes and layouts) a comparison's slices go to
/// while its verdict is undecided (more where `config.processes` asks for
/// more); further slices go to them again, in turn.
pub const MOST_LAYOUTS: usize = 64;

/// The most slices a comparison measures, whatever its budget.
pub const MOST_SLICES: usize = 16 * MOST_LAYOUTS;

/// The slot (from 1) of slice `slice` (from 0) of a comparison whose least
/// count of processes is `least`: every slot in turn, pass after pass.
/// [`Replication::next_slot`] is its one caller in the runtime.
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

/// The slices of one comparison: which slot measures next, each slice's
/// measurement recorded under the slot that measured it, whether there are
/// enough, and their combined [`Measurement`]. Every driver measures its
/// slices through one.
#[derive(Debug, Clone)]
pub struct Replication {
    config: Config,
    slices: Vec<Measurement>,
    /// Each slice's own figures, under its slot, in the order they ran.
    summaries: Vec<ProcessSummary>,
    /// Wall time spent on the slices so far, measured by the driver.
    spent: Duration,
    /// Slices measured again because another process took their budget
    /// ([`after_failed_slice`]).
    disturbed: usize,
    /// Whether it measures on the run's time ([`Replication::on_the_runs_time`]).
    on_the_runs_time: bool,
}

impl Replication {
    /// No slice yet of a comparison measured with `config`.
    pub fn new(config: &Config) -> Replication {
        Replication {
            config: config.clone(),
            slices: Vec::new(),
            summaries: Vec::new(),
            spent: Duration::ZERO,
            disturbed: 0,
            on_the_runs_time: false,
        }
    }

    /// The slot the next slice goes to. A slice measured again after a
    /// disturbance goes to the same slot. On the run's time, new layouts
    /// first, up to [`MOST_LAYOUTS_OF_A_RUN`]: where the layouts' spread is
    /// what holds the interval wide, another pass over the same ones does
    /// not narrow it.
    pub fn next_slot(&self) -> u32 {
        if !self.on_the_runs_time {
            return slot_of(self.slices.len(), self.config.processes);
        }
        let most = self.config.processes.max(MOST_LAYOUTS_OF_A_RUN);
        let newest = self.summaries.iter().map(|s| s.slot).max().unwrap_or(0);
        if (newest as usize) < most {
            newest + 1
        } else {
            (self.slices.len() % most) as u32 + 1
        }
    }

    /// The next slice: its slot, configuration and the time its process
    /// may take.
    pub fn next_slice(&self) -> SliceToMeasure {
        let config = slice_config(&self.config, self.slices.len());
        SliceToMeasure {
            slot: self.next_slot(),
            timeout: child_timeout(config.max_time),
            config,
        }
    }

    /// Records what slot `slot` measured for the next slice in `spent` of
    /// wall time: its measurement, or an error that either has the slice
    /// measured again or ends the comparison ([`after_failed_slice`]).
    pub fn record(
        &mut self,
        slot: u32,
        measured: Result<Measurement, Error>,
        spent: Duration,
    ) -> Result<(), Error> {
        self.spent += spent;
        let measurement = match measured {
            Ok(measurement) => measurement,
            Err(error) => return after_failed_slice(error, &self.config, &mut self.disturbed),
        };
        self.summaries.push(ProcessSummary {
            speedup: measurement.speedup,
            ci: measurement.ci,
            rounds: measurement.rounds,
            slot,
            layout: None,
            offsets: measurement.offsets,
        });
        self.slices.push(measurement);
        Ok(())
    }

    /// Whether there are enough slices: at least `config.processes`, and
    /// then as soon as the verdict is settled ([`settled`]), one more slice
    /// like the average would overrun the budget, or [`MOST_SLICES`] were
    /// measured.
    /// On the run's time, its own budget no longer ends it: the run's does
    /// ([`RunBudget`](super::budget::RunBudget)), or
    /// [`MOST_LAYOUTS_OF_A_RUN`] slices, the last look `accuracy --looks`
    /// counts.
    pub fn enough(&self) -> bool {
        let count = self.slices.len();
        if count < self.config.processes.max(1) {
            return false;
        }
        let over_budget = self.spent + self.per_slice() > self.config.max_time;
        let most = if self.on_the_runs_time {
            MOST_LAYOUTS_OF_A_RUN
        } else {
            MOST_SLICES
        };
        (looks_at(count) && settled(&self.summaries, self.floor(), self.systematic()))
            || (over_budget && !self.on_the_runs_time)
            || count >= self.config.processes.max(most)
    }

    /// The wall time a slice took on average so far (zero before the
    /// first).
    pub fn per_slice(&self) -> Duration {
        self.spent / self.slices.len().max(1) as u32
    }

    /// The wall time spent on the slices so far.
    pub fn spent(&self) -> Duration {
        self.spent
    }

    /// Whether more of the run's time could settle it: its own budget
    /// ended it unsettled under [`MOST_LAYOUTS_OF_A_RUN`] slices, and the
    /// layouts it would need, as projected from its interval so far
    /// ([`project`]), are no more than that.
    pub fn could_use_the_runs_time(&self) -> bool {
        let count = self.slices.len();
        if count < self.config.processes.max(2) || count >= MOST_LAYOUTS_OF_A_RUN {
            return false;
        }
        let Some(layouts) = over_layouts(&self.summaries, self.systematic()) else {
            return false;
        };
        let floor = self.floor();
        let measured = layouts.log_means.len();
        let projected = project(
            layouts.interval.half_width,
            self.systematic(),
            measured,
            self.spent,
            floor.settling_half_width(layouts.interval.exp_bounds()),
            Some(MOST_LAYOUTS_OF_A_RUN),
        );
        !layouts.settle(floor) && projected.is_some_and(|(_, more_time)| more_time.is_some())
    }

    /// Measures on the run's time from here on: slices in new layouts up to
    /// [`MOST_LAYOUTS_OF_A_RUN`], until its verdict settles at one of the
    /// stop rule's looks ([`looks_at`]) or the run's time is spent.
    pub fn on_the_runs_time(&mut self) {
        self.on_the_runs_time = true;
    }

    /// The slices' figures so far, each under its slot.
    pub fn summaries(&self) -> &[ProcessSummary] {
        &self.summaries
    }

    /// The slices combined ([`combine_slices`]), measuring their own
    /// time: not their inputs' preparation nor the servers' starts, which no
    /// budget counts (the schema says so).
    ///
    /// # Panics
    ///
    /// Where no slice was recorded.
    pub fn combined(self) -> Measurement {
        let (floor, systematic) = (self.floor(), self.systematic());
        combine_slices(self.slices, self.summaries, floor, systematic)
    }

    fn floor(&self) -> NoiseFloor {
        NoiseFloor::new(self.config.noise_floor)
    }

    /// The allowance the interval over the layouts is widened by
    /// ([`Plan::systematic_allowance`]).
    fn systematic(&self) -> f64 {
        self.config.plan.systematic_allowance
    }
}

/// Measures slices of `replication` until it has enough
/// ([`Replication::enough`]): each slot readied by `prepare`, each slice
/// measured by `measure_slice` and timed here.
pub fn measure_slices(
    replication: &mut Replication,
    mut prepare: impl FnMut(u32) -> Result<(), Error>,
    mut measure_slice: impl FnMut(SliceToMeasure) -> Result<Measurement, Error>,
) -> Result<(), Error> {
    while !replication.enough() {
        let slice = replication.next_slice();
        prepare(slice.slot)?;
        let slot = slice.slot;
        let started = Instant::now();
        let measured = measure_slice(slice);
        replication.record(slot, measured, started.elapsed())?;
    }
    Ok(())
}

/// The configuration each slice of a replicated comparison is measured
/// with: one process, its share of `config.max_time` (the whole budget
/// covers the least count of slices, `config.processes`), a warm-up as
/// much shorter (the servers are warm; only the comparison's own code and
/// data are not), and a fixed count of [`SLICE_CYCLES`] cycles of rounds
/// rather than a convergence of its own: the interval comes from the spread
/// of the slices' centres, so a short slice in one more layout buys more
/// than a long one in the same. Odd slices (`slice` counts from 0) swap
/// their rounds' orders ([`Plan::swap_orders`]).
pub fn slice_config(config: &Config, slice: usize) -> Config {
    let least = config.processes.max(1) as u32;
    Config {
        processes: 1,
        max_time: config.max_time / least,
        plan: Plan {
            max_warm_up: config.plan.max_warm_up / least,
            cycles: Some(SLICE_CYCLES),
            swap_orders: slice % 2 == 1,
            ..config.plan
        },
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
fn after_failed_slice(error: Error, config: &Config, disturbed: &mut usize) -> Result<(), Error> {
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
/// (slices under their slots): its interval is clear of both thresholds
/// ([`NoiseFloor::settles`]), and, before `LAYOUTS_TO_TRUST_THE_INTERVAL`
/// layouts, every layout's own mean reads the same verdict, the interval is
/// no wider than the noise floor on either side (the layouts agree with
/// each other), and each side's code started at more than one offset among
/// them, where the slices said (`offsets::one_side_at_one_offset`). A
/// build's layouts are one draw of where the linker puts the code, repeated
/// in every run, and their effects are skewed: on hex's `encode`, identical
/// code across revisions, layouts 1 to 10 read 0.92x to 1.26x (most above
/// 1.10x) in every run where all 64 averaged 1.00x, and the t interval over
/// the first ten, [1.02x – 1.25x], cleared a 2% floor; the one layout at
/// 0.92x said it could not be trusted. And a duplicate search's identical
/// copies read 1.31x to 1.63x faster over the first four layouts of one
/// build, every layout `faster`, in each run of that build: layouts that
/// agree no better than that are one draw of offsets, not yet their mean.
pub fn settled(processes: &[ProcessSummary], floor: NoiseFloor, systematic: f64) -> bool {
    over_layouts(processes, systematic).is_some_and(|layouts| layouts.settle(floor))
}

/// The interval over the layouts of `processes` (slices under their
/// slots) that a combined measurement gives, in log space: what
/// [`Replication::combined`] reports, from the slices' figures alone;
/// `None` for one slice.
pub fn interval_over_layouts(processes: &[ProcessSummary], systematic: f64) -> Option<Interval> {
    over_layouts(processes, systematic).map(|layouts| layouts.interval)
}

/// A comparison's slices over its layouts: the interval over the slices'
/// centres, Student's t over the spread of
/// their slots' means (each slot's slices averaged, where there was
/// more than one pass), so a process and its layout count once however many
/// slices it measured. A slice's own interval is not a floor here, as it
/// was for whole processes each converged on its own: two cycles of rounds
/// give it too few blocks for an interval worth weighing (its t quantile
/// alone would be tens of standard errors), while the spread of the means
/// measures the same noise, and the layouts' besides, directly. From
/// [`offsets::LAYOUTS_TO_STRATIFY`] layouts on, where the slices reported
/// where each side's code starts in a cache line, the interval stratified
/// by those offsets ([`offsets::judging`]); widened in quadrature by the
/// systematic allowance ([`Plan::systematic_allowance`]), as one process's
/// interval is, for what the layouts do not vary: across revisions, paired
/// layouts place both builds' code alike, so what else differs between two
/// builds of identical code (where their data lies) reads the same in every
/// layout. In `accuracy --coverage` (10 runs, 6fe46f4), identical `utf8`
/// code read 0.9954x [0.9920x – 0.9989x] and 1.0057x [1.0002x – 1.0112x],
/// each over four layouts that agreed within 0.3%. And the layouts' own
/// mean log speedups, computed once for both the interval and whether it
/// settles.
struct OverLayouts {
    interval: Interval,
    log_means: Vec<f64>,
    /// Whether the layouts moved one side's code but never the other's
    /// (`offsets::one_side_at_one_offset`).
    one_side_at_one_offset: bool,
}

impl OverLayouts {
    /// Whether it settles the verdict at `floor` (see [`settled`]).
    fn settle(&self, floor: NoiseFloor) -> bool {
        let bounds = self.interval.exp_bounds();
        if !floor.settles(bounds) {
            return false;
        }
        if self.log_means.len() >= LAYOUTS_TO_TRUST_THE_INTERVAL {
            return true;
        }
        let verdict = floor.verdict(bounds);
        let every_layout_reads_it = self
            .log_means
            .iter()
            .all(|log_mean| floor.reads(log_mean.exp()) == verdict);
        // A verdict within noise is that narrow already.
        let layouts_agree = self.interval.half_width <= floor.log_threshold();
        every_layout_reads_it && layouts_agree && !self.one_side_at_one_offset
    }
}

/// [`OverLayouts`] of `processes` (slices under their slots); `None` where
/// there is one slice only.
fn over_layouts(processes: &[ProcessSummary], systematic: f64) -> Option<OverLayouts> {
    let log_means = log_means_by_slot(processes);
    let centers: Vec<(f64, Option<f64>)> = log_means.iter().map(|&mean| (mean, None)).collect();
    let plain = stats::across_processes(&centers, CONFIDENCE).ok()?;
    Some(OverLayouts {
        interval: offsets::judging(plain, processes, &log_means).with_systematic(systematic),
        log_means,
        one_side_at_one_offset: offsets::one_side_at_one_offset(processes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::plan::SYSTEMATIC_ALLOWANCE as ALLOWANCE;
    use crate::report::fixtures;
    use crate::stats::samples::Stop;
    use crate::stats::verdict::Verdict;

    /// Measures as the runtime's drivers do: with `measure_here` in this process where
    /// `config.processes` is 1, else in slices `measure_slice` measures, at
    /// least `config.processes` of them and more while the verdict is not
    /// settled and the budget lasts, combined. Before each slice, `prepare`
    /// readies its slot's binary (a layout made once per build, by relinking),
    /// which the budget does not count: a first run would otherwise spend a
    /// comparison's budget on linking, and judge it on fewer layouts than
    /// every run after it.
    pub fn measure(
        config: &Config,
        measure_here: impl FnOnce(&Config) -> Result<Measurement, Error>,
        prepare: impl FnMut(u32) -> Result<(), Error>,
        measure_slice: impl FnMut(SliceToMeasure) -> Result<Measurement, Error>,
    ) -> Result<Measurement, Error> {
        if config.processes <= 1 {
            return measure_here(config);
        }
        let mut replication = Replication::new(config);
        measure_slices(&mut replication, prepare, measure_slice)?;
        Ok(replication.combined())
    }

    fn process(speedup: f64, half_width: f64) -> Measurement {
        let mut measurement = fixtures::measurement(
            speedup,
            (speedup * (-half_width).exp(), speedup * half_width.exp()),
        );
        measurement.original_ns = 10.0 * speedup;
        measurement.candidate_ns = 10.0;
        measurement.inputs[0].original_ns = measurement.original_ns;
        measurement.inputs[0].candidate_ns = measurement.candidate_ns;
        measurement
    }

    /// `slices` recorded in turn, each under the slot its replication
    /// planned, with `least` processes, and combined.
    fn combined(slices: Vec<Measurement>, least: usize) -> Measurement {
        let mut replication = Replication::new(&Config {
            processes: least,
            ..Config::default()
        });
        for slice in slices {
            let slot = replication.next_slot();
            replication.record(slot, Ok(slice), Duration::ZERO).unwrap();
        }
        replication.combined()
    }

    fn verdict(measurement: &Measurement) -> Verdict {
        NoiseFloor::new(Config::default().noise_floor).verdict(measurement.ci)
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
        let slices: Vec<Measurement> = [[0, 16], [32, 48]]
            .map(|offsets| Measurement {
                offsets: Some(offsets),
                ..process(4.0, 0.01)
            })
            .into();
        let combined = combined(slices, 2);
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
        let combined = combined(
            [4.0, 4.12, 4.05, 4.08]
                .map(|speedup| process(speedup, 0.01))
                .into(),
            4,
        );
        assert_eq!(verdict(&combined), Verdict::Faster, "{:?}", combined.ci);
        assert!(
            combined.ci.0 > 3.8 && combined.ci.1 < 4.3,
            "{:?}",
            combined.ci
        );
    }

    /// Runs [`measure`] with `config` on processes reading `speedups` in
    /// turn (round and round), each prepared just before its slice, and
    /// returns how many ran and the result.
    fn replicated(config: &Config, speedups: &[f64]) -> (usize, Result<Measurement, Error>) {
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
                    slice.config.plan.swap_orders,
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
        assert_eq!(verdict(&report), Verdict::WithinNoise);
        assert_eq!(report.stop, Stop::Converged);
        assert!(NoiseFloor::new(0.05).settles(report.ci), "{:?}", report.ci);
    }

    #[test]
    fn layouts_that_disagree_get_more_processes_until_the_verdict_settles() {
        // Identical work that reads 6% either side of even by layout: four
        // processes leave the interval across the floor; more narrow it.
        let (started, result) = replicated(&Config::default(), &[1.06, 0.94, 1.05, 0.95, 1.0]);
        let report = result.unwrap();
        assert!(started > 4 && started <= MOST_SLICES, "{started}");
        assert!(NoiseFloor::new(0.05).settles(report.ci), "{:?}", report.ci);
        assert!(report.ci.0 < 1.0 && 1.0 < report.ci.1, "{:?}", report.ci);
        assert_eq!(verdict(&report), Verdict::WithinNoise);
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
        let slices: Vec<Measurement> = [1.25, 1.20, 1.30, 1.22, 1.28]
            .iter()
            .map(|&s| process(s, 0.001))
            .collect();
        let per_process = slices[0].rounds;
        let combined = combined(slices, 4);
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
        assert_eq!(verdict(&combined), Verdict::Faster);
        // The best-of figure is the best of every process.
        assert_eq!(combined.original_ns, 12.0);
        assert_eq!(combined.best_speedup, 1.2);
    }

    #[test]
    fn an_observation_every_process_makes_is_said_once() {
        use crate::report::Notice;
        let mut parent = process(1.25, 0.01);
        parent.notices.push(Notice::Asleep { share: 0.6 });
        let mut child = process(1.25, 0.01);
        child.notices = vec![
            Notice::Asleep { share: 0.8 },
            Notice::Said("the timer fell back".into()),
        ];
        let combined = combined(vec![parent, child.clone(), child], 4);
        assert_eq!(
            combined.notices,
            vec![
                Notice::Asleep { share: 0.8 },
                Notice::Said("the timer fell back".into())
            ]
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
        let floor = NoiseFloor::new(0.02);
        let slices = |speedups: &[f64]| -> Vec<ProcessSummary> {
            (1..)
                .zip(speedups)
                .map(|(slot, &speedup)| ProcessSummary {
                    speedup,
                    ci: (0.0, f64::INFINITY),
                    rounds: 16,
                    slot,
                    layout: None,
                    offsets: None,
                })
                .collect()
        };
        // hex's `encode` against itself, the first ten layouts as read:
        // the interval clears the 2% floor, the fourth layout does not.
        let hex = [1.10, 1.21, 1.26, 0.92, 1.19, 1.21, 1.19, 1.12, 1.00, 1.13];
        let interval = over_layouts(&slices(&hex), ALLOWANCE)
            .unwrap()
            .interval
            .exp_bounds();
        assert_eq!(floor.verdict(interval), Verdict::Faster, "{interval:?}");
        assert!(!settled(&slices(&hex), floor, ALLOWANCE));
        // Every layout faster by more than the floor and agreeing within
        // it: settled at four; agreeing less closely than the floor (the
        // interval ±3.7%), not at four.
        let ten_percent = [1.10, 1.12, 1.09, 1.11];
        assert!(settled(
            &slices(&ten_percent),
            NoiseFloor::new(0.05),
            ALLOWANCE
        ));
        assert!(!settled(&slices(&ten_percent), floor, ALLOWANCE));
        // A duplicate search's identical copies, the first four layouts of
        // one build: `faster` in each, the interval [1.31x – 1.63x] (±11%).
        let five = NoiseFloor::new(0.05);
        assert!(!settled(
            &slices(&[1.33, 1.62, 1.41, 1.50]),
            five,
            ALLOWANCE
        ));
        // Within noise in every layout: settled at four.
        assert!(settled(&slices(&[1.01, 0.99, 1.00, 1.02]), five, ALLOWANCE));
        // From thirty-two layouts on, the interval decides alone.
        let mut many = vec![1.10; 30];
        many.push(1.01);
        assert!(!settled(&slices(&many), floor, ALLOWANCE));
        many.push(1.10);
        assert!(settled(&slices(&many), floor, ALLOWANCE));
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
        // about): the interval is over 64 means, not 128 slices, and as
        // tight as the systematic allowance leaves it.
        let slices: Vec<ProcessSummary> = (0..128)
            .map(|slice| ProcessSummary {
                speedup: if slice < 64 { 1.1 } else { 1.0 / 1.1 },
                ci: (0.0, f64::INFINITY),
                rounds: 16,
                slot: slot_of(slice, 4),
                layout: None,
                offsets: None,
            })
            .collect();
        let interval = over_layouts(&slices, ALLOWANCE).unwrap().interval;
        assert_eq!(interval.blocks, 64);
        assert!(
            (interval.half_width - ALLOWANCE).abs() < 1e-9,
            "{interval:?}"
        );
    }

    #[test]
    fn layouts_that_agree_closely_are_widened_by_the_systematic_allowance() {
        // Identical `utf8` code across revisions (`accuracy --coverage`,
        // 6fe46f4): four layouts at 0.9967x, 0.9960x, 0.9948x and 0.9942x,
        // whose t interval, [0.9920x – 0.9989x], left out 1.00x; what the
        // layouts did not vary between the two builds is allowed for.
        let slices: Vec<ProcessSummary> = [0.9967, 0.9960, 0.9948, 0.9942]
            .into_iter()
            .zip(1..)
            .map(|(speedup, slot)| ProcessSummary::new(speedup, (0.0, f64::INFINITY), 64, slot))
            .collect();
        let plain = over_layouts(&slices, 0.0).unwrap().interval;
        let widened = over_layouts(&slices, ALLOWANCE).unwrap().interval;
        assert!(plain.high() < 0.0, "{plain:?}");
        assert!(widened.low() <= 0.0 && 0.0 <= widened.high(), "{widened:?}");
        let expected = plain.half_width.hypot(ALLOWANCE);
        assert!((widened.half_width - expected).abs() < 1e-12);
        // Still settled within noise at the default floor.
        assert!(settled(&slices, NoiseFloor::new(0.05), ALLOWANCE));
    }

    #[test]
    fn more_than_sixty_four_processes_keep_a_slot_each_from_replication_to_report() {
        // With `processes = 100` and layouts off, slice 64 ran in slot 65:
        // combining and every reader of the report group it there, not with
        // slot 1 (they once disagreed, the report's means grouping slices
        // 65-100 with slots 1-36).
        let config = Config {
            processes: 100,
            max_time: Duration::from_secs(3600),
            ..Config::default()
        };
        let (started, result) = replicated(&config, &[1.01, 0.99, 1.0]);
        assert!(started >= 100, "{started}");
        let measurement = result.unwrap();
        let slots: Vec<u32> = measurement.processes.iter().map(|p| p.slot).collect();
        assert_eq!(&slots[..100], (1..=100).collect::<Vec<u32>>());
        let report = crate::judge::judge(measurement, &config, Default::default());
        assert_eq!(report.slot_means().len(), 100);
    }

    #[test]
    fn children_are_bounded_in_time() {
        assert_eq!(
            child_timeout(Duration::from_secs(3)),
            Duration::from_secs(36)
        );
    }
}
