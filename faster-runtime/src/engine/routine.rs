//! How the two functions are called and timed: a `Routine` per side
//! (borrowing the input, or taking it apart into what a call borrows and
//! what it consumes, cloned before the clock starts), each timed loop
//! compiled in [`PLACEMENTS`] copies at different places in memory and of
//! slightly different shapes, and `Pair`, the two sides over their inputs
//! as the sampler's [`Subject`]. User code runs here, so panics are caught
//! here.

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

    /// `batch` calls timed on `clock` in the copy of the measuring loop at
    /// placement `PLACEMENT` (see [`PLACEMENTS`]); outputs are dropped after
    /// the clock stops, so their destructors are not timed.
    fn time_batch<C: Clock, const PLACEMENT: usize>(
        &mut self,
        clock: &C,
        input: &I,
        batch: u64,
    ) -> f64;

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
    fn time_batch<C: Clock, const PLACEMENT: usize>(
        &mut self,
        clock: &C,
        input: &I,
        batch: u64,
    ) -> f64 {
        place::<PLACEMENT>();
        if std::mem::needs_drop::<O>() {
            let mut outputs = Vec::with_capacity(batch as usize);
            let start = clock.now();
            for _ in 0..batch {
                detour::<PLACEMENT>();
                outputs.push(black_box((self.0)(black_box(input))));
            }
            let end = clock.now();
            drop(outputs);
            clock.nanos_between(start, end)
        } else {
            let start = clock.now();
            for _ in 0..batch {
                detour::<PLACEMENT>();
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

/// Calls a function on an input case taken apart: `prepare(&input)`
/// makes what one call consumes — a clone of each part taken by value or
/// by `&mut` whose type is not `Copy` — before the clock starts, and
/// `timed(&input, prepared)` is the call, which borrows the other parts
/// from the input and copies the `Copy` ones itself, as any call copies
/// its arguments. Where nothing is cloned (`Prepared` has no size), the
/// timed loop is [`ByRef`]'s: a function taking an `i64` by value is
/// measured as one taking `&i64` is, whatever else its input holds.
///
/// `check` is the call whose output the output check compares; `timed`
/// the one the clock times, and it is `check` itself but where the output
/// borrows from the input: there `timed` passes the borrow through
/// `black_box` and `check` turns it into an owned value, untimed.
pub(crate) struct Parts<P, C, T> {
    pub prepare: P,
    pub check: C,
    pub timed: T,
}

impl<I, Prepared, O, R, P, C, T> Routine<I> for Parts<P, C, T>
where
    P: Fn(&I) -> Prepared,
    C: FnMut(&I, Prepared) -> O,
    T: FnMut(&I, Prepared) -> R,
{
    type Output = O;

    fn call(&mut self, input: &I) -> O {
        let prepared = (self.prepare)(input);
        (self.check)(input, prepared)
    }

    #[inline(never)]
    fn time_batch<C2: Clock, const PLACEMENT: usize>(
        &mut self,
        clock: &C2,
        input: &I,
        batch: u64,
    ) -> f64 {
        place::<PLACEMENT>();
        let mut outputs = Vec::with_capacity(if std::mem::needs_drop::<R>() {
            batch as usize
        } else {
            0
        });
        if size_of::<Prepared>() == 0 {
            // Nothing to prepare: `prepare` makes a value of no size, free
            // to make inside the loop, which is `ByRef`'s.
            let start = clock.now();
            for _ in 0..batch {
                detour::<PLACEMENT>();
                let prepared = (self.prepare)(input);
                let output = black_box((self.timed)(black_box(input), prepared));
                if std::mem::needs_drop::<R>() {
                    outputs.push(output);
                }
            }
            let end = clock.now();
            drop(outputs);
            return clock.nanos_between(start, end);
        }
        let mut prepared: Vec<Prepared> = (0..batch).map(|_| (self.prepare)(input)).collect();
        let start = clock.now();
        for owned in prepared.drain(..) {
            detour::<PLACEMENT>();
            let output = black_box((self.timed)(black_box(input), black_box(owned)));
            if std::mem::needs_drop::<R>() {
                outputs.push(output);
            }
        }
        let end = clock.now();
        drop(outputs);
        clock.nanos_between(start, end)
    }

    fn max_batch(&self, input: &I) -> u64 {
        if size_of::<Prepared>() == 0 {
            return if std::mem::needs_drop::<R>() {
                MAX_HELD_OUTPUTS
            } else {
                sampler::MAX_BATCH
            };
        }
        // Clones are held for a whole batch: bound the memory they take by
        // what one costs to make (a proxy for its size), from up to 16, but
        // no more than a batch's worth: 16 clones of 8 MiB took a slice's
        // whole budget on a busy machine, before it measured anything.
        let start = Instant::now();
        let mut clones: Vec<Prepared> = Vec::with_capacity(16);
        while clones.len() < 16 && (start.elapsed().as_nanos() as f64) < MAX_CLONING_NS {
            clones.push((self.prepare)(input));
        }
        let per_clone_ns = start.elapsed().as_nanos() as f64 / clones.len() as f64;
        drop(clones);
        let affordable = (MAX_CLONING_NS / per_clone_ns.max(1.0)) as u64;
        affordable.clamp(1, MAX_HELD_OUTPUTS)
    }
}

/// How many placements of the measuring loop there are: each routine's
/// timed loop is compiled once per placement. Copy `P` starts its loop
/// `16 · (P mod 4)` bytes further into a 64-byte cache line than copy 0
/// (see `place`), so the loop, the call in it and its branches fall
/// differently on cache lines, fetch blocks and branch-predictor entries;
/// and copies 4 to 7 take one more jump per call (see `detour`), as a
/// caller's loop with a little more to do would. Only on x86, where the
/// assembly below is written; elsewhere there is the one loop.
pub const PLACEMENTS: usize = if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
    8
} else {
    1
};

/// Moves the code after it to placement `P`: aligns to 64 bytes, then pads
/// `16 · (P mod 4) + 1` bytes of no-ops. The compiler starts loops on
/// 16-byte boundaries, which the extra byte rounds up to, so the loop of
/// copy `P` starts `16 · (P mod 4)` bytes (modulo 64) after copy 0's,
/// whatever code precedes it. It runs before the clock starts, so the few
/// no-ops are never timed.
#[inline(always)]
fn place<const P: usize>() {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    // SAFETY: assembler directives that only emit no-op instructions: no
    // register, memory, stack or flag is read or written.
    unsafe {
        std::arch::asm!(
            ".p2align 6",
            ".nops {bytes}",
            bytes = const 16 * (P % 4) + 1,
            options(nomem, nostack, preserves_flags),
        );
    }
}

/// In the loops of placements 4 to 7, one taken jump per call, to the next
/// instruction: a loop whose front end has a little more to do. A call so
/// short that it waits on its loop's front end then costs about a cycle
/// more — as it did in another loop of the same binary that took no such
/// jump (the accuracy suite's `--placement`, whose figures are in
/// `guide/accuracy.md`) — while a call that waits on
/// its own work does not notice. Copy 0, the loop of every comparison of
/// longer calls, has none.
#[inline(always)]
fn detour<const P: usize>() {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    if P >= 4 {
        // SAFETY: a jump to the instruction after it; no register, memory,
        // stack or flag is read or written.
        unsafe {
            std::arch::asm!("jmp 2f", "2:", options(nomem, nostack, preserves_flags));
        }
    }
}

// `timed_at` has an arm for each of eight copies.
const _: () = assert!(PLACEMENTS >= 1 && PLACEMENTS <= 8);

/// `routine`'s batch timed in the copy of its loop at `placement` (below
/// [`PLACEMENTS`]).
fn timed_at<C: Clock, I, R: Routine<I>>(
    routine: &mut R,
    placement: usize,
    clock: &C,
    input: &I,
    batch: u64,
) -> f64 {
    match placement {
        0 => routine.time_batch::<C, 0>(clock, input, batch),
        1 => routine.time_batch::<C, 1>(clock, input, batch),
        2 => routine.time_batch::<C, 2>(clock, input, batch),
        3 => routine.time_batch::<C, 3>(clock, input, batch),
        4 => routine.time_batch::<C, 4>(clock, input, batch),
        5 => routine.time_batch::<C, 5>(clock, input, batch),
        6 => routine.time_batch::<C, 6>(clock, input, batch),
        _ => routine.time_batch::<C, 7>(clock, input, batch),
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
    vary_stack: bool,
    stack_offset: usize,
    placement: usize,
}

impl<'a, C, I, A, B> Pair<'a, C, I, A, B> {
    /// The pair, its measuring loop's stack offset varied by round when
    /// `vary_stack` is set (see [`Config::vary_stack`](crate::Config)).
    pub fn new(clock: &'a C, inputs: &'a [I], original: A, candidate: B, vary_stack: bool) -> Self {
        Pair {
            clock,
            inputs,
            original,
            candidate,
            vary_stack,
            stack_offset: 0,
            placement: 0,
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
        let (clock, value, placement) = (self.clock, &self.inputs[input], self.placement);
        let mut batch_ns = 0.0;
        let timed = catch_unwind(AssertUnwindSafe(|| {
            at_stack_offset(self.stack_offset, &mut || {
                batch_ns = match side {
                    Side::Original => timed_at(&mut self.original, placement, clock, value, batch),
                    Side::Candidate => {
                        timed_at(&mut self.candidate, placement, clock, value, batch)
                    }
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

    fn placements(&self) -> usize {
        PLACEMENTS
    }

    fn begin_round(&mut self, round: usize, placement: usize) {
        self.placement = placement;
        if self.vary_stack {
            // A fixed scramble of the round number: every offset recurs, in
            // no order that could line up with the alternation of sides.
            self.stack_offset = (round.wrapping_mul(0x9E37_79B9) >> 7) % STACK_OFFSETS;
        }
    }
}

/// How many stack offsets the measuring loop cycles through where the stack
/// is varied.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimClock;
    use std::cell::Cell;

    #[test]
    fn every_placement_runs_the_whole_batch_in_its_own_loop() {
        let clock = SimClock::new();
        let calls = Cell::new(0_u64);
        let count = |_: &u64| calls.set(calls.get() + 1);
        let owned_calls = Cell::new(0_u64);
        let count_owned = |_: &u64, _: u64| owned_calls.set(owned_calls.get() + 1);
        let mut pair = Pair::new(&clock, &[7_u64], ByRef(count), ByRef(count), false);
        let parts = || Parts {
            prepare: |input: &u64| *input,
            check: count_owned,
            timed: count_owned,
        };
        let mut by_value = Pair::new(&clock, &[7_u64], parts(), parts(), false);
        assert_eq!(pair.placements(), PLACEMENTS);
        for placement in 0..PLACEMENTS {
            pair.begin_round(placement, placement);
            by_value.begin_round(placement, placement);
            let before = (calls.get(), owned_calls.get());
            for side in [Side::Original, Side::Candidate] {
                pair.time_batch(side, 0, 1_000).unwrap();
                by_value.time_batch(side, 0, 10).unwrap();
            }
            assert_eq!(calls.get() - before.0, 2_000, "placement {placement}");
            assert_eq!(owned_calls.get() - before.1, 20, "placement {placement}");
        }
    }

    #[test]
    fn parts_clone_only_what_calls_consume() {
        let clock = SimClock::new();
        let prepared = Cell::new(0_u64);
        let nothing = |_: &Vec<u64>| prepared.set(prepared.get() + 1);
        let mut copied = Parts {
            prepare: nothing,
            check: |input: &Vec<u64>, ()| input.len(),
            timed: |input: &Vec<u64>, ()| input.len(),
        };
        let input = vec![1_u64; 1_000];
        // Nothing to clone: no cap beyond the measuring loop's own.
        assert_eq!(copied.max_batch(&input), sampler::MAX_BATCH);
        copied.time_batch::<_, 0>(&clock, &input, 100);
        assert_eq!(prepared.get(), 100, "made in the loop, for nothing");

        let cloned = Parts {
            prepare: |input: &Vec<u64>| input.clone(),
            check: |_: &Vec<u64>, owned: Vec<u64>| owned.len(),
            timed: |_: &Vec<u64>, owned: Vec<u64>| owned.len(),
        };
        assert!(cloned.max_batch(&input) < sampler::MAX_BATCH);
    }

    #[test]
    fn a_clone_that_takes_a_batch_s_time_is_made_once_or_twice_to_find_the_cap() {
        // Each clone takes at least 3 ms, more than half of the 5 ms a
        // batch's clones may take: the cap is 1, found from at most two.
        let made = Cell::new(0_u64);
        let slow = Parts {
            prepare: |input: &u64| {
                made.set(made.get() + 1);
                std::thread::sleep(std::time::Duration::from_millis(3));
                *input
            },
            check: |_: &u64, owned: u64| owned,
            timed: |_: &u64, owned: u64| owned,
        };
        assert_eq!(slow.max_batch(&7), 1);
        assert!((1..=2).contains(&made.get()), "{} clones made", made.get());
    }
}
