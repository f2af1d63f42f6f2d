//! The [`Clock`] trait every timing source implements, the monotonic
//! [`WallClock`], and the [`SimClock`] the deterministic tests run on.
//!
//! The sampler never reads `std::time` itself: it asks a [`Clock`] for readings
//! and for the nanoseconds between two of them. That keeps the engine testable
//! with a [`SimClock`] (virtual time advanced by modelled workloads) and lets a
//! user plug in another source (a cycle counter, GPU events).

use std::cell::Cell;
use std::rc::Rc;
use std::sync::OnceLock;
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
/// use faster::time::Clock;
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

    /// The nanoseconds from `start` to `end` (never negative for ordered
    /// readings). Every report prints these as time; a source that counts
    /// something else (cycles, instructions) converts to nanoseconds or is
    /// read as if its counts were nanoseconds.
    fn nanos_between(&self, start: Self::Reading, end: Self::Reading) -> f64;

    /// A short name shown in reports.
    fn name(&self) -> &'static str;

    /// Nanoseconds of real time since a fixed origin, for keeping the time
    /// budget: the monotonic clock, whatever this source measures (thread CPU
    /// time or instruction counts would stretch a budget under load). Only a
    /// simulated clock has reason to answer otherwise.
    fn budget_now_ns(&self) -> f64 {
        wall_nanos() as f64
    }
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

/// Monotonic nanoseconds since this process first asked.
#[inline(always)]
pub(crate) fn wall_nanos() -> u64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// A virtual clock for deterministic tests of the engine.
///
/// Time only moves when something calls [`SimClock::advance`] (a simulated
/// workload does, by its modelled latency) or when a reading is taken and a
/// reading cost was set. Clones share the same virtual time, so a workload
/// closure can hold one clone while the sampler holds another.
///
/// ```
/// use faster::time::{Clock, SimClock};
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

    fn budget_now_ns(&self) -> f64 {
        self.now_ns.get()
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
}
