use super::*;

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn mean_and_variance_of_known_values() {
    let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
    assert_eq!(mean(&values), 5.0);
    assert!(close(variance(&values), 32.0 / 7.0, 1e-12));
}

#[test]
fn t_quantiles_match_published_tables() {
    // Two-sided 99% critical values.
    assert!(close(student_t_quantile(0.995, 1.0).unwrap(), 63.657, 1e-3));
    assert!(close(student_t_quantile(0.995, 4.0).unwrap(), 4.604, 1e-3));
    assert!(close(student_t_quantile(0.995, 10.0).unwrap(), 3.169, 1e-3));
    assert!(close(student_t_quantile(0.995, 30.0).unwrap(), 2.750, 1e-3));
    assert!(close(student_t_quantile(0.975, 1e6).unwrap(), 1.960, 1e-3));
}

#[test]
fn block_length_is_whole_cycles_and_grows_slowly() {
    assert_eq!(block_length(0, 2), 2);
    assert_eq!(block_length(5, 2), 2);
    assert_eq!(block_length(16, 2), 4);
    assert_eq!(block_length(2_000, 2), 20);
    assert_eq!(block_length(127, 8), 16);
    for rounds in 0..5_000 {
        assert_eq!(block_length(rounds, 2) % 2, 0);
        assert_eq!(block_length(rounds, 8) % 8, 0);
    }
}

#[test]
fn a_systematic_part_adds_in_quadrature() {
    let interval = Interval {
        center: 0.1,
        half_width: 0.003,
        blocks: 8,
    };
    let widened = interval.with_systematic(0.004);
    assert!(close(widened.half_width, 0.005, 1e-15));
    assert_eq!((widened.center, widened.blocks), (0.1, 8));
}

#[test]
fn linear_fit_by_hand() {
    // y = 50 + 2x exactly, then with one point off the line.
    let exact = linear_fit(&[(1.0, 52.0), (2.0, 54.0), (3.0, 56.0), (4.0, 58.0)]).unwrap();
    assert!(close(exact.intercept, 50.0, 1e-9) && close(exact.slope, 2.0, 1e-12));
    assert!(close(exact.r_squared, 1.0, 1e-12));
    let bent = linear_fit(&[(1.0, 52.0), (2.0, 54.0), (3.0, 57.0), (4.0, 58.0)]).unwrap();
    // x̄ 2.5, ȳ 55.25, Sxx 5, Sxy 10.5, Syy 22.75.
    assert!(close(bent.slope, 2.1, 1e-12));
    assert!(close(bent.intercept, 55.25 - 2.1 * 2.5, 1e-9));
    assert!(close(bent.r_squared, 10.5 * 10.5 / (5.0 * 22.75), 1e-12));
    assert_eq!(linear_fit(&[(1.0, 5.0), (1.0, 6.0)]).ok(), None);
}

#[test]
fn batch_means_interval_by_hand() {
    // 12 values: blocks of 2 (6 pairs, cube root 1.8), so 6 blocks.
    let values = [1.0, 3.0, 2.0, 2.0, 4.0, 0.0, 3.0, 1.0, 2.0, 4.0, 1.0, 1.0];
    // Block means 2, 2, 2, 2, 3, 1: mean 2, variance 0.4.
    let interval = batch_means_interval(&values, 0.99, 2).unwrap();
    assert_eq!(interval.blocks, 6);
    assert!(close(interval.center, 2.0, 1e-12));
    let expected = 4.032_142_8 * (0.4_f64 / 6.0).sqrt(); // t(0.995, 5) = 4.032
    assert!(close(interval.half_width, expected, 1e-5), "{interval:?}");
}

#[test]
fn too_few_values_give_no_interval() {
    assert_eq!(
        batch_means_interval(&[0.1, 0.2, 0.3], 0.99, 2),
        Err(StatsError::TooFew {
            what: "blocks of values",
            needed: 2,
            got: 1
        })
    );
    assert!(batch_means_interval(&[0.1, 0.2, 0.3, 0.4], 0.99, 2).is_ok());
}

#[test]
fn autocorrelated_series_get_a_wider_interval_than_a_naive_one() {
    // A slow square wave plus alternation: consecutive values move together.
    let values: Vec<f64> = (0..512)
        .map(|i| if (i / 64) % 2 == 0 { 0.02 } else { -0.02 } + if i % 2 == 0 { 0.001 } else { -0.001 })
        .collect();
    let interval = batch_means_interval(&values, 0.99, 2).unwrap();
    let naive = student_t_quantile(0.995, 511.0).unwrap() * (variance(&values) / 512.0).sqrt();
    assert!(
        interval.half_width > 1.5 * naive,
        "{interval:?} vs naive {naive}"
    );
}

#[test]
fn winsorizing_pulls_in_only_the_tails() {
    // Median 0, absolute deviations median 1, so σ̂ = 1.4826 and the
    // clamp is at ±4.4478.
    let values = [-1.0, 1.0, -1.0, 1.0, 0.0, 0.5, -0.5, 30.0, -20.0];
    let clipped = winsorize(&values, 3.0).unwrap();
    assert_eq!(&clipped[..7], &values[..7]);
    assert!(close(clipped[7], 4.4478, 1e-9));
    assert!(close(clipped[8], -4.4478, 1e-9));
}

#[test]
fn rare_disturbances_barely_move_the_robust_interval() {
    // One value in ten is disturbed by ±20%, alternately up and down;
    // the rest wobble by ±0.1%.
    let values: Vec<f64> = (0..400)
        .map(|i| match i % 20 {
            3 => 0.2,
            13 => -0.2,
            _ if i % 2 == 0 => 0.001,
            _ => -0.001,
        })
        .collect();
    let robust = robust_interval(&values, 0.99, 2).unwrap();
    let plain = batch_means_interval(&values, 0.99, 2).unwrap();
    assert!(
        robust.half_width < plain.half_width / 10.0,
        "{robust:?} vs {plain:?}"
    );
    assert!(robust.center.abs() < 1e-3, "{robust:?}");
}

#[test]
fn percentiles_interpolate_between_ranks() {
    let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(percentile(&sorted, 50.0), 3.0);
    assert_eq!(percentile(&sorted, 5.0), 1.2);
    assert!(close(percentile(&sorted, 95.0), 4.8, 1e-12));
    assert_eq!(percentile(&[7.0], 95.0), 7.0);
    assert!(percentile(&[], 50.0).is_nan());
}

#[test]
fn agreeing_processes_keep_their_claimed_width_under_students_t() {
    // Four processes at one estimate, each claiming ±1%: the spread is
    // taken as their claimed variance, with t(0.995, 3) = 5.8409.
    let interval = across_processes(&[(0.2, Some(0.01)); 4], 0.99).unwrap();
    let sigma = 0.01 / 2.575_829;
    assert!(
        close(interval.half_width, 5.840_909 * sigma / 2.0, 1e-6),
        "{interval:?}"
    );
    assert_eq!((interval.center, interval.blocks), (0.2, 4));
}

#[test]
fn disagreeing_processes_widen_the_interval_by_their_spread() {
    // ±0.1% each, but 20% apart: the interval must cover both, and with two
    // processes it is as wide as one degree of freedom makes it.
    let interval = across_processes(&[(-0.1, Some(0.001)), (0.1, Some(0.001))], 0.99).unwrap();
    assert!(
        interval.low() < -0.1 && interval.high() > 0.1,
        "{interval:?}"
    );
    // Many processes: the spread decides, and the width shrinks with √N.
    let processes: Vec<(f64, Option<f64>)> = (0..40)
        .map(|i| (if i % 2 == 0 { -0.1 } else { 0.1 }, Some(0.001)))
        .collect();
    let many = across_processes(&processes, 0.99).unwrap();
    assert!(many.half_width < 0.06, "{many:?}");
}

#[test]
fn processes_that_each_claim_little_still_cover_the_mean_of_their_layouts() {
    // Layouts of one binary move a function by several percent, while each
    // process claims ±0.5%: four to twelve processes, each in a layout
    // drawn at random (σ = 5% between layouts, 0.2% within), 2 000 times
    // each. The interval must hold the mean over layouts 99% of the time;
    // an estimate that weighed the claims as a prior held it about 89% of
    // the time at four processes.
    use rand::SeedableRng;
    use rand_distr::{Distribution, Normal};
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    let between = Normal::new(0.0, 0.05).unwrap();
    let within = Normal::new(0.0, 0.002).unwrap();
    for count in [4, 6, 12] {
        let trials = 2_000;
        let held = (0..trials)
            .filter(|_| {
                let processes: Vec<(f64, Option<f64>)> = (0..count)
                    .map(|_| {
                        let layout = between.sample(&mut rng);
                        (layout + within.sample(&mut rng), Some(0.005))
                    })
                    .collect();
                let interval = across_processes(&processes, 0.99).unwrap();
                interval.low() <= 0.0 && 0.0 <= interval.high()
            })
            .count();
        let coverage = held as f64 / trials as f64;
        assert!(coverage > 0.98, "{count} processes: {coverage}");
    }
}

#[test]
fn processes_need_two_and_finite_figures() {
    assert!(matches!(
        across_processes(&[(0.1, Some(0.01))], 0.99),
        Err(StatsError::TooFew {
            what: "processes",
            needed: 2,
            got: 1
        })
    ));
    assert_eq!(
        across_processes(&[(0.1, Some(0.01)), (0.2, Some(f64::INFINITY))], 0.99),
        Err(StatsError::NotFinite {
            index: 3,
            value: f64::INFINITY
        })
    );
    assert!(matches!(
        across_processes(&[(0.1, None), (f64::NAN, None)], 0.99),
        Err(StatsError::NotFinite { index: 1, .. })
    ));
}

#[test]
fn a_process_without_an_interval_still_gives_its_centre() {
    // Four processes read 460x faster within 5% of each other; one had too
    // few rounds for an interval of its own. The comparison is decided by
    // the spread of the four, floored by the three that claim a width.
    let centers = [6.09, 6.13, 6.14, 6.18];
    let processes: Vec<(f64, Option<f64>)> = centers
        .iter()
        .enumerate()
        .map(|(index, &center)| (center, (index != 2).then_some(0.02)))
        .collect();
    let interval = across_processes(&processes, 0.99).unwrap();
    assert!(close(interval.center, 6.135, 1e-9), "{interval:?}");
    assert!(
        interval.low() > 6.0 && interval.high() < 6.3,
        "{interval:?}"
    );
    // None claims a width: the spread alone decides.
    let unclaimed: Vec<(f64, Option<f64>)> = centers.iter().map(|&c| (c, None)).collect();
    let alone = across_processes(&unclaimed, 0.99).unwrap();
    assert!(
        close(alone.half_width, interval.half_width, 1e-9),
        "{alone:?}"
    );
}

#[test]
fn pooled_series_share_their_block_variance_and_keep_their_own_centres() {
    // Two series of 16 values, blocks of 8 (cycle 8): block means ±0.001
    // about each series' own centre, which lie 0.2 apart.
    let series = |center: f64| -> Vec<f64> {
        (0..16)
            .map(|i| center + if i < 8 { -0.001 } else { 0.001 })
            .collect()
    };
    let (own, of_mean) = pooled_robust_intervals(&[series(0.0), series(0.2)], 0.99, 8).unwrap();
    // One degree of freedom per series; the block variance is pooled:
    // (4 · 0.001²) / 2, the same for both.
    let t = -student_t_quantile(0.005, 2.0).unwrap();
    let within = (4.0 * 0.001_f64.powi(2) / 2.0).sqrt();
    assert!(
        close(own[0].half_width, t * within / 2.0_f64.sqrt(), 1e-12),
        "{own:?}"
    );
    assert!(close(own[0].center, 0.0, 1e-15) && close(own[1].center, 0.2, 1e-15));
    assert_eq!(own[1].blocks, 2);
    // The spread between the series is not noise of either (winsorizing
    // each on its own keeps 0.2 whole), nor part of the mean's width.
    assert!(close(of_mean.center, 0.1, 1e-12), "{of_mean:?}");
    assert!(
        close(of_mean.half_width, t * within / 2.0, 1e-12),
        "{of_mean:?}"
    );
    assert_eq!(of_mean.blocks, 3);
}

#[test]
fn pooled_series_need_a_block_each_and_one_degree_of_freedom() {
    assert!(matches!(
        pooled_robust_intervals(&[], 0.99, 2),
        Err(StatsError::TooFew { what: "series", .. })
    ));
    assert!(matches!(
        pooled_robust_intervals(&[vec![0.1; 4], vec![0.1]], 0.99, 2),
        Err(StatsError::TooFew { got: 0, .. })
    ));
    assert!(matches!(
        pooled_robust_intervals(&[vec![0.1; 2], vec![0.1; 2]], 0.99, 2),
        Err(StatsError::TooFew {
            what: "blocks of values beyond one per series",
            ..
        })
    ));
    let (own, _) = pooled_robust_intervals(&[vec![0.1; 4], vec![0.1; 2]], 0.99, 2).unwrap();
    assert_eq!(
        (own[0].blocks, own[1].blocks, own[1].half_width),
        (2, 1, 0.0)
    );
}

#[test]
fn agreeing_placements_predict_about_one_placement_width() {
    // Eight placements at one estimate, each claiming ±0.5%: the prior sets
    // the spread, t(0.995, 11) = 3.106, and a new placement's interval is
    // √(1 + 1/8) times the spread, where the mean's would be √(1/8) times.
    let placements = [(0.3, 0.005); 8];
    let sigma = 0.005 / 2.575_829;
    let pooled = (4.0 * sigma * sigma / 11.0_f64).sqrt();
    let predicted = across_placements(&placements, 0.99).unwrap();
    assert!(
        close(
            predicted.half_width,
            3.105_807 * pooled * 1.125_f64.sqrt(),
            1e-6
        ),
        "{predicted:?}"
    );
    assert_eq!((predicted.center, predicted.blocks), (0.3, 8));
}

#[test]
fn one_placement_apart_is_covered_where_the_mean_of_all_is_not() {
    // Measured here at ≈ 1.3 ns a call: seven placements read 4 steps
    // against 1 as 0.25, one read 0.30. Another loop may be either.
    let mut placements = vec![(0.25_f64.ln(), 0.005); 7];
    placements.push((0.30_f64.ln(), 0.005));
    let predicted = across_placements(&placements, 0.99).unwrap();
    for ratio in [0.25_f64, 0.30] {
        assert!(
            predicted.low() < ratio.ln() && ratio.ln() < predicted.high(),
            "{ratio}: {:?}",
            predicted.exp_bounds()
        );
    }
    assert!(matches!(
        across_placements(&[], 0.99),
        Err(StatsError::TooFew {
            what: "placements",
            got: 0,
            ..
        })
    ));
}

#[test]
fn median_and_minimum() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    assert_eq!(minimum([3.0, 1.0, 2.0]), 1.0);
}
