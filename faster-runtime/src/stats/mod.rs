//! Estimators and intervals. Pure functions: slices in, numbers out.
//!
//! The paired estimate works in log space: each round gives one log ratio
//! `ln(original / candidate)`, their mean is the log of the geometric-mean
//! speedup, and its interval comes from batch means, because neighbouring
//! rounds share the machine's state and are not independent.
//!
//! Timing noise is heavy-tailed: measured here at 1 µs per call, half the
//! rounds fall within ±0.1% of the median ratio while one in ten is off by
//! 10–20% (an interrupt or a stolen time slice hit one side). A plain mean
//! lets those few rounds set the interval's width, and a width estimated from
//! a handful of rare events swings from check to check, which lets a stop
//! rule halt on a lucky low. So log ratios are first winsorized around their
//! median ([`winsorize`]), then averaged.

pub mod estimate;
pub mod samples;
pub mod verdict;

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The arithmetic mean; `NaN` for an empty slice.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The unbiased sample variance; `NaN` with fewer than two values.
pub fn variance(values: &[f64]) -> f64 {
    let center = mean(values);
    let squares: f64 = values.iter().map(|value| (value - center).powi(2)).sum();
    squares / (values.len() as f64 - 1.0)
}

/// The quantile of Student's t distribution at `probability` with
/// `degrees_of_freedom` (e.g. 0.995 for a two-sided 99% interval).
pub fn student_t_quantile(probability: f64, degrees_of_freedom: f64) -> f64 {
    StudentsT::new(0.0, 1.0, degrees_of_freedom)
        .expect("degrees of freedom are positive")
        .inverse_cdf(probability)
}

/// A symmetric interval around an estimate (in log space for ratios).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub center: f64,
    /// Half the interval's width.
    pub half_width: f64,
    /// How many independent-enough blocks the width rests on.
    pub blocks: usize,
}

impl Interval {
    /// The lower end.
    pub fn low(&self) -> f64 {
        self.center - self.half_width
    }

    /// The upper end.
    pub fn high(&self) -> f64 {
        self.center + self.half_width
    }

    /// This interval widened by an independent `systematic` half-width,
    /// added in quadrature: `√(half_width² + systematic²)`.
    pub fn with_systematic(self, systematic: f64) -> Interval {
        Interval {
            half_width: self.half_width.hypot(systematic),
            ..self
        }
    }

    /// The interval mapped from log space to ratios: `(exp(low), exp(high))`.
    pub fn exp_bounds(&self) -> (f64, f64) {
        (self.low().exp(), self.high().exp())
    }
}

/// How many consecutive rounds make one block for batch means.
///
/// Always a whole number of `cycle`s, the rounds after which the measurement
/// pattern repeats (2: one round of each order; 8: each order at each of four
/// batch sizes), so every block holds the pattern evenly and its effects cancel
/// inside it. It grows as the cube root of the number of cycles, the rate that
/// balances the bias of too-short blocks (correlation left between them)
/// against the variance of too few blocks.
pub fn block_length(rounds: usize, cycle: usize) -> usize {
    let cycle = cycle.max(1);
    let cycles = (rounds / cycle).max(1) as f64;
    cycle * (cycles.cbrt().floor() as usize).max(1)
}

/// The `confidence` interval (e.g. 0.99) of the mean of `values`, a series of
/// autocorrelated observations in time order, by non-overlapping batch means
/// over blocks of [`block_length`]`(values.len(), cycle)`.
///
/// The centre is the mean of all values; the width comes from the spread of
/// the means of consecutive blocks (the oldest values that do not fill a whole
/// block only count towards the centre), with Student's t on blocks − 1
/// degrees of freedom. `None` with fewer than two blocks.
pub fn batch_means_interval(values: &[f64], confidence: f64, cycle: usize) -> Option<Interval> {
    let block = block_length(values.len(), cycle);
    let blocks = values.len() / block;
    if blocks < 2 {
        return None;
    }
    let skipped = values.len() - blocks * block;
    let block_means: Vec<f64> = values[skipped..].chunks_exact(block).map(mean).collect();
    let standard_error = (variance(&block_means) / blocks as f64).sqrt();
    let quantile = student_t_quantile(0.5 + confidence / 2.0, (blocks - 1) as f64);
    Some(Interval {
        center: mean(values),
        half_width: quantile * standard_error,
        blocks,
    })
}

/// How many robust standard deviations from the median a log ratio may lie
/// before [`winsorize`] pulls it in. Three keeps Gaussian data almost
/// untouched (0.3% of values move) while capping a disturbed round's weight.
pub const WINSORIZE_SIGMAS: f64 = 3.0;

/// `values` with each one clamped to `median ± sigmas · σ̂`, where
/// σ̂ = 1.4826 · MAD is the robust standard deviation (the median absolute
/// deviation, scaled to equal σ for Gaussian data).
///
/// The mean of the result is a Huber-type location estimate: the median's
/// robustness with nearly the mean's efficiency. For a symmetric distribution
/// (an A/A comparison is symmetric by construction, as is any pair measured
/// in alternating order) it estimates the same centre as the mean.
pub fn winsorize(values: &[f64], sigmas: f64) -> Vec<f64> {
    if values.is_empty() {
        return Vec::new();
    }
    let center = median(values);
    let deviations: Vec<f64> = values.iter().map(|value| (value - center).abs()).collect();
    let spread = sigmas * 1.4826 * median(&deviations);
    if !(center.is_finite() && spread.is_finite()) {
        // Nothing sensible to pull values towards; the mean of the raw values
        // will carry the NaN or infinity on to the report.
        return values.to_vec();
    }
    values
        .iter()
        .map(|value| value.clamp(center - spread, center + spread))
        .collect()
}

/// The interval the verdict rests on: batch means over the winsorized
/// values (see the module documentation for why both).
pub fn robust_interval(values: &[f64], confidence: f64, cycle: usize) -> Option<Interval> {
    batch_means_interval(&winsorize(values, WINSORIZE_SIGMAS), confidence, cycle)
}

/// A least-squares line `y = intercept + slope · x` and how well it fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearFit {
    /// Where the line crosses x = 0.
    pub intercept: f64,
    /// The line's slope.
    pub slope: f64,
    /// The coefficient of determination: the share of the variance of `y`
    /// the line explains (1 is a perfect fit).
    pub r_squared: f64,
}

/// Fits a line to the points by ordinary least squares; `None` with fewer
/// than two distinct x values.
pub fn linear_fit(points: &[(f64, f64)]) -> Option<LinearFit> {
    let count = points.len() as f64;
    let mean_x = points.iter().map(|(x, _)| x).sum::<f64>() / count;
    let mean_y = points.iter().map(|(_, y)| y).sum::<f64>() / count;
    let sxx: f64 = points.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let sxy: f64 = points
        .iter()
        .map(|(x, y)| (x - mean_x) * (y - mean_y))
        .sum();
    let syy: f64 = points.iter().map(|(_, y)| (y - mean_y).powi(2)).sum();
    if points.len() < 2 || sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let r_squared = if syy > 0.0 {
        sxy * sxy / (sxx * syy)
    } else {
        1.0
    };
    Some(LinearFit {
        intercept: mean_y - slope * mean_x,
        slope,
        r_squared,
    })
}

/// How much the prior of [`across_processes`] weighs: as many degrees of
/// freedom as the spread of five processes would give.
pub const PRIOR_DEGREES_OF_FREEDOM: f64 = 4.0;

/// The `confidence` interval of the mean of per-process estimates
/// (`centers`, in log space), each with its own reported `half_widths` at
/// the same confidence.
///
/// A t-interval over a handful of processes is meaningless (two processes
/// leave one degree of freedom: a 99% half-width of 63.7 standard errors),
/// so the between-process variance is pooled with a prior: each process's
/// own claimed uncertainty, weighted as [`PRIOR_DEGREES_OF_FREEDOM`]
/// (the conjugate scaled-inverse-χ² update of a normal variance). Processes
/// that agree keep about the width one process reports; processes that
/// disagree widen it by as much as their spread says; with many processes the
/// spread decides alone. `None` without a process, or without a finite
/// half-width to build the prior from.
pub fn across_processes(centers: &[f64], half_widths: &[f64], confidence: f64) -> Option<Interval> {
    let count = centers.len();
    if count == 0 || half_widths.len() != count || !half_widths.iter().all(|h| h.is_finite()) {
        return None;
    }
    let normal_quantile = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let prior_variance = mean(
        &half_widths
            .iter()
            .map(|half_width| (half_width / normal_quantile).powi(2))
            .collect::<Vec<_>>(),
    );
    let center = mean(centers);
    let spread: f64 = centers.iter().map(|value| (value - center).powi(2)).sum();
    let degrees_of_freedom = PRIOR_DEGREES_OF_FREEDOM + (count - 1) as f64;
    let pooled_variance = (PRIOR_DEGREES_OF_FREEDOM * prior_variance + spread) / degrees_of_freedom;
    Some(Interval {
        center,
        half_width: student_t_quantile(0.5 + confidence / 2.0, degrees_of_freedom)
            * (pooled_variance / count as f64).sqrt(),
        blocks: count,
    })
}

/// The `percent`-th percentile of `sorted` values, interpolating linearly
/// between the closest ranks (as libtest's `percentile` does); `NaN` for an
/// empty slice.
pub fn percentile(sorted: &[f64], percent: f64) -> f64 {
    match sorted {
        [] => f64::NAN,
        [only] => *only,
        _ => {
            let rank = percent / 100.0 * (sorted.len() - 1) as f64;
            let low = rank.floor();
            let index = low as usize;
            let next = sorted[(index + 1).min(sorted.len() - 1)];
            sorted[index] + (next - sorted[index]) * (rank - low)
        }
    }
}

/// The minimum of a slice; `+∞` for an empty one.
pub fn minimum(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(f64::INFINITY, f64::min)
}

/// The median of a slice (the mean of the middle two for an even length);
/// `NaN` for an empty one. Linear time: it selects, it does not sort.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let middle = values.len() / 2;
    let even = values.len().is_multiple_of(2);
    let mut values = values.to_vec();
    let (below, upper, _) = values.select_nth_unstable_by(middle, f64::total_cmp);
    if even {
        let lower = below.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + *upper) / 2.0
    } else {
        *upper
    }
}

#[cfg(test)]
mod tests {
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
        assert!(close(student_t_quantile(0.995, 1.0), 63.657, 1e-3));
        assert!(close(student_t_quantile(0.995, 4.0), 4.604, 1e-3));
        assert!(close(student_t_quantile(0.995, 10.0), 3.169, 1e-3));
        assert!(close(student_t_quantile(0.995, 30.0), 2.750, 1e-3));
        assert!(close(student_t_quantile(0.975, 1e6), 1.960, 1e-3));
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
        assert_eq!(linear_fit(&[(1.0, 5.0), (1.0, 6.0)]), None);
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
        assert_eq!(batch_means_interval(&[0.1, 0.2, 0.3], 0.99, 2), None);
        assert!(batch_means_interval(&[0.1, 0.2, 0.3, 0.4], 0.99, 2).is_some());
    }

    #[test]
    fn autocorrelated_series_get_a_wider_interval_than_a_naive_one() {
        // A slow square wave plus alternation: consecutive values move together.
        let values: Vec<f64> = (0..512)
            .map(|i| if (i / 64) % 2 == 0 { 0.02 } else { -0.02 } + if i % 2 == 0 { 0.001 } else { -0.001 })
            .collect();
        let interval = batch_means_interval(&values, 0.99, 2).unwrap();
        let naive = student_t_quantile(0.995, 511.0) * (variance(&values) / 512.0).sqrt();
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
        let clipped = winsorize(&values, 3.0);
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
    fn two_agreeing_processes_keep_about_one_process_width() {
        // Two processes at the same estimate, each claiming ±1%: the prior
        // (4 degrees of freedom) alone sets the width, t(0.995, 5) = 4.032.
        let interval = across_processes(&[0.2, 0.2], &[0.01, 0.01], 0.99).unwrap();
        let sigma = 0.01 / 2.575_829;
        let expected = 4.032_143 * (4.0 * sigma * sigma / 5.0 / 2.0_f64).sqrt();
        assert!(close(interval.half_width, expected, 1e-6), "{interval:?}");
        assert!(interval.half_width < 0.01 && interval.half_width > 0.009);
        assert_eq!((interval.center, interval.blocks), (0.2, 2));
    }

    #[test]
    fn disagreeing_processes_widen_the_interval_by_their_spread() {
        // ±0.1% each, but 20% apart: the interval must cover both.
        let interval = across_processes(&[-0.1, 0.1], &[0.001, 0.001], 0.99).unwrap();
        assert!(
            interval.low() < -0.1 && interval.high() > 0.1,
            "{interval:?}"
        );
        // Nowhere near the t on one degree of freedom (63.7 standard errors).
        assert!(interval.half_width < 0.2, "{interval:?}");
        // Many processes: the spread decides, and the width shrinks with √N.
        let centers: Vec<f64> = (0..40)
            .map(|i| if i % 2 == 0 { -0.1 } else { 0.1 })
            .collect();
        let many = across_processes(&centers, &vec![0.001; 40], 0.99).unwrap();
        assert!(many.half_width < 0.06, "{many:?}");
    }

    #[test]
    fn processes_without_an_interval_give_none() {
        assert_eq!(across_processes(&[], &[], 0.99), None);
        assert_eq!(
            across_processes(&[0.1, 0.2], &[0.01, f64::INFINITY], 0.99),
            None
        );
    }

    #[test]
    fn median_and_minimum() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(minimum([3.0, 1.0, 2.0]), 1.0);
    }
}
