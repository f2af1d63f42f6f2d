//! The two ways registered comparisons run — all of them from a
//! `harness = false` target ([`main`], [`run`]), or one at a time inside
//! libtest ([`run_test`], called by each generated `#[test]`) — both through
//! the same path (`run`) to the same outputs, and how a run ends: its exit
//! code. A comparison measured in other processes comes back through
//! [`Measured`].

mod against;
pub mod cli;
mod interrupted;
pub mod lock;
mod measured;
mod merge;
mod run;
mod servers;
mod undecided_count;

use crate::config::Settings;
use crate::engine::guard;
use crate::output::files::{ReportFiles, output_dir, target_folder};
use crate::output::github::{STEP_SUMMARY_VARIABLE, StepSummary, binary_of_test};
use crate::output::json::JsonLines;
use crate::output::junit::{Destination, Junit, NoStream};
use crate::output::style::{Progress, Style};
use crate::output::terminal::{self, Detail, Harness, Terminal};
use crate::output::{Outputs, Run, Summary, bench::BenchLines};
use crate::partition::Partition;
use crate::process::{self, Role};
use crate::registry::{self, Comparison, Tracked, comparisons};
use crate::report::Environment;
use crate::revision::serve;
pub use against::{
    AGAINST_REPORTS, Against, COULD_NOT_RUN, Revision, compiled_code_against, run_against,
};
use cli::{Cli, Format, usage};
pub use interrupted::say_when_interrupted;
pub use measured::{Measured, run_once};
pub use merge::{Merge, run_merge};
use run::{RunWide, run_comparison};
use std::io::Write;
use std::panic::Location;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The exit code of a run in which a comparison failed, as libtest's.
const FAILED: u8 = 101;
/// The exit code of a command line or setting that cannot be used.
const USAGE_ERROR: u8 = 2;

/// Runs every registered comparison from a `harness = false` target, prints
/// each report and a summary, and ends the process with exit code 101 when
/// any comparison fails (2 for a bad command line), like libtest's
/// `test_main`; returns only when every comparison passed.
///
/// It returns `()`, so `fn main() { faster::main() }` is the one form, and
/// a trailing semicolon cannot turn a failure into success. [`run`] returns
/// the code instead, for a `main` that does more. The command line is
/// described by `--help`; the guide's "Running comparisons"
/// (`guide/running.md`) has every flag and variable.
#[track_caller]
pub fn main() {
    let code = run_from(
        Location::caller().file(),
        std::env::args().skip(1).collect(),
    );
    if code != 0 {
        let _ = std::io::stdout().flush();
        std::process::exit(i32::from(code));
    }
}

/// [`main`] without ending the process: runs every registered comparison
/// and returns the exit code (101 when any failed, 2 for a bad command
/// line) for the caller to return from its own `main`.
#[must_use = "the exit code says whether a comparison failed: return it from `main`"]
#[track_caller]
pub fn run() -> ExitCode {
    ExitCode::from(run_from(
        Location::caller().file(),
        std::env::args().skip(1).collect(),
    ))
}

/// A `faster::main()` run of this binary's comparisons with `arguments`;
/// `caller` is the source file that called it, which names the target's
/// folder of report files.
fn run_from(caller: &str, arguments: Vec<String>) -> u8 {
    let registered = comparisons();
    if process::role() == Some(Role::ServeComparisons) {
        return match servers::serve(&registered) {
            Ok(()) => 0,
            Err(_) => FAILED,
        };
    }
    let environment = Settings::from_env();
    let cli = match Cli::parse(&arguments)
        .and_then(|cli| cli.with_env(|name| std::env::var(name).ok()))
    {
        Ok(cli) if cli.help => {
            println!("{}", usage());
            return 0;
        }
        Ok(cli) => cli,
        Err(message) => {
            eprintln!("faster: {message}");
            return USAGE_ERROR;
        }
    };
    let environment = match environment {
        Ok(environment) => environment,
        Err(error) => {
            eprintln!("faster: {error}");
            return USAGE_ERROR;
        }
    };
    let destinations = Destinations {
        stdout: Box::new(std::io::stdout()),
        style: cli.color.for_stdout(),
        progress: Progress::on_stderr(),
        files: ReportFiles::new(output_dir(), target_folder(caller)),
        step_summary: step_summary_path(),
    };
    let run_wide = RunWide {
        environment,
        command_line: cli.settings,
    };
    run_all(&cli, &registered, &run_wide, destinations)
}

/// Where a run's outputs go: the real ones in [`run_from`], [`run_test`]
/// and `run_against`, buffers and a temporary directory in tests.
struct Destinations<'a> {
    stdout: Box<dyn Write + 'a>,
    style: Style,
    progress: Progress,
    /// The target's report files.
    files: ReportFiles,
    /// `$GITHUB_STEP_SUMMARY`, when set.
    step_summary: Option<PathBuf>,
}

fn step_summary_path() -> Option<PathBuf> {
    std::env::var_os(STEP_SUMMARY_VARIABLE)
        .filter(|path| !path.is_empty())
        .map(PathBuf::from)
}

/// Lists or runs the comparisons `cli` selects among `registered`.
fn run_all(
    cli: &Cli,
    registered: &[&Comparison],
    run_wide: &RunWide,
    mut to: Destinations<'_>,
) -> u8 {
    let names: Vec<&str> = registered.iter().map(|c| c.test_name()).collect();
    let selected: Vec<&Comparison> = registered
        .iter()
        .copied()
        .zip(cli.shares(&names))
        .filter_map(|(comparison, shared)| shared.then_some(comparison))
        .collect();
    if cli.list {
        for comparison in &selected {
            let _ = writeln!(to.stdout, "{}: test", comparison.test_name());
        }
        if cli.format.unwrap_or(Format::Pretty) == Format::Pretty {
            let _ = writeln!(to.stdout, "\n{} tests, 0 benchmarks", selected.len());
        }
        return 0;
    }
    if registered.is_empty() {
        eprintln!("{NOTHING_REGISTERED}");
        return FAILED;
    }

    let mut outputs = outputs(cli.format, cli.junit.clone(), Harness::Faster, to);
    let started = Instant::now();
    let at_start = guard::snapshot();
    let binary = binary_of_test();
    let tests: Vec<&str> = selected.iter().map(|c| c.test_name()).collect();
    outputs.begin(&Run {
        tests: &tests,
        environment: Environment::current(),
        debug_build: selected
            .iter()
            .any(|comparison| !run_wide.enforces(comparison)),
    });
    let outcomes = run::run_all(&selected, run_wide, &mut outputs);
    let summary = Summary {
        binary: &binary,
        against: None,
        outcomes: &outcomes,
        filtered_out: registered.len() - selected.len(),
        elapsed: started.elapsed(),
        whole_run: None,
        load: guard::load_between(&at_start, &guard::snapshot()),
    };
    outputs.end(&summary);
    exit_code(&summary, outputs.unwritten())
}

/// How a run that measured ends: 0 when every comparison passed and every
/// report was written, else 101. A report that could not be written fails
/// the run, as a comparison does: a CI step that reads it would find
/// nothing, or an earlier run's.
fn exit_code(summary: &Summary<'_>, unwritten: &[String]) -> u8 {
    if !unwritten.is_empty() {
        eprintln!(
            "faster: the run fails: {} could not be written, which a CI step reading {} would miss:",
            if unwritten.len() == 1 {
                "a report"
            } else {
                "reports"
            },
            if unwritten.len() == 1 { "it" } else { "them" },
        );
        for problem in unwritten {
            eprintln!("  {problem}");
        }
    }
    if summary.failed() == 0 && unwritten.is_empty() {
        0
    } else {
        FAILED
    }
}

/// The outputs of a run, the one place they are chosen: progress, report
/// files, `format` on stdout (pretty by default), JUnit to a file where
/// asked, and GitHub's job summary where `$GITHUB_STEP_SUMMARY` is set —
/// whole at the end of a `faster::main()` run, row by row under libtest,
/// which has no end of the run to write it at. libtest writes (or not) its
/// own JUnit, so under it `--format junit` leaves the reports pretty.
fn outputs<'a>(
    format: Option<Format>,
    junit: Option<PathBuf>,
    harness: Harness,
    to: Destinations<'a>,
) -> Outputs<'a> {
    let mut outputs = Outputs::new();
    outputs.add(to.progress);
    outputs.add(to.files);
    let (stdout, style) = (to.stdout, to.style);
    let terminal = |stdout, detail| Terminal::new(stdout, style, detail, harness);
    match format.unwrap_or(Format::Pretty) {
        Format::Pretty => outputs.add(terminal(stdout, Detail::Pretty)),
        Format::Junit if harness == Harness::Libtest => {
            outputs.add(terminal(stdout, Detail::Pretty))
        }
        Format::Terse => outputs.add(terminal(stdout, Detail::Terse)),
        Format::Json => outputs.add(JsonLines::new(stdout)),
        Format::Bench => outputs.add(BenchLines::new(stdout, style)),
        Format::Junit => outputs.add(Junit::new(Destination::Stream(stdout))),
    }
    if let Some(path) = junit {
        outputs.add(Junit::<NoStream>::new(Destination::File(path)));
    }
    if let Some(path) = to.step_summary {
        outputs.add(match harness {
            Harness::Faster => StepSummary::whole_run(path),
            Harness::Libtest => StepSummary::row_by_row(path),
        });
    }
    outputs
}

const NOTHING_REGISTERED: &str = "faster: no comparison is registered in this binary.
  A test or bench target only sees the comparisons of the crates it links. If they live in
  your library, link it from this target with `use the_crate as _;` (the_crate: your
  library's name). Comparisons written as `#[cfg_attr(test, faster::compare(...))]` exist
  only in the library's own unit-test binary (`cargo test --lib`); to run them from this
  target, apply the attribute without `cfg_attr(test, ...)`.";

/// Runs one registered comparison inside a libtest `#[test]`, through the
/// same path as [`main`]: prints its report (in the format libtest's
/// `--format`/`-q` or `FASTER_FORMAT` asks for), writes its files and its
/// row of GitHub's job summary, and panics when outputs differ, user code
/// panics, or (in an optimized build, or with `FASTER_ENFORCE=1`) the
/// verdict misses the expectation.
///
/// `#[track_caller]`: its panics point at the generated test's call, which
/// the expansion places on the user's attribute, not at this file. So no
/// panic here may come from inside a closure (which has no caller to
/// track): each is written at this function's own level.
#[doc(hidden)]
#[track_caller]
pub fn run_test(comparison: &Comparison) {
    let environment = match Settings::from_env() {
        Ok(environment) => environment,
        Err(error) => panic!("faster: {error}"),
    };
    let run_wide = RunWide {
        environment,
        ..RunWide::default()
    };
    if process::role() == Some(Role::ServeComparisons) {
        if let Err(error) = servers::serve(&comparisons()) {
            panic!("faster: serving the comparisons failed: {error}");
        }
        return;
    }
    let partition = match cli::partition_from_env(|name| std::env::var(name).ok()) {
        Ok(partition) => partition,
        Err(error) => panic!("faster: {error}"),
    };
    if let Some(partition) = partition {
        if !in_shard(comparison, partition) {
            return;
        }
    }
    let (color, format) =
        match cli::libtest_display(std::env::args(), |name| std::env::var(name).ok()) {
            Ok(display) => display,
            Err(error) => panic!("faster: {error}"),
        };
    // Written past libtest's capture on purpose: the figures are the point
    // of the test, also when it passes.
    let destinations = Destinations {
        stdout: Box::new(std::io::stdout()),
        style: color.for_stdout(),
        progress: Progress::disabled(),
        files: ReportFiles::new(output_dir(), target_folder(comparison.file)),
        step_summary: step_summary_path(),
    };
    let mut outputs = outputs(format, None, Harness::Libtest, destinations);
    let (outcome, notes) = run_comparison(comparison, &run_wide, &mut outputs);
    undecided_count::count(&outcome);
    if !outcome.passed() {
        panic!("{}", terminal::failure_message(&outcome, &notes));
    }
    if !outputs.unwritten().is_empty() {
        panic!(
            "faster: {} fails: {} (a CI step reading the report would miss it)",
            outcome.test,
            outputs.unwritten().join("; ")
        );
    }
}

/// Whether `partition` measures `comparison` here, dealt among this
/// binary's comparisons (libtest's filters are its own, so a slice is of
/// them all); one that is not says which shard measures it, past libtest's
/// capture, and passes.
fn in_shard(comparison: &Comparison, partition: Partition) -> bool {
    let registered = comparisons();
    let names: Vec<&str> = registered.iter().map(|c| c.test_name()).collect();
    if partition.keeps_one(comparison.test_name(), &names) {
        return true;
    }
    let _ = writeln!(
        std::io::stdout(),
        "faster: {} is not in shard {partition}: another shard measures it",
        comparison.test_name()
    );
    false
}

/// Runs a tracked function's generated `#[test]`: collects its inputs and
/// calls it twice on each, panicking with the error when the inputs
/// function or a call panics or there are no inputs. Started by `cargo
/// faster` to serve (see `revision::protocol`), it serves every tracked
/// function of this binary on stdin and stdout instead. `#[track_caller]`
/// as [`run_test`], and for the same reason.
#[doc(hidden)]
#[track_caller]
pub fn run_tracked_test(tracked: &Tracked) {
    if process::role() == Some(Role::ServeTracked) {
        let served = serve::serve(
            &registry::tracked(),
            std::io::stdin().lock(),
            std::io::stdout().lock(),
        );
        if let Err(error) = served {
            panic!("faster: serving the tracked functions failed: {error}");
        }
        return;
    }
    let checked = (tracked.open)().and_then(|mut served| match served.input_count() {
        0 => Err(crate::error::Error::NoInputs),
        _ => served.digest_inputs().map(drop),
    });
    if let Err(error) = checked {
        panic!(
            "faster: {} ({}:{}): {error}",
            tracked.name, tracked.file, tracked.line
        );
    }
}

#[cfg(test)]
mod tests;
