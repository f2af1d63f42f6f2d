//! What a timing source costs and how finely it ticks ([`Calibration`]),
//! measured once per source by [`calibrate`].

use super::clock::Clock;

/// What a timing source costs and how finely it ticks, measured once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// Mean nanoseconds between two back-to-back readings: what one sample
    /// pays for being timed.
    pub reading_cost_ns: f64,
    /// The smallest non-zero step seen between back-to-back readings.
    pub resolution_ns: f64,
    /// Per-call cost of the measuring loop around a function that does
    /// nothing: a function measured at about this much was probably
    /// optimized away.
    pub empty_call_ns: f64,
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
        resolution_ns: if smallest_step.is_finite() {
            smallest_step
        } else {
            0.0
        },
        empty_call_ns: empty_call_ns(clock),
    }
}

/// The per-call cost of the sampler's loop shape with nothing inside: the
/// fastest of a few batches of 100 000 empty calls.
fn empty_call_ns<C: Clock>(clock: &C) -> f64 {
    const CALLS: u64 = 100_000;
    let input = ();
    (0..5)
        .map(|_| {
            let start = clock.now();
            for _ in 0..CALLS {
                std::hint::black_box(std::hint::black_box(&input));
            }
            clock.nanos_between(start, clock.now()) / CALLS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{SimClock, WallClock};

    #[test]
    fn calibration_recovers_a_simulated_reading_cost() {
        let calibration = calibrate(&SimClock::with_reading_cost(25.0));
        assert!((calibration.reading_cost_ns - 25.0).abs() < 1e-9);
        assert!((calibration.resolution_ns - 25.0).abs() < 1e-9);
        assert_eq!(calibration.min_sample_ns(), 25_000.0);
        // Empty calls cost no virtual time: only the reading remains.
        assert!((calibration.empty_call_ns - 25.0 / 100_000.0).abs() < 1e-12);
    }

    #[test]
    fn wall_clock_calibration_is_plausible() {
        let calibration = calibrate(&WallClock);
        assert!(calibration.reading_cost_ns > 0.0);
        assert!(calibration.reading_cost_ns < 100_000.0);
        assert!(calibration.min_sample_ns() >= MIN_SAMPLE_NS);
    }
}
