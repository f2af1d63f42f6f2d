//! The suite's own timed loop, shaped like the engine's, for everything the
//! suite measures outside the engine: the reference truth, the sequential
//! method and the calibration of the workloads.
//!
//! Monomorphized over the function (no dynamic dispatch, whose extra cost per
//! call would bias a ratio of two short functions) and read on the same
//! timing source the engine uses, [`faster::time::WallClock`].

use faster::time::{Clock, WallClock};
use std::hint::black_box;

/// Nanoseconds taken by `calls` back-to-back calls of `function` on `input`,
/// in the loop shape of the engine's batches.
#[inline(never)]
pub fn time_calls<I, O, F: FnMut(&I) -> O>(function: &mut F, input: &I, calls: u64) -> f64 {
    let clock = WallClock;
    let start = clock.now();
    for _ in 0..calls {
        black_box(function(black_box(input)));
    }
    let end = clock.now();
    clock.nanos_between(start, end)
}

/// How many calls make a batch of about `target_ns`: doubles from one call
/// until a batch lasts half that, then sizes the batch from the fastest of
/// five timings of it (never fewer than one call). A disturbance during
/// this pilot only ends the doubling early; it cannot make the batch short.
pub fn calls_for<I, O, F: FnMut(&I) -> O>(function: &mut F, input: &I, target_ns: f64) -> u64 {
    let mut calls = 1;
    while calls < 1 << 32 && time_calls(function, input, calls) < target_ns / 2.0 {
        calls *= 2;
    }
    let per_call_ns = fastest_per_call_ns(function, input, calls, 5);
    ((target_ns / per_call_ns.max(0.01)).round() as u64).max(1)
}

/// The fastest per-call time of `repeats` batches of `calls` calls.
pub fn fastest_per_call_ns<I, O, F: FnMut(&I) -> O>(
    function: &mut F,
    input: &I,
    calls: u64,
    repeats: usize,
) -> f64 {
    (0..repeats)
        .map(|_| time_calls(function, input, calls) / calls as f64)
        .fold(f64::INFINITY, f64::min)
}
