//! The verdict — where the speedup's interval lies against the noise floor —
//! and the expectation it is held to.

use std::fmt;

/// What a comparison must show to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// The candidate must be faster by at least the noise floor.
    #[default]
    Faster,
    /// A regression guard: fails only when the candidate is slower by at least
    /// the noise floor.
    NotSlower,
    /// Never fails on timing (outputs are still checked).
    Report,
}

impl Expect {
    /// The name used in the attribute and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Faster => "faster",
            Expect::NotSlower => "not_slower",
            Expect::Report => "report",
        }
    }

    /// The expectation named `name` (as [`Expect::as_str`] writes it).
    pub fn parse(name: &str) -> Result<Expect, String> {
        [Expect::Faster, Expect::NotSlower, Expect::Report]
            .into_iter()
            .find(|expect| expect.as_str() == name)
            .ok_or_else(|| format!("unknown expectation `{name}`"))
    }
}

/// What the measurement shows, beyond the noise floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The interval's lower bound is at least `1 + noise_floor`.
    Faster,
    /// The interval's upper bound is at most `1 / (1 + noise_floor)`.
    Slower,
    /// Neither: the difference, if any, is not shown to exceed the floor.
    WithinNoise,
}

impl Verdict {
    /// The verdict's name in the JSON document and in CSV files:
    /// `faster`, `slower` or `within_noise`.
    ///
    /// ```
    /// assert_eq!(faster::Verdict::WithinNoise.name(), "within_noise");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::WithinNoise => "within_noise",
        }
    }

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
}
