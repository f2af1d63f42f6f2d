//! Getting ready to measure: tuning each side's batch to the timer, the
//! warm-up, scaling the batches to the settled per-call times, the ladders
//! of batch sizes, and the discarded round that lets the first measured
//! round follow one like itself.

use super::{
    BatchLimit, Budget, Error, FREE_CALLS, LADDER, LADDER_MIN_BATCH, Pace, Round, Side, Subject,
    ladder_sizes, measure_round, original_first, samples,
};
use crate::config::Config;
use crate::stats;
use crate::time::Clock;

/// Tuning doubles each side's batch until its sample is long enough against
/// the timer (so the timer's cost is at most ~0.1% of a sample), as long as
/// the doubled batches would end within a quarter of the budget. Each side
/// gets its own batch: both samples then last about as long, which keeps a
/// pair close in time however different the two functions.
pub(super) fn tune<S: Subject, C: Clock>(
    subject: &mut S,
    budget: &Budget<'_, C>,
    min_sample_ns: f64,
) -> Result<Pace, Error> {
    let mut pace = Pace::default();
    for input in 0..subject.input_count() {
        let limit = subject.max_batch(input).max(1);
        pace.largest_batches.push(limit);
        let mut batch = [1, 1];
        let mut previous = [0.0; 2];
        let mut held = None;
        let per_call_ns = loop {
            let times = [
                subject.time_batch(Side::Original, input, batch[0])?,
                subject.time_batch(Side::Candidate, input, batch[1])?,
            ];
            let per_call_ns = [0, 1].map(|side| times[side] / batch[side] as f64);
            let mut next = batch;
            for side in 0..2 {
                // A batch of a million calls no longer than half as many is a
                // function that costs nothing measurable (optimized away, or
                // simulated for free): more calls would only take longer.
                let free = batch[side] >= FREE_CALLS && times[side] <= 1.1 * previous[side];
                if times[side] < min_sample_ns && !free {
                    next[side] = (batch[side] * 2).min(limit);
                    held = held.or((batch[side] == limit).then_some(BatchLimit::Memory));
                }
            }
            previous = times;
            let next_ns = next[0] as f64 * per_call_ns[0] + next[1] as f64 * per_call_ns[1];
            let over = next != batch && !budget.fits(next_ns, budget.total_ns / 4.0);
            if over {
                held = Some(BatchLimit::Budget);
            }
            if next == batch || over {
                break per_call_ns;
            }
            batch = next;
        };
        pace.batch_sizes.push(batch);
        pace.per_call_ns.push(per_call_ns);
        pace.batch_limits.push(held);
    }
    Ok(pace)
}

/// Warm-up: interleaved rounds, discarded, until each side's round time
/// settles, while the next round ends within the warm-up's share of the
/// budget.
pub(super) fn warm_up<S: Subject, C: Clock>(
    subject: &mut S,
    pace: &mut Pace,
    budget: &Budget<'_, C>,
    config: &Config,
) -> Result<Vec<Round>, Error> {
    let min_warm_up_ns =
        (config.plan.max_warm_up.as_nanos() as f64 / 5.0).min(budget.total_ns / 20.0);
    let max_warm_up_ns = warm_up_share_ns(config, budget);
    let mut warm_up: Vec<Round> = Vec::new();
    while budget.fits(pace.round_ns(&pace.batch_sizes), max_warm_up_ns) {
        let original_first = (warm_up.len() % 2 == 0) != config.plan.swap_orders;
        let over = || budget.elapsed_ns() > max_warm_up_ns;
        let sizes = pace.batch_sizes.clone();
        let Some(round) = measure_round(subject, sizes, (original_first, 0), &over)? else {
            break;
        };
        pace.observe(&round);
        warm_up.push(round);
        if budget.elapsed_ns() >= min_warm_up_ns && settled(&warm_up) {
            break;
        }
    }
    Ok(warm_up)
}

/// The longest the warm-up may take: `config.plan.max_warm_up`, at most a fifth
/// of the budget.
fn warm_up_share_ns<C: Clock>(config: &Config, budget: &Budget<'_, C>) -> f64 {
    (config.plan.max_warm_up.as_nanos() as f64).min(budget.total_ns / 5.0)
}

/// The first measured round must follow a round like itself, as every
/// later one does: one round in its batch sizes, discarded, where the
/// warm-up did not end in one (it was skipped, its share of the budget gone
/// to tuning, or the batches or the order differ). Otherwise the first
/// batch after tuning pays for what tuning left behind (the allocator's
/// state after cloning inputs to find the largest batch, cold caches): two
/// identical functions taking a 1 MiB buffer by value read 1.08x to 1.41x
/// faster in each of 12 runs, the side timed first in a slice's first round
/// 2.2 times slower there and no slower in the slice's later rounds.
///
/// The discarded round takes the order of the slice's last round. A batch
/// that follows its own side runs faster than one that follows the other
/// (the branch predictor and caches still hold its state): a 16 KiB
/// run-length encoder's rounds read 1.08x to 1.12x where the candidate's
/// batch followed the candidate's and 0.91x where the original's followed
/// the original's. Between rounds of opposite orders the second's first
/// side follows itself; the switches from `OC` to `CO` (the candidate's
/// gain) and back (the original's) alternate, so they are as many only in
/// a run of rounds that ends in the order it starts after. Preceded by a
/// round of the other order, the four-round slices of `OC CO CO OC` gave
/// the original one gain more: four pairs of identical copies read 0.991x
/// over six runs of 64 layouts each (5 intervals in 24 missed 1.00); in
/// this order, 1.004x (2 in 24). Where the count of rounds is open, the
/// order the cycle puts before round 0 (round 0's), one gain in many
/// rounds at most. Across revisions, where every timed batch follows an
/// untimed call of its own side ([`Subject::warms_each_batch`]), the
/// discarded round keeps the other order, which measured honest there.
/// A round longer than the warm-up may take is not
/// repeated: what tuning left behind weighs nothing beside it.
pub(super) fn settle<S: Subject, C: Clock>(
    subject: &mut S,
    pace: &Pace,
    (ladders, placements): (&[&'static [u64]], usize),
    (warm_up_end, slice_rounds): (Option<&Round>, Option<usize>),
    (budget, config): (&Budget<'_, C>, &Config),
) -> Result<(), Error> {
    let sizes = ladder_sizes(&pace.batch_sizes, ladders, 0);
    let warmed = subject.warms_each_batch();
    let order = if warmed {
        // Across revisions this order held 1.00 in 99.3% at 2% (`rle` 20
        // of 20); the slice's last round's, in 97.3% (`rle`, reading
        // 1.015x, 16 of 20).
        !original_first(0, config.plan.swap_orders)
    } else {
        // Where the count is open, the order the cycle of orders puts
        // before round 0: round 0's.
        original_first(
            slice_rounds.map_or(0, |count| count - 1),
            config.plan.swap_orders,
        )
    };
    let like_it = warm_up_end.is_some_and(|round| {
        round.batch_sizes == sizes
            && round.placement == 0
            && (warmed || round.original_first == order)
    });
    let round_ns = pace.round_ns(&sizes);
    if like_it
        || round_ns > warm_up_share_ns(config, budget)
        || !budget.fits(round_ns, budget.total_ns)
    {
        return Ok(());
    }
    let placement = samples::placement_of(0, ladders, placements);
    subject.begin_round(0, placement);
    let over = || budget.elapsed_ns() > budget.total_ns;
    measure_round(subject, sizes, (order, placement), &over).map(drop)
}

/// Cold first calls can make tuning stop early; scale batches up to the
/// sample length with the latest per-call times (at most sixteenfold: tuning
/// got close, and a per-call time of nothing asks for infinity).
pub(super) fn scale_to_settled_times(pace: &mut Pace, min_sample_ns: f64) {
    for (input, per_call_ns) in pace.per_call_ns.iter().enumerate() {
        let batch = &mut pace.batch_sizes[input];
        let largest = pace.largest_batches[input];
        let (mut short, mut capped) = (false, false);
        for side in 0..2 {
            let limit = largest.min(16 * batch[side]);
            let needed = (min_sample_ns / per_call_ns[side].max(f64::MIN_POSITIVE)).ceil() as u64;
            while batch[side] < needed.min(limit) {
                batch[side] = (batch[side] * 2).min(limit);
            }
            short |= batch[side] < needed;
            capped |= batch[side] < needed && batch[side] == largest;
        }
        // What held tuning back no longer does where the batches now
        // reach the sample length; the cap does where they cannot.
        let held = &mut pace.batch_limits[input];
        *held = if capped {
            Some(BatchLimit::Memory)
        } else {
            held.filter(|_| short)
        };
    }
}

/// Fast functions cycle through a ladder of batch sizes, for the regression
/// that clears the per-sample overhead (see `samples`). Where the largest
/// rung would pass the subject's cap, the ladder starts lower: capped
/// batches are short ones, where the overhead weighs most.
pub(super) fn ladders(pace: &mut Pace) -> Vec<&'static [u64]> {
    pace.batch_sizes
        .iter_mut()
        .zip(&mut pace.batch_limits)
        .zip(&pace.largest_batches)
        .map(|((batch, held), &limit)| {
            let top = LADDER[LADDER.len() - 1];
            let largest = batch[0].max(batch[1]);
            if largest * top > limit {
                let shrink = (largest * top).div_ceil(limit);
                *batch = batch.map(|side| (side / shrink).max(1));
                *held = Some(BatchLimit::Memory);
            }
            if batch[0].max(batch[1]) >= LADDER_MIN_BATCH {
                LADDER
            } else {
                &[1]
            }
        })
        .collect()
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
