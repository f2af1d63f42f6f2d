//! The verdict — where the speedup's interval lies against the noise floor —
//! the expectation it is held to (its values are the table of options'),
//! whether it decided what that expectation asks, and what an undecided one
//! does to a run.

use std::fmt;

pub use crate::options::{Expect, Undecided};

crate::options::choices! {
    /// What the measurement shows, beyond the noise floor; named `faster`,
    /// `slower` or `within_noise` in the JSON document and in CSV files.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Verdict {
        /// The interval's lower bound is at least `1 + noise_floor`.
        Faster = "faster",
        /// The interval's upper bound is at most `1 / (1 + noise_floor)`.
        Slower = "slower",
        /// Neither: the difference, if any, is not shown to exceed the floor.
        WithinNoise = "within_noise",
    }
}

impl Verdict {
    /// Judges a speedup interval `(low, high)` (original time / candidate
    /// time) against the relative `noise_floor`.
    ///
    /// ```
    /// use faster::Verdict;
    /// assert_eq!(Verdict::from_interval((1.06, 1.10), 0.05), Verdict::Faster);
    /// assert_eq!(Verdict::from_interval((1.02, 1.10), 0.05), Verdict::WithinNoise);
    /// assert_eq!(Verdict::from_interval((0.90, 0.95), 0.05), Verdict::Slower);
    /// ```
    pub fn from_interval((low, high): (f64, f64), noise_floor: f64) -> Verdict {
        let threshold = 1.0 + noise_floor;
        if low >= threshold {
            Verdict::Faster
        } else if high <= 1.0 / threshold {
            Verdict::Slower
        } else {
            Verdict::WithinNoise
        }
    }

    /// Whether more measurement could still change the verdict on the
    /// interval `(low, high)`: `false` while it straddles either threshold
    /// (`1 + noise_floor` or its inverse), `true` once it lies wholly past
    /// one or wholly between them.
    ///
    /// ```
    /// use faster::Verdict;
    /// assert!(Verdict::settled((1.06, 1.10), 0.05));
    /// assert!(Verdict::settled((0.97, 1.03), 0.05));
    /// assert!(!Verdict::settled((1.02, 1.10), 0.05));
    /// assert!(!Verdict::settled((0.90, 0.96), 0.05));
    /// ```
    pub fn settled((low, high): (f64, f64), noise_floor: f64) -> bool {
        let threshold = 1.0 + noise_floor;
        let straddles = |bound: f64| low < bound && bound < high;
        !straddles(threshold) && !straddles(1.0 / threshold)
    }

    /// Whether this verdict, judged on `interval`, decided what `expect`
    /// asks: `false` for a `within noise` verdict whose interval reaches
    /// past a threshold in the direction `expect` cares about, so that a
    /// change of the floor's size there was not ruled out. `faster` asks
    /// whether the candidate is faster by the floor (the upper threshold),
    /// `not_slower` whether it is slower by the floor (the lower one),
    /// `report` both. `faster` and `slower` verdicts always decide.
    ///
    /// ```
    /// use faster::{Expect, Verdict};
    /// let within = Verdict::WithinNoise;
    /// // Could be 5% slower: a regression guard cannot tell.
    /// assert!(!within.decides((0.94, 1.02), 0.05, Expect::NotSlower));
    /// // Could be 5% faster, but not 5% slower: the guard has its answer.
    /// assert!(within.decides((0.97, 1.08), 0.05, Expect::NotSlower));
    /// assert!(!within.decides((0.97, 1.08), 0.05, Expect::Faster));
    /// assert!(within.decides((0.97, 1.03), 0.05, Expect::Report));
    /// ```
    pub fn decides(self, (low, high): (f64, f64), noise_floor: f64, expect: Expect) -> bool {
        if self != Verdict::WithinNoise {
            return true;
        }
        let threshold = 1.0 + noise_floor;
        // Within noise, the low end is under the upper threshold and the
        // high end over the lower one: reaching past a threshold is
        // straddling it.
        let could_be_faster = high > threshold;
        let could_be_slower = low < 1.0 / threshold;
        match expect {
            Expect::Faster => !could_be_faster,
            Expect::NotSlower => !could_be_slower,
            Expect::Report => !could_be_faster && !could_be_slower,
        }
    }

    /// The smallest true change (a fraction, either way) that an interval
    /// as wide as `(low, high)` judges against `noise_floor`: the floor plus
    /// the interval's half-width, in log space. What an undecided verdict
    /// says it could judge; infinite for an unbounded interval.
    ///
    /// ```
    /// use faster::Verdict;
    /// // ±10% around the estimate at a 5% floor: only about 15.5% is judged.
    /// let judged = Verdict::judged_beyond((1.0 / 1.1, 1.1), 0.05);
    /// assert!((judged - 0.155).abs() < 1e-9);
    /// ```
    pub fn judged_beyond((low, high): (f64, f64), noise_floor: f64) -> f64 {
        let half_width = (high.ln() - low.ln()) / 2.0;
        (noise_floor.ln_1p() + half_width).exp() - 1.0
    }

    /// Whether this verdict satisfies the expectation.
    pub fn meets(self, expect: Expect) -> bool {
        match expect {
            Expect::Faster => self == Verdict::Faster,
            Expect::NotSlower => self != Verdict::Slower,
            Expect::Report => true,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::WithinNoise => "within noise",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_inclusive_at_the_floor() {
        assert_eq!(Verdict::from_interval((1.05, 1.2), 0.05), Verdict::Faster);
        assert_eq!(
            Verdict::from_interval((1.0499, 1.2), 0.05),
            Verdict::WithinNoise
        );
        assert_eq!(
            Verdict::from_interval((0.5, 1.0 / 1.05), 0.05),
            Verdict::Slower
        );
        assert_eq!(
            Verdict::from_interval((0.5, 0.9524), 0.05),
            Verdict::WithinNoise
        );
        assert_eq!(
            Verdict::from_interval((0.97, 1.03), 0.05),
            Verdict::WithinNoise
        );
        // An interval wider than the floor on both sides decides nothing.
        assert_eq!(
            Verdict::from_interval((0.5, 2.0), 0.05),
            Verdict::WithinNoise
        );
    }

    #[test]
    fn expectations() {
        use Verdict::*;
        assert!(Faster.meets(Expect::Faster));
        assert!(!WithinNoise.meets(Expect::Faster));
        assert!(!Slower.meets(Expect::Faster));
        assert!(Faster.meets(Expect::NotSlower));
        assert!(WithinNoise.meets(Expect::NotSlower));
        assert!(!Slower.meets(Expect::NotSlower));
        assert!(Slower.meets(Expect::Report));
    }

    #[test]
    fn each_expectation_is_undecided_only_past_the_threshold_it_cares_about() {
        let within = Verdict::WithinNoise;
        let floor = 0.05;
        // Past the upper threshold only, the lower one only, both, neither.
        let upper = (1.0, 1.08);
        let lower = (0.93, 1.01);
        let both = (0.5, 2.0);
        let inside = (0.96, 1.04);
        let decided = |interval, expect| within.decides(interval, floor, expect);
        assert!(!decided(upper, Expect::Faster) && decided(lower, Expect::Faster));
        assert!(decided(upper, Expect::NotSlower) && !decided(lower, Expect::NotSlower));
        assert!(!decided(upper, Expect::Report) && !decided(lower, Expect::Report));
        for expect in [Expect::Faster, Expect::NotSlower, Expect::Report] {
            assert!(!decided(both, expect), "{expect:?}");
            assert!(decided(inside, expect), "{expect:?}");
            // An open interval (too few rounds) decides nothing.
            assert!(!decided((0.0, f64::INFINITY), expect), "{expect:?}");
            // A verdict past a threshold is an answer whatever the width.
            assert!(Verdict::Faster.decides(both, floor, expect));
            assert!(Verdict::Slower.decides(both, floor, expect));
        }
        // Touching a threshold is not reaching past it.
        assert!(decided((1.0 / 1.05, 1.05), Expect::Report));
        // For `report`, undecided is exactly unsettled.
        for interval in [upper, lower, both, inside] {
            assert_eq!(
                decided(interval, Expect::Report),
                Verdict::settled(interval, floor)
            );
        }
    }

    #[test]
    fn the_judged_change_is_the_floor_widened_by_the_half_width() {
        // The issue's guard: 1.34x slower [99% CI 0.57x – 3.14x] at 5%, a
        // speedup interval of 0.3185 to 1.7544, which said 146.7% from its
        // unrounded bounds.
        let interval = (0.3185, 1.7544);
        let judged = Verdict::judged_beyond(interval, 0.05);
        assert!((judged - 1.467).abs() < 0.005, "{judged}");
        // A point interval judges the floor itself; an open one nothing.
        assert!((Verdict::judged_beyond((1.2, 1.2), 0.05) - 0.05).abs() < 1e-12);
        assert_eq!(
            Verdict::judged_beyond((0.0, f64::INFINITY), 0.05),
            f64::INFINITY
        );
    }
}
