//! [`Settings`]: the options of a comparison, each one given or not, as one
//! source states them — the attribute, the environment, `faster::main()`'s
//! command line — and the one rule that merges them.
//!
//! Precedence, strongest first: the attribute's own options; the command
//! line; the `FASTER_*` variables; the CI floor (10% when `CI` or
//! `GITHUB_ACTIONS` is set); [`Config::default`]. The harness merges them in
//! that order with [`Settings::overwrite`], then applies the result with
//! [`Config::with`].

use super::{
    CI_NOISE_FLOOR, Config, parse_duration, parse_noise_floor, parse_processes, parse_switch,
};
use crate::error::Error;
use crate::stats::verdict::{Expect, Undecided};
use crate::time::TimerKind;
use std::time::Duration;

/// Options of a comparison, each `None` where this source does not set it.
///
/// The attribute's expansion builds one as a `const` (the options it sets,
/// then `..Settings::NONE`), the environment another
/// ([`Settings::from_env`]), `faster::main()`'s flags a third.
///
/// ```
/// use faster::{Config, Settings};
/// use std::time::Duration;
///
/// let environment = Settings { noise_floor: Some(0.10), ..Settings::NONE };
/// let attribute = Settings { noise_floor: Some(0.03), max_time: Some(Duration::from_secs(1)), ..Settings::NONE };
/// let config = Config::default().with(&environment.overwrite(attribute));
/// assert_eq!((config.noise_floor, config.max_time), (0.03, Duration::from_secs(1)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Settings {
    /// `expect = ...`
    pub expect: Option<Expect>,
    /// `--undecided`, `FASTER_UNDECIDED` (`pass` or `fail`)
    pub if_undecided: Option<Undecided>,
    /// `noise_floor = ...`, `--noise-floor`, `FASTER_NOISE_FLOOR`, the CI floor
    pub noise_floor: Option<f64>,
    /// `max_time = "..."`, `--max-time`, `--quick`, `FASTER_MAX_TIME`
    pub max_time: Option<Duration>,
    /// `processes = N`, `--processes`, `FASTER_PROCESSES`
    pub processes: Option<usize>,
    /// `--layouts`, `FASTER_LAYOUTS` (`on` or `off`)
    pub layouts: Option<bool>,
    /// `--timer`, `FASTER_TIMER`
    pub timer: Option<TimerKind>,
    /// `FASTER_RANDOMIZE_LAYOUT`
    pub randomize_layout: Option<bool>,
    /// `FASTER_STRICT`
    pub strict: Option<bool>,
    /// `FASTER_ENFORCE`
    pub enforce_in_debug: Option<bool>,
}

impl Settings {
    /// Nothing set. The expansion fills the options it does not set from
    /// here, so a setting a newer runtime adds does not break code an older
    /// macro expanded.
    pub const NONE: Settings = Settings {
        expect: None,
        if_undecided: None,
        noise_floor: None,
        max_time: None,
        processes: None,
        layouts: None,
        timer: None,
        randomize_layout: None,
        strict: None,
        enforce_in_debug: None,
    };

    /// These settings with every one `stronger` gives replaced: the one
    /// precedence rule, applied weakest first.
    pub fn overwrite(self, stronger: Settings) -> Settings {
        Settings {
            expect: stronger.expect.or(self.expect),
            if_undecided: stronger.if_undecided.or(self.if_undecided),
            noise_floor: stronger.noise_floor.or(self.noise_floor),
            max_time: stronger.max_time.or(self.max_time),
            processes: stronger.processes.or(self.processes),
            layouts: stronger.layouts.or(self.layouts),
            timer: stronger.timer.or(self.timer),
            randomize_layout: stronger.randomize_layout.or(self.randomize_layout),
            strict: stronger.strict.or(self.strict),
            enforce_in_debug: stronger.enforce_in_debug.or(self.enforce_in_debug),
        }
    }

    /// The settings of this process's environment; see [`Settings::from_vars`].
    pub fn from_env() -> Result<Settings, Error> {
        Settings::from_vars(|name| std::env::var(name).ok())
    }

    /// The settings the variables give: the CI floor when `CI` or
    /// `GITHUB_ACTIONS` is set, overwritten by `FASTER_NOISE_FLOOR` (a
    /// fraction, e.g. `0.03`), `FASTER_MAX_TIME` (e.g. `500ms`),
    /// `FASTER_TIMER` (`wall`, `cycles` or `thread-cpu`), `FASTER_PROCESSES`
    /// (a count), `FASTER_LAYOUTS` (`on` or `off`), `FASTER_UNDECIDED`
    /// (`pass` or `fail`), and the switches `FASTER_RANDOMIZE_LAYOUT`,
    /// `FASTER_STRICT` and `FASTER_ENFORCE` (`1`, `true` or `yes`). An empty
    /// variable counts as unset.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, Error> {
        let var = |name: &str| var(name).filter(|value| !value.trim().is_empty());
        let switch =
            |name: &str| var(name).map(|value| matches!(value.trim(), "1" | "true" | "yes"));
        let ci = Settings {
            noise_floor: (var("CI").is_some() || var("GITHUB_ACTIONS").is_some())
                .then_some(CI_NOISE_FLOOR),
            ..Settings::NONE
        };
        let set = Settings {
            expect: None,
            if_undecided: parsed(&var, "FASTER_UNDECIDED", Undecided::parse)?,
            noise_floor: parsed(&var, "FASTER_NOISE_FLOOR", parse_noise_floor)?,
            max_time: parsed(&var, "FASTER_MAX_TIME", parse_duration)?,
            processes: parsed(&var, "FASTER_PROCESSES", parse_processes)?,
            layouts: parsed(&var, "FASTER_LAYOUTS", parse_switch)?,
            timer: parsed(&var, "FASTER_TIMER", TimerKind::parse)?,
            randomize_layout: switch("FASTER_RANDOMIZE_LAYOUT"),
            strict: switch("FASTER_STRICT"),
            enforce_in_debug: switch("FASTER_ENFORCE"),
        };
        Ok(ci.overwrite(set))
    }
}

/// Variable `name` parsed by `parse`, naming the variable in the error.
fn parsed<T>(
    var: &impl Fn(&str) -> Option<String>,
    name: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, Error> {
    var(name)
        .map(|value| parse(&value))
        .transpose()
        .map_err(|reason| Error::InvalidConfig(format!("{name}: {reason}")))
}

/// The configuration of one comparison: the defaults under the environment's
/// settings, the command line's over those, the attribute's on top.
pub(crate) fn resolve(
    environment: Settings,
    command_line: Settings,
    attribute: Settings,
) -> Config {
    Config::default().with(&environment.overwrite(command_line).overwrite(attribute))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn from(vars: &[(&str, &str)]) -> Result<Settings, Error> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Settings::from_vars(|name| vars.get(name).cloned())
    }

    #[test]
    fn an_empty_environment_sets_nothing() {
        assert_eq!(from(&[]).unwrap(), Settings::NONE);
        assert_eq!(Config::default().with(&Settings::NONE), Config::default());
    }

    #[test]
    fn the_strongest_source_that_sets_an_option_wins() {
        let secs = Duration::from_secs;
        let environment = from(&[
            ("CI", "true"),
            ("FASTER_MAX_TIME", "9s"),
            ("FASTER_TIMER", "thread-cpu"),
            ("FASTER_STRICT", "1"),
        ])
        .unwrap();
        let command_line = Settings {
            max_time: Some(secs(2)),
            processes: Some(3),
            ..Settings::NONE
        };
        let attribute = Settings {
            processes: Some(5),
            expect: Some(Expect::NotSlower),
            ..Settings::NONE
        };
        let config = resolve(environment, command_line, attribute);
        // The CI floor under everything; the environment's timer and switch;
        // the command line's budget over the environment's; the attribute's
        // process count over the command line's; the rest as defaults.
        assert_eq!(config.noise_floor, CI_NOISE_FLOOR);
        assert_eq!(config.timer, TimerKind::ThreadCpu);
        assert!(config.strict && !config.enforce_in_debug && !config.randomize_layout);
        assert_eq!(config.max_time, secs(2));
        assert_eq!((config.processes, config.expect), (5, Expect::NotSlower));
        assert_eq!(config.min_rounds, Config::default().min_rounds);
        // A variable overrides the CI floor; an attribute overrides both.
        let floor = from(&[("CI", "1"), ("FASTER_NOISE_FLOOR", "0.02")]).unwrap();
        assert_eq!(
            resolve(floor, Settings::NONE, Settings::NONE).noise_floor,
            0.02
        );
        let attribute = Settings {
            noise_floor: Some(0.3),
            ..Settings::NONE
        };
        assert_eq!(resolve(floor, Settings::NONE, attribute).noise_floor, 0.3);
        // A CI that fails undecided guards, and a command line that lets them pass.
        let strict_ci = from(&[("FASTER_UNDECIDED", "fail")]).unwrap();
        assert_eq!(
            resolve(strict_ci, Settings::NONE, Settings::NONE).if_undecided,
            Undecided::Fail
        );
        let lenient = Settings {
            if_undecided: Some(Undecided::Pass),
            ..Settings::NONE
        };
        assert_eq!(
            resolve(strict_ci, lenient, Settings::NONE).if_undecided,
            Undecided::Pass
        );
    }

    #[test]
    fn ci_raises_the_floor_only_when_set() {
        assert_eq!(from(&[("CI", "true")]).unwrap().noise_floor, Some(0.10));
        assert_eq!(
            from(&[("GITHUB_ACTIONS", "true")]).unwrap().noise_floor,
            Some(0.10)
        );
        assert_eq!(from(&[("CI", "")]).unwrap().noise_floor, None);
    }

    #[test]
    fn bad_variables_are_clear_errors() {
        let error = from(&[("FASTER_NOISE_FLOOR", "5%")]).unwrap_err();
        assert!(error.to_string().contains("FASTER_NOISE_FLOOR"), "{error}");
        for unusable in ["-0.05", "NaN", "inf"] {
            let error = from(&[("FASTER_NOISE_FLOOR", unusable)]).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains(&format!("FASTER_NOISE_FLOOR: `{unusable}` is out of range")),
                "{error}"
            );
        }
        // 1.0 asks for at least 2x: a floor, not an error.
        assert_eq!(
            from(&[("FASTER_NOISE_FLOOR", "1.0")]).unwrap().noise_floor,
            Some(1.0)
        );
        let error = from(&[("FASTER_MAX_TIME", "3 parsecs")]).unwrap_err();
        assert!(error.to_string().contains("FASTER_MAX_TIME"), "{error}");
        let error = from(&[("FASTER_TIMER", "sundial")]).unwrap_err();
        assert!(error.to_string().contains("FASTER_TIMER"), "{error}");
        assert_eq!(
            from(&[("FASTER_TIMER", "cycles")]).unwrap().timer,
            Some(TimerKind::Cycles)
        );
        assert_eq!(
            from(&[("FASTER_PROCESSES", "5")]).unwrap().processes,
            Some(5)
        );
        let error = from(&[("FASTER_PROCESSES", "0")]).unwrap_err();
        assert!(error.to_string().contains("from 1 to 100"), "{error}");
        assert_eq!(
            from(&[("FASTER_ENFORCE", "no")]).unwrap().enforce_in_debug,
            Some(false)
        );
        assert_eq!(
            from(&[("FASTER_UNDECIDED", "fail")]).unwrap().if_undecided,
            Some(Undecided::Fail)
        );
        let error = from(&[("FASTER_UNDECIDED", "never")]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("FASTER_UNDECIDED: `never` is neither pass nor fail"),
            "{error}"
        );
    }
}
