//! The command line of `faster::main()`, libtest-like: filters, the flags
//! of the settings ([`SETTINGS`](crate::config::SETTINGS)) and the
//! harness's own ([`flags`]), and the flags cargo, libtest and nextest pass,
//! accepted and ignored. Here: what the command line says ([`Cli`]), what
//! each flag does to it, and what it selects. Read by the one parser of
//! faster's flags, `parse` ([`Cli::parse`], and `cargo faster`'s
//! [`Cli::parse_beside`]), and described by [`usage`], both from those
//! tables; `parse` also reads the few libtest flags a generated `#[test]`
//! honours (`--color`, `--format`, `-q`).

pub mod flags;
mod parse;
mod usage;

use crate::config::Settings;
use crate::output::style::ColorChoice;
use crate::partition::{PARTITION_VARIABLE, Partition};
use flags::{Action, FORMAT_VARIABLE};
pub use flags::{Format, Known};
pub use parse::{Beside, Own, libtest_display};
use std::path::PathBuf;
use std::time::Duration;
pub use usage::usage;

/// The parsed command line of `faster::main()`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cli {
    /// Substrings (or, with `--exact`, names) that select comparisons.
    pub filters: Vec<String>,
    /// Comparisons to leave out.
    pub skips: Vec<String>,
    /// Filters match whole names.
    pub exact: bool,
    /// List instead of running.
    pub list: bool,
    /// `--ignored`: select nothing.
    pub ignored_only: bool,
    /// Print the usage and stop.
    pub help: bool,
    /// The run-wide settings the flags give.
    pub settings: Settings,
    /// What to print on stdout, when chosen.
    pub format: Option<Format>,
    /// Where to write a JUnit report besides.
    pub junit: Option<PathBuf>,
    /// Whether to colour.
    pub color: ColorChoice,
    /// The shard of the comparisons to measure, where the run is one of
    /// several machines'.
    pub partition: Option<Partition>,
}

/// Budget per comparison with `--quick`.
pub const QUICK_MAX_TIME: Duration = Duration::from_millis(500);

impl Cli {
    /// Applies `known` with its `value` (where it takes one): the one place
    /// a flag changes the command line. `--quick` and `-q` give way to a
    /// budget and a format given on either side of them.
    fn apply(&mut self, known: Known, value: Option<&str>) -> Result<(), String> {
        let value = || value.ok_or_else(|| "needs a value".to_string());
        let flag = match known {
            Known::Setting(setting) => return self.settings.set(setting.name, value()?),
            Known::Flag(flag) => flag,
        };
        match flag.action {
            Action::Exact => self.exact = true,
            Action::Skip => self.skips.push(value()?.to_string()),
            Action::List => self.list = true,
            Action::Quick => {
                self.settings.max_time.get_or_insert(QUICK_MAX_TIME);
            }
            Action::Format => self.format = Some(Format::parse(value()?)?),
            Action::Junit => self.junit = Some(PathBuf::from(value()?)),
            Action::Color => self.color = ColorChoice::parse(value()?)?,
            // libtest's quiet mode is its terse format.
            Action::Quiet => {
                self.format.get_or_insert(Format::Terse);
            }
            Action::Help => self.help = true,
            Action::Ignored => self.ignored_only = true,
            // Twice is a mistake, not a choice: the last one would win
            // silently and the run measure a shard nobody meant.
            Action::Partition => {
                let partition = Partition::parse(value()?)?;
                if let Some(earlier) = self.partition.replace(partition) {
                    return Err(format!(
                        "given twice ({earlier}, then {partition}): a run measures one shard"
                    ));
                }
            }
            Action::FromTestRunners => {}
        }
        Ok(())
    }

    /// `FASTER_FORMAT` where the command line did not choose a format, and
    /// `FASTER_PARTITION` where it did not choose a partition.
    pub fn with_env(mut self, var: impl Fn(&str) -> Option<String>) -> Result<Cli, String> {
        if self.format.is_none() {
            self.format = format_from_env(&var)?;
        }
        if self.partition.is_none() {
            self.partition = partition_from_env(&var)?;
        }
        Ok(self)
    }

    /// Whether the comparison with test name `name` is selected.
    pub fn selects(&self, name: &str) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter
            } else {
                name.contains(filter.as_str())
            }
        };
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }

    /// Per name of `names`, whether this run measures it: the filters
    /// select it ([`Cli::selects`]) and it is in this run's shard, dealt
    /// among those the filters select (as nextest deals them).
    pub fn shares(&self, names: &[&str]) -> Vec<bool> {
        let selected: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| self.selects(name))
            .collect();
        let Some(partition) = self.partition else {
            return names.iter().map(|name| self.selects(name)).collect();
        };
        let in_shard: std::collections::HashSet<&str> = selected
            .iter()
            .zip(partition.keeps(&selected))
            .filter_map(|(name, kept)| kept.then_some(*name))
            .collect();
        names
            .iter()
            .map(|name| self.selects(name) && in_shard.contains(name))
            .collect()
    }
}

/// `FASTER_PARTITION`, when set.
pub fn partition_from_env(
    var: impl Fn(&str) -> Option<String>,
) -> Result<Option<Partition>, String> {
    var(PARTITION_VARIABLE)
        .filter(|partition| !partition.is_empty())
        .map(|partition| {
            Partition::parse(&partition).map_err(|reason| format!("{PARTITION_VARIABLE}: {reason}"))
        })
        .transpose()
}

/// `FASTER_FORMAT`, when set.
fn format_from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<Format>, String> {
    var(FORMAT_VARIABLE)
        .filter(|format| !format.is_empty())
        .map(|format| {
            Format::parse(&format).map_err(|reason| format!("{FORMAT_VARIABLE}: {reason}"))
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::TimerKind;
    use crate::stats::verdict::Undecided;

    fn parse(arguments: &[&str]) -> Result<Cli, String> {
        Cli::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn filters_and_flags() {
        let cli = parse(&[
            "sum",
            "--exact",
            "--max-time",
            "250ms",
            "--noise-floor=0.1",
            "--timer",
            "cycles",
            "--processes",
            "3",
            "--layouts=off",
            "--undecided",
            "fail",
            "--junit",
            "out.xml",
        ])
        .unwrap();
        assert_eq!(cli.settings.layouts, Some(false));
        assert_eq!(cli.settings.if_undecided, Some(Undecided::Fail));
        assert_eq!(cli.settings.timer, Some(TimerKind::Cycles));
        assert_eq!(cli.filters, vec!["sum"]);
        assert!(cli.exact);
        assert_eq!(cli.settings.max_time, Some(Duration::from_millis(250)));
        assert_eq!(cli.settings.noise_floor, Some(0.1));
        assert_eq!(cli.settings.processes, Some(3));
        assert_eq!(cli.junit, Some(PathBuf::from("out.xml")));
    }

    #[test]
    fn the_runs_budget_is_a_duration_or_auto() {
        let set = parse(&["--max-run-time", "30s"]).unwrap();
        assert_eq!(
            set.settings.max_run_time,
            Some(Some(Duration::from_secs(30)))
        );
        let auto = parse(&["--max-run-time=auto"]).unwrap();
        assert_eq!(auto.settings.max_run_time, Some(None));
        let error = parse(&["--max-run-time", "soon"]).unwrap_err();
        assert!(error.contains("or `auto`"), "{error}");
    }

    #[test]
    fn quick_gives_way_to_an_explicit_budget() {
        assert_eq!(
            parse(&["--quick"]).unwrap().settings.max_time,
            Some(QUICK_MAX_TIME)
        );
        let both = parse(&["--max-time", "2s", "--quick"]).unwrap();
        assert_eq!(both.settings.max_time, Some(Duration::from_secs(2)));
    }

    #[test]
    fn formats_and_colours() {
        assert_eq!(
            parse(&["--format", "json"]).unwrap().format,
            Some(Format::Json)
        );
        assert_eq!(
            parse(&["--format=bench"]).unwrap().format,
            Some(Format::Bench)
        );
        assert_eq!(
            parse(&["--format=junit"]).unwrap().format,
            Some(Format::Junit)
        );
        assert_eq!(
            parse(&["--color", "always"]).unwrap().color,
            ColorChoice::Always
        );
        assert_eq!(parse(&["--color=never"]).unwrap().color, ColorChoice::Never);
    }

    #[test]
    fn faster_format_applies_unless_the_flag_chose() {
        let env = |value: &'static str| {
            move |name: &str| (name == "FASTER_FORMAT").then(|| value.to_string())
        };
        assert_eq!(
            parse(&[]).unwrap().with_env(env("json")).unwrap().format,
            Some(Format::Json)
        );
        let flag_wins = parse(&["--format", "pretty"])
            .unwrap()
            .with_env(env("json"))
            .unwrap();
        assert_eq!(flag_wins.format, Some(Format::Pretty));
        assert_eq!(parse(&[]).unwrap().with_env(env("")).unwrap().format, None);
        let error = parse(&[]).unwrap().with_env(env("yaml")).unwrap_err();
        assert!(
            error.starts_with("FASTER_FORMAT: `yaml` is not a choice"),
            "{error}"
        );
    }

    #[test]
    fn a_bad_value_names_its_flag() {
        let cases = [
            (
                &["--noise-floor", "abc"][..],
                "--noise-floor: `abc` is not a number; write a fraction such as 0.05 for 5%",
            ),
            (
                &["--noise-floor=-0.1"],
                "--noise-floor: `-0.1` is out of range; write a fraction above 0",
            ),
            (
                &["--max-time", "5"],
                "--max-time: `5` has no unit; write a duration such as 500ms, 3s or 1.5s",
            ),
            (
                &["--timer", "sundial"],
                "--timer: `sundial` is not a choice; write `wall`, `cycles` or `thread-cpu`",
            ),
            (
                &["--layouts", "maybe"],
                "--layouts: `maybe` is neither on nor off; write `on` or `off`",
            ),
            (
                &["--undecided", "maybe"],
                "--undecided: `maybe` is not a choice; write `pass` or `fail`",
            ),
            (
                &["--processes", "0"],
                "--processes: `0` is not a whole number from 1 to 100",
            ),
            (
                &["--format", "xml"],
                "--format: `xml` is not a choice; write `pretty`, `terse`, `json`, `bench` or \
                 `junit`",
            ),
            (
                &["--color=maybe"],
                "--color: `maybe` is not a choice; write `auto`, `always` or `never`",
            ),
        ];
        for (arguments, expected) in cases {
            let error = parse(arguments).unwrap_err();
            assert!(error.starts_with(expected), "{arguments:?}: {error}");
        }
    }

    #[test]
    fn a_noise_floor_of_one_or_more_is_a_multiple_and_accepted() {
        assert_eq!(
            parse(&["--noise-floor", "1.0"])
                .unwrap()
                .settings
                .noise_floor,
            Some(1.0)
        );
        assert_eq!(
            parse(&["--noise-floor=5"]).unwrap().settings.noise_floor,
            Some(5.0)
        );
        for unusable in ["0", "NaN", "inf"] {
            let error = parse(&["--noise-floor", unusable]).unwrap_err();
            assert!(error.contains("out of range"), "{unusable}: {error}");
        }
    }

    #[test]
    fn selection_by_substring_exact_name_and_skip() {
        let cli = parse(&["sum"]).unwrap();
        assert!(cli.selects("sum::faster_sum_fast") && !cli.selects("sort::faster_quick"));
        let cli = parse(&["sum::faster_sum_fast", "--exact"]).unwrap();
        assert!(cli.selects("sum::faster_sum_fast") && !cli.selects("sum::faster_sum_fast2"));
        let cli = parse(&["--skip", "slow"]).unwrap();
        assert!(cli.selects("sum::faster_fast") && !cli.selects("sum::faster_slow"));
        assert!(!parse(&["--ignored"]).unwrap().selects("sum::faster_fast"));
    }
}
