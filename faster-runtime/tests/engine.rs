//! The whole engine on a simulated clock: known ratios under seeded noise,
//! the identical pair, and every way a comparison fails before timing.

use faster_runtime::report::Stop;
use faster_runtime::time::{Clock, SimClock};
use faster_runtime::{Config, Error, Phase, Verdict, compare_fns, compare_fns_with_clock};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::LogNormal;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

/// Functions of a fixed base latency on a shared virtual clock, each call
/// multiplied by log-normal noise and, with probability `spike_chance`, hit by
/// a disturbance of `spike_ns` (an interrupt, a stolen time slice).
struct Noisy {
    clock: SimClock,
    rng: Rc<RefCell<StdRng>>,
    sigma: f64,
    spike_chance: f64,
    spike_ns: f64,
}

impl Noisy {
    fn new(seed: u64, sigma: f64, spike_chance: f64, spike_ns: f64) -> Noisy {
        Noisy {
            // A 25 ns timer, as on a common VM.
            clock: SimClock::with_reading_cost(25.0),
            rng: Rc::new(RefCell::new(StdRng::seed_from_u64(seed))),
            sigma,
            spike_chance,
            spike_ns,
        }
    }

    fn function(&self, base_ns: f64) -> impl FnMut(&()) + use<> {
        let (clock, rng) = (self.clock.clone(), Rc::clone(&self.rng));
        let noise = LogNormal::new(0.0, self.sigma).unwrap();
        let (spike_chance, spike_ns) = (self.spike_chance, self.spike_ns);
        move |_: &()| {
            let mut rng = rng.borrow_mut();
            let mut latency = base_ns * rng.sample(noise);
            if rng.random_bool(spike_chance) {
                latency += spike_ns;
            }
            clock.advance(latency);
        }
    }
}

fn compare(seed: u64, original_ns: f64, candidate_ns: f64) -> faster_runtime::Report {
    compare_with(seed, original_ns, candidate_ns, &Config::default())
}

fn compare_with(
    seed: u64,
    original_ns: f64,
    candidate_ns: f64,
    config: &Config,
) -> faster_runtime::Report {
    // Per-call noise of 5% and one call in 2 000 hit by 20 µs.
    let model = Noisy::new(seed, 0.05, 5e-4, 20_000.0);
    compare_fns_with_clock(
        &model.clock,
        "simulated",
        &[()],
        model.function(original_ns),
        model.function(candidate_ns),
        config,
    )
    .unwrap()
}

#[test]
fn a_true_speedup_of_1_25_is_faster_and_inside_the_interval() {
    for seed in 0..20 {
        let report = compare(seed, 1_250.0, 1_000.0);
        assert_eq!(report.verdict, Verdict::Faster, "{report}");
        assert!(
            report.ci.0 <= 1.25 && 1.25 <= report.ci.1,
            "seed {seed}: {report}"
        );
        assert!((report.speedup / 1.25 - 1.0).abs() < 0.01, "{report}");
    }
}

#[test]
fn a_slower_candidate_is_slower() {
    for seed in 0..20 {
        let report = compare(seed, 800.0, 1_000.0);
        assert_eq!(report.verdict, Verdict::Slower, "{report}");
        assert!(
            report.ci.0 <= 0.8 && 0.8 <= report.ci.1,
            "seed {seed}: {report}"
        );
    }
}

#[test]
fn identical_functions_are_within_noise_and_the_interval_holds_one() {
    let mut covered = 0;
    for seed in 0..100 {
        let report = compare(seed, 1_000.0, 1_000.0);
        assert_eq!(report.verdict, Verdict::WithinNoise, "{report}");
        assert!((report.speedup - 1.0).abs() < 0.01, "{report}");
        covered += usize::from(report.ci.0 <= 1.0 && 1.0 <= report.ci.1);
    }
    assert!(
        covered >= 95,
        "the 99% interval held the truth in {covered} of 100 runs"
    );
}

#[test]
fn a_floor_of_100_percent_asks_for_at_least_2x() {
    let mut config = Config::default();
    config.noise_floor = 1.0;
    for seed in 0..5 {
        // 1.5x faster is within a 100% floor, and the report says which floor.
        let report = compare_with(seed, 1_500.0, 1_000.0, &config);
        assert_eq!(report.verdict, Verdict::WithinNoise, "{report}");
        assert!(!report.passed(), "{report}");
        assert!(
            report
                .to_string()
                .contains("✗ within noise (expected faster; noise floor 100%)"),
            "{report}"
        );
        let report = compare_with(seed, 2_500.0, 1_000.0, &config);
        assert_eq!(report.verdict, Verdict::Faster, "{report}");
        assert!(
            report.to_string().contains("✓ faster (noise floor 100%)"),
            "{report}"
        );
        // Slower beyond 2x the other way.
        let report = compare_with(seed, 400.0, 1_000.0, &config);
        assert_eq!(report.verdict, Verdict::Slower, "{report}");
        assert_eq!(report.stop, Stop::Converged, "{report}");
    }
}

#[test]
fn quiet_runs_stop_on_convergence_well_inside_the_budget() {
    let report = compare(7, 1_250.0, 1_000.0);
    assert_eq!(report.stop, Stop::Converged);
    assert!(report.rounds >= 32, "{report}");
}

#[test]
fn a_noisy_run_spends_the_budget_and_does_not_overrun_it() {
    // 60% per-call noise: the 1% target is out of reach in 200 ms.
    let model = Noisy::new(3, 0.6, 0.0, 0.0);
    let mut config = Config::default();
    config.max_time = Duration::from_millis(200);
    let start = model.clock.now();
    let report = compare_fns_with_clock(
        &model.clock,
        "noisy",
        &[()],
        model.function(100_000.0),
        model.function(100_000.0),
        &config,
    )
    .unwrap();
    let elapsed_ms = model.clock.nanos_between(start, model.clock.now()) / 1e6;
    assert_eq!(report.stop, Stop::Budget);
    assert_eq!(report.verdict, Verdict::WithinNoise, "{report}");
    // A round is two calls of ~100 µs (more with the noise): one round over
    // at most, plus the output check and the calibration before the budget.
    assert!(
        elapsed_ms < 202.0,
        "took {elapsed_ms} ms of a 200 ms budget"
    );
}

#[test]
fn a_wrong_candidate_is_named_with_the_input_and_both_outputs() {
    let error = compare_fns(
        "wrong",
        &[1_u64, 2, 3],
        |n: &u64| n * 2,
        |n: &u64| if *n == 2 { 5 } else { n * 2 },
        &Config::default(),
    )
    .unwrap_err();
    assert_eq!(
        error,
        Error::Mismatch {
            input: 1,
            input_debug: None,
            original: "4".into(),
            candidate: "5".into(),
        }
    );
    let message = error.to_string();
    assert!(
        message.contains("input 1") && message.contains('4') && message.contains('5'),
        "{message}"
    );
}

#[test]
fn a_panic_in_user_code_is_reported_not_propagated() {
    let error = compare_fns(
        "panics",
        &[1_u64, 0],
        |n: &u64| 10 / n,
        |n: &u64| 10 / n,
        &Config::default(),
    )
    .unwrap_err();
    match error {
        Error::Panicked {
            during: Phase::Original,
            input: Some(1),
            message,
        } => assert!(message.contains("divide by zero"), "{message}"),
        other => panic!("expected a caught panic, got {other:?}"),
    }
}

#[test]
fn no_inputs_is_a_clear_error() {
    let inputs: [u64; 0] = [];
    let error = compare_fns(
        "empty",
        &inputs,
        |n: &u64| *n,
        |n: &u64| *n,
        &Config::default(),
    )
    .unwrap_err();
    assert_eq!(error, Error::NoInputs);
    assert!(error.to_string().contains("at least one input"));
}

#[test]
fn an_invalid_config_is_refused_before_running_anything() {
    let mut config = Config::default();
    config.noise_floor = 0.0;
    let error = compare_fns("bad", &[1_u64], |n: &u64| *n, |n: &u64| *n, &config).unwrap_err();
    assert!(matches!(error, Error::InvalidConfig(_)), "{error:?}");
}
