//! How a comparison is measured and judged: the table of settings — each
//! with its type, default and parser, beside its entry in the table of
//! options ([`options`](crate::options): its variable, flag, usage and
//! attribute option) — from which [`Config`], [`Settings`] and
//! [`SETTINGS`] are generated (`declare`); the range checks; values as
//! text (`values`); and the one precedence rule that merges the sources
//! (`settings`).

#[macro_use]
mod declare;
mod settings;
mod values;

pub use crate::options::MAX_PROCESSES;
pub use declare::Described;
pub(crate) use settings::resolve;
pub use values::{AsText, by_name, parse_processes};

use crate::error::Error;
use crate::options::{
    Expect, TimerKind, Undecided, parse_duration, parse_fraction, parse_switch, usable_fraction,
};
use std::time::Duration;

settings! {
    given {
        /// What the comparison must show to pass.
        #[serde(with = "by_name")]
        expect: Expect = Expect::Faster, parsed by Expect::parse;
        /// The smallest relative difference that counts (0.05 = 5%; 1.0: the
        /// candidate must be at least 2x faster). Any finite fraction above 0.
        noise_floor: f64 = 0.05, parsed by parse_fraction;
        /// The time budget for measuring this pair, warm-up included.
        max_time: Duration = Duration::from_secs(3), parsed by parse_duration;
        /// Measure a registered comparison in at least this many slices, each
        /// in another process (a server kept for the run), each process in a
        /// layout of the binary of its own where [`layouts`](Config::layouts)
        /// can be varied, and judge the spread between them; more follow while
        /// the verdict is undecided and the budget lasts. 1 measures in this
        /// process only. (A
        /// [`compare_fns`](crate::compare_fns) call always measures in its own
        /// process: its closures cannot be run again elsewhere.)
        processes: usize = 4, parsed by parse_processes;
        /// Run each process in a layout of the binary of its own (the same code
        /// linked in another order), where the binary was linked through
        /// `faster-link`, so the verdict is about the code and not about one
        /// link's luck. `FASTER_LAYOUTS=off` (`--layouts off`) turns it off.
        layouts: bool = true, parsed by parse_switch;
        /// What a verdict that did not decide the expectation does to the run
        /// (see [`Verdict::decides`](crate::Verdict::decides)): passes, shown as
        /// undecided (the default), or fails. `FASTER_UNDECIDED=fail`
        /// (`--undecided fail`) asks for failure.
        #[serde(default, with = "by_name")]
        if_undecided: Undecided = Undecided::Pass, parsed by Undecided::parse;
        /// The timing source.
        #[serde(with = "by_name")]
        timer: TimerKind = TimerKind::Wall, parsed by TimerKind::parse;
        /// Run each round's measuring loop at one of eight stack offsets, so an
        /// alignment of its stack that happens to favour one function is
        /// averaged out rather than baked into the estimate. The binary stays
        /// as linked: [`layouts`](Config::layouts) is what relinks it. Off by
        /// default (measured in the guide's "Trusting the environment",
        /// `guide/environment.md`). Named `FASTER_RANDOMIZE_LAYOUT` before,
        /// which is now an error naming this variable.
        vary_stack: bool = false, parsed by parse_switch;
        /// Turn a verdict into `within noise` when the noise floor is too close
        /// to what this machine resolves right now (the noise probe's estimate).
        strict: bool = false, parsed by parse_switch;
        /// Enforce the timing verdict in a build with `debug_assertions` too,
        /// where unoptimized code is timed and the verdict is otherwise only
        /// reported.
        enforce_in_debug: bool = false, parsed by parse_switch;
    }
    internal {
        /// Measure at least this many rounds before stopping on convergence.
        min_rounds: usize = 5;
        /// Measure exactly this many cycles of rounds (every batch size in both
        /// orders, in every placement of the measuring loop) and stop, instead
        /// of stopping on convergence: how each slice of a replicated
        /// comparison is measured, whose precision comes from the interval over
        /// the slices rather than from inside one. `None` (the default):
        /// until convergence.
        #[serde(default)]
        cycles: Option<usize> = None;
        /// Whether the rounds take their orders swapped: the original second
        /// wherever it would be first. Slices of a replicated comparison in
        /// one binary take turns (see `engine::replicate::slice_config`), so a
        /// cost that falls on whichever side a round of the cycle times first
        /// falls on each side as often; across revisions they do not.
        #[serde(default)]
        swap_orders: bool = false;
        /// Stop once the 99% interval of the speedup is this narrow: its
        /// half-width relative to the estimate (0.01 = ±1%).
        target_precision: f64 = 0.01;
        /// The longest warm-up; it ends earlier once per-call times settle.
        max_warm_up: Duration = Duration::from_millis(50);
        /// A half-width added in quadrature to every interval (0.005 = ±0.5%),
        /// for what no measurement inside one process can see: where code and
        /// data landed in memory, how long the timed batches were. Measured by
        /// the accuracy suite, whose reference measurements of the same pair
        /// differ from the engine's by up to about that much at every scale,
        /// while the statistical part alone shrinks to ±0.01%. More rounds do not
        /// shrink it; `processes = N` measures that variation directly.
        systematic_allowance: f64 = 0.005;
        /// Where the shorter function's call (summed over inputs) is under this
        /// time, the rounds take turns in several placements of the measuring
        /// loop, and the interval covers what another placement would measure;
        /// at and above it, one loop, as for every longer call. At a few
        /// nanoseconds a ratio belongs to the loop as much as to the functions:
        /// measured on this project's 2-core VM (`accuracy --placement
        /// --spread`, every run in all eight placements), the placements of a
        /// ≈ 1.3 ns call read about 20% apart (median of 60 runs), those of
        /// 4 to 100 ns calls 0.1–0.3%, no more than the statistical noise of
        /// one placement's own figure. Zero turns placements off.
        placement_threshold: Duration = PLACEMENT_THRESHOLD;
    }
}

/// The default [`Config::placement_threshold`]: twice the shortest call at
/// which the placements measured here agreed (≈ 4–5 ns), three times the
/// ≈ 3 ns call whose ratio issue 15 saw a placement move, and five times
/// under the 50 ns from which nothing may change (see the guide's
/// "Nanosecond functions: where the measuring loop lands",
/// `guide/measuring.md`).
pub const PLACEMENT_THRESHOLD: Duration = Duration::from_nanos(10);

/// The noise floor on CI runners, whose neighbours are noisier than a desk's.
pub const CI_NOISE_FLOOR: f64 = 0.10;

impl Config {
    /// The defaults adjusted by the environment: a 10% floor when `CI` or
    /// `GITHUB_ACTIONS` is set, then the `FASTER_*` variables (see
    /// [`Settings::from_vars`]).
    pub fn from_env() -> Result<Config, Error> {
        Ok(Config::default().with(&Settings::from_env()?))
    }

    /// Checks that every setting is in range.
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |reason: String| Err(Error::InvalidConfig(reason));
        if !usable_fraction(self.noise_floor) {
            return invalid(format!(
                "noise_floor is {}, but must be a fraction above 0 (0.05 = 5%; 1.0 = at least 2x)",
                self.noise_floor
            ));
        }
        if self.max_time.is_zero() {
            return invalid("max_time must be more than zero".into());
        }
        if !(self.target_precision > 0.0 && self.target_precision.is_finite()) {
            return invalid(format!(
                "target_precision is {}, but must be a positive fraction",
                self.target_precision
            ));
        }
        if !(self.systematic_allowance >= 0.0 && self.systematic_allowance < 1.0) {
            return invalid(format!(
                "systematic_allowance is {}, but must be a fraction from 0 to 1",
                self.systematic_allowance
            ));
        }
        if !(1..=MAX_PROCESSES).contains(&self.processes) {
            return invalid(format!(
                "processes is {}, but must be from 1 to {MAX_PROCESSES}",
                self.processes
            ));
        }
        if self.min_rounds < 2 {
            return invalid("min_rounds must be at least 2 (one round of each order)".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_rejects_out_of_range_settings() {
        let mut config = Config::default();
        assert!(config.validate().is_ok());
        for unusable in [0.0, -0.05, f64::NAN, f64::INFINITY] {
            config.noise_floor = unusable;
            let error = config.validate().unwrap_err().to_string();
            assert!(error.contains("a fraction above 0"), "{unusable}: {error}");
        }
        config.noise_floor = 0.05;
        config.max_time = Duration::ZERO;
        assert!(config.validate().is_err());
    }

    #[test]
    fn a_floor_of_one_or_more_asks_for_a_multiple() {
        for floor in [1.0, 1.5, 3.0] {
            let config = Config {
                noise_floor: floor,
                ..Config::default()
            };
            assert!(config.validate().is_ok(), "{floor}");
        }
    }

    #[test]
    fn every_setting_of_the_table_of_options_is_a_field() {
        let table: Vec<&str> = crate::options::settings()
            .map(|setting| setting.name)
            .collect();
        let ours: Vec<&str> = SETTINGS.iter().map(|setting| setting.name).collect();
        assert_eq!(ours, table);
        let defaults = Config::default().settings();
        for setting in SETTINGS {
            assert!(defaults.text(setting.name).is_some(), "{}", setting.name);
        }
    }
}
