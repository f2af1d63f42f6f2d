//! How a comparison is measured and judged: the table of settings — each
//! with its type, default and parser, beside its entry in the table of
//! options ([`options`](crate::options): its variable, flag, usage and
//! attribute option) — from which [`Config`], [`Settings`] and
//! [`SETTINGS`] are generated (`declare`); the range checks; values as
//! text (`values`); and the one precedence rule that merges the sources
//! (`settings`).

#[macro_use]
mod declare;
pub(crate) mod plan;
mod settings;
mod values;

pub use crate::options::MAX_PROCESSES;
pub use declare::Described;
pub use plan::Plan;
pub(crate) use settings::resolve;
pub use values::{AsText, by_name, parse_processes};

use crate::error::Error;
use crate::options::{
    Expect, TimerKind, Undecided, parse_duration, parse_fraction, parse_run_time, parse_switch,
    usable_fraction,
};
use std::time::Duration;

settings! {
    /// What the comparison must show to pass.
    #[serde(with = "by_name")]
    expect: Expect = Expect::Faster, parsed by Expect::parse;
    /// The smallest relative difference that counts (0.05 = 5%; 1.0: the
    /// candidate must be at least 2x faster). Any finite fraction above 0.
    noise_floor: f64 = 0.05, parsed by parse_fraction;
    /// The time budget for measuring this pair, warm-up included.
    max_time: Duration = Duration::from_secs(3), parsed by parse_duration;
    /// The time the whole run may spend measuring: each comparison has its
    /// turn on its own [`max_time`](Config::max_time) first, and what the
    /// run has left goes to the verdicts still undecided. `None` (`auto`,
    /// the default) is the sum of its comparisons' own budgets. A run-wide
    /// setting: no attribute takes it, so every comparison of a run reads
    /// the same (`FASTER_MAX_RUN_TIME`, `--max-run-time`).
    #[serde(default)]
    max_run_time: Option<Duration> = None, parsed by parse_run_time;
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
        if !(1..=MAX_PROCESSES).contains(&self.processes) {
            return invalid(format!(
                "processes is {}, but must be from 1 to {MAX_PROCESSES}",
                self.processes
            ));
        }
        self.plan.validate()
    }

    /// The engine's knobs this configuration carries (see [`Plan`]): for
    /// this workspace's accuracy suite and tests.
    #[doc(hidden)]
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The engine's knobs this configuration carries, to change (see
    /// [`Plan`]): for this workspace's accuracy suite and tests.
    #[doc(hidden)]
    pub fn plan_mut(&mut self) -> &mut Plan {
        &mut self.plan
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
