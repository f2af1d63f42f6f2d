//! Timing sources and their calibration.
//!
//! The sampler never reads `std::time` itself: it asks a [`Clock`] for readings
//! and for the nanoseconds between two of them. That keeps the engine testable
//! with a [`SimClock`] (virtual time advanced by modelled workloads) and lets a
//! user plug in another source (a cycle counter, GPU events, instruction counts).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

/// A source of timestamps the sampler measures with.
///
/// A reading is taken just before and just after a batch of calls; the
/// difference, in nanoseconds, is the batch's time. The same clock also keeps
/// the time budget, so a simulated clock makes the whole run virtual.
///
/// # Example
///
/// A clock counting in microseconds from `Instant` (coarser than the default,
/// only to show the shape):
///
/// ```
/// use faster_runtime::Clock;
/// use std::time::Instant;
///
/// struct Coarse(Instant);
///
/// impl Clock for Coarse {
///     type Reading = u128;
///     fn now(&self) -> u128 {
///         self.0.elapsed().as_micros()
///     }
///     fn nanos_between(&self, start: u128, end: u128) -> f64 {
///         (end - start) as f64 * 1_000.0
///     }
///     fn name(&self) -> &'static str {
///         "coarse"
///     }
/// }
///
/// let clock = Coarse(Instant::now());
/// let start = clock.now();
/// assert!(clock.nanos_between(start, clock.now()) >= 0.0);
/// ```
pub trait Clock {
    /// One timestamp, as cheap to take and copy as possible.
    type Reading: Copy;

    /// Takes a timestamp.
    fn now(&self) -> Self::Reading;

    /// Nanoseconds from `start` to `end` (never negative for ordered readings).
    fn nanos_between(&self, start: Self::Reading, end: Self::Reading) -> f64;

    /// A short name shown in reports.
    fn name(&self) -> &'static str;
}

/// The operating system's monotonic clock (`std::time::Instant`).
#[derive(Debug, Clone, Copy, Default)]
pub struct WallClock;

impl Clock for WallClock {
    type Reading = Instant;

    #[inline(always)]
    fn now(&self) -> Instant {
        Instant::now()
    }

    #[inline(always)]
    fn nanos_between(&self, start: Instant, end: Instant) -> f64 {
        end.saturating_duration_since(start).as_nanos() as f64
    }

    fn name(&self) -> &'static str {
        "monotonic clock"
    }
}

/// A virtual clock for deterministic tests of the engine.
///
/// Time only moves when something calls [`SimClock::advance`] (a simulated
/// workload does, by its modelled latency) or when a reading is taken and a
/// reading cost was set. Clones share the same virtual time, so a workload
/// closure can hold one clone while the sampler holds another.
///
/// ```
/// use faster_runtime::{Clock, SimClock};
///
/// let clock = SimClock::new();
/// let start = clock.now();
/// clock.advance(1_500.0);
/// assert_eq!(clock.nanos_between(start, clock.now()), 1_500.0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SimClock {
    now_ns: Rc<Cell<f64>>,
    reading_cost_ns: f64,
}

impl SimClock {
    /// A virtual clock at time zero whose readings cost nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// A virtual clock whose every reading advances time by `reading_cost_ns`,
    /// modelling a timer with a fixed cost per sample.
    pub fn with_reading_cost(reading_cost_ns: f64) -> Self {
        SimClock {
            now_ns: Rc::default(),
            reading_cost_ns,
        }
    }

    /// Moves virtual time forward.
    pub fn advance(&self, nanos: f64) {
        self.now_ns.set(self.now_ns.get() + nanos);
    }

    /// The current virtual time in nanoseconds.
    pub fn elapsed_ns(&self) -> f64 {
        self.now_ns.get()
    }
}

impl Clock for SimClock {
    type Reading = f64;

    fn now(&self) -> f64 {
        // The cost lands half before and half after the reading, as a real
        // timer's does; a batch timed between two readings pays one cost.
        self.advance(self.reading_cost_ns / 2.0);
        let reading = self.now_ns.get();
        self.advance(self.reading_cost_ns / 2.0);
        reading
    }

    fn nanos_between(&self, start: f64, end: f64) -> f64 {
        (end - start).max(0.0)
    }

    fn name(&self) -> &'static str {
        "simulated clock"
    }
}

/// What a timing source costs and how finely it ticks, measured once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// Mean nanoseconds between two back-to-back readings: what one sample
    /// pays for being timed.
    pub reading_cost_ns: f64,
    /// The smallest non-zero step seen between back-to-back readings.
    pub resolution_ns: f64,
}

impl Calibration {
    /// How long a sample must last so the timer's cost and resolution are at
    /// most a thousandth of it (bounded below so a free simulated timer still
    /// gets samples of a sensible length).
    pub fn min_sample_ns(&self) -> f64 {
        (1_000.0 * self.reading_cost_ns.max(self.resolution_ns)).max(MIN_SAMPLE_NS)
    }
}

/// The floor under [`Calibration::min_sample_ns`]: even a perfect timer gets
/// samples long enough to average over a few hundred cycles of loop jitter.
const MIN_SAMPLE_NS: f64 = 1_000.0;

/// Measures a clock's reading cost and resolution.
///
/// Takes a few thousand back-to-back readings; costs well under a millisecond
/// on the wall clock.
pub fn calibrate<C: Clock>(clock: &C) -> Calibration {
    const READINGS: usize = 4_096;
    let mut smallest_step = f64::INFINITY;
    let first = clock.now();
    let mut previous = first;
    for _ in 0..READINGS {
        let reading = clock.now();
        let step = clock.nanos_between(previous, reading);
        if step > 0.0 && step < smallest_step {
            smallest_step = step;
        }
        previous = reading;
    }
    let reading_cost_ns = clock.nanos_between(first, previous) / READINGS as f64;
    Calibration {
        reading_cost_ns,
        resolution_ns: if smallest_step.is_finite() { smallest_step } else { 0.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_clock_charges_its_reading_cost_once_per_interval() {
        let clock = SimClock::with_reading_cost(20.0);
        let start = clock.now();
        clock.advance(100.0);
        let end = clock.now();
        assert_eq!(clock.nanos_between(start, end), 120.0);
    }

    #[test]
    fn calibration_recovers_a_simulated_reading_cost() {
        let calibration = calibrate(&SimClock::with_reading_cost(25.0));
        assert!((calibration.reading_cost_ns - 25.0).abs() < 1e-9);
        assert!((calibration.resolution_ns - 25.0).abs() < 1e-9);
        assert_eq!(calibration.min_sample_ns(), 25_000.0);
    }

    #[test]
    fn wall_clock_calibration_is_plausible() {
        let calibration = calibrate(&WallClock);
        assert!(calibration.reading_cost_ns > 0.0);
        assert!(calibration.reading_cost_ns < 100_000.0);
        assert!(calibration.min_sample_ns() >= MIN_SAMPLE_NS);
    }
}
