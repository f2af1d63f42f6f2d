//! Estimators and intervals. Pure functions: slices in, numbers out.
//!
//! The paired estimate works in log space: each round gives one log ratio
//! `ln(original / candidate)`, their mean is the log of the geometric-mean
//! speedup, and its interval comes from batch means, because neighbouring
//! rounds share the machine's state and are not independent.
//!
//! Timing noise is heavy-tailed: most rounds sit close to the median ratio
//! while a few are far off (an interrupt or a stolen time slice hit one
//! side; the guide's "How it measures", `guide/measuring.md`, has the
//! figures as measured). A plain mean
//! lets those few rounds set the interval's width, and a width estimated from
//! a handful of rare events swings from check to check, which lets a stop
//! rule halt on a lucky low. So log ratios are first winsorized around their
//! median ([`winsorize`]), then averaged.
//!
//! Every function here returns, quickly, for every argument. Two
//! conventions, one per kind of function:
//!
//! - the descriptive statistics ([`mean`], [`variance`], [`median`],
//!   [`percentile`], [`minimum`]) answer `NaN` where there is no answer (no
//!   values, a `NaN` among them, a percentile outside 0–100), as IEEE
//!   arithmetic and libtest's own statistics do, and never overflow on the
//!   way to a result that fits in an `f64`;
//! - the estimators with parameters ([`student_t_quantile`], the intervals,
//!   [`winsorize`], [`linear_fit`]) return a [`StatsError`] naming what was
//!   wrong: a `NaN`, an infinity or an out-of-range argument, too few values.

mod interval;
mod quantile;
mod stratified;

pub mod estimate;
pub mod samples;
pub mod verdict;

pub use interval::{
    Interval, PRIOR_DEGREES_OF_FREEDOM, WINSORIZE_SIGMAS, across_placements, across_processes,
    batch_means_interval, block_length, pooled_robust_intervals, robust_interval, winsorize,
};
pub use quantile::student_t_quantile;
pub use stratified::{ByOffsets, Placed, by_offsets};

use std::fmt;

/// Why a statistic could not be computed.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum StatsError {
    /// An argument is `NaN` or outside the values the function takes.
    OutOfDomain {
        /// The argument's name.
        argument: &'static str,
        /// What it was.
        value: f64,
        /// What it may be.
        domain: &'static str,
    },
    /// A value of the data is `NaN` or infinite.
    NotFinite {
        /// Its position (from 0).
        index: usize,
        /// What it was.
        value: f64,
    },
    /// Too few values for the statistic.
    TooFew {
        /// What there are too few of.
        what: &'static str,
        /// How many it needs.
        needed: usize,
        /// How many there were.
        got: usize,
    },
}

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsError::OutOfDomain {
                argument,
                value,
                domain,
            } => write!(f, "{argument} is {value}, but must be {domain}"),
            StatsError::NotFinite { index, value } => {
                write!(
                    f,
                    "value {index} is {value}, but every value must be finite"
                )
            }
            StatsError::TooFew { what, needed, got } => {
                write!(
                    f,
                    "too few {what}: {got}, where at least {needed} are needed"
                )
            }
        }
    }
}

impl std::error::Error for StatsError {}

/// `Ok` when every value is finite, else the first that is not.
fn all_finite(values: impl IntoIterator<Item = f64>) -> Result<(), StatsError> {
    match values.into_iter().enumerate().find(|(_, v)| !v.is_finite()) {
        Some((index, value)) => Err(StatsError::NotFinite { index, value }),
        None => Ok(()),
    }
}

/// The arithmetic mean: `NaN` for no values or a `NaN` among them, and as
/// IEEE arithmetic has it with infinities (`+∞` and `−∞` together: `NaN`).
/// Finite values always give a finite mean, also where their sum overflows.
pub fn mean(values: &[f64]) -> f64 {
    let count = values.len() as f64;
    let sum: f64 = values.iter().sum();
    if sum.is_finite() || !values.iter().all(|value| value.is_finite()) {
        return sum / count;
    }
    // The sum overflowed: add the values' shares instead, and keep the
    // result between the extremes, where rounding might have nudged it out.
    let shared: f64 = values.iter().map(|value| value / count).sum();
    let (low, high) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), &v| {
            (low.min(v), high.max(v))
        });
    shared.max(low).min(high)
}

/// The unbiased sample variance: `NaN` with fewer than two values or with a
/// `NaN` or an infinity among them, `+∞` where it exceeds the largest `f64`.
pub fn variance(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return f64::NAN;
    }
    let center = mean(values);
    let divisor = values.len() as f64 - 1.0;
    let squares: f64 = values.iter().map(|value| (value - center).powi(2)).sum();
    if squares.is_finite() || !center.is_finite() {
        return squares / divisor;
    }
    // The squares overflowed: scale the deviations by the largest, so only
    // the result can overflow, and only where it must (a deviation beyond
    // the largest f64 squares to far beyond it).
    let largest = values
        .iter()
        .map(|value| (value - center).abs())
        .fold(0.0, f64::max);
    if largest.is_infinite() {
        return f64::INFINITY;
    }
    let scaled: f64 = values
        .iter()
        .map(|value| ((value - center) / largest).powi(2))
        .sum();
    let deviation = largest * (scaled / divisor).sqrt();
    deviation * deviation
}

/// The `percent`-th percentile of `sorted` values, interpolating linearly
/// between the closest ranks (as libtest's `percentile` does).
///
/// `NaN` for no values, a `NaN` among them, or a `percent` outside 0–100.
/// `sorted` must be in ascending order; values out of order give a figure
/// between two of them, not a panic.
pub fn percentile(sorted: &[f64], percent: f64) -> f64 {
    if sorted.is_empty() || !(0.0..=100.0).contains(&percent) || sorted.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    let last = sorted.len() - 1;
    let rank = percent / 100.0 * last as f64;
    let low = rank.floor();
    let index = (low as usize).min(last);
    let (here, next) = (sorted[index], sorted[(index + 1).min(last)]);
    let fraction = rank - low;
    if fraction == 0.0 {
        return here;
    }
    let value = here + (next - here) * fraction;
    if value.is_finite() {
        value
    } else {
        // `next − here` overflowed (values near ±f64::MAX).
        here * (1.0 - fraction) + next * fraction
    }
}

/// The minimum of the values; `NaN`s are skipped (as `f64::min` does), and
/// no values at all give `+∞`.
pub fn minimum(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(f64::INFINITY, f64::min)
}

/// The median (the midpoint of the middle two for an even count); `NaN` for
/// no values or a `NaN` among them. Linear time: it selects, it does not
/// sort.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() || values.iter().any(|value| value.is_nan()) {
        return f64::NAN;
    }
    let middle = values.len() / 2;
    let even = values.len() % 2 == 0;
    let mut values = values.to_vec();
    let (below, upper, _) = values.select_nth_unstable_by(middle, f64::total_cmp);
    if even {
        let lower = below.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        lower.midpoint(*upper)
    } else {
        *upper
    }
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

/// Fits a line to the points by ordinary least squares.
///
/// Every coordinate must be finite ([`StatsError::NotFinite`] names the
/// first point that is not), and at least two x values must differ
/// ([`StatsError::TooFew`]). The sums are taken on coordinates scaled by
/// powers of two (exactly), so they cannot overflow; a slope or intercept
/// beyond the range of an `f64` is ±∞.
pub fn linear_fit(points: &[(f64, f64)]) -> Result<LinearFit, StatsError> {
    all_finite(
        points
            .iter()
            .map(|&(x, y)| if x.is_finite() { y } else { x }),
    )?;
    let first_x = points.first().map(|&(x, _)| x);
    if points.iter().all(|&(x, _)| Some(x) == first_x) {
        let distinct = usize::from(first_x.is_some());
        return Err(StatsError::TooFew {
            what: "distinct x values",
            needed: 2,
            got: distinct,
        });
    }
    let x_exponent = largest_exponent(points.iter().map(|&(x, _)| x));
    let y_exponent = largest_exponent(points.iter().map(|&(_, y)| y));
    let scaled: Vec<(f64, f64)> = points
        .iter()
        .map(|&(x, y)| {
            (
                times_power_of_two(x, -x_exponent),
                times_power_of_two(y, -y_exponent),
            )
        })
        .collect();
    let count = scaled.len() as f64;
    let mean_x = scaled.iter().map(|(x, _)| x).sum::<f64>() / count;
    let mean_y = scaled.iter().map(|(_, y)| y).sum::<f64>() / count;
    let sxx: f64 = scaled.iter().map(|(x, _)| (x - mean_x).powi(2)).sum();
    let sxy: f64 = scaled
        .iter()
        .map(|(x, y)| (x - mean_x) * (y - mean_y))
        .sum();
    let syy: f64 = scaled.iter().map(|(_, y)| (y - mean_y).powi(2)).sum();
    let slope = sxy / sxx;
    let r_squared = if syy > 0.0 {
        sxy * sxy / (sxx * syy)
    } else {
        1.0
    };
    Ok(LinearFit {
        intercept: times_power_of_two(mean_y - slope * mean_x, y_exponent),
        slope: times_power_of_two(slope, y_exponent - x_exponent),
        r_squared,
    })
}

/// The binary exponent of the largest |value| (0 for none or all zeros):
/// scaling by its inverse is exact and leaves every value under 4 in
/// magnitude.
fn largest_exponent(values: impl Iterator<Item = f64>) -> i32 {
    let largest = values.map(f64::abs).fold(0.0, f64::max);
    if largest == 0.0 || !largest.is_finite() {
        return 0;
    }
    largest.log2().floor() as i32
}

/// `value · 2^exponent`, exact unless the result leaves the range of an
/// `f64`, for any exponent (`2^exponent` alone may not be an `f64`).
fn times_power_of_two(mut value: f64, mut exponent: i32) -> f64 {
    const STEP: i32 = 1000;
    while exponent > STEP {
        value *= 2f64.powi(STEP);
        exponent -= STEP;
    }
    while exponent < -STEP {
        value *= 2f64.powi(-STEP);
        exponent += STEP;
    }
    value * 2f64.powi(exponent)
}

#[cfg(test)]
mod tests;
