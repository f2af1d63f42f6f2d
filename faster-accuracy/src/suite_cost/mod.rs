//! `accuracy --suite-cost`: what a library's whole suite of comparisons
//! costs under `cargo test --release` with the README's set-up line, and
//! what layouts and processes add to it. A crate of comparisons (dependent
//! chains of 0.1 to 1 µs per call; a third of them a real 2x under `expect
//! = faster`, the rest identical work under `expect = not_slower`) is
//! built once, linked through `faster-link`, then tested again and again
//! in four settings, interleaved run by run so that a drift of the machine
//! reaches each alike: the defaults, `FASTER_LAYOUTS=off`,
//! `FASTER_PROCESSES=1`, and the defaults under `cargo nextest run` (a
//! process per test, so each comparison starts its own servers) where
//! nextest is installed.
//!
//! ```text
//! accuracy --suite-cost [--comparisons 100] [--runs 3] [--faster PATH] [--linker PATH] [--keep]
//! ```
//!
//! The first run after the build makes the layouts (the binary relinked
//! in other orders), so it is shown apart from the runs that reuse them;
//! the layouts' folders beside the test binary are measured on disk at the
//! end. Modules: `generated` (the crate and cargo in it), `outcome` (one
//! run read), `on_disk` (the layouts' folders measured).

mod generated;
mod on_disk;
mod outcome;

use crate::layouts::{faster_workspace, linker};
use crate::machine;
use crate::options::Options;
use crate::workloads::ns_per_step;
use faster_runtime::__internal::median;
use generated::{Runner, Suite, cases};
use on_disk::{describe_layouts, layouts_on_disk};
use outcome::{Run, describe, run_once};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// What the command line asked for.
#[derive(Debug, PartialEq)]
struct Settings {
    comparisons: usize,
    runs: usize,
    faster: Option<String>,
    linker: Option<String>,
    keep: bool,
}

impl Settings {
    /// The options this mode takes, with its defaults.
    fn of(options: &Options) -> Settings {
        Settings {
            comparisons: options.comparisons.unwrap_or(100),
            runs: options.runs.unwrap_or(3),
            faster: options.faster.clone(),
            linker: options.linker.clone(),
            keep: options.keep,
        }
    }
}

/// A setting the suite runs in: its label, what runs the tests and its
/// environment.
struct Setting {
    label: &'static str,
    runner: Runner,
    environment: &'static [(&'static str, &'static str)],
}

/// The settings compared; `nextest` where cargo-nextest is installed.
const SETTINGS: [Setting; 4] = [
    Setting {
        label: "default",
        runner: Runner::Libtest,
        environment: &[],
    },
    Setting {
        label: "FASTER_LAYOUTS=off",
        runner: Runner::Libtest,
        environment: &[("FASTER_LAYOUTS", "off")],
    },
    Setting {
        label: "FASTER_PROCESSES=1",
        runner: Runner::Libtest,
        environment: &[("FASTER_PROCESSES", "1")],
    },
    Setting {
        label: "nextest",
        runner: Runner::Nextest,
        environment: &[],
    },
];

/// `accuracy --suite-cost`.
pub fn suite_cost(options: &Options) -> ExitCode {
    match measure(&Settings::of(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("accuracy --suite-cost: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `--linker`, or `faster-link` on `PATH`, or the one the faster workspace
/// built.
fn faster_link(given: Option<&str>, faster: &Path) -> Result<PathBuf, String> {
    if let Some(given) = given {
        return linker(given);
    }
    linker("faster-link").or_else(|_| {
        let built = faster.join("target/release/faster-link");
        built.is_file().then_some(built).ok_or_else(|| {
            format!(
                "no faster-link on PATH nor in {}: build it (cargo build --release -p \
                 cargo-faster) or give --linker",
                faster.join("target/release").display()
            )
        })
    })
}

fn measure(settings: &Settings) -> Result<(), String> {
    let started = Instant::now();
    let faster = faster_workspace(settings.faster.as_deref())?;
    let linker = faster_link(settings.linker.as_deref(), &faster)?;
    let step_ns = ns_per_step();
    let cases = cases(settings.comparisons, step_ns);
    let suite = Suite::create(&cases, &faster, &linker, settings.keep)?;
    let doubles = cases.iter().filter(|case| case.is_double()).count();
    println!(
        "faster accuracy suite: what a suite costs under cargo test --release, {}",
        machine::now_utc()
    );
    println!("{}", machine::at_start());
    println!(
        "faster: {}; linker: {} (the crate's .cargo/config.toml, the README's set-up line)",
        faster.display(),
        linker.display()
    );
    println!(
        "suite: {} comparisons, chains of 0.1 to 1 µs per candidate call ({step_ns:.2} ns per \
         step): {doubles} a real 2x (expect = faster), {} identical work (expect = not_slower); \
         crate {}",
        cases.len(),
        cases.len() - doubles,
        suite.root.display()
    );
    let (built, _, stderr, wall) = suite.cargo_test(&["--no-run"], &[])?;
    if !built {
        return Err(format!(
            "building the crate failed:\n{}",
            crate::layouts::tail(&stderr, 30)
        ));
    }
    println!(
        "built in {:.1} s (cargo test --release --no-run, the dependencies included)",
        wall.as_secs_f64()
    );
    let first = run_once(&suite, &SETTINGS[0], cases.len())?;
    println!(
        "first run (default settings; it makes the layouts): {}\n",
        describe(&first)
    );
    let settings_run: Vec<&Setting> = SETTINGS
        .iter()
        .filter(|setting| setting.runner.available())
        .collect();
    if settings_run.len() < SETTINGS.len() {
        println!("cargo nextest is not installed here: its setting is left out\n");
    }
    let mut runs: Vec<Vec<Run>> = vec![Vec::new(); settings_run.len()];
    for run in 1..=settings.runs {
        for (setting, runs) in settings_run.iter().zip(&mut runs) {
            let one = run_once(&suite, setting, cases.len())?;
            println!("run {run}, {:<19} {}", setting.label, describe(&one));
            runs.push(one);
        }
    }
    println!();
    print_settings(&settings_run, &runs);
    let median_wall = |runs: &[Run]| median(&runs.iter().map(|run| run.wall_s).collect::<Vec<_>>());
    println!(
        "\nmedian default / median FASTER_PROCESSES=1: {:.2}x ({:.1} s / {:.1} s)",
        median_wall(&runs[0]) / median_wall(&runs[2]),
        median_wall(&runs[0]),
        median_wall(&runs[2]),
    );
    if let Some(nextest) = runs.get(3) {
        println!(
            "median nextest / median default: {:.2}x ({:.1} s / {:.1} s): a process per test, \
             each starting its own servers",
            median_wall(nextest) / median_wall(&runs[0]),
            median_wall(nextest),
            median_wall(&runs[0]),
        );
    }
    println!("{}", describe_layouts(&layouts_on_disk(&suite.target)?));
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(())
}

/// A line per setting: each run's wall time, their median, and how many
/// comparisons passed and failed over the runs.
fn print_settings(settings: &[&Setting], runs: &[Vec<Run>]) {
    println!(
        "per setting, over its runs (the first run not among them); passed and failed count \
         comparisons:"
    );
    println!(
        "{:<19} {:>24} {:>9} {:>8} {:>8} {:>10} {:>11}",
        "setting", "wall s per run", "median s", "passed", "failed", "2x failed", "same failed"
    );
    for (setting, runs) in settings.iter().zip(runs) {
        let walls: Vec<f64> = runs.iter().map(|run| run.wall_s).collect();
        let each: Vec<String> = walls.iter().map(|wall| format!("{wall:.1}")).collect();
        let sum = |read: fn(&Run) -> usize| runs.iter().map(read).sum::<usize>();
        let double_failed = sum(|run| run.double.failed);
        let same_failed = sum(|run| run.same.failed);
        println!(
            "{:<19} {:>24} {:>9.1} {:>8} {:>8} {:>10} {:>11}",
            setting.label,
            each.join(" "),
            median(&walls),
            sum(|run| run.double.passed + run.same.passed),
            double_failed + same_failed,
            double_failed,
            same_failed,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(arguments: &[&str]) -> Settings {
        let arguments = std::iter::once("accuracy").chain(arguments.iter().copied());
        Settings::of(&Options::try_parse_from(arguments).unwrap())
    }

    #[test]
    fn the_command_line() {
        let defaults = parse(&["--suite-cost"]);
        assert_eq!((defaults.comparisons, defaults.runs), (100, 3));
        assert!(defaults.linker.is_none() && !defaults.keep);
        let given = parse(&[
            "--suite-cost",
            "--comparisons",
            "12",
            "--runs",
            "1",
            "--linker",
            "/l",
        ]);
        assert_eq!((given.comparisons, given.runs), (12, 1));
        assert_eq!(given.linker.as_deref(), Some("/l"));
    }
}
