//! The command line of `faster::main()`, libtest-like: filters, the flags
//! of the settings ([`SETTINGS`]) and the harness's own ([`flags`]), and the
//! flags cargo, libtest and nextest pass, accepted and ignored; parsed here,
//! one argument at a time, from those tables. Also the few libtest flags a
//! generated `#[test]` honours (`--color`, `--format`, `-q`).

pub mod flags;
mod usage;

use crate::config::{SETTINGS, Settings};
use crate::options::OptionSpec;
use crate::output::style::ColorChoice;
use crate::partition::{PARTITION_VARIABLE, Partition};
pub use flags::Format;
use flags::{Action, FORMAT_VARIABLE, Flag};
use std::path::PathBuf;
use std::time::Duration;
pub use usage::{closest_flag, unknown_flag, usage};

/// The parsed command line of `faster::main()`.
#[derive(Debug, Default, PartialEq)]
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

/// What a flag on the command line is.
#[derive(Debug, Clone, Copy)]
pub enum Known {
    /// A setting's flag.
    Setting(&'static OptionSpec),
    /// One of the harness's own.
    Flag(&'static Flag),
}

impl Known {
    /// The setting or flag named `name`, e.g. `--noise-floor` or `-q`.
    pub fn named(name: &str) -> Option<Known> {
        SETTINGS
            .iter()
            .find(|setting| setting.flag == Some(name))
            .copied()
            .map(Known::Setting)
            .or_else(|| Flag::named(name).map(Known::Flag))
    }

    /// Whether it takes a value.
    pub fn takes_value(self) -> bool {
        match self {
            Known::Setting(_) => true,
            Known::Flag(flag) => flag.value.is_some(),
        }
    }
}

impl Cli {
    /// Parses `arguments` (without the program name): a one-line error for
    /// a flag that is not one, or a value its flag cannot read, naming it.
    pub fn parse(arguments: &[String]) -> Result<Cli, String> {
        let mut cli = Cli::default();
        let mut arguments = arguments.iter();
        while let Some(argument) = arguments.next() {
            let (name, inline_value) = match argument.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
                _ => (argument.as_str(), None),
            };
            if !name.starts_with('-') {
                cli.filters.push(argument.clone());
                continue;
            }
            let known = Known::named(name).ok_or_else(|| unknown_flag(name, closest_flag(name)))?;
            let value = if known.takes_value() {
                let value = inline_value.or_else(|| arguments.next().cloned());
                Some(value.ok_or_else(|| format!("{name} needs a value"))?)
            } else {
                None
            };
            cli.apply(known, value.as_deref())
                .map_err(|reason| format!("{name}: {reason}"))?;
        }
        Ok(cli)
    }

    /// Applies `known` with its `value` (where it takes one): the one place
    /// a flag changes the command line, whoever parsed it (`cargo faster`
    /// too). `--quick` and `-q` give way to a budget and a format given on
    /// either side of them.
    pub fn apply(&mut self, known: Known, value: Option<&str>) -> Result<(), String> {
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
            Action::Partition => self.partition = Some(Partition::parse(value()?)?),
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

/// The display flags of a libtest command line (`cargo test -- --color
/// never -q`): the colour and the format a generated `#[test]` prints in,
/// `FASTER_FORMAT` where libtest's flags say nothing. Everything else on
/// the line is libtest's.
pub fn libtest_display(
    arguments: impl IntoIterator<Item = String>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<(ColorChoice, Option<Format>), String> {
    let mut arguments = arguments.into_iter();
    let (mut color, mut format) = (ColorChoice::Auto, None);
    while let Some(argument) = arguments.next() {
        let (name, inline) = match argument.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (argument.clone(), None),
        };
        let Some(flag) = Flag::named(&name) else {
            continue;
        };
        match flag.action {
            Action::Color => {
                if let Some(choice) = inline.or_else(|| arguments.next()) {
                    color = ColorChoice::parse(&choice).unwrap_or(color);
                }
            }
            Action::Format => {
                // libtest's own `json` and `junit` formats take over its
                // stdout; a report in between would break them.
                format = match inline.or_else(|| arguments.next()).as_deref() {
                    Some("terse") => Some(Format::Terse),
                    Some("pretty") => Some(Format::Pretty),
                    _ => format,
                };
            }
            Action::Quiet => format = Some(Format::Terse),
            _ => {}
        }
    }
    match format {
        Some(format) => Ok((color, Some(format))),
        None => Ok((color, format_from_env(var)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::TimerKind;
    use crate::stats::verdict::Undecided;

    fn parse(arguments: &[&str]) -> Result<Cli, String> {
        Cli::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| a.to_string()).collect()
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
    fn the_flags_cargo_and_nextest_pass_are_accepted() {
        let cli = parse(&[
            "--bench",
            "--nocapture",
            "--test-threads",
            "1",
            "--show-output",
        ])
        .unwrap();
        assert_eq!(cli, Cli::default());
        let cli = parse(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(cli.list && cli.ignored_only);
        assert_eq!(cli.format, Some(Format::Terse));
        assert_eq!(parse(&["-q"]).unwrap().format, Some(Format::Terse));
        assert!(parse(&["--help"]).unwrap().help && parse(&["-h"]).unwrap().help);
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
    fn every_flag_in_the_tables_is_accepted() {
        let defaults = crate::config::Config::default().settings();
        for setting in SETTINGS {
            let (Some(flag), Some(value)) = (setting.flag, defaults.text(setting.name)) else {
                continue;
            };
            let cli = parse(&[flag, &value]).unwrap();
            assert_eq!(cli.settings.text(setting.name), Some(value), "{flag}");
        }
        for flag in flags::FLAGS {
            for name in flag.names {
                let value = match flag.action {
                    Action::Format => Some("json"),
                    Action::Color => Some("never"),
                    Action::Partition => Some("hash:1/2"),
                    _ => flag.value.map(|_| "x"),
                };
                let mut arguments = vec![*name];
                arguments.extend(value);
                assert!(parse(&arguments).is_ok(), "{name} is not accepted");
            }
        }
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
    fn a_generated_test_reads_libtests_display_flags() {
        let none = |_: &str| None;
        assert_eq!(
            libtest_display(strings(&["bin", "--color", "never", "-q"]), none).unwrap(),
            (ColorChoice::Never, Some(Format::Terse))
        );
        assert_eq!(
            libtest_display(
                strings(&["bin", "--color=always", "--format=terse", "x"]),
                none
            )
            .unwrap(),
            (ColorChoice::Always, Some(Format::Terse))
        );
        // libtest's own JSON takes its stdout: no report goes in between.
        let json = |name: &str| (name == "FASTER_FORMAT").then(|| "bench".to_string());
        assert_eq!(
            libtest_display(
                strings(&["bin", "--format", "json", "-Zunstable-options"]),
                json
            )
            .unwrap(),
            (ColorChoice::Auto, Some(Format::Bench))
        );
        assert_eq!(
            libtest_display(strings(&["bin", "--nocapture"]), none).unwrap(),
            (ColorChoice::Auto, None)
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        // One line, naming the flag and the closest one where one is close.
        assert_eq!(
            parse(&["--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate (see --help)"
        );
        assert_eq!(
            parse(&["sum", "--noise_floor", "0.1"]).unwrap_err(),
            "unknown flag --noise_floor; did you mean --noise-floor? (see --help)"
        );
        assert_eq!(
            parse(&["--max-time"]).unwrap_err(),
            "--max-time needs a value"
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
