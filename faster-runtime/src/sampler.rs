//! The measurement loop: batch-size tuning, warm-up, interleaved rounds and
//! the stop rule.
//!
//! The sampler is generic over its [`Clock`] and over the [`Subject`] it
//! times, so the same loop runs real functions on the wall clock and modelled
//! workloads on a simulated clock in deterministic tests.

use crate::clock::{Calibration, Clock};
use crate::config::Config;
use crate::error::Error;
use crate::stats;

/// Confidence of every interval the engine reports.
pub const CONFIDENCE: f64 = 0.99;

/// One side of the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The baseline.
    Original,
    /// The function that claims to be faster.
    Candidate,
}

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
}

/// No batch grows past this many calls, whatever the timer.
pub const MAX_BATCH: u64 = 1 << 40;

/// One round: every input once, one batch of each function per input.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// Whether the original ran first in each of this round's pairs.
    pub original_first: bool,
    /// Per input, the per-call time in nanoseconds of `[original, candidate]`.
    pub per_call_ns: Vec<[f64; 2]>,
}

impl Round {
    /// `ln(Σ original / Σ candidate)` over the inputs: each input weighs by
    /// its time, as the codeflash sum of per-input times does.
    pub fn log_ratio(&self) -> f64 {
        let (original, candidate) = self
            .per_call_ns
            .iter()
            .fold((0.0, 0.0), |(o, c), [original, candidate]| (o + original, c + candidate));
        (original / candidate).ln()
    }
}

/// Why the sampler stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The interval reached the target precision.
    Converged,
    /// The time budget was spent first.
    Budget,
}

/// Everything the sampler measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// Calls per timed sample, per input.
    pub batch_sizes: Vec<u64>,
    /// The measured rounds, in time order.
    pub rounds: Vec<Round>,
    /// Each round's log ratio (see [`Round::log_ratio`]).
    pub log_ratios: Vec<f64>,
    /// Rounds spent warming up (not in `rounds`).
    pub warm_up_rounds: usize,
    /// Why measuring stopped.
    pub stop: Stop,
    /// Time from the start of tuning to the end of the last round.
    pub elapsed_ns: f64,
    /// The timer's measured cost and resolution.
    pub calibration: Calibration,
}

/// Tunes, warms up and measures `subject` until the estimate converges or
/// the budget in `config` is spent.
pub fn sample<C: Clock, S: Subject>(
    clock: &C,
    calibration: Calibration,
    subject: &mut S,
    config: &Config,
) -> Result<Samples, Error> {
    let start = clock.now();
    let elapsed_ns = || clock.nanos_between(start, clock.now());
    let budget_ns = config.max_time.as_nanos() as f64;
    let min_sample_ns = calibration.min_sample_ns();
    let inputs = subject.input_count();

    // Tuning doubles the batch until the faster side's sample is long enough
    // against the timer, so the timer's cost is at most ~0.1% of a sample.
    let mut batch_sizes = Vec::with_capacity(inputs);
    for input in 0..inputs {
        let limit = subject.max_batch(input).max(1);
        let mut batch = 1;
        loop {
            let original = subject.time_batch(Side::Original, input, batch)?;
            let candidate = subject.time_batch(Side::Candidate, input, batch)?;
            let out_of_time = elapsed_ns() > budget_ns / 4.0;
            if original.min(candidate) >= min_sample_ns || batch >= limit || out_of_time {
                break;
            }
            batch = (batch * 2).min(limit);
        }
        batch_sizes.push(batch);
    }

    // Warm-up: interleaved rounds, discarded, until each side's round time
    // settles (or the warm-up's share of the budget is spent).
    let min_warm_up_ns = (config.max_warm_up.as_nanos() as f64 / 5.0).min(budget_ns / 20.0);
    let max_warm_up_ns = (config.max_warm_up.as_nanos() as f64).min(budget_ns / 5.0);
    let mut warm_up: Vec<Round> = Vec::new();
    loop {
        warm_up.push(measure_round(subject, &batch_sizes, warm_up.len() % 2 == 0)?);
        let now = elapsed_ns();
        if now >= max_warm_up_ns || (now >= min_warm_up_ns && settled(&warm_up)) {
            break;
        }
    }

    // Cold first calls can make tuning stop early; scale batches up to the
    // sample length with the settled per-call times.
    if let Some(last) = warm_up.last() {
        for (input, [original, candidate]) in last.per_call_ns.iter().enumerate() {
            let per_call_ns = original.min(*candidate).max(f64::MIN_POSITIVE);
            let needed = (min_sample_ns / per_call_ns).ceil() as u64;
            let limit = subject.max_batch(input).max(1);
            while batch_sizes[input] < needed.min(limit) {
                batch_sizes[input] = (batch_sizes[input] * 2).min(limit);
            }
        }
    }

    let mut rounds = Vec::new();
    let mut log_ratios = Vec::new();
    let mut next_check = config.min_rounds;
    let mut round_start_ns = elapsed_ns();
    let stop = loop {
        let round = measure_round(subject, &batch_sizes, rounds.len() % 2 == 0)?;
        log_ratios.push(round.log_ratio());
        rounds.push(round);
        let now = elapsed_ns();
        let round_ns = now - round_start_ns;
        round_start_ns = now;

        // Decide only after an even number of rounds, so both orders weigh
        // the same; the budget check looks one round pair ahead.
        if rounds.len() % 2 != 0 {
            continue;
        }
        if rounds.len() >= next_check {
            next_check = next_checkpoint(rounds.len());
            if converged(&log_ratios, config) {
                break Stop::Converged;
            }
        }
        if now + 2.0 * round_ns > budget_ns {
            break Stop::Budget;
        }
    };

    Ok(Samples {
        batch_sizes,
        rounds,
        log_ratios,
        warm_up_rounds: warm_up.len(),
        stop,
        elapsed_ns: elapsed_ns(),
        calibration,
    })
}

/// One round over every input, the original first or second in each pair.
fn measure_round<S: Subject>(
    subject: &mut S,
    batch_sizes: &[u64],
    original_first: bool,
) -> Result<Round, Error> {
    let mut per_call_ns = Vec::with_capacity(batch_sizes.len());
    for (input, &batch) in batch_sizes.iter().enumerate() {
        let (original, candidate) = if original_first {
            let original = subject.time_batch(Side::Original, input, batch)?;
            (original, subject.time_batch(Side::Candidate, input, batch)?)
        } else {
            let candidate = subject.time_batch(Side::Candidate, input, batch)?;
            (subject.time_batch(Side::Original, input, batch)?, candidate)
        };
        per_call_ns.push([original / batch as f64, candidate / batch as f64]);
    }
    Ok(Round {
        original_first,
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

/// Whether measuring can stop: the paired estimate's interval is as narrow
/// as the target, or the verdict is already clear (the whole interval beyond
/// the noise floor) and the interval within twice the target, so a large
/// speedup is not measured to a precision nobody needs.
///
/// The width must rest on at least [`MIN_BLOCKS`] blocks: a variance from
/// fewer is itself so uncertain that stopping when it happens to be small
/// would make the reported interval too narrow.
fn converged(log_ratios: &[f64], config: &Config) -> bool {
    let Some(interval) = stats::robust_interval(log_ratios, CONFIDENCE) else {
        return false;
    };
    let floor = config.noise_floor.ln_1p();
    let decided = interval.low() >= floor || interval.high() <= -floor;
    interval.blocks >= MIN_BLOCKS
        && (interval.half_width <= config.target_precision
            || (decided && interval.half_width <= 2.0 * config.target_precision))
}

/// The fewest batch-means blocks a convergence stop may rest on (32 rounds).
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
    use crate::clock::{SimClock, calibrate};
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
            self.clock.advance(self.per_call_ns[side as usize] * batch as f64);
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
    fn batches_are_tuned_to_the_timer() {
        let samples = run([10.0, 8.0], &Config::default());
        // 20 ns per reading: samples must reach 20 µs, i.e. 2 500 calls of
        // the faster 8 ns function; doubling from 1 gives 4 096.
        assert_eq!(samples.batch_sizes, vec![4_096, 4_096]);
    }

    #[test]
    fn noiseless_pair_converges_at_the_minimum_rounds_with_the_exact_ratio() {
        let samples = run([1_000.0, 800.0], &Config::default());
        assert_eq!(samples.stop, Stop::Converged);
        // 32 rounds make 8 blocks of 4, the fewest a stop may rest on.
        assert_eq!(samples.rounds.len(), 32);
        // The timer's one reading per sample is 20 ns against samples of
        // ≥ 20 µs: the ratio is within 0.1% of 1.25.
        for log_ratio in &samples.log_ratios {
            assert!((log_ratio.exp() / 1.25 - 1.0).abs() < 1e-3, "{log_ratio}");
        }
    }

    #[test]
    fn rounds_alternate_the_order() {
        let samples = run([1_000.0, 800.0], &Config::default());
        for (index, round) in samples.rounds.iter().enumerate() {
            assert_eq!(round.original_first, index % 2 == 0);
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
        assert!(samples.elapsed_ns <= 20e6 + round_ns, "{}", samples.elapsed_ns);
        assert_eq!(samples.rounds.len() % 2, 0);
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
