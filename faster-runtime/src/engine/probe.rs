//! The machine-noise probe: once per run, a short A/A measurement on a fixed
//! workload tells the smallest relative difference this machine can resolve
//! right now, so a floor set below it can be called out before it yields a
//! false verdict (which the judge does, `crate::judge`).

use super::compare::compare_by_ref;
use crate::check::Eq;
use crate::config::{Config, Plan};
pub use crate::judge::NoiseProbe;
use std::cell::Cell;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

/// The probe's budget: long enough for a few hundred rounds of its 1 µs
/// workload, short enough to pay once per test binary without noticing.
pub const PROBE_TIME: Duration = Duration::from_millis(60);

/// How the probe measures: `PROBE_TIME` of rounds, never stopping early
/// (its question is the spread of a run of this length), and without the
/// systematic allowance (its question is this machine's noise now, not what
/// one process cannot see).
pub fn config() -> Config {
    Config {
        max_time: PROBE_TIME,
        plan: Plan {
            target_precision: 1e-9,
            max_warm_up: Duration::from_millis(10),
            systematic_allowance: 0.0,
            ..Plan::default()
        },
        ..Config::default()
    }
}

/// The process's probe, measured on first use.
pub fn probe() -> NoiseProbe {
    static PROBE: OnceLock<NoiseProbe> = OnceLock::new();
    *PROBE.get_or_init(measure)
}

/// Measures an A/A pair of ≈ 1 µs dependent chains for `PROBE_TIME`.
pub fn measure() -> NoiseProbe {
    let steps = steps_for(Duration::from_micros(1));
    let (original, candidate) = (chain(steps), chain(steps));
    match compare_by_ref("noise probe", &[()], Eq, original, candidate, &config()) {
        Ok(measured) => {
            let (low, high) = measured.ci;
            NoiseProbe {
                resolvable: (high.ln() - low.ln()) / 2.0 + measured.speedup.ln().abs(),
                rounds: measured.rounds,
                elapsed: measured.elapsed,
            }
        }
        Err(_) => NoiseProbe {
            resolvable: f64::INFINITY,
            rounds: 0,
            elapsed: Duration::ZERO,
        },
    }
}

/// One dependent xorshift-multiply step.
#[inline(always)]
fn step(state: u64) -> u64 {
    (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// A function of `steps` dependent steps carried from call to call, so
/// calls cannot overlap in the CPU.
fn chain(steps: u64) -> impl FnMut(&()) {
    let carry = Cell::new(1_u64);
    move |_: &()| {
        let mut state = carry.get();
        for _ in 0..black_box(steps) {
            state = step(state);
        }
        carry.set(state);
    }
}

/// How many steps take about `target` on this machine.
fn steps_for(target: Duration) -> u64 {
    const TRIAL: u64 = 1_000_000;
    let start = std::time::Instant::now();
    let mut run = chain(TRIAL);
    run(&());
    let per_step_ns = start.elapsed().as_nanos() as f64 / TRIAL as f64;
    (target.as_nanos() as f64 / per_step_ns.max(0.01))
        .round()
        .max(1.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_measures_something_and_says_what_it_resolves() {
        // Not finite for sure, nor measured: beside other builds its 60 ms
        // held 2 rounds once in 200 runs of this binary with 8 threads (an
        // unbounded interval), and none once in 74 (the comparison gave up):
        // a real timing is not what a test may assert. Then it resolves
        // nothing, and says so.
        let probe = measure();
        assert!(
            !probe.resolvable.is_nan() && probe.resolvable >= 0.0,
            "{probe:?}"
        );
        assert!(
            probe.rounds >= 2 || (probe.rounds == 0 && probe.resolvable == f64::INFINITY),
            "{probe:?}"
        );
    }
}
