//! The command line of `faster::main()`, libtest-like: filters, the flags
//! that choose and shape the output, the run-wide settings, and the flags
//! cargo, libtest and nextest pass, accepted and ignored. Also the few
//! libtest flags a generated `#[test]` honours (`--color`, `--format`,
//! `-q`).

use crate::config::{Settings, parse_duration, parse_noise_floor, parse_processes, parse_switch};
use crate::output::style::ColorChoice;
use crate::stats::verdict::Undecided;
use crate::time::TimerKind;
use std::path::PathBuf;
use std::time::Duration;

/// What the run prints on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Each report, the summary table and libtest's result line.
    Pretty,
    /// libtest's `test NAME ... ok` lines and the summary table.
    Terse,
    /// One `faster/report/v1` JSON document per comparison and line, and
    /// nothing else.
    Json,
    /// libtest's bench lines, `test NAME/original ... bench: N ns/iter
    /// (+/- M)`, for benchmark-tracking tools.
    Bench,
    /// One JUnit XML document, at the end.
    Junit,
}

impl Format {
    fn parse(text: &str) -> Result<Format, String> {
        match text {
            "pretty" => Ok(Format::Pretty),
            "terse" => Ok(Format::Terse),
            "json" => Ok(Format::Json),
            "bench" => Ok(Format::Bench),
            "junit" => Ok(Format::Junit),
            other => Err(format!(
                "`{other}` is not a format; use pretty, terse, json, bench or junit"
            )),
        }
    }
}

/// The usage text of `--help` and of a usage error.
pub const USAGE: &str = "\
usage: <test binary> [FILTER...] [OPTIONS]

Runs the comparisons registered with #[faster::compare] in this binary.
FILTER selects comparisons whose test name contains it (sum::faster_sum_fast).

  --exact                    FILTER must match a test name exactly
  --skip FILTER              leave out comparisons matching FILTER (repeatable)
  --list                     list the comparisons (with --format terse: as nextest reads)
  --quick                    measure each comparison for 0.5 s
  --max-time DURATION        budget per comparison, e.g. 500ms, 3s  [FASTER_MAX_TIME]
  --noise-floor FRACTION     smallest difference that counts, e.g. 0.05  [FASTER_NOISE_FLOOR]
  --timer wall|cycles|thread-cpu
                             the timing source  [FASTER_TIMER]
  --processes N              measure each comparison in at least N processes (4;
                             1: this process only)  [FASTER_PROCESSES]
  --layouts on|off           run each process in a layout of the binary of its own,
                             where it was linked through faster-link  [FASTER_LAYOUTS]
  --undecided pass|fail      a verdict that could not rule out a change of the floor's
                             size: passes, shown as `?` (pass, the default), or fails
                             the run (fail)  [FASTER_UNDECIDED]
  --format pretty|terse|json|bench|junit
                             what to print on stdout  [FASTER_FORMAT]
  --junit PATH               also write a JUnit XML report to PATH
  --color auto|always|never  colour the output
  -q, --quiet                the terse format
  -h, --help                 this text
  --ignored                  select nothing (no comparison is ignored)
  --include-ignored, --bench, --nocapture, --test-threads N, ...
                             flags cargo, libtest and nextest pass: accepted, ignored

Attribute options are stronger than these flags, flags than the environment.
Other variables: FASTER_ENFORCE, FASTER_STRICT, FASTER_RANDOMIZE_LAYOUT,
FASTER_OUTPUT_DIR, FASTER_LINKER (see the guide: guide/running.md).";

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
}

/// Budget per comparison with `--quick`.
pub const QUICK_MAX_TIME: Duration = Duration::from_millis(500);

impl Cli {
    /// Parses `arguments` (without the program name).
    pub fn parse(arguments: &[String]) -> Result<Cli, String> {
        let mut cli = Cli::default();
        let (mut quiet, mut quick) = (false, false);
        let mut arguments = arguments.iter();
        while let Some(argument) = arguments.next() {
            let (flag, inline_value) = match argument.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
                _ => (argument.as_str(), None),
            };
            let mut value = || {
                inline_value
                    .clone()
                    .or_else(|| arguments.next().cloned())
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let settings = &mut cli.settings;
            match flag {
                "--exact" => cli.exact = true,
                "--list" => cli.list = true,
                "--ignored" => cli.ignored_only = true,
                "--quick" => quick = true,
                "--help" | "-h" => cli.help = true,
                "--skip" => cli.skips.push(value()?),
                "--max-time" => settings.max_time = Some(flag_value(flag, value, parse_duration)?),
                "--noise-floor" => {
                    settings.noise_floor = Some(flag_value(flag, value, parse_noise_floor)?);
                }
                "--timer" => settings.timer = Some(flag_value(flag, value, TimerKind::parse)?),
                "--processes" => {
                    settings.processes = Some(flag_value(flag, value, parse_processes)?);
                }
                "--layouts" => settings.layouts = Some(flag_value(flag, value, parse_switch)?),
                "--undecided" => {
                    settings.if_undecided = Some(flag_value(flag, value, Undecided::parse)?);
                }
                "--format" => cli.format = Some(flag_value(flag, value, Format::parse)?),
                "--junit" => cli.junit = Some(PathBuf::from(value()?)),
                "--color" => cli.color = flag_value(flag, value, ColorChoice::parse)?,
                // libtest's quiet mode is its terse format.
                "--quiet" | "-q" => quiet = true,
                // Flags cargo, libtest and nextest pass, which change nothing here.
                "--include-ignored"
                | "--bench"
                | "--test"
                | "--nocapture"
                | "--no-capture"
                | "--show-output"
                | "--report-time"
                | "--ensure-time"
                | "--shuffle"
                | "--force-run-in-process"
                | "--exclude-should-panic" => {}
                "--test-threads" | "--logfile" | "--shuffle-seed" | "-Z" => {
                    value()?;
                }
                _ if flag.starts_with('-') => return Err(format!("unknown flag {argument}")),
                _ => cli.filters.push(argument.clone()),
            }
        }
        if quick && cli.settings.max_time.is_none() {
            cli.settings.max_time = Some(QUICK_MAX_TIME);
        }
        if quiet && cli.format.is_none() {
            cli.format = Some(Format::Terse);
        }
        Ok(cli)
    }

    /// `FASTER_FORMAT` where the command line did not choose a format.
    pub fn with_env(mut self, var: impl Fn(&str) -> Option<String>) -> Result<Cli, String> {
        if self.format.is_none() {
            self.format = format_from_env(var)?;
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
}

/// The value of `flag` (from `value`) read by `parse`, naming the flag in
/// the error as the environment's variables name themselves:
/// `--noise-floor: \`abc\` is not a number; ...`.
fn flag_value<T>(
    flag: &str,
    value: impl FnOnce() -> Result<String, String>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<T, String> {
    parse(&value()?).map_err(|reason| format!("{flag}: {reason}"))
}

/// `FASTER_FORMAT`, when set.
fn format_from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<Format>, String> {
    var("FASTER_FORMAT")
        .filter(|format| !format.is_empty())
        .map(|format| Format::parse(&format).map_err(|reason| format!("FASTER_FORMAT: {reason}")))
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
        let (flag, inline) = match argument.split_once('=') {
            Some((flag, value)) => (flag.to_string(), Some(value.to_string())),
            None => (argument.clone(), None),
        };
        match flag.as_str() {
            "--color" => {
                if let Some(choice) = inline.or_else(|| arguments.next()) {
                    color = ColorChoice::parse(&choice).unwrap_or(color);
                }
            }
            "--format" => {
                // libtest's own `json` and `junit` formats take over its
                // stdout; a report in between would break them.
                format = match inline.or_else(|| arguments.next()).as_deref() {
                    Some("terse") => Some(Format::Terse),
                    Some("pretty") => Some(Format::Pretty),
                    _ => format,
                };
            }
            "-q" | "--quiet" => format = Some(Format::Terse),
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
    fn every_flag_is_in_the_usage() {
        for flag in [
            "--exact",
            "--skip",
            "--list",
            "--quick",
            "--max-time",
            "--noise-floor",
            "--timer",
            "--processes",
            "--layouts",
            "--undecided",
            "--format",
            "--junit",
            "--color",
            "--quiet",
            "--help",
            "--ignored",
            "--include-ignored",
        ] {
            assert!(USAGE.contains(flag), "{flag} is not in the usage");
            let mut arguments = vec![flag];
            let value = match flag {
                "--max-time" => Some("1s"),
                "--noise-floor" => Some("0.1"),
                "--timer" => Some("wall"),
                "--processes" => Some("2"),
                "--layouts" => Some("off"),
                "--undecided" => Some("fail"),
                "--format" => Some("json"),
                "--color" => Some("never"),
                "--skip" | "--junit" => Some("x"),
                _ => None,
            };
            arguments.extend(value);
            assert!(
                parse(&arguments).is_ok(),
                "{flag} is in the usage but not accepted"
            );
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
            error.starts_with("FASTER_FORMAT: `yaml` is not a format"),
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
        assert_eq!(
            parse(&["--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate"
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
                "--max-time: `5` has no known unit; write e.g. \"500ms\" or \"3s\"",
            ),
            (
                &["--timer", "sundial"],
                "--timer: unknown timer `sundial`; use wall, cycles or thread-cpu",
            ),
            (
                &["--layouts", "maybe"],
                "--layouts: `maybe` is neither on nor off; write `on` or `off`",
            ),
            (
                &["--undecided", "maybe"],
                "--undecided: `maybe` is neither pass nor fail; write `pass` or `fail`",
            ),
            (
                &["--processes", "0"],
                "--processes: `0` is not a process count; write a whole number from 1 to 100",
            ),
            (
                &["--format", "xml"],
                "--format: `xml` is not a format; use pretty, terse, json, bench or junit",
            ),
            (
                &["--color=maybe"],
                "--color: `maybe` is not a colour choice; use auto, always or never",
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
