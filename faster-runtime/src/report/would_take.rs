//! What it would take to decide an undecided comparison ([`WouldTake`]):
//! the smallest change its interval judges now, how many layouts (or
//! rounds, measured in one process) and how much more measuring time an
//! interval narrow enough for the floor asked for would need, or that no
//! budget would at [`MOST_LAYOUTS_OF_A_RUN`]. Projected by one pure
//! function ([`project`]) from the interval's half-width so far, whose
//! statistical part shrinks over `n` layouts as t(n−1)/√n times their
//! spread and whose systematic allowance does not; the outputs only lay it
//! out.

use super::units::format_percent;
use super::{Report, Scope};
use crate::stats::samples::CONFIDENCE;
use crate::stats::student_t_quantile;
use std::fmt;
use std::time::Duration;

/// The most layouts a comparison is measured in on the run's time (where
/// its own budget ended it undecided and others left time over): twice a
/// comparison's own cap (`engine::replicate::MOST_LAYOUTS`), one more look
/// of the stop rule (at 128 slices), whose error rate `accuracy --looks`
/// measures. Each layout is a binary on disk and a server for the run, so
/// the cap is also what a run may hold.
pub const MOST_LAYOUTS_OF_A_RUN: usize = 128;

/// What an undecided comparison would need to decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WouldTake {
    /// The floor asked for (0.02 = 2%).
    pub floor: f64,
    /// The smallest change (a fraction, either way) the interval judges
    /// now (see [`NoiseFloor::judged_beyond`](crate::stats::verdict::NoiseFloor::judged_beyond)).
    pub judged_now: f64,
    /// What the interval is over: layouts, or rounds in one process.
    pub over: Over,
    /// How many of them were measured.
    pub measured: usize,
    /// How many an interval narrow enough to settle where it is centred
    /// would need ([`NoiseFloor::settling_half_width`](crate::stats::verdict::NoiseFloor::settling_half_width)): for identical code,
    /// one whose half-width is the floor's.
    pub needed: usize,
    /// The further measuring time that would take, at the time per layout
    /// (or round) so far; `None` where it needs more layouts than
    /// [`MOST_LAYOUTS_OF_A_RUN`]: no budget would decide it.
    pub more_time: Option<Duration>,
    /// The half-width (a fraction) an interval centred where this one is
    /// would need to settle: the floor's own for an estimate at 1.00,
    /// narrower as the estimate nears a threshold.
    pub settles_within: f64,
}

/// What an interval is over, and so what narrows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// Layouts of the binary: where the linker puts the code moves it, on
    /// any machine; a larger piece of work per call (the code that calls
    /// this function) is moved relatively less.
    Layouts,
    /// Processes of this one build: the machine's noise, which a quieter
    /// machine narrows.
    Processes,
    /// Rounds in one process: the machine's noise likewise.
    Rounds,
}

/// The projection of an interval of `half_width` (in log space, of which
/// `systematic` was added in quadrature for what more measuring does not
/// narrow) over `measured` units (layouts, or rounds in one process) that
/// took `spent` of measuring, to the half-width `target` that would settle
/// it (see
/// [`NoiseFloor::settling_half_width`](crate::stats::verdict::NoiseFloor::settling_half_width)): how many units that needs and how
/// much more time, `None` in [`WouldTake::more_time`] beyond `most` units
/// (where there is a cap) or where the allowance alone is wider than
/// `target`. `None` where nothing can be projected: fewer than two units,
/// or a half-width that is not finite.
pub fn project(
    half_width: f64,
    systematic: f64,
    measured: usize,
    spent: Duration,
    target: f64,
    most: Option<usize>,
) -> Option<(usize, Option<Duration>)> {
    if measured < 2 || !half_width.is_finite() {
        return None;
    }
    // The spread behind the statistical part: √(half_width² − systematic²)
    // = t(n−1)·s/√n.
    let statistical = (half_width.powi(2) - systematic.powi(2)).max(0.0).sqrt();
    let spread = statistical * (measured as f64).sqrt() / t_quantile(measured);
    let narrow_enough = |units: usize| {
        let statistical = t_quantile(units) * spread / (units as f64).sqrt();
        statistical.hypot(systematic) <= target
    };
    let needed = least_units(measured, narrow_enough);
    let per_unit = spent.as_secs_f64() / measured as f64;
    let more = needed.saturating_sub(measured) as f64 * per_unit;
    let within_cap = most.is_none_or(|most| needed <= most) && needed < NEVER;
    let more_time = (within_cap && more.is_finite()).then(|| Duration::from_secs_f64(more));
    Some((needed, more_time))
}

/// A count of units no measuring reaches: where even a billion would not
/// narrow the interval enough (its systematic allowance alone is wider).
const NEVER: usize = 1 << 30;

/// Student's t quantile of a two-sided [`CONFIDENCE`] interval over
/// `units` (at least two).
fn t_quantile(units: usize) -> f64 {
    student_t_quantile(1.0 - (1.0 - CONFIDENCE) / 2.0, (units - 1) as f64)
        .expect("two or more units give a finite quantile")
}

/// The least count of units from `measured` on that is `narrow_enough`
/// (which narrows as the count grows), by doubling then bisecting; capped
/// where even a billion would not be.
fn least_units(measured: usize, narrow_enough: impl Fn(usize) -> bool) -> usize {
    if narrow_enough(measured) {
        return measured;
    }
    let mut high = measured * 2;
    while !narrow_enough(high) {
        if high >= NEVER {
            return NEVER;
        }
        high *= 2;
    }
    let mut low = high / 2;
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if narrow_enough(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    high
}

impl Report {
    /// What it would take to decide this report, where it is undecided:
    /// from its interval's half-width over its layouts (its processes), or
    /// over its rounds where it was measured in one process.
    pub fn would_take(&self) -> Option<WouldTake> {
        if self.decided() {
            return None;
        }
        let half_width = (self.ci.1.ln() - self.ci.0.ln()) / 2.0;
        let (over, measured, most) = if self.processes.is_empty() {
            (Over::Rounds, self.rounds, None)
        } else {
            let over = match self.scope {
                Some(Scope::Layouts) => Over::Layouts,
                _ => Over::Processes,
            };
            (over, self.slot_means().len(), Some(MOST_LAYOUTS_OF_A_RUN))
        };
        let target = self.floor().settling_half_width(self.ci);
        let (needed, more_time) = project(
            half_width,
            self.systematic,
            measured,
            self.elapsed,
            target,
            most,
        )?;
        Some(WouldTake {
            floor: self.noise_floor,
            judged_now: self.judged_beyond(),
            over,
            measured,
            needed,
            more_time,
            settles_within: target.exp() - 1.0,
        })
    }
}

/// One sentence every output writes: `to judge 2% it would take about 97
/// layouts (64 so far), 1.6s more`, or that no budget would, and what would
/// narrow it.
impl fmt::Display for WouldTake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units = match self.over {
            Over::Layouts => "layouts",
            Over::Processes => "processes",
            Over::Rounds => "rounds",
        };
        let floor = format_percent(self.floor);
        if self.needed >= NEVER {
            write!(
                f,
                "to judge {floor} no count of {units} would do ({} so far)",
                self.measured
            )?;
        } else {
            write!(
                f,
                "to judge {floor} it would take about {} {units} ({} so far)",
                self.needed, self.measured,
            )?;
        }
        if let Some(more) = self.more_time {
            return write!(f, ", {:.1}s more of measuring", more.as_secs_f64());
        }
        if self.needed < NEVER {
            write!(f, ", more than the {MOST_LAYOUTS_OF_A_RUN} a run measures")?;
        }
        // An estimate near a threshold needs an interval much narrower than
        // the floor: what would decide it is another floor, not more work.
        if self.settles_within < self.floor / 2.0 {
            return write!(
                f,
                ": no budget would; the estimate sits near the {floor} threshold, where only \
                 an interval within ±{} would settle it; a floor further from it would decide",
                format_percent(self.settles_within),
            );
        }
        let narrower = match self.over {
            Over::Layouts => {
                "a larger piece of work per call (the code that calls this function) would \
                 narrow it"
            }
            Over::Processes | Over::Rounds => "a quieter machine would narrow it",
        };
        write!(f, ": no budget would; {narrower}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::verdict::NoiseFloor;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn an_interval_already_as_narrow_as_the_floor_needs_nothing_more() {
        let floor = NoiseFloor::new(0.05);
        let narrow = floor.log_threshold() * 0.9;
        assert_eq!(
            project(narrow, 0.0, 16, SECOND, floor.log_threshold(), Some(128)),
            Some((16, Some(Duration::ZERO)))
        );
    }

    #[test]
    fn twice_the_floor_over_sixty_four_layouts_needs_about_four_times_as_many() {
        // The interval's half-width goes as t(n−1)/√n: halving it takes
        // a little under four times the layouts (t shrinks too).
        let floor = NoiseFloor::new(0.02);
        let (needed, more_time) = project(
            2.0 * floor.log_threshold(),
            0.0,
            64,
            3 * SECOND,
            floor.log_threshold(),
            None,
        )
        .unwrap();
        assert!((240..=256).contains(&needed), "{needed}");
        let per_layout = 3.0 / 64.0;
        let expected = (needed - 64) as f64 * per_layout;
        assert!((more_time.unwrap().as_secs_f64() - expected).abs() < 1e-6);
        // Beyond the cap of a run's layouts, no budget would.
        assert_eq!(
            project(
                2.0 * floor.log_threshold(),
                0.0,
                64,
                3 * SECOND,
                floor.log_threshold(),
                Some(128)
            ),
            Some((needed, None))
        );
    }

    #[test]
    fn a_slightly_wide_interval_fits_within_the_runs_layouts() {
        // The CSV parse at 2%: judged beyond about 4% over 64
        // layouts, a half-width of about 2%; 128 layouts narrow it by √2.
        let floor = NoiseFloor::new(0.02);
        let half_width = 1.2 * floor.log_threshold();
        let (needed, more_time) = project(
            half_width,
            0.0,
            64,
            2700 * SECOND / 1000,
            floor.log_threshold(),
            Some(128),
        )
        .expect("a projection");
        assert!(needed > 64 && needed <= 128, "{needed}");
        assert!(
            more_time.is_some_and(|time| time < 3 * SECOND),
            "{more_time:?}"
        );
    }

    #[test]
    fn an_estimate_near_a_threshold_needs_an_interval_narrower_than_the_floor() {
        // A candidate 1.04x faster at a 5% floor, 1.00x to 1.09x over 64
        // processes (a half-width of the floor's size, so identical code
        // as wide would be settled): to settle, the interval must stop
        // short of 1.05, about a fifth as wide: no run's 128 would do.
        let floor = NoiseFloor::new(0.05);
        let interval = (1.04 / 1.045, 1.04 * 1.045);
        let half_width = 1.045_f64.ln();
        let target = floor.settling_half_width(interval);
        assert!((target - (1.05_f64 / 1.04).ln()).abs() < 1e-12, "{target}");
        let (needed, more_time) = project(half_width, 0.0, 64, SECOND, target, Some(128)).unwrap();
        assert!(needed > 128, "{needed}");
        assert_eq!(more_time, None);
        // Centred on 1.00, the same width needs nothing more.
        let centred = floor.settling_half_width((1.0 / 1.045, 1.045));
        assert_eq!(
            project(half_width, 0.0, 64, SECOND, centred, Some(128)),
            Some((64, Some(Duration::ZERO)))
        );
    }

    #[test]
    fn nothing_is_projected_from_one_unit_or_an_endless_interval() {
        let floor = NoiseFloor::new(0.05);
        assert_eq!(
            project(0.1, 0.0, 1, SECOND, floor.log_threshold(), None),
            None
        );
        assert_eq!(
            project(f64::INFINITY, 0.0, 8, SECOND, floor.log_threshold(), None),
            None
        );
    }

    #[test]
    fn it_is_said_in_one_sentence_with_the_time_or_what_would_narrow_it() {
        let take = WouldTake {
            floor: 0.02,
            judged_now: 0.04,
            over: Over::Layouts,
            measured: 64,
            needed: 97,
            more_time: Some(Duration::from_millis(1600)),
            settles_within: 0.02,
        };
        assert_eq!(
            take.to_string(),
            "to judge 2% it would take about 97 layouts (64 so far), 1.6s more of measuring"
        );
        let never = WouldTake {
            needed: 412,
            more_time: None,
            ..take
        };
        assert_eq!(
            never.to_string(),
            "to judge 2% it would take about 412 layouts (64 so far), more than the 128 a run \
             measures: no budget would; a larger piece of work per call (the code that calls \
             this function) would narrow it"
        );
        let near = WouldTake {
            needed: 3_000,
            settles_within: 0.004,
            ..never
        };
        assert_eq!(
            near.to_string(),
            "to judge 2% it would take about 3000 layouts (64 so far), more than the 128 a run \
             measures: no budget would; the estimate sits near the 2% threshold, where only an \
             interval within ±0.4% would settle it; a floor further from it would decide"
        );
        let beyond = WouldTake {
            needed: NEVER,
            ..never
        };
        assert_eq!(
            beyond.to_string(),
            "to judge 2% no count of layouts would do (64 so far): no budget would; a larger \
             piece of work per call (the code that calls this function) would narrow it"
        );
    }

    #[test]
    fn the_least_count_is_found_exactly() {
        assert_eq!(least_units(4, |units| units >= 37), 37);
        assert_eq!(least_units(4, |units| units >= 4), 4);
        assert_eq!(least_units(4, |_| false), 1 << 30);
    }

    #[test]
    fn the_systematic_allowance_is_not_projected_away() {
        // Over 16 layouts, an interval of 1.2% of which 0.5% is the
        // allowance: its statistical part (about 1.09%) narrows with more
        // layouts, the allowance does not, so a target of 0.8% needs more
        // than the 1.2%→0.8% of a plain interval would, and a target under
        // the allowance needs what no budget gives.
        let (half_width, systematic) = (0.012, 0.005);
        let (needed, _) = project(half_width, systematic, 16, SECOND, 0.008, None).unwrap();
        let (plain, _) = project(half_width, 0.0, 16, SECOND, 0.008, None).unwrap();
        assert!(needed > plain, "{needed} vs {plain}");
        let statistical = (0.008_f64.powi(2) - systematic.powi(2)).sqrt();
        let spread = (half_width.powi(2) - systematic.powi(2)).sqrt() * 4.0 / t_quantile(16);
        assert!(t_quantile(needed) * spread / (needed as f64).sqrt() <= statistical);
        assert_eq!(
            project(half_width, systematic, 16, SECOND, 0.004, None).map(|(_, time)| time),
            Some(None)
        );
    }
}
