//! The measurement loop: batch-size tuning, warm-up, the choice of how many
//! placements of the measuring loop to take turns in, interleaved rounds
//! and the stop rule.
//!
//! The sampler is generic over its [`Clock`] and over the [`Subject`] it
//! times, so the same loop runs real functions on the wall clock and modelled
//! workloads on a simulated clock in deterministic tests.

use crate::config::Config;
use crate::error::{Error, Phase};
use crate::stats::estimate::paired_interval;
use crate::stats::samples::{
    self, BatchLimit, LADDER, LADDER_MIN_BATCH, Round, Samples, Side, Stop,
};
use crate::stats::verdict::{NoiseFloor, Verdict};
use crate::time::{Calibration, Clock};
use std::time::Duration;

/// What the sampler times: two functions over a fixed set of inputs.
pub trait Subject {
    /// How many inputs there are.
    fn input_count(&self) -> usize;

    /// Runs `batch` back-to-back calls of `side` on input `input` and returns
    /// the nanoseconds they took, as read on the sampler's clock.
    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error>;

    /// The largest batch this subject can prepare for `input` (a subject that
    /// clones its input per call caps it to bound memory). Asked once per
    /// input, as tuning starts: finding it may take real work (cloning the
    /// input), which leaves the allocator and the caches unlike a round's,
    /// and must not come between the warm-up and the measured rounds.
    fn max_batch(&self, _input: usize) -> u64 {
        MAX_BATCH
    }

    /// How many placements of its measuring loop the subject can time in:
    /// copies of the loop at different places in memory, whose spread the
    /// interval takes in where calls are short (see
    /// [`Plan::placement_threshold`](crate::config::Plan::placement_threshold)).
    /// One by default.
    fn placements(&self) -> usize {
        1
    }

    /// Called before each measured round (counting from 0) with the
    /// placement of the measuring loop to time it in (below
    /// [`placements`](Subject::placements)), so a subject can vary what
    /// should not matter: where its loop sits in memory, where on the stack
    /// it runs.
    fn begin_round(&mut self, _round: usize, _placement: usize) {}

    /// Whether each timed batch follows an untimed call of its own side, as
    /// a revision's children make one: then the side that ran before a
    /// batch gives it nothing, and the discarded round before a slice keeps
    /// the order measured honest there (see `ready::settle`). No by default.
    fn warms_each_batch(&self) -> bool {
        false
    }
}

/// No batch grows past this many calls, whatever the timer.
pub const MAX_BATCH: u64 = 1 << 40;

/// From this many calls on, tuning stops growing a batch whose time no
/// longer grows with it.
const FREE_CALLS: u64 = 1 << 20;

/// Tunes, warms up and measures `subject` until the estimate converges or
/// the budget in `config` is spent.
///
/// The budget holds also for functions slower than it: every step is taken
/// only where the per-call times seen so far say it ends in time (a tuning
/// step within a quarter of the budget, a warm-up round within the warm-up's
/// share, a pair of rounds within the whole), and a round that runs a whole
/// round past the budget anyway (a function that suddenly slows) is
/// abandoned, with its pair, after the batch pair that crossed that line.
/// Where not even the first pair of rounds fits, the result is
/// [`Error::BudgetTooShort`].
pub fn sample<C: Clock, S: Subject>(
    clock: &C,
    calibration: Calibration,
    subject: &mut S,
    config: &Config,
) -> Result<Samples, Error> {
    let budget = Budget {
        clock,
        start_ns: clock.budget_now_ns(),
        total_ns: config.max_time.as_nanos() as f64,
    };
    let min_sample_ns = calibration.min_sample_ns();
    let mut pace = tune(subject, &budget, min_sample_ns)?;
    let warm_up = warm_up(subject, &mut pace, &budget, config)?;
    scale_to_settled_times(&mut pace, min_sample_ns);
    let ladders = ladders(&mut pace);
    let shorter_call_ns = shorter_call_ns(&pace);
    let placements = if shorter_call_ns < config.plan.placement_threshold.as_nanos() as f64 {
        subject.placements().max(1)
    } else {
        1
    };
    let slice_rounds = slice_rounds(config, &ladders, placements);
    settle(
        subject,
        &pace,
        (&ladders, placements),
        (warm_up.last(), slice_rounds),
        (&budget, config),
    )?;
    let (rounds, stop) = measure_rounds(
        subject,
        &mut pace,
        (&ladders, placements, slice_rounds),
        &budget,
        &calibration,
        config,
    )?;
    Ok(Samples {
        batch_sizes: pace.batch_sizes,
        batch_limits: pace.batch_limits,
        ladders,
        rounds,
        placements,
        shorter_call_ns,
        warm_up_rounds: warm_up.len(),
        stop,
        elapsed_ns: budget.elapsed_ns(),
        calibration,
    })
}

/// The time budget, kept on the clock's real-time reading.
struct Budget<'a, C> {
    clock: &'a C,
    start_ns: f64,
    total_ns: f64,
}

impl<C: Clock> Budget<'_, C> {
    fn elapsed_ns(&self) -> f64 {
        self.clock.budget_now_ns() - self.start_ns
    }

    /// Whether `more_ns` of work from now ends by `limit_ns` into the run.
    fn fits(&self, more_ns: f64, limit_ns: f64) -> bool {
        self.elapsed_ns() + more_ns <= limit_ns
    }
}

/// The batch sizes chosen so far and the latest per-call times, from which
/// the length of the next step is foreseen, and what held each input's
/// batches short of the sample length the timer needs, where something did.
#[derive(Default)]
struct Pace {
    batch_sizes: Vec<[u64; 2]>,
    per_call_ns: Vec<[f64; 2]>,
    batch_limits: Vec<Option<BatchLimit>>,
    /// Each input's [`Subject::max_batch`], at least 1.
    largest_batches: Vec<u64>,
}

impl Pace {
    /// How long a round of batches of `sizes` should take.
    fn round_ns(&self, sizes: &[[u64; 2]]) -> f64 {
        sizes
            .iter()
            .zip(&self.per_call_ns)
            .map(|(size, per_call)| size[0] as f64 * per_call[0] + size[1] as f64 * per_call[1])
            .sum()
    }

    fn observe(&mut self, round: &Round) {
        self.per_call_ns.clone_from(&round.per_call_ns);
    }
}

mod ready;
use ready::{ladders, scale_to_settled_times, settle, tune, warm_up};

/// The shorter side's per-call time summed over inputs, from the latest
/// round: a call this short is where the measuring loop's placement in
/// memory can move the ratio.
fn shorter_call_ns(pace: &Pace) -> f64 {
    let side = |side: usize| -> f64 { pace.per_call_ns.iter().map(|times| times[side]).sum() };
    side(0).min(side(1))
}

/// The measured rounds, in pairs (one of each order, so both orders always
/// weigh the same), cycling through each input's `ladders` of batch sizes
/// and taking turns in `placements` placements of the measuring loop, until
/// the estimate converges (or a slice has its `slice_rounds`) or the next
/// pair would end past the budget.
fn measure_rounds<S: Subject, C: Clock>(
    subject: &mut S,
    pace: &mut Pace,
    (ladders, placements, slice_rounds): (&[&'static [u64]], usize, Option<usize>),
    budget: &Budget<'_, C>,
    calibration: &Calibration,
    config: &Config,
) -> Result<(Vec<Round>, Stop), Error> {
    let mut rounds: Vec<Round> = Vec::new();
    let mut next_check = config.plan.min_rounds;
    loop {
        if slice_rounds.is_some_and(|count| rounds.len() >= count) {
            return Ok((rounds, Stop::Converged));
        }
        if slice_rounds.is_none() && rounds.len() >= next_check {
            next_check = next_checkpoint(rounds.len());
            let overheads = samples::overheads(
                &rounds,
                subject.input_count(),
                samples::max_overhead_ns(calibration),
            );
            let log_ratios = samples::log_ratios(&rounds, &overheads);
            if converged(&log_ratios, &rounds, (ladders, placements), config) {
                return Ok((rounds, Stop::Converged));
            }
        }
        let first = rounds.len();
        let pair_ns = pace.round_ns(&ladder_sizes(&pace.batch_sizes, ladders, first))
            + pace.round_ns(&ladder_sizes(&pace.batch_sizes, ladders, first + 1));
        if !budget.fits(pair_ns, budget.total_ns) {
            return over_budget(rounds, pair_ns / 2.0, config);
        }
        // A round is abandoned only when it runs a whole round past the
        // budget: the per-call times were wrong (the functions slowed down),
        // not merely the timer's few readings on top of them.
        let limit_ns = budget.total_ns + pair_ns / 2.0;
        for round in [first, first + 1] {
            let placement = samples::placement_of(round, ladders, placements);
            subject.begin_round(round, placement);
            let over = || budget.elapsed_ns() > limit_ns;
            let sizes = ladder_sizes(&pace.batch_sizes, ladders, round);
            let order = original_first(round, config.plan.swap_orders);
            match measure_round(subject, sizes, (order, placement), &over)? {
                Some(measured) => {
                    pace.observe(&measured);
                    rounds.push(measured);
                }
                None => {
                    // Ran over: keep whole pairs only.
                    rounds.truncate(first);
                    return over_budget(rounds, pair_ns / 2.0, config);
                }
            }
        }
    }
}

/// A slice's count of measured rounds, where `config.plan.cycles` fixes it:
/// whole cycles, each placement of the loop in turn (an even count, as
/// rounds come in pairs).
fn slice_rounds(config: &Config, ladders: &[&[u64]], placements: usize) -> Option<usize> {
    config
        .plan
        .cycles
        .map(|cycles| cycles.max(placements) * samples::cycle_length(ladders))
}

/// Whether the original is timed first in measured round `round`. Each
/// pair of rounds holds one of each order, and pairs take turns at which
/// comes first: the first round of a pair follows the convergence check and
/// the budget's, work that leaves caches and the allocator colder than a
/// round does, and its first batch pays for it. With the original always
/// first there, two identical functions that allocate their output (the
/// fields of a CSV line, 300 ns) read 1.02x to 1.03x faster in every build,
/// with the candidate as either of the two.
///
/// `swapped` swaps every round's order (see [`Plan::swap_orders`](crate::config::Plan::swap_orders)): what
/// a round's place in the cycle costs its first batch is not the same at
/// every place, and the slices of a comparison take turns at it. Two
/// identical copies of that CSV parse read rounds 1.018x where the
/// original was first in round 0 and 0.972x where the candidate was first
/// in round 2 (rounds 1 and 3, 1.000x and 0.998x): 0.997x over whole
/// cycles (four pairs in one binary, 64 layouts).
fn original_first(round: usize, swapped: bool) -> bool {
    let pair = round / 2;
    ((round % 2 == 0) == (pair % 2 == 0)) != swapped
}

/// Where the budget ends measuring: a budget stop, or an error where not
/// even one pair of rounds was measured.
fn over_budget(
    rounds: Vec<Round>,
    round_ns: f64,
    config: &Config,
) -> Result<(Vec<Round>, Stop), Error> {
    if rounds.is_empty() {
        return Err(Error::BudgetTooShort {
            round: Duration::from_nanos(round_ns.max(0.0) as u64),
            max_time: config.max_time,
            processes: 1,
        });
    }
    Ok((rounds, Stop::Budget))
}

/// Each input's batch sizes in round `round`: the tuned ones times the
/// ladder's step.
fn ladder_sizes(batch_sizes: &[[u64; 2]], ladders: &[&[u64]], round: usize) -> Vec<[u64; 2]> {
    batch_sizes
        .iter()
        .zip(ladders)
        .map(|(batch, ladder)| batch.map(|side| side * samples::ladder_step(ladder, round)))
        .collect()
}

/// One round over every input in `placement` (recorded, the subject having
/// been told), the original first or second in each pair; `None` when
/// `over()` says the budget ran out after one of its batch pairs (the round
/// is then abandoned).
fn measure_round<S: Subject>(
    subject: &mut S,
    batch_sizes: Vec<[u64; 2]>,
    (original_first, placement): (bool, usize),
    over: &dyn Fn() -> bool,
) -> Result<Option<Round>, Error> {
    let mut per_call_ns = Vec::with_capacity(batch_sizes.len());
    for (input, &batches) in batch_sizes.iter().enumerate() {
        let mut order = [Side::Original, Side::Candidate];
        if !original_first {
            order.reverse();
        }
        let mut times = [0.0; 2];
        for side in order {
            let batch = batches[side as usize];
            let batch_ns = subject.time_batch(side, input, batch)?;
            if !(batch_ns > 0.0 && batch_ns.is_finite()) {
                return Err(Error::Unmeasurable(format!(
                    "the timer read {batch_ns} ns for a batch of {batch} calls of {} on input \
                     {input}: it is too coarse for this function (choose a finer timer, or give \
                     the function more work per call)",
                    Phase::from(side),
                )));
            }
            times[side as usize] = batch_ns;
        }
        per_call_ns.push([0, 1].map(|side| times[side] / batches[side] as f64));
        if over() {
            return Ok(None);
        }
    }
    Ok(Some(Round {
        original_first,
        placement,
        batch_sizes,
        per_call_ns,
    }))
}

/// Whether measuring can stop: the paired estimate's statistical interval is
/// as narrow as the target, or the verdict is already clear (the reported
/// interval judges `faster` or `slower`, by the one rule,
/// [`Verdict::from_interval`]) and the interval within twice the target, so
/// a large speedup is not measured to a precision nobody needs.
///
/// The width must rest on at least [`MIN_BLOCKS`] blocks: a variance from
/// fewer is itself so uncertain that stopping when it happens to be small
/// would make the reported interval too narrow.
fn converged(
    log_ratios: &[f64],
    rounds: &[Round],
    (ladders, placements): (&[&'static [u64]], usize),
    config: &Config,
) -> bool {
    let Ok(intervals) = paired_interval(
        log_ratios,
        rounds,
        samples::cycle_length(ladders),
        placements,
        config.plan.systematic_allowance,
    ) else {
        return false;
    };
    // Precision is the statistical part (more rounds cannot shrink the
    // systematic one, nor the spread between placements); a clear verdict is
    // judged on the interval reported.
    let (interval, reported) = (intervals.statistical, intervals.reported);
    let decided =
        NoiseFloor::new(config.noise_floor).verdict(reported.exp_bounds()) != Verdict::WithinNoise;
    interval.blocks >= MIN_BLOCKS
        && (interval.half_width <= config.plan.target_precision
            || (decided && interval.half_width <= 2.0 * config.plan.target_precision))
}

/// The fewest batch-means blocks a convergence stop may rest on (32 rounds
/// at a fixed batch size, 128 on the ladder; with eight placements, two
/// blocks of each, pooled: as many degrees of freedom from as many rounds).
pub const MIN_BLOCKS: usize = 8;

/// The next round count at which to test convergence: every round pair at
/// first, then about every 1/16 more rounds, so testing costs O(n log n).
fn next_checkpoint(rounds: usize) -> usize {
    let next = (rounds + 2).max(rounds + rounds / 16);
    next + next % 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Plan;
    use crate::time::{SimClock, calibrate};
    use std::time::Duration;

    /// Two identical functions of 1 µs a call, a batch of which costs 8%
    /// more where the batch before it was the other side's: what the branch
    /// predictor and caches held for it was evicted.
    struct SwitchCost {
        clock: SimClock,
        last_side: Option<Side>,
    }

    impl Subject for SwitchCost {
        fn input_count(&self) -> usize {
            1
        }
        fn time_batch(&mut self, side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            let switched = self.last_side.is_some_and(|last| last != side);
            self.last_side = Some(side);
            let per_call_ns = if switched { 1_080.0 } else { 1_000.0 };
            let start = self.clock.now();
            self.clock.advance(per_call_ns * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
    }

    #[test]
    fn a_slice_of_whole_cycles_reads_a_switching_cost_the_same_on_both_sides() {
        // Not without a warm-up: that skips the discarded round too.
        let warm_ups = [Duration::from_micros(100), Duration::from_millis(5)];
        for (cycles, max_warm_up) in (1..=3).flat_map(|cycles| warm_ups.map(|w| (cycles, w))) {
            let clock = SimClock::new();
            let mut subject = SwitchCost {
                clock: clock.clone(),
                last_side: None,
            };
            let config = Config {
                plan: Plan {
                    cycles: Some(cycles),
                    max_warm_up,
                    ..Plan::default()
                },
                ..Config::default()
            };
            let samples = sample(&clock, calibrate(&clock), &mut subject, &config).unwrap();
            assert_eq!(
                samples.rounds.len(),
                2 * cycles,
                "whole cycles of both orders"
            );
            let mean = crate::stats::mean(&samples.log_ratios());
            let case = format!("{cycles} cycles, warm-up {max_warm_up:?}");
            assert!(mean.abs() < 1e-9, "{case}: mean log ratio {mean}");
        }
    }

    /// Two functions of the same cost whose first batch in each measured
    /// round pays what that round's place in the cycle of four costs: not
    /// the same at every place, as measured on a CSV parse.
    struct FirstPays {
        clock: SimClock,
        place: Option<usize>,
    }

    impl Subject for FirstPays {
        fn input_count(&self) -> usize {
            1
        }
        fn time_batch(&mut self, _side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            let extra = self
                .place
                .take()
                .map_or(0.0, |place| [0.02, 0.0, 0.03, 0.002][place]);
            let start = self.clock.now();
            self.clock.advance(1_000.0 * (1.0 + extra) * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
        fn begin_round(&mut self, round: usize, _placement: usize) {
            self.place = Some(round % 4);
        }
    }

    #[test]
    fn slices_that_take_turns_at_the_orders_read_a_cost_of_a_round_s_place_on_both_sides_alike() {
        let mean_log_ratio = |swap_orders: bool| {
            let clock = SimClock::new();
            let mut subject = FirstPays {
                clock: clock.clone(),
                place: None,
            };
            let config = Config {
                plan: Plan {
                    cycles: Some(2),
                    swap_orders,
                    ..Plan::default()
                },
                ..Config::default()
            };
            let samples = sample(&clock, calibrate(&clock), &mut subject, &config).unwrap();
            crate::stats::mean(&samples.log_ratios())
        };
        let (plain, swapped) = (mean_log_ratio(false), mean_log_ratio(true));
        assert!(plain.abs() > 1e-3, "one slice alone is moved: {plain}");
        assert!((plain + swapped).abs() < 1e-9, "{plain} and {swapped}");
    }

    /// Two functions of fixed cost on a simulated clock, both `slowdown`
    /// times slower from batch `slow_from` on.
    struct Fixed {
        clock: SimClock,
        per_call_ns: [f64; 2],
        inputs: usize,
        batches: usize,
        slow_from: usize,
        slowdown: f64,
    }

    impl Fixed {
        fn new(clock: &SimClock, per_call_ns: [f64; 2], inputs: usize) -> Self {
            Fixed {
                clock: clock.clone(),
                per_call_ns,
                inputs,
                batches: 0,
                slow_from: usize::MAX,
                slowdown: 1.0,
            }
        }
    }

    impl Subject for Fixed {
        fn input_count(&self) -> usize {
            self.inputs
        }
        fn time_batch(&mut self, side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            self.batches += 1;
            let slowdown = if self.batches > self.slow_from {
                self.slowdown
            } else {
                1.0
            };
            let start = self.clock.now();
            self.clock
                .advance(slowdown * self.per_call_ns[side as usize] * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
    }

    fn run(per_call_ns: [f64; 2], config: &Config) -> Samples {
        let clock = SimClock::with_reading_cost(20.0);
        let mut subject = Fixed::new(&clock, per_call_ns, 2);
        sample(&clock, calibrate(&clock), &mut subject, config).unwrap()
    }

    #[test]
    fn batches_are_tuned_to_the_timer_and_fast_ones_laddered() {
        let samples = run([10.0, 8.0], &Config::default());
        // 20 ns per reading: samples must reach 20 µs, i.e. 2 000 calls of
        // the 10 ns original and 2 500 of the 8 ns candidate; doubling from
        // 1 gives 2 048 and 4 096.
        assert_eq!(samples.batch_sizes, vec![[2_048, 4_096], [2_048, 4_096]]);
        assert_eq!(samples.ladders, vec![LADDER, LADDER]);
        let sizes: Vec<u64> = samples
            .rounds
            .iter()
            .take(8)
            .map(|r| r.batch_sizes[0][1])
            .collect();
        assert_eq!(sizes, [1, 1, 2, 2, 3, 3, 4, 4].map(|step| step * 4_096));
        // The regression finds the 20 ns reading cost and clears it exactly.
        for overhead in samples.overheads() {
            assert!((overhead - 20.0).abs() < 1e-6, "{overhead}");
        }
        for log_ratio in samples.log_ratios() {
            assert!((log_ratio.exp() - 1.25).abs() < 1e-9);
        }
    }

    /// [`Fixed`] whose batches cannot pass `cap` calls, as a subject that
    /// clones an input per call caps them by the clones' memory.
    struct Capped(Fixed, u64);

    impl Subject for Capped {
        fn input_count(&self) -> usize {
            self.0.input_count()
        }
        fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error> {
            assert!(batch <= self.1, "a batch of {batch} past the cap");
            self.0.time_batch(side, input, batch)
        }
        fn max_batch(&self, _input: usize) -> u64 {
            self.1
        }
    }

    #[test]
    fn what_held_a_batch_short_of_the_timers_need_is_recorded() {
        // Nothing holds the batches of the 10 ns pair: they reach 20 µs.
        assert_eq!(
            run([10.0, 8.0], &Config::default()).batch_limits,
            [None, None]
        );
        // A cap of 100 calls holds them at 1 µs.
        let clock = SimClock::with_reading_cost(20.0);
        let mut capped = Capped(Fixed::new(&clock, [10.0, 8.0], 1), 100);
        let samples = sample(&clock, calibrate(&clock), &mut capped, &Config::default()).unwrap();
        assert_eq!(samples.batch_limits, [Some(BatchLimit::Memory)]);
        // A timer of 20 µs a reading needs samples of 20 ms. Calls that take
        // 1 ms while tuning leave no time in a 22 ms budget to double a batch
        // of one, and when they then take 0.1 ms, sixteen of them (what the
        // settled times may scale a batch to) are still too few.
        let clock = SimClock::with_reading_cost(20_000.0);
        let mut warming = Fixed::new(&clock, [1e6, 1e6], 1);
        (warming.slow_from, warming.slowdown) = (2, 0.1);
        let config = Config {
            max_time: Duration::from_millis(22),
            ..Config::default()
        };
        let samples = sample(&clock, calibrate(&clock), &mut warming, &config).unwrap();
        assert_eq!(samples.batch_sizes, [[16, 16]]);
        assert_eq!(samples.batch_limits, [Some(BatchLimit::Budget)]);
    }

    #[test]
    fn noiseless_pair_converges_at_the_minimum_rounds_with_the_exact_ratio() {
        let samples = run([1_000.0, 800.0], &Config::default());
        assert_eq!(samples.stop, Stop::Converged);
        // 1 µs functions take batches of 32 (20 µs samples): no ladder, and
        // 32 rounds make 8 blocks of 4, the fewest a stop may rest on.
        assert_eq!(samples.ladders, vec![&[1][..], &[1][..]]);
        assert_eq!(samples.rounds.len(), 32);
        // The timer's one reading per sample is 20 ns against samples of
        // ≥ 20 µs: the ratio is within 0.1% of 1.25.
        for log_ratio in samples.log_ratios() {
            assert!((log_ratio.exp() / 1.25 - 1.0).abs() < 1e-3, "{log_ratio}");
        }
    }

    #[test]
    fn laddered_runs_stop_on_whole_cycles() {
        let samples = run([10.0, 8.0], &Config::default());
        assert_eq!(samples.stop, Stop::Converged);
        // Blocks of 16 rounds (two ladder cycles) make 8 blocks from 128
        // rounds on; the stop comes at the first checkpoint after that.
        assert!(
            (128..=136).contains(&samples.rounds.len()),
            "{}",
            samples.rounds.len()
        );
    }

    #[test]
    fn each_pair_of_rounds_holds_both_orders_and_pairs_take_turns_at_which_is_first() {
        let samples = run([1_000.0, 800.0], &Config::default());
        for (index, round) in samples.rounds.iter().enumerate() {
            assert_eq!(round.original_first, [true, false, false, true][index % 4]);
        }
        let swapped = Config {
            plan: Plan {
                swap_orders: true,
                ..Plan::default()
            },
            ..Config::default()
        };
        for (index, round) in run([1_000.0, 800.0], &swapped).rounds.iter().enumerate() {
            assert_eq!(round.original_first, [false, true, true, false][index % 4]);
        }
    }

    #[test]
    fn the_budget_stops_a_run_that_cannot_converge_and_is_not_overrun() {
        // A precision no finite run can reach on noiseless data is still
        // "reached" (zero width), so ask for a budget too short instead.
        let config = Config {
            max_time: Duration::from_millis(20),
            plan: Plan {
                min_rounds: 1_000_000,
                ..Plan::default()
            },
            ..Config::default()
        };
        let samples = run([100_000.0, 100_000.0], &config);
        assert_eq!(samples.stop, Stop::Budget);
        let round_ns = 2.0 * 2.0 * 100_000.0; // two inputs, two sides
        assert!(
            samples.elapsed_ns <= 20e6 + round_ns,
            "{}",
            samples.elapsed_ns
        );
        assert_eq!(samples.rounds.len() % 2, 0);
    }

    #[test]
    fn functions_that_cost_nothing_end_in_their_budget() {
        // Free calls on a clock whose readings cost 20 ns: no batch can ever
        // reach the 20 µs target; tuning must give up, not double forever.
        let config = Config {
            max_time: Duration::from_millis(50),
            ..Config::default()
        };
        let samples = run([0.0, 0.0], &config);
        assert!(
            samples.batch_sizes[0][0] <= 64 * FREE_CALLS,
            "{:?}",
            samples.batch_sizes
        );
        assert!(samples.elapsed_ns <= 60e6, "{}", samples.elapsed_ns);
    }

    #[test]
    fn a_pair_of_calls_longer_than_the_budget_is_an_error_after_one_pair() {
        // 5 s per call against the default 3 s: tuning times one pair (10 s)
        // and stops there; no round is started.
        let clock = SimClock::with_reading_cost(20.0);
        let mut subject = Fixed::new(&clock, [5e9, 5e9], 1);
        let error =
            sample(&clock, calibrate(&clock), &mut subject, &Config::default()).unwrap_err();
        let Error::BudgetTooShort {
            round, max_time, ..
        } = error
        else {
            panic!("{error:?}");
        };
        assert_eq!((round.as_secs(), max_time.as_secs()), (10, 3));
        assert_eq!(subject.batches, 2);
        let message = error.to_string();
        assert!(message.contains("takes 10.00 s"), "{message}");
        assert!(
            message.contains("raise max_time to at least \"100s\""),
            "{message}"
        );
    }

    /// Two identical functions of 1 µs a call, whose largest batch takes
    /// 60 ms to find (the warm-up's whole share of 50 ms), and whose first
    /// batch once measuring begins costs twice as much, as the first batch
    /// after tuning did for a function taking a 1 MiB buffer by value.
    struct ColdStart {
        clock: SimClock,
        measuring: bool,
        cold_batches: usize,
        largest_batch_asked: std::cell::Cell<usize>,
    }

    impl Subject for ColdStart {
        fn input_count(&self) -> usize {
            1
        }
        fn max_batch(&self, _input: usize) -> u64 {
            self.largest_batch_asked
                .set(self.largest_batch_asked.get() + 1);
            self.clock.advance(6e7);
            MAX_BATCH
        }
        fn begin_round(&mut self, _round: usize, _placement: usize) {
            self.measuring = true;
        }
        fn time_batch(&mut self, _side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            let cold = self.measuring && self.cold_batches == 0;
            self.cold_batches += usize::from(cold);
            let start = self.clock.now();
            let per_call_ns = if cold { 2_000.0 } else { 1_000.0 };
            self.clock.advance(per_call_ns * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
    }

    #[test]
    fn a_discarded_round_takes_the_cold_start_when_the_warm_up_was_skipped() {
        let clock = SimClock::new();
        let mut subject = ColdStart {
            clock: clock.clone(),
            measuring: false,
            cold_batches: 0,
            largest_batch_asked: std::cell::Cell::new(0),
        };
        let samples = sample(&clock, calibrate(&clock), &mut subject, &Config::default()).unwrap();
        assert_eq!(samples.warm_up_rounds, 0);
        assert_eq!(subject.largest_batch_asked.get(), 1);
        assert_eq!(subject.cold_batches, 1);
        for round in &samples.rounds {
            assert_eq!(round.per_call_ns, [[1_000.0, 1_000.0]]);
        }
    }

    #[test]
    fn slow_functions_get_the_rounds_that_fit_and_no_more() {
        // 0.3 s per call: tuning 0.6 s, no warm-up (a round outlasts its
        // share), then two pairs of rounds of 0.6 s end at 3 s exactly.
        let clock = SimClock::new();
        let mut subject = Fixed::new(&clock, [3e8, 3e8], 1);
        let samples = sample(&clock, calibrate(&clock), &mut subject, &Config::default()).unwrap();
        assert_eq!(samples.stop, Stop::Budget);
        assert_eq!(samples.warm_up_rounds, 0);
        assert_eq!(samples.rounds.len(), 4);
        assert!(samples.elapsed_ns <= 3e9, "{}", samples.elapsed_ns);
    }

    #[test]
    fn a_round_that_runs_over_is_abandoned_after_the_batch_that_crossed() {
        // 1 ms calls that become 100 times slower after the 150th batch: the
        // round under way when the budget runs out is dropped with its pair.
        let clock = SimClock::new();
        let mut subject = Fixed::new(&clock, [1e6, 1e6], 3);
        subject.slow_from = 150;
        subject.slowdown = 100.0;
        let config = Config {
            max_time: Duration::from_millis(300),
            ..Config::default()
        };
        let samples = sample(&clock, calibrate(&clock), &mut subject, &config).unwrap();
        assert_eq!(samples.stop, Stop::Budget);
        // Tuning takes 6 batches, warm-up 6 rounds of 6 (then settled, its
        // last round not in round 0's order), a discarded
        // round 6, 16 measured rounds the rest up to 150: the slowdown hits
        // round 17, which runs past the budget after its first pair and is
        // dropped with round 16.
        assert_eq!((samples.warm_up_rounds, samples.rounds.len()), (6, 16));
        // Over by at most the one slow batch pair that crossed the line.
        assert!(
            samples.elapsed_ns <= 300e6 + 2.0 * 100e6,
            "{}",
            samples.elapsed_ns
        );
        for round in &samples.rounds {
            assert_eq!(round.per_call_ns.len(), 3);
        }
    }

    #[test]
    fn a_timer_that_reads_nothing_is_an_error_not_a_loop() {
        // Free calls on a free clock: every batch reads 0 ns.
        let clock = SimClock::new();
        let mut subject = Fixed::new(&clock, [0.0, 0.0], 1);
        let error =
            sample(&clock, calibrate(&clock), &mut subject, &Config::default()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("the timer read 0 ns for a batch"),
            "{error}"
        );
    }

    /// A 1.25 ns original against a 5 ns candidate whose loop runs slower in
    /// one of eight placements, as measured at a few nanoseconds: the
    /// placement, not the functions, sets the ratio there.
    struct Placed {
        clock: SimClock,
        placement: usize,
        placements_seen: Vec<usize>,
    }

    impl Subject for Placed {
        fn input_count(&self) -> usize {
            1
        }
        fn placements(&self) -> usize {
            8
        }
        fn begin_round(&mut self, _round: usize, placement: usize) {
            self.placement = placement;
            self.placements_seen.push(placement);
        }
        fn time_batch(&mut self, side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            let per_call_ns = match (side, self.placement) {
                (Side::Original, 2) => 1.5,
                (Side::Original, _) => 1.25,
                (Side::Candidate, _) => 5.0,
            };
            let start = self.clock.now();
            self.clock.advance(per_call_ns * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
    }

    fn run_placed(config: &Config) -> (Samples, Placed) {
        let clock = SimClock::with_reading_cost(20.0);
        let mut subject = Placed {
            clock: clock.clone(),
            placement: 0,
            placements_seen: Vec::new(),
        };
        let samples = sample(&clock, calibrate(&clock), &mut subject, config).unwrap();
        (samples, subject)
    }

    #[test]
    fn short_calls_take_turns_in_every_placement_and_the_interval_covers_them() {
        let (samples, subject) = run_placed(&Config::default());
        assert_eq!(samples.placements, 8);
        assert!(
            (samples.shorter_call_ns - 1.25).abs() < 0.01,
            "{}",
            samples.shorter_call_ns
        );
        // Turns of a whole ladder cycle (8 rounds), every placement in order.
        let expected: Vec<usize> = (0..samples.rounds.len())
            .map(|round| (round / 8) % 8)
            .collect();
        assert_eq!(subject.placements_seen, expected);
        let recorded: Vec<usize> = samples.rounds.iter().map(|round| round.placement).collect();
        assert_eq!(recorded, expected);
        // Blocks of each placement's own ladder cycles, pooled: 8 degrees
        // of freedom from about as few rounds as one loop needs (128).
        assert!(
            (120..=136).contains(&samples.rounds.len()),
            "{}",
            samples.rounds.len()
        );
        // Placement 2 reads 0.30, the others 0.25: the interval holds both.
        let estimate = crate::stats::estimate::Estimate::from_samples(&samples, 0.005);
        let (low, high) = estimate.ci;
        assert!(low < 0.25 && 0.30 < high, "{:?}", estimate.ci);
        assert_eq!(estimate.placement_speedups.len(), 8);
        assert!((estimate.placement_speedups[2] - 0.30).abs() < 1e-3);
        assert!((estimate.placement_speedups[0] - 0.25).abs() < 1e-3);
    }

    #[test]
    fn calls_at_the_threshold_and_above_keep_the_one_loop() {
        let config = Config {
            plan: Plan {
                placement_threshold: Duration::from_nanos(1),
                ..Plan::default()
            },
            ..Config::default()
        };
        let (samples, subject) = run_placed(&config);
        assert_eq!(samples.placements, 1);
        assert!(
            subject
                .placements_seen
                .iter()
                .all(|&placement| placement == 0)
        );
        // The one loop is placement 0's: exactly 0.25.
        let estimate = crate::stats::estimate::Estimate::from_samples(&samples, 0.005);
        assert!(
            (estimate.speedup - 0.25).abs() < 1e-6,
            "{}",
            estimate.speedup
        );
        assert_eq!(estimate.placement_speedups.len(), 1);
    }

    #[test]
    fn checkpoints_are_even_and_grow_geometrically() {
        assert_eq!(next_checkpoint(6), 8);
        assert_eq!(next_checkpoint(320), 340);
        let mut rounds = 6;
        let mut checks = 0;
        while rounds < 100_000 {
            rounds = next_checkpoint(rounds);
            assert_eq!(rounds % 2, 0);
            checks += 1;
        }
        assert!(checks < 200, "{checks}");
    }
}
