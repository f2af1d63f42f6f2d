//! A scenario set shaped like bench_diff's own validation, on a simulated
//! clock: the original is slower than the candidate by 1, 2, 5 or 10% by
//! construction, each call's latency carries log-normal noise of low or high
//! variance (σ of the log = ln(1.2)/2 or ln(2.4)/2, bench_diff's two levels),
//! and the machine drifts while it is measured. 100 seeded runs per
//! scenario, each measured by the engine and, for the same time, by the
//! traditional method (all of the original, then all of the candidate).
//!
//! Counted, as bench_diff counts them: a **reversal** when the estimate says
//! the original is the faster one; an **anomaly** when the estimated relative
//! difference is more than 40% off the true one. The engine must have
//! neither; the traditional method's counts are printed (`--nocapture`) and
//! must not be zero, or the scenario would not be testing anything.
//!
//! The drift is the seed's `α(t)` scaled to the run: one period of a sine
//! over the run's length, a ±10% swing, at a random phase per run, so the
//! traditional method's two halves see different machines. Runs are long
//! enough that the anomaly tolerance is four standard errors of the
//! engine's estimate (a chance of 6 in 100 000 per run to stray that far by
//! sampling alone): an anomaly then means bias, which is what separates the
//! two methods, not bad luck. Simulated time is free; the cost is in
//! simulated calls, ≈ 770 000 per run and method for the hardest scenario
//! (1% under high variance).

use faster_runtime::time::SimClock;
use faster_runtime::{Config, compare_fns_with_clock};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};
use rand_distr::StandardNormal;
use std::cell::{Cell, RefCell};
use std::f64::consts::PI;
use std::rc::Rc;
use std::time::Duration;

/// The candidate's baseline latency, as in bench_diff's validation.
const LAMBDA_NS: f64 = 1_000.0;
/// The drift's swing: `α(t)` between 0.9 and 1.1.
const DRIFT: f64 = 0.10;
/// An estimate more than this far from the true relative difference, as a
/// share of it, is an anomaly.
const ANOMALY_TOLERANCE: f64 = 0.40;
const RUNS: u64 = 100;
/// The engine's longest warm-up: simulated functions need none, and the
/// default's 50 ms would be more calls than the shorter runs measure.
const WARM_UP: Duration = Duration::from_millis(1);
/// How many draws of β a world holds (indexed by 12 random bits).
const BETAS: usize = 1 << 12;

/// bench_diff's variance levels: σ of the log of the latency.
fn low_variance() -> f64 {
    1.2_f64.ln() / 2.0
}
fn high_variance() -> f64 {
    2.4_f64.ln() / 2.0
}

/// The drift `α(t) = 1 + DRIFT · sin(ωt + φ)`.
///
/// The sine is taken from the last exactly computed one by the angle-sum
/// formula with Taylor terms (exact to 1e-13 within 0.001 rad of it): libm's
/// sine on every simulated call was half of this test's time.
struct Drift {
    omega: f64,
    phase: f64,
    /// `(angle, sin, cos)` at the last exact evaluation.
    base: Cell<(f64, f64, f64)>,
}

impl Drift {
    fn new(period_ns: f64, phase: f64) -> Drift {
        Drift {
            omega: 2.0 * PI / period_ns,
            phase,
            base: Cell::new((phase, phase.sin(), phase.cos())),
        }
    }

    fn alpha(&self, t_ns: f64) -> f64 {
        let angle = self.omega * t_ns + self.phase;
        let (mut base, mut sin, mut cos) = self.base.get();
        if (angle - base).abs() > 1e-3 {
            (base, sin, cos) = (angle, angle.sin(), angle.cos());
            self.base.set((base, sin, cos));
        }
        let d = angle - base;
        let sine = sin * (1.0 - d * d / 2.0) + cos * d * (1.0 - d * d / 6.0);
        1.0 + DRIFT * sine
    }
}

/// One run's world: a virtual clock, the drift, and the source of the
/// per-call noise.
struct World {
    clock: SimClock,
    rng: Rc<RefCell<SmallRng>>,
    drift: Rc<Drift>,
    /// Draws of β, the per-call noise: a call picks one at random. Drawing
    /// from 4 096 log-normal values is drawing from the log-normal to within
    /// about 1% of its σ, at a fraction of the cost of a normal deviate and
    /// an exponential per call (the table stays in the L1 cache).
    betas: Rc<[f64]>,
}

impl World {
    /// A world whose drift has one period in `period_ns`, at a phase drawn
    /// from `seed`.
    fn new(seed: u64, sigma: f64, period_ns: f64) -> World {
        let mut rng = SmallRng::seed_from_u64(seed);
        let phase = rng.random_range(0.0..2.0 * PI);
        let betas = (0..BETAS)
            .map(|_| (sigma * rng.sample::<f64, _>(StandardNormal)).exp())
            .collect();
        World {
            // A 25 ns timer, as on a common VM.
            clock: SimClock::with_reading_cost(25.0),
            rng: Rc::new(RefCell::new(rng)),
            drift: Rc::new(Drift::new(period_ns, phase)),
            betas,
        }
    }

    /// A function of baseline latency `lambda_ns` in this world: a call at
    /// time t takes `lambda · α(t) · β`, β log-normal with this world's σ.
    fn function(&self, lambda_ns: f64) -> impl FnMut(&()) + use<> {
        let (clock, rng, drift) = (
            self.clock.clone(),
            Rc::clone(&self.rng),
            Rc::clone(&self.drift),
        );
        let betas = Rc::clone(&self.betas);
        move |_: &()| {
            let beta = betas[(rng.borrow_mut().next_u32() >> 20) as usize];
            clock.advance(lambda_ns * drift.alpha(clock.elapsed_ns()) * beta);
        }
    }
}

/// One scenario of the set.
#[derive(Debug, Clone, Copy)]
struct Scenario {
    /// The original's latency is `1 + difference` times the candidate's.
    difference: f64,
    sigma: f64,
}

impl Scenario {
    /// Round pairs for a standard error of the mean log ratio of a quarter
    /// of the anomaly tolerance: each pair's log ratio has variance 2σ².
    fn pairs(&self) -> f64 {
        let standard_error = ANOMALY_TOLERANCE * self.difference / 4.0;
        (2.0 * self.sigma * self.sigma / (standard_error * standard_error)).max(2_000.0)
    }

    /// The run's length: that many pairs of calls, plus the engine's
    /// warm-up.
    fn run_ns(&self) -> f64 {
        let mean_call_ns =
            LAMBDA_NS * (1.0 + self.difference / 2.0) * (self.sigma * self.sigma / 2.0).exp();
        self.pairs() * 2.0 * mean_call_ns + WARM_UP.as_nanos() as f64
    }
}

/// Reversals and anomalies of one method over a scenario's runs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    reversals: usize,
    anomalies: usize,
}

impl Counts {
    fn count(&mut self, speedup: f64, difference: f64) {
        let measured = speedup - 1.0;
        self.reversals += usize::from(measured < 0.0);
        self.anomalies +=
            usize::from((measured - difference).abs() > ANOMALY_TOLERANCE * difference);
    }
}

/// The engine on one run: its paired estimate of original / candidate time.
fn engine(scenario: Scenario, seed: u64) -> f64 {
    let world = World::new(seed, scenario.sigma, scenario.run_ns());
    let mut config = Config::default();
    config.max_time = Duration::from_nanos(scenario.run_ns() as u64);
    // The run's length is fixed, as bench_diff's execution count is.
    config.plan_mut().target_precision = 1e-9;
    config.plan_mut().max_warm_up = WARM_UP;
    let report = compare_fns_with_clock(
        &world.clock,
        "scenario",
        &[()],
        world.function(LAMBDA_NS * (1.0 + scenario.difference)),
        world.function(LAMBDA_NS),
        &config,
    )
    .expect("unit outputs always agree");
    report.speedup
}

/// The traditional method on the same run: the original for the first half
/// of the run, then the candidate; the ratio of their mean latencies.
fn traditional(scenario: Scenario, seed: u64) -> f64 {
    let world = World::new(seed, scenario.sigma, scenario.run_ns());
    let half_ns = scenario.run_ns() / 2.0;
    // Read without the timer's cost: one reading per call would add it to
    // every latency and pull the ratio towards one.
    let mean_latency = |mut function: Box<dyn FnMut(&())>| {
        let start = world.clock.elapsed_ns();
        let mut calls = 0;
        while world.clock.elapsed_ns() - start < half_ns {
            function(&());
            calls += 1;
        }
        (world.clock.elapsed_ns() - start) / calls as f64
    };
    let original = mean_latency(Box::new(
        world.function(LAMBDA_NS * (1.0 + scenario.difference)),
    ));
    let candidate = mean_latency(Box::new(world.function(LAMBDA_NS)));
    original / candidate
}

/// Runs a scenario's 100 runs through both methods, prints the counts and
/// checks them.
fn validate(difference: f64, sigma: f64, variance: &str) {
    let scenario = Scenario { difference, sigma };
    let (mut paired, mut sequential) = (Counts::default(), Counts::default());
    for seed in 0..RUNS {
        paired.count(engine(scenario, seed), difference);
        sequential.count(traditional(scenario, seed), difference);
    }
    println!(
        "{:>3.0}% difference, {variance} variance, {RUNS} runs of {:.0} pairs: \
         engine {} reversals, {} anomalies; traditional {} reversals, {} anomalies",
        100.0 * difference,
        scenario.pairs(),
        paired.reversals,
        paired.anomalies,
        sequential.reversals,
        sequential.anomalies,
    );
    assert_eq!(
        paired,
        Counts::default(),
        "the engine reversed or strayed: {paired:?}"
    );
    assert!(
        sequential.anomalies > 0,
        "the drift never misled the traditional method: the scenario tests nothing"
    );
}

#[test]
fn one_percent_low_variance() {
    validate(0.01, low_variance(), "low");
}

#[test]
fn two_percent_low_variance() {
    validate(0.02, low_variance(), "low");
}

#[test]
fn five_percent_low_variance() {
    validate(0.05, low_variance(), "low");
}

#[test]
fn ten_percent_low_variance() {
    validate(0.10, low_variance(), "low");
}

#[test]
fn one_percent_high_variance() {
    validate(0.01, high_variance(), "high");
}

#[test]
fn two_percent_high_variance() {
    validate(0.02, high_variance(), "high");
}

#[test]
fn five_percent_high_variance() {
    validate(0.05, high_variance(), "high");
}

#[test]
fn ten_percent_high_variance() {
    validate(0.10, high_variance(), "high");
}

#[test]
fn the_drift_is_the_sine() {
    let drift = Drift::new(1e6, 1.0);
    for step in 0..20_000 {
        let t = step as f64 * 97.3;
        let exact = 1.0 + DRIFT * (2.0 * PI * t / 1e6 + 1.0).sin();
        assert!(
            (drift.alpha(t) - exact).abs() < 1e-13,
            "at {t}: {} vs {exact}",
            drift.alpha(t)
        );
    }
}

#[test]
fn the_tolerance_is_four_standard_errors() {
    for sigma in [low_variance(), high_variance()] {
        for difference in [0.01, 0.02, 0.05, 0.10] {
            let scenario = Scenario { difference, sigma };
            let standard_error = (2.0 * sigma * sigma / scenario.pairs()).sqrt();
            assert!(standard_error <= ANOMALY_TOLERANCE * difference / 4.0 + 1e-12);
        }
    }
}
