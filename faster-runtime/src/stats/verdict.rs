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

/// A noise floor: the relative change (`0.05` for 5%) a speedup must clear,
/// either way, to count as one. Its thresholds are computed here and
/// nowhere else: every verdict, every "settled" or "decided", every line a
/// plot draws at the floor and every output's wording reads them from this
/// type, so the rule cannot drift between the engine, the judge and the
/// outputs.
///
/// ```
/// use faster::report::NoiseFloor;
/// let floor = NoiseFloor::new(0.05);
/// assert_eq!(floor.faster_from(), 1.05);
/// assert!((floor.slower_from() - 1.0 / 1.05).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct NoiseFloor(f64);

impl NoiseFloor {
    /// The floor of `fraction` (`0.05` for 5%), as the settings hold it.
    pub fn new(fraction: f64) -> NoiseFloor {
        NoiseFloor(fraction)
    }

    /// The floor as a fraction: `0.05` for 5%.
    pub fn fraction(self) -> f64 {
        self.0
    }

    /// The speedup from which the candidate is faster: `1 + floor`.
    pub fn faster_from(self) -> f64 {
        1.0 + self.0
    }

    /// The speedup up to which the candidate is slower: `1 / (1 + floor)`.
    pub fn slower_from(self) -> f64 {
        1.0 / self.faster_from()
    }

    /// The floor in log space, `ln(1 + floor)`: how far from zero a log
    /// speedup must lie, either way, to clear it.
    pub fn log_threshold(self) -> f64 {
        self.0.ln_1p()
    }

    /// Whether a ratio of two figures (a speedup, or one figure over
    /// another) lies further from one than the floor, either way.
    pub fn exceeded_by(self, ratio: f64) -> bool {
        ratio.ln().abs() > self.log_threshold()
    }

    /// The verdict on a speedup interval `(low, high)`: see
    /// [`Verdict::from_interval`].
    pub fn verdict(self, (low, high): (f64, f64)) -> Verdict {
        if low >= self.faster_from() {
            Verdict::Faster
        } else if high <= self.slower_from() {
            Verdict::Slower
        } else {
            Verdict::WithinNoise
        }
    }

    /// The verdict a single figure reads (an interval of one point).
    pub fn reads(self, speedup: f64) -> Verdict {
        self.verdict((speedup, speedup))
    }

    /// Whether more measurement could still change the verdict on
    /// `(low, high)`: see [`Verdict::settled`].
    pub fn settles(self, (low, high): (f64, f64)) -> bool {
        let straddles = |bound: f64| low < bound && bound < high;
        !straddles(self.faster_from()) && !straddles(self.slower_from())
    }

    /// The widest half-width (in log space) an interval centred where
    /// `(low, high)` is could have and settle: its centre's distance to
    /// the nearer threshold. At 1.00 that is the floor's own
    /// [`NoiseFloor::log_threshold`]; an estimate near a threshold needs an
    /// interval narrower than the floor, and one on it no interval settles.
    pub fn settling_half_width(self, (low, high): (f64, f64)) -> f64 {
        let centre = (low.ln() + high.ln()) / 2.0;
        let [faster, slower] = [self.faster_from(), self.slower_from()].map(f64::ln);
        (centre - faster).abs().min((centre - slower).abs())
    }

    /// Whether `(low, high)` could hold a speedup of the floor's size:
    /// `[faster, slower]`, each where the interval reaches past that
    /// threshold.
    pub fn could_be(self, (low, high): (f64, f64)) -> [bool; 2] {
        [high > self.faster_from(), low < self.slower_from()]
    }

    /// Whether `verdict`, judged on `interval`, decided what `expect`
    /// asks: see [`Verdict::decides`].
    pub fn decides(self, verdict: Verdict, interval: (f64, f64), expect: Expect) -> bool {
        if verdict != Verdict::WithinNoise {
            return true;
        }
        // Within noise, the low end is under the upper threshold and the
        // high end over the lower one: reaching past a threshold is
        // straddling it.
        let [could_be_faster, could_be_slower] = self.could_be(interval);
        match expect {
            Expect::Faster => !could_be_faster,
            Expect::NotSlower => !could_be_slower,
            Expect::Report => !could_be_faster && !could_be_slower,
        }
    }

    /// The smallest true change an interval as wide as `(low, high)`
    /// judges at this floor: see [`Verdict::judged_beyond`].
    pub fn judged_beyond(self, (low, high): (f64, f64)) -> f64 {
        let half_width = (high.ln() - low.ln()) / 2.0;
        (self.log_threshold() + half_width).exp() - 1.0
    }

    /// Whether an interval `(low, high)` is wider than the floor on both
    /// sides of its centre: wider than the two thresholds are apart.
    pub fn narrower_than(self, (low, high): (f64, f64)) -> bool {
        high / low <= self.faster_from().powi(2)
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
    pub fn from_interval(interval: (f64, f64), noise_floor: f64) -> Verdict {
        NoiseFloor::new(noise_floor).verdict(interval)
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
    pub fn settled(interval: (f64, f64), noise_floor: f64) -> bool {
        NoiseFloor::new(noise_floor).settles(interval)
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
    pub fn decides(self, interval: (f64, f64), noise_floor: f64, expect: Expect) -> bool {
        NoiseFloor::new(noise_floor).decides(self, interval, expect)
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
    pub fn judged_beyond(interval: (f64, f64), noise_floor: f64) -> f64 {
        NoiseFloor::new(noise_floor).judged_beyond(interval)
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
