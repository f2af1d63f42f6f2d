//! The statistics are total: every public function in `stats` returns, fast,
//! for every argument — NaN, infinities, out-of-range values and the far
//! ends of its domain — with the documented answer or a `StatsError`; and
//! the Student t quantile is accurate over its whole domain, checked against
//! published tables and against reference values computed independently.
//!
//! Each call of the property tests runs on its own thread: it must return
//! within [`HANG_LIMIT`] of wall time (a loop fails the test instead of
//! hanging it) and use at most [`CPU_LIMIT`] of CPU time (measured on the
//! thread's own CPU clock, so a busy machine does not fail it).

use faster_runtime::__internal::stats::estimate::Estimate;
use faster_runtime::__internal::stats::samples::{self, Round, Samples, Side, Stop};
use faster_runtime::__internal::stats::{
    StatsError, across_placements, across_processes, batch_means_interval, block_length,
    linear_fit, mean, median, minimum, percentile, pooled_robust_intervals, robust_interval,
    student_t_quantile, variance, winsorize,
};
use faster_runtime::Verdict;
use faster_runtime::time::{Calibration, Clock, ThreadCpuClock};
use proptest::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// The most CPU time one call may take.
const CPU_LIMIT: Duration = Duration::from_millis(100);
/// How long to wait for a call before calling it a hang.
const HANG_LIMIT: Duration = Duration::from_secs(5);

/// `call`'s result, once it has returned within the limits.
fn timed<T: Send + 'static>(call: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let clock = ThreadCpuClock::new().expect("this thread's CPU clock");
        let start = clock.now();
        let result = call();
        let cpu_ns = clock.nanos_between(start, clock.now());
        let _ = sender.send((result, cpu_ns));
    });
    match receiver.recv_timeout(HANG_LIMIT) {
        Ok((result, cpu_ns)) => {
            assert!(
                cpu_ns <= CPU_LIMIT.as_nanos() as f64,
                "the call took {:.1} ms of CPU time, over {CPU_LIMIT:?}",
                cpu_ns / 1e6
            );
            result
        }
        Err(RecvTimeoutError::Timeout) => panic!("the call did not return within {HANG_LIMIT:?}"),
        Err(RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends before it ends"),
        },
    }
}

/// Any `f64`: finite ones of every magnitude, zeros, subnormals, infinities
/// and NaN.
fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => any::<f64>(),
        1 => prop::num::f64::ANY,
        1 => prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 0.5, 100.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE,
            f64::EPSILON, f64::INFINITY, f64::NEG_INFINITY, f64::NAN,
        ]),
    ]
}

/// Values of ordinary size (what timings and log ratios are), sometimes
/// with an extreme one among them.
fn values(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![8 => -1e3..1e3f64, 1 => any::<f64>(), 1 => any_float()],
        0..max_len,
    )
}

/// A probability, anywhere from 1e-323 to 1 − 1e-16 on a log scale.
fn valid_probability() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-323.0..-0.3011f64, any::<bool>()).prop_map(|(exponent, upper)| {
            let tail = 10f64.powf(exponent);
            if upper { 1.0 - tail } else { tail }
        }),
        1 => 0.0..=1.0f64,
    ]
}

/// A probability, or any float at all.
fn probability() -> impl Strategy<Value = f64> {
    prop_oneof![5 => valid_probability(), 1 => any_float()]
}

/// Degrees of freedom from 1 to 1e12 on a log scale, the special ones, or
/// any float at all.
fn degrees_of_freedom() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => (0.0..12.0f64).prop_map(|exponent| 10f64.powf(exponent)),
        1 => prop::sample::select(vec![1.0, 2.0, 3.0, 1.3e7, 1.8e7, 1e12, f64::INFINITY]),
        1 => any_float(),
    ]
}

fn is_probability(p: f64) -> bool {
    (0.0..=1.0).contains(&p)
}

fn bounds(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), &v| {
            (low.min(v), high.max(v))
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        // A failure prints its minimal input; nothing is written to the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mean_is_nan_or_between_the_extremes(values in values(64)) {
        let (low, high) = bounds(&values);
        let all_finite = values.iter().all(|v| v.is_finite());
        let result = timed({ let values = values.clone(); move || mean(&values) });
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            prop_assert!(result.is_nan());
        } else if all_finite {
            prop_assert!(result.is_finite() && low <= result && result <= high, "{result}");
        }
    }

    #[test]
    fn variance_is_nan_or_not_negative(values in values(64)) {
        let result = timed({ let values = values.clone(); move || variance(&values) });
        if values.len() < 2 || values.iter().any(|v| !v.is_finite()) {
            prop_assert!(result.is_nan(), "{result}");
        } else {
            prop_assert!(result >= 0.0, "{result}");
        }
    }

    #[test]
    fn median_is_the_middle_of_the_sorted_values(values in values(64)) {
        let result = timed({ let values = values.clone(); move || median(&values) });
        if values.is_empty() || values.iter().any(|v| v.is_nan()) {
            prop_assert!(result.is_nan());
        } else {
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let middle = sorted.len() / 2;
            let expected = if sorted.len() % 2 == 0 {
                sorted[middle - 1].midpoint(sorted[middle])
            } else {
                sorted[middle]
            };
            prop_assert!(result == expected || (result.is_nan() && expected.is_nan()));
        }
    }

    #[test]
    fn percentile_is_nan_or_between_the_extremes(
        mut values in values(64),
        percent in prop_oneof![3 => 0.0..=100.0f64, 1 => any_float()],
    ) {
        values.sort_by(f64::total_cmp);
        let result = timed({ let values = values.clone(); move || percentile(&values, percent) });
        let defined = !values.is_empty()
            && (0.0..=100.0).contains(&percent)
            && values.iter().all(|v| v.is_finite());
        if values.is_empty() || !(0.0..=100.0).contains(&percent) || values.iter().any(|v| v.is_nan()) {
            prop_assert!(result.is_nan());
        } else if defined {
            prop_assert!(values[0] <= result && result <= values[values.len() - 1], "{result}");
        }
    }

    #[test]
    fn minimum_skips_nan(values in values(64)) {
        let result = timed({ let values = values.clone(); move || minimum(values) });
        let expected = values.iter().copied().filter(|v| !v.is_nan()).fold(f64::INFINITY, f64::min);
        prop_assert_eq!(result, expected);
    }

    #[test]
    fn student_t_quantile_answers_in_its_domain_and_errs_outside(
        p in probability(),
        nu in degrees_of_freedom(),
    ) {
        let result = timed(move || student_t_quantile(p, nu));
        if !is_probability(p) || nu.is_nan() || nu < 1.0 {
            let is_domain_error = matches!(result, Err(StatsError::OutOfDomain { .. }));
            prop_assert!(is_domain_error, "{result:?}");
            return Ok(());
        }
        let t = result.unwrap();
        prop_assert!(!t.is_nan());
        prop_assert!(if p < 0.5 { t < 0.0 } else if p > 0.5 { t > 0.0 } else { t == 0.0 }, "{t}");
        if p > 0.0 && p < 1.0 && nu >= 2.0 {
            // Two degrees of freedom bound every heavier-tailed quantile:
            // at most 1/√(2 · 5e-324) ≈ 1e161.
            prop_assert!(t.is_finite(), "{t}");
        }
        if p >= 0.5 {
            // 1 − p is exact here: the quantile is odd about ½.
            let mirrored = timed(move || student_t_quantile(1.0 - p, nu)).unwrap();
            prop_assert_eq!(mirrored, -t);
        }
    }

    #[test]
    fn student_t_quantile_grows_with_the_probability(
        p in valid_probability(),
        q in valid_probability(),
        nu in (0.0..12.0f64).prop_map(|exponent| 10f64.powf(exponent)),
    ) {
        let (low, high) = if p < q { (p, q) } else { (q, p) };
        let t_low = timed(move || student_t_quantile(low, nu)).unwrap();
        let t_high = timed(move || student_t_quantile(high, nu)).unwrap();
        // Equal where both round to the same float; never reversed beyond
        // the accuracy claimed (1e-12 relative).
        prop_assert!(
            t_low <= t_high || t_low <= t_high + 1e-12 * t_high.abs(),
            "t({low:e}) = {t_low} > t({high:e}) = {t_high}"
        );
    }

    #[test]
    fn student_t_tails_thin_as_the_degrees_of_freedom_grow(
        p in (-16.0..-0.302f64).prop_map(|exponent| 1.0 - 10f64.powf(exponent)),
        nu in (0.0..12.0f64).prop_map(|exponent| 10f64.powf(exponent)),
        factor in prop_oneof![1.0..1.001f64, 1.0..1e3f64, Just(f64::INFINITY)],
    ) {
        let more = nu * factor;
        let fewer = timed(move || student_t_quantile(p, nu)).unwrap();
        let thinner = timed(move || student_t_quantile(p, more)).unwrap();
        prop_assert!(thinner <= fewer * (1.0 + 1e-12), "t({p}, {nu}) = {fewer} < t({p}, {more}) = {thinner}");
    }

    /// The rule, for every float: NaN anywhere (a bound, the floor) can
    /// only give `within noise`, and nothing panics.
    #[test]
    fn a_verdict_needs_the_whole_interval_past_the_floor(
        low in any_float(),
        high in any_float(),
        floor in prop_oneof![3 => 0.0..1.0f64, 1 => any_float()],
    ) {
        let verdict = timed(move || Verdict::from_interval((low, high), floor));
        let clears_above = low >= 1.0 + floor;
        let clears_below = high <= 1.0 / (1.0 + floor);
        let expected = if clears_above {
            Verdict::Faster
        } else if clears_below {
            Verdict::Slower
        } else {
            Verdict::WithinNoise
        };
        prop_assert_eq!(verdict, expected);
    }

    #[test]
    fn block_lengths_are_whole_cycles(rounds in any::<usize>(), cycle in prop_oneof![0..64usize, any::<usize>()]) {
        let block = timed(move || block_length(rounds, cycle));
        prop_assert!(block >= 1 && block % cycle.max(1) == 0, "{block}");
    }

    #[test]
    fn batch_means_interval_holds_its_centre_or_says_why_not(
        values in values(400),
        confidence in prop_oneof![3 => 0.0..1.0f64, 1 => any_float()],
        cycle in 0..20usize,
    ) {
        let result = timed({ let values = values.clone(); move || batch_means_interval(&values, confidence, cycle) });
        check_interval(&values, confidence, result)?;
    }

    #[test]
    fn robust_interval_holds_its_centre_or_says_why_not(
        values in values(400),
        confidence in prop_oneof![3 => 0.0..1.0f64, 1 => any_float()],
        cycle in 0..20usize,
    ) {
        let result = timed({ let values = values.clone(); move || robust_interval(&values, confidence, cycle) });
        check_interval(&values, confidence, result)?;
    }

    #[test]
    fn winsorizing_only_pulls_values_towards_the_median(
        values in values(200),
        sigmas in prop_oneof![3 => 0.0..10.0f64, 1 => any_float()],
    ) {
        let result = timed({ let values = values.clone(); move || winsorize(&values, sigmas) });
        if sigmas.is_nan() || sigmas < 0.0 || values.iter().any(|v| !v.is_finite()) {
            prop_assert!(result.is_err(), "{result:?}");
            return Ok(());
        }
        let clipped = result.unwrap();
        prop_assert_eq!(clipped.len(), values.len());
        let center = median(&values);
        for (before, after) in values.iter().zip(&clipped) {
            prop_assert!((after - center).abs() <= (before - center).abs(), "{before} → {after}");
            prop_assert!(
                after == before || *after == center || (after - center).signum() == (before - center).signum()
            );
        }
    }

    #[test]
    fn the_interval_over_processes_holds_their_centres_or_says_why_not(
        processes in prop::collection::vec(
            prop_oneof![6 => (-2.0..2.0f64, 0.0..0.5f64), 1 => (any_float(), any_float())],
            0..12,
        ),
        confidence in prop_oneof![3 => 0.0..1.0f64, 1 => any_float()],
    ) {
        let valid = confidence > 0.0 && confidence < 1.0
            && processes.iter().all(|&(c, h)| c.is_finite() && h.is_finite() && h >= 0.0);
        // The mean needs two processes for a spread; a placement's
        // prediction pools a prior and needs one.
        let claimed: Vec<(f64, Option<f64>)> = processes.iter().map(|&(c, h)| (c, Some(h))).collect();
        let of_mean = timed(move || across_processes(&claimed, confidence));
        let predicted = timed({ let processes = processes.clone(); move || across_placements(&processes, confidence) });
        for (result, needed) in [(of_mean, 2), (predicted, 1)] {
            prop_assert_eq!(result.is_ok(), valid && processes.len() >= needed, "{:?}", result);
            if let Ok(interval) = result {
                let centers: Vec<f64> = processes.iter().map(|&(c, _)| c).collect();
                let (low, high) = bounds(&centers);
                prop_assert!(low <= interval.center && interval.center <= high);
                prop_assert!(interval.half_width >= 0.0, "{interval:?}");
            }
        }
    }

    #[test]
    fn pooled_series_hold_their_centres_or_say_why_not(
        series in prop::collection::vec(values(60), 0..6),
        confidence in prop_oneof![3 => 0.0..1.0f64, 1 => any_float()],
        cycle in 0..20usize,
    ) {
        let result = timed({ let series = series.clone(); move || pooled_robust_intervals(&series, confidence, cycle) });
        let in_domain = confidence > 0.0 && confidence < 1.0
            && series.iter().flatten().all(|v| v.is_finite());
        match result {
            Ok((own, of_mean)) => {
                prop_assert!(in_domain && own.len() == series.len());
                for (interval, values) in own.iter().zip(&series) {
                    let (low, high) = bounds(values);
                    prop_assert!(low <= interval.center && interval.center <= high, "{interval:?}");
                    prop_assert!(interval.half_width >= 0.0 && interval.blocks >= 1, "{interval:?}");
                }
                let (low, high) = bounds(&series.concat());
                prop_assert!(low <= of_mean.center && of_mean.center <= high, "{of_mean:?}");
                prop_assert!(of_mean.half_width >= 0.0 && of_mean.blocks >= 2, "{of_mean:?}");
            }
            Err(StatsError::TooFew { got, .. }) => prop_assert!(in_domain && got == 0),
            Err(error) => prop_assert!(!in_domain, "{error}"),
        }
    }

    #[test]
    fn linear_fit_fits_or_says_why_not(
        points in prop::collection::vec((any_float(), any_float()), 0..20),
    ) {
        let result = timed({ let points = points.clone(); move || linear_fit(&points) });
        let finite = points.iter().all(|(x, y)| x.is_finite() && y.is_finite());
        let distinct = points.iter().any(|&(x, _)| x != points[0].0);
        prop_assert_eq!(result.is_ok(), finite && distinct, "{:?}", result);
        if let Ok(fit) = result {
            prop_assert!((0.0..=1.0 + 1e-9).contains(&fit.r_squared), "{fit:?}");
            prop_assert!(!fit.slope.is_nan() && !fit.intercept.is_nan(), "{fit:?}");
        }
    }

    #[test]
    fn linear_fit_recovers_a_line_at_any_scale(
        intercept in -1e6..1e6f64,
        slope in -1e6..1e6f64,
        scale in -300..300i32,
    ) {
        let unit = 2f64.powi(scale / 2);
        let points: Vec<(f64, f64)> = (1..=8)
            .map(|x| (f64::from(x) * unit, intercept + slope * f64::from(x)))
            .collect();
        let fit = timed(move || linear_fit(&points)).unwrap();
        let tolerance = 1e-6 * (intercept.abs() + 8.0 * slope.abs() + 1.0);
        prop_assert!((fit.slope * unit - slope).abs() <= tolerance, "{fit:?}");
        prop_assert!((fit.intercept - intercept).abs() <= tolerance, "{fit:?}");
    }

    #[test]
    fn samples_of_any_timings_give_figures_without_a_panic(
        per_call in prop::collection::vec((any_float(), any_float()), 1..40),
        batch in prop_oneof![0..3u64, 1..1_000_000u64, any::<u64>()],
        ladder in prop::sample::select(vec![&[][..], &[1][..], samples::LADDER]),
        calibration in (any_float(), any_float(), any_float()),
        systematic in any_float(),
        placements in 1..=8usize,
    ) {
        let rounds: Vec<Round> = per_call
            .iter()
            .enumerate()
            .map(|(round, &(original, candidate))| {
                let size = batch.saturating_mul(samples::ladder_step(ladder, round));
                Round {
                    original_first: round % 2 == 0,
                    placement: samples::placement_of(round, &[ladder], placements),
                    batch_sizes: vec![[size, size]],
                    per_call_ns: vec![[original, candidate]],
                }
            })
            .collect();
        let samples = Samples {
            batch_sizes: vec![[batch, batch]],
            batch_limits: vec![None],
            ladders: vec![ladder],
            rounds,
            placements,
            shorter_call_ns: 0.0,
            warm_up_rounds: 0,
            stop: Stop::Budget,
            elapsed_ns: 0.0,
            calibration: Calibration {
                reading_cost_ns: calibration.0,
                resolution_ns: calibration.1,
                empty_call_ns: calibration.2,
            },
        };
        let cap = samples::max_overhead_ns(&samples.calibration);
        let (overheads, estimate) = timed(move || {
            let _ = samples.fit(0, Side::Original);
            let _ = samples.log_ratios();
            (samples.overheads(), Estimate::from_samples(&samples, systematic))
        });
        for overhead in overheads {
            prop_assert!(overhead >= 0.0 && (overhead <= cap.max(0.0)), "{overhead} (cap {cap})");
        }
        let (low, high) = estimate.ci;
        prop_assert!(low <= high || low.is_nan() || high.is_nan(), "{:?}", estimate.ci);
    }
}

/// What every interval function promises: `Ok` exactly when the arguments
/// are in the domain and there are two blocks of values, and then a centre
/// between the values' extremes and a half-width that is not negative.
fn check_interval(
    values: &[f64],
    confidence: f64,
    result: Result<faster_runtime::__internal::Interval, StatsError>,
) -> Result<(), TestCaseError> {
    let in_domain = confidence > 0.0 && confidence < 1.0 && values.iter().all(|v| v.is_finite());
    match result {
        Ok(interval) => {
            prop_assert!(in_domain);
            let (low, high) = bounds(values);
            prop_assert!(
                low <= interval.center && interval.center <= high,
                "{interval:?}"
            );
            prop_assert!(interval.half_width >= 0.0, "{interval:?}");
            prop_assert!(interval.blocks >= 2);
        }
        Err(StatsError::TooFew { got, .. }) => prop_assert!(in_domain && got < 2),
        Err(error) => prop_assert!(!in_domain, "{error}"),
    }
    Ok(())
}

/// Quantiles at 40 significant digits or more (mpmath 1.3: the root in
/// `ln t` of `½ I(ν/(ν+t²); ν/2, ½) = min(p, 1 − p)`, the regularized
/// incomplete beta by `mpmath.betainc`, the normal's by `mpmath.erfinv`, at
/// 40 digits more than the tail's exponent), rounded to the nearest `f64`:
/// `(probability, degrees of freedom, quantile)`.
const REFERENCE: &[(f64, f64, f64)] = &[
    (1e-300, 1.0, -3.1830988618379066e+299),
    (1e-12, 1.0, -318309886183.79065),
    (0.025, 1.0, -12.706204736174705),
    (0.3, 1.0, -0.7265425280053609),
    (0.4999999, 1.0, -3.141592653680235e-07),
    (0.995, 1.0, 63.656741162871526),
    (1e-300, 1.5, -5.219469427344636e+199),
    (1e-12, 1.5, -52194694.27344635),
    (0.025, 1.5, -6.0166631044279315),
    (0.3, 1.5, -0.6517954826023571),
    (0.4999999, 1.5, -2.934832215485126e-07),
    (0.995, 1.5, 17.820310514462797),
    (1e-300, 2.0, -7.071067811865475e+149),
    (1e-12, 2.0, -707106.7811854868),
    (0.025, 2.0, -4.302652729749464),
    (0.3, 2.0, -0.6172133998483676),
    (0.4999999, 2.0, -2.82842712482758e-07),
    (0.995, 2.0, 9.92484320091829),
    (1e-300, 3.0, -1.033110836044653e+100),
    (1e-12, 3.0, -10331.108244292485),
    (0.025, 3.0, -3.1824463052837095),
    (0.3, 3.0, -0.5843897274398187),
    (0.4999999, 3.0, -2.720699046429607e-07),
    (0.995, 3.0, 5.840909309733355),
    (1e-300, 4.0, -1.3160740129524924e+75),
    (1e-12, 4.0, -1316.0727465592565),
    (0.025, 4.0, -2.7764451051977943),
    (0.3, 4.0, -0.5686490630497055),
    (0.4999999, 4.0, -2.666666666743388e-07),
    (0.995, 4.0, 4.604094871349992),
    (1e-300, 10.0, -2.564525718948198e+30),
    (1e-12, 10.0, -40.5320961786626),
    (0.025, 10.0, -2.228138851986275),
    (0.3, 10.0, -0.5415280387550157),
    (0.4999999, 10.0, -2.569978035004425e-07),
    (0.995, 10.0, 3.169272672616951),
    (1e-300, 30.0, -50178575360.50508),
    (1e-12, 30.0, -11.397217523311411),
    (0.025, 30.0, -2.042272456301238),
    (0.3, 30.0, -0.5300190039065045),
    (0.4999999, 30.0, -2.5276002261960695e-07),
    (0.995, 30.0, 2.749995653567225),
    (1e-300, 100.0, -9682.734287069563),
    (1e-12, 100.0, -8.025825594493254),
    (0.025, 100.0, -1.9839715185235522),
    (0.3, 100.0, -0.5260762706003463),
    (0.4999999, 100.0, -2.512902580443267e-07),
    (0.995, 100.0, 2.6258905214380177),
    (1e-300, 1000.0, -54.291388553051746),
    (1e-12, 1000.0, -7.1242289253144095),
    (0.025, 1000.0, -1.9623390808264085),
    (0.3, 1000.0, -0.524567707309227),
    (0.4999999, 1000.0, -2.5072550100059754e-07),
    (0.995, 1000.0, 2.5807546980659506),
    (1e-300, 100000.0, -37.174670665466216),
    (1e-12, 100000.0, -7.035371742393576),
    (0.025, 100000.0, -1.9599877075346097),
    (0.3, 100000.0, -0.5244021842335458),
    (0.4999999, 100000.0, -2.5066345412816263e-07),
    (0.995, 100000.0, 2.575878469908375),
    (1e-300, 13000000.0, -37.04807485395552),
    (1e-12, 13000000.0, -7.034490654703304),
    (0.025, 13000000.0, -1.9599641670224732),
    (0.3, 13000000.0, -0.5244005255658969),
    (0.4999999, 13000000.0, -2.5066283229074967e-07),
    (0.995, 13000000.0, 2.575829681744922),
    (1e-300, 18000000.0, -37.04780302890999),
    (1e-12, 18000000.0, -7.0344887576460104),
    (0.025, 18000000.0, -1.9599641163329091),
    (0.3, 18000000.0, -0.5244005219942701),
    (0.4999999, 18000000.0, -2.506628309517388e-07),
    (0.995, 18000000.0, 2.575829576690461),
    (1e-300, 1000000000000.0, -37.047096312082125),
    (1e-12, 1000000000000.0, -7.0344838253899145),
    (0.025, 1000000000000.0, -1.9599639845424264),
    (0.3, 1000000000000.0, -0.524400512708208),
    (0.4999999, 1000000000000.0, -2.506628274703733e-07),
    (0.995, 1000000000000.0, 2.575829303553817),
    (1e-300, f64::INFINITY, -37.0470962993612),
    (1e-12, f64::INFINITY, -7.034483825301132),
    (0.025, f64::INFINITY, -1.9599639845400543),
    (0.3, f64::INFINITY, -0.5244005127080408),
    (0.4999999, f64::INFINITY, -2.5066282747031063e-07),
    (0.995, f64::INFINITY, 2.5758293035489004),
    // The smallest probabilities an f64 holds (subnormal).
    (5e-324, 1.5, -1.7992986474453173e+215),
    (1e-310, 2.5, -8.765437882280003e+123),
    (5e-324, 3.0, -6.065761977939858e+107),
];

/// The largest relative error the quantile may have anywhere; measured over
/// 783 points from 1e-300 to 1 − 1e-16 and from 1 to 1e12 degrees of
/// freedom, the worst was 5.8e-13 (p = 0.05, ν = 500).
const ACCURACY: f64 = 1e-12;

#[test]
fn student_t_quantiles_match_high_precision_references() {
    for &(p, nu, expected) in REFERENCE {
        let t = timed(move || student_t_quantile(p, nu)).unwrap();
        let error = ((t - expected) / expected).abs();
        assert!(
            error <= ACCURACY,
            "t({p}, {nu}) = {t}, expected {expected} (relative error {error:.1e})"
        );
    }
}

#[test]
fn student_t_quantiles_match_published_tables() {
    // Two-sided 95% and 99% critical values, to the tables' three decimals.
    for (p, nu, table) in [
        (0.975, 1.0, 12.706),
        (0.975, 2.0, 4.303),
        (0.975, 5.0, 2.571),
        (0.975, 10.0, 2.228),
        (0.975, 30.0, 2.042),
        (0.975, 120.0, 1.980),
        (0.975, f64::INFINITY, 1.960),
        (0.995, 1.0, 63.657),
        (0.995, 4.0, 4.604),
        (0.995, 10.0, 3.169),
        (0.995, 30.0, 2.750),
        (0.995, f64::INFINITY, 2.576),
    ] {
        let t = student_t_quantile(p, nu).unwrap();
        assert!(
            (t - table).abs() <= 5e-4,
            "t({p}, {nu}) = {t}, the table says {table}"
        );
    }
}

#[test]
fn where_statrs_loops_or_drifts_the_quantile_returns_the_right_value() {
    // statrs 0.19's StudentsT::inverse_cdf reads 1.95941 at 1e6, 1.8506 at
    // 1.3e7 and never returns at 1.8e7.
    for nu in [1e6, 1.3e7, 1.8e7] {
        let t = timed(move || student_t_quantile(0.975, nu)).unwrap();
        assert!((t - 1.959_96).abs() < 1e-5, "t(0.975, {nu}) = {t}");
    }
}

#[test]
fn arguments_outside_the_domain_are_named() {
    let error = student_t_quantile(f64::NAN, 3.0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "probability is NaN, but must be from 0 to 1"
    );
    let error = student_t_quantile(0.9, 0.5).unwrap_err();
    assert_eq!(
        error.to_string(),
        "degrees_of_freedom is 0.5, but must be at least 1 (+∞ for the normal distribution)"
    );
    assert_eq!(student_t_quantile(0.0, 7.0), Ok(f64::NEG_INFINITY));
    // Beyond the largest f64: 1/(π · 4.9e-324) for one degree of freedom.
    assert_eq!(student_t_quantile(5e-324, 1.0), Ok(f64::NEG_INFINITY));
    assert_eq!(student_t_quantile(5e-324, 1.01), Ok(f64::NEG_INFINITY));
    assert_eq!(student_t_quantile(1.0, 7.0), Ok(f64::INFINITY));
    let error = batch_means_interval(&[1.0, f64::NAN, 2.0, 3.0], 0.99, 1).unwrap_err();
    assert_eq!(
        error.to_string(),
        "value 1 is NaN, but every value must be finite"
    );
}
