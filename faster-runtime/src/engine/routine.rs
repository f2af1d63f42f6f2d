//! How the two functions are called and timed: a `Routine` per side
//! (borrowing the input, or consuming a clone of it made before the clock
//! starts), and `Pair`, the two sides over their inputs as the sampler's
//! [`Subject`]. User code runs here, so panics are caught here.

use super::sampler::{self, Subject};
use crate::error::{Error, Phase, panic_message};
use crate::stats::samples::Side;
use crate::time::Clock;
use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// One side of the pair: how a function is called on an input.
pub(crate) trait Routine<I> {
    type Output;

    /// One call, for the output check.
    fn call(&mut self, input: &I) -> Self::Output;

    /// `batch` calls timed on `clock`; outputs are dropped after the clock
    /// stops, so their destructors are not timed.
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64;

    /// The largest batch worth preparing (see [`Subject::max_batch`]).
    fn max_batch(&self, input: &I) -> u64;
}

/// Calls `f(&input)`.
pub(crate) struct ByRef<F>(pub F);

impl<I, O, F: FnMut(&I) -> O> Routine<I> for ByRef<F> {
    type Output = O;

    fn call(&mut self, input: &I) -> O {
        (self.0)(input)
    }

    #[inline(never)]
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64 {
        if std::mem::needs_drop::<O>() {
            let mut outputs = Vec::with_capacity(batch as usize);
            let start = clock.now();
            for _ in 0..batch {
                outputs.push(black_box((self.0)(black_box(input))));
            }
            let end = clock.now();
            drop(outputs);
            clock.nanos_between(start, end)
        } else {
            let start = clock.now();
            for _ in 0..batch {
                black_box((self.0)(black_box(input)));
            }
            let end = clock.now();
            clock.nanos_between(start, end)
        }
    }

    fn max_batch(&self, _input: &I) -> u64 {
        if std::mem::needs_drop::<O>() {
            MAX_HELD_OUTPUTS
        } else {
            sampler::MAX_BATCH
        }
    }
}

/// Calls `f(input.clone())`, cloning before the clock starts.
pub(crate) struct ByValue<F>(pub F);

impl<I: Clone, O, F: FnMut(I) -> O> Routine<I> for ByValue<F> {
    type Output = O;

    fn call(&mut self, input: &I) -> O {
        (self.0)(input.clone())
    }

    #[inline(never)]
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64 {
        let mut prepared: Vec<I> = (0..batch).map(|_| input.clone()).collect();
        let mut outputs = Vec::with_capacity(if std::mem::needs_drop::<O>() {
            batch as usize
        } else {
            0
        });
        let start = clock.now();
        for owned in prepared.drain(..) {
            let output = black_box((self.0)(black_box(owned)));
            if std::mem::needs_drop::<O>() {
                outputs.push(output);
            }
        }
        let end = clock.now();
        drop(outputs);
        clock.nanos_between(start, end)
    }

    fn max_batch(&self, input: &I) -> u64 {
        // Clones are held for a whole batch: bound the memory they take by
        // what one clone costs to make (a proxy for its size).
        let start = Instant::now();
        let clones: Vec<I> = (0..16).map(|_| input.clone()).collect();
        let per_clone_ns = start.elapsed().as_nanos() as f64 / 16.0;
        drop(clones);
        let affordable = (MAX_CLONING_NS / per_clone_ns.max(1.0)) as u64;
        affordable.clamp(1, MAX_HELD_OUTPUTS)
    }
}

/// At most this many outputs (or prepared inputs) are held at once.
const MAX_HELD_OUTPUTS: u64 = 1 << 20;
/// A batch's clones may take this long to make (≈ tens of MB of copying).
const MAX_CLONING_NS: f64 = 5e6;

/// The two functions and their inputs, as the sampler sees them.
pub(crate) struct Pair<'a, C, I, A, B> {
    pub clock: &'a C,
    pub inputs: &'a [I],
    pub original: A,
    pub candidate: B,
    randomize_layout: bool,
    stack_offset: usize,
}

impl<'a, C, I, A, B> Pair<'a, C, I, A, B> {
    /// The pair, its stack position varied by round when `randomize_layout`
    /// is set (see [`Config::randomize_layout`](crate::Config)).
    pub fn new(
        clock: &'a C,
        inputs: &'a [I],
        original: A,
        candidate: B,
        randomize_layout: bool,
    ) -> Self {
        Pair {
            clock,
            inputs,
            original,
            candidate,
            randomize_layout,
            stack_offset: 0,
        }
    }
}

impl<C, I, O, A, B> Subject for Pair<'_, C, I, A, B>
where
    C: Clock,
    A: Routine<I, Output = O>,
    B: Routine<I, Output = O>,
{
    fn input_count(&self) -> usize {
        self.inputs.len()
    }

    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error> {
        let (clock, value) = (self.clock, &self.inputs[input]);
        let mut batch_ns = 0.0;
        let timed = catch_unwind(AssertUnwindSafe(|| {
            at_stack_offset(self.stack_offset, &mut || {
                batch_ns = match side {
                    Side::Original => self.original.time_batch(clock, value, batch),
                    Side::Candidate => self.candidate.time_batch(clock, value, batch),
                }
            })
        }));
        timed.map(|()| batch_ns).map_err(|payload| Error::Panicked {
            during: Phase::from(side),
            input: Some(input),
            message: panic_message(payload),
        })
    }

    fn max_batch(&self, input: usize) -> u64 {
        let value = &self.inputs[input];
        self.original
            .max_batch(value)
            .min(self.candidate.max_batch(value))
    }

    fn begin_round(&mut self, round: usize) {
        if self.randomize_layout {
            // A fixed scramble of the round number: every offset recurs, in
            // no order that could line up with the alternation of sides.
            self.stack_offset = (round.wrapping_mul(0x9E37_79B9) >> 7) % STACK_OFFSETS;
        }
    }
}

/// How many stack positions layout randomization cycles through.
const STACK_OFFSETS: usize = 8;

/// Runs `body` with its frame `offset` × 272 bytes further down the stack
/// (4.25 cache lines a step, so both the cache-line and the page offset of
/// the loop's stack slots change).
#[inline(never)]
fn at_stack_offset(offset: usize, body: &mut dyn FnMut()) {
    match offset % STACK_OFFSETS {
        0 => body(),
        1 => padded::<272>(body),
        2 => padded::<544>(body),
        3 => padded::<816>(body),
        4 => padded::<1088>(body),
        5 => padded::<1360>(body),
        6 => padded::<1632>(body),
        _ => padded::<1904>(body),
    }
}

#[inline(never)]
fn padded<const BYTES: usize>(body: &mut dyn FnMut()) {
    let pad = [0_u8; BYTES];
    black_box(&pad);
    body();
}
