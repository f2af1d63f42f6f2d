//! Paoloni's regression on a simulated clock: a fixed cost per sample pulls
//! plain per-call ratios towards one; the regression over the ladder of batch
//! sizes recovers the true per-call times and ratio.

use faster_runtime::__internal::{Side, Subject, sample};
use faster_runtime::time::{Calibration, Clock, SimClock};
use faster_runtime::{Config, Error};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::Exp;

/// Two functions of `per_call_ns`, every sample paying the clock's reading
/// cost. Noise only ever adds time (an interrupt, a cache miss): each batch
/// runs slower by an exponentially distributed 1% on average. Batches are
/// capped at 2 048 calls, as when each call needs its own clone of a large
/// input: samples stay short, and the reading weighs.
struct Simulated {
    clock: SimClock,
    per_call_ns: [f64; 2],
    rng: StdRng,
}

impl Subject for Simulated {
    fn input_count(&self) -> usize {
        1
    }

    fn max_batch(&self, _input: usize) -> u64 {
        2_048
    }

    fn time_batch(&mut self, side: Side, _input: usize, batch: u64) -> Result<f64, Error> {
        let slowdown = Exp::new(100.0_f64).unwrap();
        let start = self.clock.now();
        self.clock.advance(
            self.per_call_ns[side as usize] * batch as f64 * (1.0 + self.rng.sample(slowdown)),
        );
        Ok(self.clock.nanos_between(start, self.clock.now()))
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[test]
fn the_regression_recovers_what_plain_division_does_not() {
    for seed in 0..10 {
        // 250 ns per reading, what thread CPU time costs on this project's
        // VM: 2 ns calls in batches of 512 to 2 048 (the ladder under the
        // cap), 6–20% of each sample overhead.
        let clock = SimClock::with_reading_cost(250.0);
        let calibration = Calibration {
            reading_cost_ns: 250.0,
            resolution_ns: 250.0,
            empty_call_ns: 0.0,
        };
        let mut subject = Simulated {
            clock: clock.clone(),
            per_call_ns: [2.5, 2.0],
            rng: StdRng::seed_from_u64(seed),
        };
        let samples = sample(&clock, calibration, &mut subject, &Config::default()).unwrap();

        // Both sides' noise has the same distribution, so the mean log ratio
        // estimates the true one.
        let plain = mean(&samples.uncorrected_log_ratios()).exp();
        let cleared = mean(&samples.log_ratios()).exp();
        assert!(
            plain < 1.23,
            "seed {seed}: plain division should be pulled towards one: {plain}"
        );
        // ~130 rounds at 1.4% noise each: the mean is good to ±0.12% (one
        // SE); 0.5% is four of them, and far from plain division's 2%+.
        assert!(
            (cleared / 1.25 - 1.0).abs() < 0.005,
            "seed {seed}: cleared ratio {cleared}"
        );

        let overhead = samples.overheads()[0];
        assert!(
            (overhead - 250.0).abs() < 10.0,
            "seed {seed}: overhead {overhead}"
        );
        for (side, truth) in [(Side::Original, 2.5), (Side::Candidate, 2.0)] {
            let fit = samples.fit(0, side).unwrap();
            assert!(
                (fit.slope / truth - 1.0).abs() < 0.01,
                "seed {seed}: {side:?} slope {}",
                fit.slope
            );
            assert!(fit.r_squared > 0.99, "seed {seed}: R² {}", fit.r_squared);
        }
    }
}
