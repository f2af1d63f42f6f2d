//! The noise model of bench_diff (seed `002_*`), run through the whole
//! engine on a simulated clock.
//!
//! Latency of a call starting at time t is `λ · α(t) · β`, with a slow drift
//! `α(t) = 1.5 + ½ sin(2πt / 60 s)` and an independent log-normal `β`,
//! `σ = 0.28`. Two identical functions (λ₁ = λ₂ = 12 ms) measured for one
//! minute: the paired engine must stay within the model's 99% bound, while
//! measuring all of A and then all of B is off by about 54%.

use faster_runtime::time::{Clock, SimClock};
use faster_runtime::{Config, compare_fns_with_clock};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::LogNormal;
use std::cell::RefCell;
use std::f64::consts::PI;
use std::rc::Rc;
use std::time::Duration;

const SIGMA: f64 = 0.28;
const PERIOD_NS: f64 = 60e9;

/// The model's drift: between 1 and 2, changing at most π/60 000 per ms.
fn alpha(t_ns: f64) -> f64 {
    1.5 + 0.5 * (2.0 * PI * t_ns / PERIOD_NS).sin()
}

/// One modelled run: a virtual clock and the shared source of β.
struct Model {
    clock: SimClock,
    rng: Rc<RefCell<StdRng>>,
}

impl Model {
    fn new(seed: u64) -> Model {
        Model {
            clock: SimClock::new(),
            rng: Rc::new(RefCell::new(StdRng::seed_from_u64(seed))),
        }
    }

    /// A function of baseline latency `lambda_ns` living in this model.
    fn function(&self, lambda_ns: f64) -> impl FnMut(&()) + use<> {
        let (clock, rng) = (self.clock.clone(), Rc::clone(&self.rng));
        let beta = LogNormal::new(0.0, SIGMA).expect("σ > 0");
        move |_: &()| {
            let latency = lambda_ns * alpha(clock.elapsed_ns()) * rng.borrow_mut().sample(beta);
            clock.advance(latency);
        }
    }
}

/// The model's 99% bound on |paired log ratio − truth| for `n` pairs
/// (seed 002, "Confidence Interval" point 5): the drift term BE·(√(π/2)·2.58 + 1)
/// plus the sampling term √(2/n)·σ·2.58. Times in milliseconds.
fn full_bound(lambda_ms: f64, n: usize) -> f64 {
    drift_bound(lambda_ms) + (2.0 / n as f64).sqrt() * SIGMA * 2.58
}

/// The drift term alone: 0.00277 for λ = 12 ms, 0.0284 for λ = 120 ms.
fn drift_bound(lambda_ms: f64) -> f64 {
    let a_d = PI / 60_000.0; // per ms
    let (a_u, a_l) = (2.0_f64, 1.0_f64);
    let be = lambda_ms * a_d * (SIGMA * SIGMA / 2.0).exp()
        + lambda_ms * lambda_ms * a_d * a_d * a_u * a_u / (a_l * a_l) * (2.0 * SIGMA * SIGMA).exp();
    be * ((PI / 2.0).sqrt() * 2.58 + 1.0)
}

/// Runs the engine for `budget_ns` of the model's time and returns
/// (log ratio, rounds).
fn paired(seed: u64, lambda_ms: f64, budget_ns: f64) -> (f64, usize) {
    let model = Model::new(seed);
    let mut config = Config::default();
    config.max_time = Duration::from_nanos(budget_ns as u64);
    // Unreachable at σ = 0.28 within the budget: the budget decides,
    // as the fixed execution count does in the seed's example.
    config.plan_mut().target_precision = 1e-6;
    let report = compare_fns_with_clock(
        &model.clock,
        "model",
        &[()],
        model.function(lambda_ms * 1e6),
        model.function(lambda_ms * 1e6),
        &config,
    )
    .expect("unit outputs always agree");
    (report.speedup.ln(), report.rounds)
}

/// The budget in which the engine makes about `executions` calls of each
/// function: the seed's example counts executions, the engine spends time.
/// Steps through the model's expected path, a pair of calls at a time (a
/// call at t lasts λ · E[β] · α(t)), so calls crowd where α is low as they
/// do in a run.
fn budget_for(lambda_ms: f64, executions: usize) -> f64 {
    let call_ns = lambda_ms * 1e6 * (SIGMA * SIGMA / 2.0).exp();
    (0..executions).fold(0.0, |t_ns, _| t_ns + 2.0 * call_ns * alpha(t_ns))
}

/// The traditional method on the same model: A for the first half-minute,
/// then B for the second; the ratio of their mean latencies.
fn sequential(seed: u64, lambda_ms: f64) -> f64 {
    let model = Model::new(seed);
    let mean_latency = |mut function: Box<dyn FnMut(&())>| {
        let start = model.clock.now();
        let mut executions = 0;
        while model.clock.nanos_between(start, model.clock.now()) < PERIOD_NS / 2.0 {
            function(&());
            executions += 1;
        }
        model.clock.nanos_between(start, model.clock.now()) / executions as f64
    };
    let first = mean_latency(Box::new(model.function(lambda_ms * 1e6)));
    let second = mean_latency(Box::new(model.function(lambda_ms * 1e6)));
    first / second
}

#[test]
fn the_bounds_match_the_seeds_worked_example() {
    assert!(
        (drift_bound(12.0) - 0.00277).abs() < 0.00002,
        "{}",
        drift_bound(12.0)
    );
    assert!(
        (drift_bound(120.0) - 0.0284).abs() < 0.0002,
        "{}",
        drift_bound(120.0)
    );
    // The sampling term the worked example leaves out: ≈ 2% at n = 2 500.
    let sampling = full_bound(12.0, 2_500) - drift_bound(12.0);
    assert!((sampling - 0.0204).abs() < 0.0002, "{sampling}");
}

#[test]
fn sequential_measurement_is_off_by_about_54_percent() {
    // A fills the first half-minute (α high), B the second (α low). The seed
    // averages α over time: 1.8183 / 1.1817 = 1.539. Averaged per call, with
    // calls crowding where α is low, it is 1.552. Either way, about 54% off.
    // (β adds ±1.6% per run: 1 600 calls per side at σ = 0.28.)
    for seed in 0..5 {
        let ratio = sequential(seed, 12.0);
        assert!((ratio - 1.55).abs() < 0.05, "sequential ratio {ratio}");
    }
}

/// Runs the engine on `seeds` seeded models for `budget_ns` each; checks
/// that the run made `rounds` rounds, that at most 2% of runs (the bound is
/// 99%) fall outside the model's full bound for their own number of rounds,
/// and that the mean error over the seeds is under `bias_limit`.
fn paired_stays_within_the_bound(
    lambda_ms: f64,
    budget_ns: f64,
    seeds: u64,
    rounds: std::ops::RangeInclusive<usize>,
    bias_limit: f64,
) {
    let mut errors = Vec::new();
    let mut outside = Vec::new();
    for seed in 0..seeds {
        let (log_ratio, made) = paired(seed, lambda_ms, budget_ns);
        assert!(
            rounds.contains(&made),
            "{made} rounds in {} s, not {rounds:?}",
            budget_ns / 1e9
        );
        if log_ratio.abs() > full_bound(lambda_ms, made) {
            outside.push((seed, log_ratio, made));
        }
        errors.push(log_ratio);
    }
    let bias = errors.iter().sum::<f64>() / errors.len() as f64;
    println!(
        "λ = {lambda_ms} ms, {:.0} s: {} of {seeds} runs outside the full bound; mean error {bias:+.5} \
         (drift term {:.5})",
        budget_ns / 1e9,
        outside.len(),
        drift_bound(lambda_ms)
    );
    assert!(
        bias.abs() < bias_limit,
        "mean error {bias} over {seeds} seeds exceeds {bias_limit} (the drift term is {})",
        drift_bound(lambda_ms)
    );
    assert!(
        outside.len() as u64 <= seeds / 50,
        "{} of {seeds} runs outside the 99% bound: {outside:?}",
        outside.len()
    );
}

#[test]
fn paired_engine_stays_within_the_model_bound_at_12_ms() {
    // A minute holds ≈ 60 s / (2 · 12 ms · E[β] · E[α]) ≈ 1 600 round pairs.
    paired_stays_within_the_bound(
        12.0,
        PERIOD_NS,
        100,
        1_400..=usize::MAX,
        drift_bound(12.0).max(0.003),
    );
}

#[test]
fn paired_engine_stays_within_the_model_bound_at_120_ms() {
    paired_stays_within_the_bound(
        120.0,
        PERIOD_NS,
        100,
        140..=usize::MAX,
        drift_bound(120.0).max(0.003),
    );
}

#[test]
fn the_seeds_12_ms_example_with_2_500_executions() {
    // Each run within the full bound (drift term 0.28% plus ≈ 2% of
    // sampling at n = 2 500); the mean over 100 seeds within the drift term
    // alone, whose sampling noise is ≈ 0.08% here.
    let budget_ns = budget_for(12.0, 2_500);
    paired_stays_within_the_bound(12.0, budget_ns, 100, 2_400..=2_600, drift_bound(12.0));
}

#[test]
fn the_seeds_120_ms_example_with_250_executions() {
    // Drift term 2.8%, sampling term 6.5% at n = 250.
    let budget_ns = budget_for(120.0, 250);
    paired_stays_within_the_bound(120.0, budget_ns, 100, 235..=265, drift_bound(120.0));
}

#[test]
fn sequential_measurement_at_120_ms_is_off_by_about_54_percent_too() {
    // 125 calls per half-minute instead of 1 250: β's noise moves a single
    // run by ±10% (1.46–1.68 over 20 seeds in a Python replica of the
    // model), so judge the mean over seeds; the seed expects "roughly the
    // same" error as at 12 ms.
    let ratios: Vec<f64> = (0..20).map(|seed| sequential(seed, 120.0)).collect();
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    assert!(
        (mean - 1.55).abs() < 0.05,
        "mean sequential ratio {mean}: {ratios:?}"
    );
    assert!(
        ratios.iter().all(|ratio| (ratio - 1.55).abs() < 0.2),
        "{ratios:?}"
    );
}
