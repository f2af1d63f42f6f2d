//! The measurement loop: batch-size tuning, warm-up, interleaved rounds and
//! the stop rule.
//!
//! The sampler is generic over its [`Clock`] and over the [`Subject`] it
//! times, so the same loop runs real functions on the wall clock and modelled
//! workloads on a simulated clock in deterministic tests.

use crate::config::Config;
use crate::error::Error;
use crate::stats;
use crate::stats::samples::{
    self, CONFIDENCE, LADDER, LADDER_MIN_BATCH, Round, Samples, Side, Stop,
};
use crate::time::{Calibration, Clock};

/// What the sampler times: two functions over a fixed set of inputs.
pub trait Subject {
    /// How many inputs there are.
    fn input_count(&self) -> usize;

    /// Runs `batch` back-to-back calls of `side` on input `input` and returns
    /// the nanoseconds they took, as read on the sampler's clock.
    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error>;

    /// The largest batch this subject can prepare for `input` (a subject that
    /// clones its input per call caps it to bound memory).
    fn max_batch(&self, _input: usize) -> u64 {
        MAX_BATCH
    }

    /// Called before each measured round (counting from 0), so a subject can
    /// vary what should not matter, such as where on the stack it runs.
    fn begin_round(&mut self, _round: usize) {}
}

/// No batch grows past this many calls, whatever the timer.
pub const MAX_BATCH: u64 = 1 << 40;

/// From this many calls on, tuning stops growing a batch whose time no
/// longer grows with it.
const FREE_CALLS: u64 = 1 << 20;

/// Tunes, warms up and measures `subject` until the estimate converges or
/// the budget in `config` is spent.
pub fn sample<C: Clock, S: Subject>(
    clock: &C,
    calibration: Calibration,
    subject: &mut S,
    config: &Config,
) -> Result<Samples, Error> {
    let start_ns = clock.budget_now_ns();
    let elapsed_ns = || clock.budget_now_ns() - start_ns;
    let budget_ns = config.max_time.as_nanos() as f64;
    let min_sample_ns = calibration.min_sample_ns();
    let inputs = subject.input_count();

    // Tuning doubles each side's batch until its sample is long enough
    // against the timer (so the timer's cost is at most ~0.1% of a sample).
    // Each side gets its own batch: both samples then last about as long,
    // which keeps a pair close in time however different the two functions.
    let mut batch_sizes: Vec<[u64; 2]> = Vec::with_capacity(inputs);
    for input in 0..inputs {
        let limit = subject.max_batch(input).max(1);
        let mut batch = [1, 1];
        let mut previous = [0.0; 2];
        loop {
            let times = [
                subject.time_batch(Side::Original, input, batch[0])?,
                subject.time_batch(Side::Candidate, input, batch[1])?,
            ];
            let mut grown = false;
            for side in 0..2 {
                // A batch of a million calls no longer than half as many is a
                // function that costs nothing measurable (optimized away, or
                // simulated for free): more calls would only take longer.
                let free = batch[side] >= FREE_CALLS && times[side] <= 1.1 * previous[side];
                if times[side] < min_sample_ns && batch[side] < limit && !free {
                    batch[side] = (batch[side] * 2).min(limit);
                    grown = true;
                }
            }
            previous = times;
            if !grown || elapsed_ns() > budget_ns / 4.0 {
                break;
            }
        }
        batch_sizes.push(batch);
    }

    // Warm-up: interleaved rounds, discarded, until each side's round time
    // settles (or the warm-up's share of the budget is spent).
    let min_warm_up_ns = (config.max_warm_up.as_nanos() as f64 / 5.0).min(budget_ns / 20.0);
    let max_warm_up_ns = (config.max_warm_up.as_nanos() as f64).min(budget_ns / 5.0);
    let mut warm_up: Vec<Round> = Vec::new();
    loop {
        warm_up.push(measure_round(
            subject,
            batch_sizes.clone(),
            warm_up.len().is_multiple_of(2),
        )?);
        let now = elapsed_ns();
        if now >= max_warm_up_ns || (now >= min_warm_up_ns && settled(&warm_up)) {
            break;
        }
    }

    // Cold first calls can make tuning stop early; scale batches up to the
    // sample length with the settled per-call times (at most sixteenfold:
    // tuning got close, and a per-call time of nothing asks for infinity).
    if let Some(last) = warm_up.last() {
        for (input, per_call_ns) in last.per_call_ns.iter().enumerate() {
            for side in 0..2 {
                let limit = subject
                    .max_batch(input)
                    .max(1)
                    .min(16 * batch_sizes[input][side]);
                let needed =
                    (min_sample_ns / per_call_ns[side].max(f64::MIN_POSITIVE)).ceil() as u64;
                while batch_sizes[input][side] < needed.min(limit) {
                    batch_sizes[input][side] = (batch_sizes[input][side] * 2).min(limit);
                }
            }
        }
    }

    // Fast functions cycle through a ladder of batch sizes, for the regression
    // that clears the per-sample overhead (see `samples`). Where the largest
    // rung would pass the subject's cap, the ladder starts lower: capped
    // batches are short ones, where the overhead weighs most.
    let ladders: Vec<&'static [u64]> = batch_sizes
        .iter_mut()
        .enumerate()
        .map(|(input, batch)| {
            let top = LADDER[LADDER.len() - 1];
            let limit = subject.max_batch(input).max(1);
            let largest = batch[0].max(batch[1]);
            if largest * top > limit {
                let shrink = (largest * top).div_ceil(limit);
                *batch = batch.map(|side| (side / shrink).max(1));
            }
            if batch[0].max(batch[1]) >= LADDER_MIN_BATCH {
                LADDER
            } else {
                &[1]
            }
        })
        .collect();
    let cycle = samples::cycle_length(&ladders);

    let mut rounds: Vec<Round> = Vec::new();
    let mut next_check = config.min_rounds;
    let mut round_start_ns = elapsed_ns();
    let stop = loop {
        let sizes = batch_sizes
            .iter()
            .zip(&ladders)
            .map(|(batch, ladder)| {
                batch.map(|side| side * samples::ladder_step(ladder, rounds.len()))
            })
            .collect();
        subject.begin_round(rounds.len());
        rounds.push(measure_round(
            subject,
            sizes,
            rounds.len().is_multiple_of(2),
        )?);
        let now = elapsed_ns();
        let round_ns = now - round_start_ns;
        round_start_ns = now;

        // Decide only after an even number of rounds, so both orders weigh
        // the same; the budget check looks one round pair ahead.
        if !rounds.len().is_multiple_of(2) {
            continue;
        }
        if rounds.len() >= next_check {
            next_check = next_checkpoint(rounds.len());
            let overheads =
                samples::overheads(&rounds, inputs, samples::max_overhead_ns(&calibration));
            let log_ratios = samples::log_ratios(&rounds, &overheads);
            if converged(&log_ratios, cycle, config) {
                break Stop::Converged;
            }
        }
        if now + 2.0 * round_ns > budget_ns {
            break Stop::Budget;
        }
    };

    Ok(Samples {
        batch_sizes,
        ladders,
        rounds,
        warm_up_rounds: warm_up.len(),
        stop,
        elapsed_ns: elapsed_ns(),
        calibration,
    })
}

/// One round over every input, the original first or second in each pair.
fn measure_round<S: Subject>(
    subject: &mut S,
    batch_sizes: Vec<[u64; 2]>,
    original_first: bool,
) -> Result<Round, Error> {
    let mut per_call_ns = Vec::with_capacity(batch_sizes.len());
    for (input, &[original_batch, candidate_batch]) in batch_sizes.iter().enumerate() {
        let (original, candidate) = if original_first {
            let original = subject.time_batch(Side::Original, input, original_batch)?;
            (
                original,
                subject.time_batch(Side::Candidate, input, candidate_batch)?,
            )
        } else {
            let candidate = subject.time_batch(Side::Candidate, input, candidate_batch)?;
            (
                subject.time_batch(Side::Original, input, original_batch)?,
                candidate,
            )
        };
        per_call_ns.push([
            original / original_batch as f64,
            candidate / candidate_batch as f64,
        ]);
    }
    Ok(Round {
        original_first,
        batch_sizes,
        per_call_ns,
    })
}

/// Whether both sides' round times have stopped drifting: the median of the
/// last three rounds is within 2% of the median of the three before.
fn settled(warm_up: &[Round]) -> bool {
    const WINDOW: usize = 3;
    const TOLERANCE: f64 = 0.02;
    if warm_up.len() < 2 * WINDOW {
        return false;
    }
    let total = |round: &Round, side: usize| -> f64 {
        round.per_call_ns.iter().map(|times| times[side]).sum()
    };
    let recent = &warm_up[warm_up.len() - 2 * WINDOW..];
    (0..2).all(|side| {
        let (before, after) = recent.split_at(WINDOW);
        let before = stats::median(&before.iter().map(|r| total(r, side)).collect::<Vec<_>>());
        let after = stats::median(&after.iter().map(|r| total(r, side)).collect::<Vec<_>>());
        (after / before - 1.0).abs() <= TOLERANCE
    })
}

/// Whether measuring can stop: the paired estimate's statistical interval is
/// as narrow as the target, or the verdict is already clear (the whole
/// reported interval beyond the noise floor) and the interval within twice
/// the target, so a large speedup is not measured to a precision nobody
/// needs.
///
/// The width must rest on at least [`MIN_BLOCKS`] blocks: a variance from
/// fewer is itself so uncertain that stopping when it happens to be small
/// would make the reported interval too narrow.
fn converged(log_ratios: &[f64], cycle: usize, config: &Config) -> bool {
    let Ok(interval) = stats::robust_interval(log_ratios, CONFIDENCE, cycle) else {
        return false;
    };
    // Precision is the statistical part (more rounds cannot shrink the
    // systematic one); a clear verdict is judged on the interval reported.
    let reported = interval.with_systematic(config.systematic_allowance);
    let floor = config.noise_floor.ln_1p();
    let decided = reported.low() >= floor || reported.high() <= -floor;
    interval.blocks >= MIN_BLOCKS
        && (interval.half_width <= config.target_precision
            || (decided && interval.half_width <= 2.0 * config.target_precision))
}

/// The fewest batch-means blocks a convergence stop may rest on (32 rounds
/// at a fixed batch size, 128 on the ladder).
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
    use crate::time::{SimClock, calibrate};
    use std::time::Duration;

    /// Two functions of fixed cost on a simulated clock.
    struct Fixed {
        clock: SimClock,
        per_call_ns: [f64; 2],
        inputs: usize,
    }

    impl Subject for Fixed {
        fn input_count(&self) -> usize {
            self.inputs
        }
        fn time_batch(&mut self, side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
            let start = self.clock.now();
            self.clock
                .advance(self.per_call_ns[side as usize] * batch as f64);
            Ok(self.clock.nanos_between(start, self.clock.now()))
        }
    }

    fn run(per_call_ns: [f64; 2], config: &Config) -> Samples {
        let clock = SimClock::with_reading_cost(20.0);
        let calibration = calibrate(&clock);
        let mut subject = Fixed {
            clock: clock.clone(),
            per_call_ns,
            inputs: 2,
        };
        sample(&clock, calibration, &mut subject, config).unwrap()
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
    fn rounds_alternate_the_order() {
        let samples = run([1_000.0, 800.0], &Config::default());
        for (index, round) in samples.rounds.iter().enumerate() {
            assert_eq!(round.original_first, index.is_multiple_of(2));
        }
    }

    #[test]
    fn the_budget_stops_a_run_that_cannot_converge_and_is_not_overrun() {
        // A precision no finite run can reach on noiseless data is still
        // "reached" (zero width), so ask for a budget too short instead.
        let config = Config {
            max_time: Duration::from_millis(20),
            min_rounds: 1_000_000,
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
