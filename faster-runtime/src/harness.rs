//! Running registered comparisons: one at a time under libtest
//! ([`run_test`], called by each generated `#[test]`), or all of them from a
//! `harness = false` target ([`main`]), with a libtest-like command line.

use crate::config::{Config, parse_duration, parse_noise_floor};
use crate::error::Error;
use crate::registry::{Comparison, comparisons};
use crate::report::Report;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What running one comparison came to.
struct Outcome {
    result: Result<Report, Error>,
    /// Whether a timing verdict that misses the expectation fails the run.
    enforced: bool,
}

impl Outcome {
    fn passed(&self) -> bool {
        match &self.result {
            Ok(report) => report.passed() || !self.enforced,
            Err(_) => false,
        }
    }
}

/// Runs one comparison with `base` as the run-wide configuration.
fn execute(comparison: &Comparison, base: &Config) -> Outcome {
    let enforced = !comparison.debug_build || env_flag("FASTER_ENFORCE");
    let config = comparison.settings.apply(base);
    let mut result = (comparison.run)(&config);
    if let Ok(report) = &mut result
        && !enforced
    {
        report.warnings.push(
            "debug build: the timing verdict is reported, not enforced (outputs are); run \
             `cargo test --release` to enforce it, or set FASTER_ENFORCE=1"
                .into(),
        );
    }
    Outcome { result, enforced }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|value| matches!(value.trim(), "1" | "true" | "yes"))
}

/// Runs one registered comparison inside a libtest `#[test]`: prints its
/// report and panics when outputs differ, user code panics, or (in an
/// optimized build, or with `FASTER_ENFORCE=1`) the verdict misses the
/// expectation.
#[doc(hidden)]
pub fn run_test(comparison: &Comparison) {
    let base = Config::from_env().unwrap_or_else(|error| panic!("faster: {error}"));
    let outcome = execute(comparison, &base);
    match &outcome.result {
        Ok(report) if outcome.passed() => {
            // Written past libtest's capture on purpose: the figures are the
            // point of the test, also when it passes.
            let _ = std::io::stdout().lock().write_all(report.to_string().as_bytes());
        }
        Ok(report) => panic!(
            "{report}faster: {} is {}, but was expected to be {} (see {}:{})",
            comparison.display_name(),
            report.verdict,
            report.expect.as_str().replace('_', " "),
            comparison.file,
            comparison.line,
        ),
        Err(error) => panic!(
            "faster: {} vs {} ({}:{}): {error}",
            comparison.display_name(),
            comparison.original,
            comparison.file,
            comparison.line,
        ),
    }
}

/// The entry point of a `harness = false` test or bench target: runs every
/// registered comparison (filtered by the command line), prints each report
/// and a summary, and exits non-zero when any fails.
///
/// ```no_run
/// // tests/speed.rs, with `[[test]] name = "speed" harness = false`
/// use my_crate as _; // link the library so its comparisons register
///
/// fn main() -> std::process::ExitCode {
///     faster_runtime::main()
/// }
/// # mod my_crate {}
/// ```
///
/// Flags: `FILTER...`, `--exact`, `--skip FILTER`, `--list [--format terse]`,
/// `--quick`, `--max-time DURATION`, `--noise-floor FRACTION`, `--ignored`,
/// `--include-ignored`; the other flags cargo and libtest pass are accepted
/// and ignored.
pub fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match Cli::parse(&arguments) {
        Ok(cli) => run_all(&cli),
        Err(message) => {
            eprintln!("faster: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "usage: <test binary> [FILTER...] [--exact] [--skip FILTER] [--list] [--quick] \
[--max-time DURATION] [--noise-floor FRACTION] [--ignored | --include-ignored]";

/// The parsed command line of [`main`].
#[derive(Debug, Default, PartialEq)]
struct Cli {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
    ignored_only: bool,
    quick: bool,
    max_time: Option<Duration>,
    noise_floor: Option<f64>,
}

/// Budget per comparison with `--quick`.
const QUICK_MAX_TIME: Duration = Duration::from_millis(500);

impl Cli {
    fn parse(arguments: &[String]) -> Result<Cli, String> {
        let mut cli = Cli::default();
        let mut arguments = arguments.iter();
        while let Some(argument) = arguments.next() {
            let mut value = |flag: &str| {
                arguments
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let (flag, inline_value) = match argument.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
                _ => (argument.as_str(), None),
            };
            let mut value_of = |flag: &str| inline_value.clone().map_or_else(|| value(flag), Ok);
            match flag {
                "--exact" => cli.exact = true,
                "--list" => cli.list = true,
                "--ignored" => cli.ignored_only = true,
                "--quick" => cli.quick = true,
                "--skip" => cli.skips.push(value_of(flag)?),
                "--max-time" => cli.max_time = Some(parse_duration(&value_of(flag)?)?),
                "--noise-floor" => cli.noise_floor = Some(parse_noise_floor(&value_of(flag)?)?),
                "--format" => match value_of(flag)?.as_str() {
                    "pretty" | "terse" => {}
                    other => return Err(format!("--format {other} is not supported; use pretty or terse")),
                },
                // Flags cargo, libtest and nextest pass, which change nothing here.
                "--include-ignored" | "--bench" | "--test" | "--nocapture" | "--no-capture"
                | "--show-output" | "--quiet" | "-q" | "--report-time" | "--ensure-time"
                | "--shuffle" | "--force-run-in-process" | "--exclude-should-panic" => {}
                "--test-threads" | "--color" | "--logfile" | "--shuffle-seed" | "-Z" => {
                    value_of(flag)?;
                }
                _ if flag.starts_with('-') => return Err(format!("unknown flag {argument}")),
                _ => cli.filters.push(argument.clone()),
            }
        }
        Ok(cli)
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter
            } else {
                name.contains(filter.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches)) && !self.skips.iter().any(matches)
    }

    /// The run-wide configuration: the environment, then these flags.
    fn config(&self) -> Result<Config, Error> {
        let mut config = Config::from_env()?;
        if self.quick {
            config.max_time = QUICK_MAX_TIME;
        }
        if let Some(max_time) = self.max_time {
            config.max_time = max_time;
        }
        if let Some(noise_floor) = self.noise_floor {
            config.noise_floor = noise_floor;
        }
        Ok(config)
    }
}

fn run_all(cli: &Cli) -> ExitCode {
    let registered = comparisons();
    // No comparison is ignored, so `--ignored` selects none.
    let selected: Vec<&Comparison> = registered
        .iter()
        .copied()
        .filter(|comparison| !cli.ignored_only && cli.selects(comparison.display_name()))
        .collect();
    if cli.list {
        for comparison in &selected {
            println!("{}: test", comparison.display_name());
        }
        return ExitCode::SUCCESS;
    }
    if registered.is_empty() {
        eprintln!("{NOTHING_REGISTERED}");
        return ExitCode::from(101);
    }
    let base = match cli.config() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("faster: {error}");
            return ExitCode::from(2);
        }
    };

    let started = Instant::now();
    println!("\nrunning {} comparisons", selected.len());
    let mut failures = Vec::new();
    for comparison in &selected {
        let outcome = execute(comparison, &base);
        match &outcome.result {
            Ok(report) => print!("{report}"),
            Err(error) => println!("faster: {} vs {}\n  error: {error}", comparison.display_name(), comparison.original),
        }
        let status = if outcome.passed() { "ok" } else { "FAILED" };
        println!("test {} ... {status}\n", comparison.display_name());
        if !outcome.passed() {
            failures.push(comparison.display_name());
        }
    }
    if !failures.is_empty() {
        println!("failures:");
        for name in &failures {
            println!("    {name}");
        }
        println!();
    }
    println!(
        "test result: {}. {} passed; {} failed; 0 ignored; 0 measured; {} filtered out; finished in {:.2}s\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        selected.len() - failures.len(),
        failures.len(),
        registered.len() - selected.len(),
        started.elapsed().as_secs_f64(),
    );
    if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(101) }
}

const NOTHING_REGISTERED: &str = "faster: no comparison is registered in this binary.
  A test or bench target only sees the comparisons of the crates it links. If they live in
  your library, link it from this target with `use the_crate as _;` (the_crate: your
  library's name). Comparisons written as `#[cfg_attr(test, faster::compare(...))]` exist
  only in the library's own unit-test binary (`cargo test --lib`); to run them from this
  target, apply the attribute without `cfg_attr(test, ...)`.";

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Cli, String> {
        Cli::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn filters_and_flags() {
        let cli = parse(&["sum", "--exact", "--max-time", "250ms", "--noise-floor=0.1"]).unwrap();
        assert_eq!(cli.filters, vec!["sum"]);
        assert!(cli.exact);
        assert_eq!(cli.max_time, Some(Duration::from_millis(250)));
        assert_eq!(cli.noise_floor, Some(0.1));
    }

    #[test]
    fn the_flags_cargo_and_nextest_pass_are_accepted() {
        let cli = parse(&["--bench", "--nocapture", "--test-threads", "1", "--color=never"]).unwrap();
        assert_eq!(cli, Cli::default());
        let cli = parse(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(cli.list && cli.ignored_only);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        assert_eq!(parse(&["--frobnicate"]).unwrap_err(), "unknown flag --frobnicate");
        assert_eq!(parse(&["--max-time"]).unwrap_err(), "--max-time needs a value");
        assert!(parse(&["--noise-floor", "5"]).unwrap_err().contains("between 0 and 1"));
    }

    #[test]
    fn selection_by_substring_exact_name_and_skip() {
        let cli = parse(&["sum"]).unwrap();
        assert!(cli.selects("sum::sum_fast") && !cli.selects("sort::quick"));
        let cli = parse(&["sum::sum_fast", "--exact"]).unwrap();
        assert!(cli.selects("sum::sum_fast") && !cli.selects("sum::sum_fast2"));
        let cli = parse(&["--skip", "slow"]).unwrap();
        assert!(cli.selects("sum::fast") && !cli.selects("sum::slow"));
    }

    #[test]
    fn run_wide_flags_override_the_environment_defaults() {
        let config = parse(&["--quick"]).unwrap().config().unwrap();
        assert_eq!(config.max_time, QUICK_MAX_TIME);
        let config = parse(&["--quick", "--max-time", "2s"]).unwrap().config().unwrap();
        assert_eq!(config.max_time, Duration::from_secs(2));
    }
}
