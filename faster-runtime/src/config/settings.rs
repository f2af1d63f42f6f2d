//! Where [`Settings`] come from and go: the environment (each variable of
//! [`SETTINGS`] read by its setting's parser, naming the variable in an
//! error), text across the pipe (a tracked function's attribute, in its
//! listing), and the one rule that merges the sources.
//!
//! Precedence, strongest first: the attribute's own options; the command
//! line; the `FASTER_*` variables; the CI floor (10% when `CI` or
//! `GITHUB_ACTIONS` is set); [`Config::default`]. The harness merges them in
//! that order with [`Settings::overwrite`], then applies the result with
//! [`Config::with`].

use super::{CI_NOISE_FLOOR, Config, SETTINGS, Settings};
use crate::error::Error;
use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// Variables this version no longer reads, each with the one that replaced
/// it: set, one is an error naming its successor, never silently ignored.
const RENAMED_VARIABLES: &[(&str, &str)] = &[("FASTER_RANDOMIZE_LAYOUT", "FASTER_VARY_STACK")];

impl Settings {
    /// The settings of this process's environment; see [`Settings::from_vars`].
    pub fn from_env() -> Result<Settings, Error> {
        Settings::from_vars(|name| std::env::var(name).ok())
    }

    /// The settings the variables give: the CI floor when `CI` or
    /// `GITHUB_ACTIONS` is set, overwritten by each setting's variable
    /// (`FASTER_NOISE_FLOOR`, ...; see [`SETTINGS`]), read by its setting's
    /// parser: every switch as `on` or `off` (`1`/`0`, `true`/`false`,
    /// `yes`/`no`), a value that reads as none an error naming the
    /// variable. An empty variable counts as unset; a variable this version
    /// renamed (`FASTER_RANDOMIZE_LAYOUT`), set, is an error naming the one
    /// that replaced it.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, Error> {
        let var = |name: &str| var(name).filter(|value| !value.trim().is_empty());
        if let Some((old, new)) = RENAMED_VARIABLES.iter().find(|(old, _)| var(old).is_some()) {
            return Err(Error::InvalidConfig(format!(
                "{old} is now called {new}; set {new} instead"
            )));
        }
        let ci = Settings {
            noise_floor: (var("CI").is_some() || var("GITHUB_ACTIONS").is_some())
                .then_some(CI_NOISE_FLOOR),
            ..Settings::NONE
        };
        let mut set = Settings::NONE;
        for setting in SETTINGS {
            let Some(variable) = setting.variable else {
                continue;
            };
            if let Some(text) = var(variable) {
                set.set(setting.name, &text)
                    .map_err(|reason| Error::InvalidConfig(format!("{variable}: {reason}")))?;
            }
        }
        Ok(ci.overwrite(set))
    }
}

/// As a map of each setting given, by name, to its text: what a tracked
/// function's listing carries across the pipe.
impl Serialize for Settings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let given: Vec<(&str, String)> = SETTINGS
            .iter()
            .filter_map(|setting| Some((setting.name, self.text(setting.name)?)))
            .collect();
        let mut map = serializer.serialize_map(Some(given.len()))?;
        for (name, text) in given {
            map.serialize_entry(name, &text)?;
        }
        map.end()
    }
}

/// Each setting read by its parser: a value it cannot read, or a setting
/// this version does not know, is an error naming it, never dropped.
impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut settings = Settings::NONE;
        for (name, text) in BTreeMap::<String, String>::deserialize(deserializer)? {
            settings
                .set(&name, &text)
                .map_err(|reason| D::Error::custom(format!("`{name} = {text}`: {reason}")))?;
        }
        Ok(settings)
    }
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
    use crate::options::TimerKind;
    use crate::stats::verdict::{Expect, Undecided};
    use std::collections::HashMap;
    use std::time::Duration;

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
        assert!(config.strict && !config.enforce_in_debug && !config.vary_stack);
        assert_eq!(config.max_time, secs(2));
        assert_eq!((config.processes, config.expect), (5, Expect::NotSlower));
        assert_eq!(config.plan.min_rounds, Config::default().plan.min_rounds);
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
                .contains("FASTER_UNDECIDED: `never` is not a choice; write `pass` or `fail`"),
            "{error}"
        );
    }

    #[test]
    fn every_switch_variable_reads_on_and_off_and_refuses_the_rest() {
        let switches = [
            "FASTER_STRICT",
            "FASTER_ENFORCE",
            "FASTER_VARY_STACK",
            "FASTER_LAYOUTS",
        ];
        for variable in switches {
            let on = Config::default().with(&from(&[(variable, "on")]).unwrap());
            let off = Config::default().with(&from(&[(variable, "off")]).unwrap());
            let read = |config: &Config| match variable {
                "FASTER_STRICT" => config.strict,
                "FASTER_ENFORCE" => config.enforce_in_debug,
                "FASTER_VARY_STACK" => config.vary_stack,
                _ => config.layouts,
            };
            assert!(read(&on) && !read(&off), "{variable}");
            let error = from(&[(variable, "maybe")]).unwrap_err().to_string();
            assert!(
                error.contains(&format!("{variable}: `maybe` is neither on nor off")),
                "{error}"
            );
        }
        assert_eq!(from(&[("FASTER_STRICT", "on")]).unwrap().strict, Some(true));
        assert_eq!(
            from(&[("FASTER_STRICT", "yes")]).unwrap().strict,
            Some(true)
        );
    }

    #[test]
    fn a_renamed_variable_is_an_error_naming_its_successor() {
        for value in ["1", "off", "maybe"] {
            let error = from(&[("FASTER_RANDOMIZE_LAYOUT", value)])
                .unwrap_err()
                .to_string();
            assert_eq!(
                error,
                "invalid setting: FASTER_RANDOMIZE_LAYOUT is now called FASTER_VARY_STACK; \
                 set FASTER_VARY_STACK instead"
            );
        }
        assert_eq!(
            from(&[("FASTER_RANDOMIZE_LAYOUT", "")]).unwrap(),
            Settings::NONE
        );
        for (old, new) in RENAMED_VARIABLES {
            assert!(
                SETTINGS
                    .iter()
                    .all(|setting| setting.variable != Some(*old)),
                "{old}"
            );
            assert!(
                SETTINGS
                    .iter()
                    .any(|setting| setting.variable == Some(*new)),
                "{new}"
            );
        }
    }

    #[test]
    fn the_runs_budget_is_unset_by_default_and_read_from_its_variable() {
        assert_eq!(Config::default().max_run_time, None);
        let set = from(&[("FASTER_MAX_RUN_TIME", "1m")]).unwrap();
        let config = Config::default().with(&set);
        assert_eq!(config.max_run_time, Some(Duration::from_secs(60)));
        let error = from(&[("FASTER_MAX_RUN_TIME", "60")])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("FASTER_MAX_RUN_TIME") && error.contains("`auto`"),
            "{error}"
        );
    }

    #[test]
    fn every_setting_with_a_variable_is_read_from_it() {
        let defaults = Config::default().settings();
        for setting in SETTINGS {
            let Some(variable) = setting.variable else {
                continue;
            };
            let text = defaults.text(setting.name).unwrap();
            let read = from(&[(variable, &text)]).unwrap();
            assert_eq!(read.text(setting.name), Some(text), "{variable}");
        }
    }

    #[test]
    fn settings_cross_the_pipe_as_text_and_an_unknown_value_is_an_error() {
        let attribute = Settings {
            expect: Some(Expect::NotSlower),
            noise_floor: Some(0.03),
            max_time: Some(Duration::from_millis(1500)),
            ..Settings::NONE
        };
        let json = serde_json::to_string(&attribute).unwrap();
        assert_eq!(
            json,
            r#"{"expect":"not_slower","noise_floor":"0.03","max_time":"1500ms"}"#
        );
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), attribute);
        let unknown = serde_json::from_str::<Settings>(r#"{"expect":"sometimes"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            unknown.contains("`expect = sometimes`: `sometimes` is not a choice"),
            "{unknown}"
        );
        let newer = serde_json::from_str::<Settings>(r#"{"patience":"3"}"#)
            .unwrap_err()
            .to_string();
        assert!(newer.contains("there is no setting `patience`"), "{newer}");
    }
}
