//! The quantiles of Student's t distribution, total over their domain: any
//! probability from 0 to 1 and any number of degrees of freedom from 1 to
//! infinity (the normal distribution), each answered in microseconds.
//!
//! `statrs`'s own `StudentsT::inverse_cdf` is not used: it drifts from the
//! 4th digit above a million degrees of freedom (1.95941 for the 97.5% point,
//! which is 1.95996) and never returns near 1.8e7 (its incomplete-beta
//! inversion loops). Instead, by region:
//!
//! - 1 and 2 degrees of freedom: the exact closed forms;
//! - many degrees of freedom: the normal quantile (statrs's `Normal`) plus
//!   the Cornish–Fisher expansion in powers of 1/ν up to ν⁻⁵, taken only
//!   where the last term shows the series has converged to double precision;
//! - elsewhere: Newton's method on the distribution function (statrs's
//!   regularized incomplete beta, the function its own `StudentsT::cdf`
//!   uses), in log space in the tails, kept inside a bracket that always
//!   holds the answer — the normal quantile below, Cauchy's above — and
//!   bisecting whenever a step would leave it, so it ends in a bounded number
//!   of steps whatever the arguments.
//!
//! The tests hold reference values computed independently at 40 or more
//! significant digits.

use super::StatsError;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::beta::beta_reg;
use statrs::function::gamma::ln_gamma;
use std::f64::consts::PI;

/// The quantile of Student's t distribution with `degrees_of_freedom` at
/// `probability`: the `t` with `P(T ≤ t) = probability` (e.g. 0.995 for a
/// two-sided 99% interval).
///
/// `probability` may be anything from 0 to 1 (0 and 1 give −∞ and +∞), and
/// `degrees_of_freedom` anything from 1 up, whole or not, with `+∞` for the
/// normal distribution. Anything else (NaN included) is an
/// [`StatsError::OutOfDomain`]. Where the quantile is beyond the largest
/// `f64` (probabilities under about 1e-308 with under two degrees of
/// freedom), the answer is ±∞.
///
/// ```
/// use faster_runtime::__internal::stats::student_t_quantile;
/// let t = student_t_quantile(0.995, 4.0)?;
/// assert!((t - 4.604_094_871_349_992).abs() < 1e-12);
/// # Ok::<(), faster_runtime::__internal::stats::StatsError>(())
/// ```
pub fn student_t_quantile(probability: f64, degrees_of_freedom: f64) -> Result<f64, StatsError> {
    if !(0.0..=1.0).contains(&probability) {
        return Err(StatsError::OutOfDomain {
            argument: "probability",
            value: probability,
            domain: "from 0 to 1",
        });
    }
    if degrees_of_freedom.is_nan() || degrees_of_freedom < 1.0 {
        return Err(StatsError::OutOfDomain {
            argument: "degrees_of_freedom",
            value: degrees_of_freedom,
            domain: "at least 1 (+∞ for the normal distribution)",
        });
    }
    // The lower tail's probability, exactly: 1 − p is exact for p ≥ 0.5.
    let upper = probability > 0.5;
    let tail = if upper {
        1.0 - probability
    } else {
        probability
    };
    let magnitude = lower_tail_magnitude(tail, degrees_of_freedom);
    Ok(if upper { magnitude } else { -magnitude })
}

/// `|t|` for the lower tail probability `tail` in [0, 0.5].
fn lower_tail_magnitude(tail: f64, nu: f64) -> f64 {
    if tail == 0.0 {
        return f64::INFINITY;
    }
    if tail == 0.5 {
        return 0.0;
    }
    if nu == 1.0 {
        return cauchy_magnitude(tail);
    }
    if nu == 2.0 {
        // t = (1 − 2q) / √(2q(1 − q)).
        return (1.0 - 2.0 * tail) / (2.0 * tail * (1.0 - tail)).sqrt();
    }
    let z = -Normal::standard().inverse_cdf(tail);
    if nu.is_infinite() {
        return z;
    }
    let series = cornish_fisher(z, nu);
    if series.converged {
        return series.value;
    }
    newton(tail, nu, z, series.value)
}

/// Cauchy's quantile magnitude (one degree of freedom): `cot(πq)`, written
/// as `tan(π(½ − q))` near the centre, where `½ − q` is exact.
fn cauchy_magnitude(tail: f64) -> f64 {
    if tail > 0.25 {
        (PI * (0.5 - tail)).tan()
    } else {
        1.0 / (PI * tail).tan()
    }
}

/// The Cornish–Fisher expansion's value and whether it has converged.
struct Series {
    value: f64,
    converged: bool,
}

/// The t quantile from the normal quantile `z` as a series in 1/ν
/// (Abramowitz & Stegun 26.7.5, with the ν⁻⁵ term of Fisher & Cornish,
/// 1960). It is asymptotic: trusted only where its last term is under
/// 1e-16 of the value, which makes the terms after it smaller still.
fn cornish_fisher(z: f64, nu: f64) -> Series {
    let (z2, v) = (z * z, 1.0 / nu);
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    let g5 = (((((27.0 * z2 + 339.0) * z2 + 930.0) * z2 - 1782.0) * z2 - 765.0) * z2 + 17955.0) * z
        / 368_640.0;
    let last = g5 * v.powi(5);
    let value = z + v * (g1 + v * (g2 + v * (g3 + v * g4))) + last;
    Series {
        value,
        converged: last.abs() <= 1e-16 * value.abs(),
    }
}

/// Newton's method for `|t|` at lower tail `tail`, started from `guess`:
/// on `ln P(T > t) = ln q` against `ln t` in the tails, where both are
/// nearly linear in each other, and on `P(0 < T ≤ t) = ½ − q` near the
/// centre, where `½ − q` is exact. The answer lies between the normal
/// quantile `z` (lighter tails) and Cauchy's (heavier); a step that would
/// leave that bracket bisects it instead, so at most [`MAX_STEPS`] steps
/// are taken.
fn newton(tail: f64, nu: f64, z: f64, guess: f64) -> f64 {
    let cauchy = cauchy_magnitude(tail);
    let (low, high) = (z * (1.0 - 1e-9), cauchy * (1.0 + 1e-9));
    let t = StudentT::new(nu);
    if tail > 0.25 {
        let target = 0.5 - tail;
        // In t itself: stop at a relative change of a few ulps.
        safeguarded_newton(
            low,
            high,
            guess,
            |x| 4.0 * f64::EPSILON * x.abs(),
            |x| (t.central(x) - target, t.density(x)),
        )
    } else {
        let ln_tail = tail.ln();
        // In ln t: a change of a few ulps of t is an absolute one.
        let ulps = |_: f64| 4.0 * f64::EPSILON;
        let solved = safeguarded_newton(low.ln(), high.ln(), guess.ln(), ulps, |u| {
            let x = u.exp();
            let ln_upper = t.ln_upper_tail(x);
            (ln_tail - ln_upper, (u + t.ln_density(x) - ln_upper).exp())
        });
        solved.exp()
    }
}

/// The most steps [`safeguarded_newton`] takes: bisection alone narrows a
/// bracket of width 710 (the whole `ln t` range of an `f64`) to 1e-16 in
/// about 63.
const MAX_STEPS: usize = 100;

/// The root of an increasing `f` in `[low, high]` (`f` returns its value and
/// slope): Newton steps where they stay inside the bracket the signs of `f`
/// have narrowed it to, bisection where they would not; done when a step,
/// or the bracket, is within `tolerance(x)`.
fn safeguarded_newton(
    mut low: f64,
    mut high: f64,
    guess: f64,
    tolerance: impl Fn(f64) -> f64,
    f: impl Fn(f64) -> (f64, f64),
) -> f64 {
    let mut x = if guess > low && guess < high {
        guess
    } else {
        (low + high) / 2.0
    };
    for _ in 0..MAX_STEPS {
        let (value, slope) = f(x);
        if value == 0.0 {
            return x;
        }
        // NaN counts as "too high": it only arises past the representable
        // tail (a probability that underflowed), where x is too large.
        if value < 0.0 {
            low = x;
        } else {
            high = x;
        }
        let step = x - value / slope;
        let next = if step > low && step < high {
            step
        } else {
            low + (high - low) / 2.0
        };
        let tolerance = tolerance(next);
        if (next - x).abs() <= tolerance || high - low <= tolerance {
            return next;
        }
        x = next;
    }
    x
}

/// Student's t distribution with `nu` degrees of freedom, as much of it as
/// the inversion needs, for `t ≥ 0`.
struct StudentT {
    nu: f64,
    /// `ln Γ((ν+1)/2) − ln Γ(ν/2) − ½ ln(νπ)`: the log of the density at 0.
    ln_k: f64,
}

impl StudentT {
    fn new(nu: f64) -> Self {
        StudentT {
            nu,
            ln_k: ln_gamma((nu + 1.0) / 2.0) - ln_gamma(nu / 2.0) - 0.5 * (nu * PI).ln(),
        }
    }

    /// `ln(1 + t²/ν)`, without overflowing for huge `t`.
    fn ln1p_square(&self, t: f64) -> f64 {
        let s = t / self.nu.sqrt();
        if s > 1e8 {
            2.0 * s.ln() + (1.0 / (s * s)).ln_1p()
        } else {
            (s * s).ln_1p()
        }
    }

    fn ln_density(&self, t: f64) -> f64 {
        self.ln_k - (self.nu + 1.0) / 2.0 * self.ln1p_square(t)
    }

    fn density(&self, t: f64) -> f64 {
        self.ln_density(t).exp()
    }

    /// `P(0 < T ≤ t) = ½ I(t²/(ν+t²); ½, ν/2)`, accurate for small `t`.
    fn central(&self, t: f64) -> f64 {
        let s2 = t * t / self.nu;
        0.5 * beta_reg(0.5, self.nu / 2.0, s2 / (1.0 + s2))
    }

    /// `ln P(T > t) = ln(½ I(ν/(ν+t²); ν/2, ½))`. Far in the tail, where
    /// that argument vanishes, the first two terms of the tail's expansion
    /// in `1/t²` are exact to double precision: `P(T > t) = e^{ln K}
    /// ν^{(ν−1)/2} t^{−ν} (1 − ν(ν+1)/(2(ν+2)s²))` with `s = t/√ν`.
    fn ln_upper_tail(&self, t: f64) -> f64 {
        let nu = self.nu;
        let s = t / nu.sqrt();
        if s > 1e9 {
            let correction = nu * (nu + 1.0) / (2.0 * (nu + 2.0) * s * s);
            self.ln_k + (nu - 1.0) / 2.0 * nu.ln() - nu * t.ln() + (-correction).ln_1p()
        } else {
            (0.5 * beta_reg(nu / 2.0, 0.5, 1.0 / (1.0 + s * s))).ln()
        }
    }
}
