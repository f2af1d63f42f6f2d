//! `accuracy --coverage`: how often the 99% interval that `cargo faster
//! --against` reports holds the truth for tracked functions a commit did
//! not touch, where the truth is 1.00. DESIGN.md asks for coverage, not
//! only verdicts: a verdict can be right by luck while its interval is too
//! short.
//!
//! ```text
//! accuracy --coverage [--runs N] [--floors 0.02,0.05] [--commits comment,statics] [--csv PATH] [--keep]
//! ```
//!
//! The fixture (`fixture`) is a repository whose library tracks the
//! catalog's kinds of real work (`accuracy --layouts`' bodies and inputs),
//! two of them again on inputs of several sizes, and whose commits, each
//! on top of the base, change nothing a tracked function uses: a comment,
//! unrelated functions added in the tracked functions' modules and in
//! another, unrelated helpers removed, unrelated statics and strings, the
//! package's description. The real `cargo-faster` runs once per commit to
//! build (not counted), then `--runs` times per noise floor, the commits
//! taking turns (each run checks one out and compares it against the base
//! at every floor), and every tracked function's report is read back
//! (`tally`): a table by function and floor — intervals, how many hold
//! 1.00, false verdicts, undecided ones, the median interval, layouts and
//! time —, the coverage with and without the intervals whose compiled code
//! changed, and each interval that missed.

mod fixture;
mod tally;

use crate::machine;
use crate::options::Options;
use crate::output::Csv;
use crate::repository::{PACKAGE, Ran, build_cargo_faster};
use faster_runtime::__internal::median;
use fixture::{CHANGES, Change, Fixture, TRACKED};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use tally::{Interval, Reading};

/// At least this many intervals per floor by default.
const DEFAULT_INTERVALS: usize = 300;

/// What the command line asked for.
#[derive(Debug, PartialEq)]
struct Settings {
    runs: usize,
    floors: Vec<f64>,
    changes: Vec<Change>,
    csv: Option<String>,
    keep: bool,
}

impl Settings {
    /// The options this mode takes. By default every commit, at floors of
    /// 2% and 5%, and the fewest runs that give every commit as many turns
    /// and each floor [`DEFAULT_INTERVALS`].
    fn of(options: &Options) -> Result<Settings, String> {
        let changes = if options.commits.is_empty() {
            CHANGES.to_vec()
        } else {
            options
                .commits
                .iter()
                .map(|name| {
                    Change::named(name).ok_or_else(|| {
                        let names: Vec<&str> = CHANGES.iter().map(|change| change.name()).collect();
                        format!(
                            "--commits {name}: no such commit; the commits: {}",
                            names.join(", ")
                        )
                    })
                })
                .collect::<Result<Vec<Change>, String>>()?
        };
        let floors = if options.floors.is_empty() {
            vec![0.02, 0.05]
        } else {
            options.floors.clone()
        };
        let turns = DEFAULT_INTERVALS.div_ceil(TRACKED.len() * changes.len());
        Ok(Settings {
            runs: options.runs.unwrap_or(turns * changes.len()),
            floors,
            changes,
            csv: options.csv.clone(),
            keep: options.keep,
        })
    }
}

/// `accuracy --coverage`.
pub fn coverage(options: &Options) -> ExitCode {
    match Settings::of(options).and_then(|settings| run(&settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("accuracy --coverage: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(settings: &Settings) -> Result<(), String> {
    let started = Instant::now();
    let cargo_faster = build_cargo_faster()?;
    let fixture = Fixture::create(&settings.changes, settings.keep)?;
    print_header(settings, &fixture);
    let mut csv = settings
        .csv
        .as_deref()
        .map(|path| {
            Csv::create(path, tally::CSV_COLUMNS).map_err(|error| format!("{path}: {error}"))
        })
        .transpose()?;
    build_each(&fixture, &cargo_faster, settings.floors[0])?;
    let (intervals, walls) = measure(&fixture, &cargo_faster, settings, csv.as_mut())?;
    print_results(&intervals, &settings.floors);
    println!(
        "\n{} runs of cargo faster, median {:.1} s each (the checked-out commit rebuilt when it \
         changed); finished in {:.0} s; load average {} at the end",
        walls.len(),
        median(&walls),
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(())
}

/// The building runs, one per commit, not counted: each says how long it
/// took and whose compiled code the commit changed (the same in every run
/// of it, counted in every interval after); the first, the functions.
fn build_each(fixture: &Fixture, cargo_faster: &Path, floor: f64) -> Result<(), String> {
    for (index, (change, commit)) in fixture.commits.iter().enumerate() {
        let ran = compare(fixture, cargo_faster, commit, floor)?;
        let changed: Vec<&str> = intervals_of(&ran, floor, 0, change.name())
            .iter()
            .filter(|interval| interval.compiled_code_changed())
            .map(|interval| interval.function)
            .collect();
        println!(
            "building run, {}: {:.1} s ({}); compiled code changed: {}",
            change.name(),
            ran.wall.as_secs_f64(),
            ran.base_build
                .as_deref()
                .unwrap_or("the base was built already"),
            if changed.is_empty() {
                "none".to_string()
            } else {
                changed.join(", ")
            },
        );
        if index == 0 {
            print_functions(&ran);
        }
    }
    println!();
    Ok(())
}

/// The counted runs: the commits taking turns, each checked out once per
/// turn and compared at every floor. Every interval (also to `csv`) and
/// each run's wall time.
fn measure(
    fixture: &Fixture,
    cargo_faster: &Path,
    settings: &Settings,
    mut csv: Option<&mut Csv>,
) -> Result<(Vec<Interval>, Vec<f64>), String> {
    let mut intervals: Vec<Interval> = Vec::new();
    let mut walls = Vec::new();
    for run in 1..=settings.runs {
        let (change, commit) = &fixture.commits[(run - 1) % fixture.commits.len()];
        for &floor in &settings.floors {
            let ran = compare(fixture, cargo_faster, commit, floor)?;
            if ran.base_build.is_some() {
                return Err(format!("run {run}: the base was built again"));
            }
            walls.push(ran.wall.as_secs_f64());
            let of_run = intervals_of(&ran, floor, run, change.name());
            let holding = of_run
                .iter()
                .filter(|interval| interval.holds_one())
                .count();
            println!(
                "run {run}/{} ({}, floor {}): {:.1} s, {holding} of {} intervals hold 1.00",
                settings.runs,
                change.name(),
                tally::floor_label(floor),
                ran.wall.as_secs_f64(),
                of_run.len(),
            );
            if let Some(csv) = csv.as_mut() {
                for interval in &of_run {
                    csv.row(tally::csv_fields(interval))
                        .map_err(|error| error.to_string())?;
                }
            }
            intervals.extend(of_run);
        }
    }
    Ok((intervals, walls))
}

/// The table, the compiled-code lines and the misses.
fn print_results(intervals: &[Interval], floors: &[f64]) {
    let functions: Vec<&str> = TRACKED.iter().map(|tracked| tracked.function).collect();
    println!(
        "\nColumns: holds 1.00 = the interval holds the truth (coverage); false F/S = faster / \
         slower verdicts, each false; undecided = within noise with an interval reaching past the \
         floor; median ±half-width = the median speedup and the median of the intervals' \
         half-widths in log space, as a percentage; layouts = the median number of layouts \
         measured (each in a pair of processes, one per revision); time = the median time \
         measuring one function.\n"
    );
    println!(
        "{}",
        tally::table(intervals, &functions, floors).render(true)
    );
    println!();
    for line in tally::compiled_code_lines(intervals, floors) {
        println!("{line}");
    }
    let misses = tally::misses(intervals);
    println!(
        "\nintervals that did not hold 1.00 ({} of {}):",
        misses.len(),
        intervals.len()
    );
    for miss in &misses {
        println!("  {miss}");
    }
}

/// Checks `commit` out and runs `cargo faster` against the base at
/// `floor`.
fn compare(
    fixture: &Fixture,
    cargo_faster: &Path,
    commit: &str,
    floor: f64,
) -> Result<Ran, String> {
    let repository = &fixture.repository;
    repository.git(&["checkout", "--quiet", commit])?;
    repository.cargo_faster(
        cargo_faster,
        &fixture.base,
        &["--noise-floor", &floor.to_string()],
    )
}

/// The interval of every tracked function in one run.
fn intervals_of(ran: &Ran, floor: f64, run: usize, commit: &'static str) -> Vec<Interval> {
    TRACKED
        .iter()
        .map(|tracked| {
            let name = format!("{PACKAGE}::{}::{}", tracked.kind, tracked.function);
            let reading = match ran.functions.iter().find(|(reported, _)| *reported == name) {
                Some((_, Ok(report))) => Ok(Reading::of(report)),
                Some((_, Err(error))) => Err(error.clone()),
                None => Err("not reported".into()),
            };
            Interval {
                floor,
                run,
                commit,
                function: tracked.function,
                kind: tracked.kind,
                reading,
            }
        })
        .collect()
}

fn print_header(settings: &Settings, fixture: &Fixture) {
    println!(
        "faster accuracy suite: coverage across revisions, {}",
        machine::now_utc()
    );
    println!("{}", machine::at_start());
    let repository = &fixture.repository;
    println!(
        "fixture: {} (target {}); base {}; each commit on top of it changes nothing a tracked \
         function uses (the truth is 1.00 for every one):",
        repository.root.display(),
        repository.target.display(),
        &fixture.base[..7],
    );
    for (change, commit) in &fixture.commits {
        println!("  {:<16} {} {}", change.name(), &commit[..7], change.what());
    }
    let floors: Vec<String> = settings
        .floors
        .iter()
        .map(|f| tally::floor_label(*f))
        .collect();
    println!(
        "{} runs per floor ({}), the commits taking turns, after one building run per commit: \
         cargo faster --against BASE --format json --noise-floor F, defaults otherwise",
        settings.runs,
        floors.join(", "),
    );
}

/// The tracked functions, with how many inputs each is measured on, as
/// the first run reported them.
fn print_functions(ran: &Ran) {
    let functions: Vec<String> = TRACKED
        .iter()
        .map(|tracked| {
            let name = format!("{PACKAGE}::{}::{}", tracked.kind, tracked.function);
            let inputs = ran
                .functions
                .iter()
                .find(|(reported, _)| *reported == name)
                .and_then(|(_, report)| report.as_ref().ok())
                .map_or("not reported".to_string(), |report| {
                    match report.inputs.len() {
                        1 => "1 input".to_string(),
                        inputs => format!("{inputs} inputs"),
                    }
                });
            format!("{} ({inputs})", tracked.function)
        })
        .collect();
    println!("tracked: {}", functions.join(", "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn settings(arguments: &[&str]) -> Result<Settings, String> {
        let arguments = ["accuracy", "--coverage"]
            .into_iter()
            .chain(arguments.iter().copied());
        Settings::of(&Options::try_parse_from(arguments).unwrap())
    }

    #[test]
    fn the_defaults_give_each_floor_enough_intervals_and_each_commit_as_many_turns() {
        let defaults = settings(&[]).unwrap();
        assert_eq!(defaults.floors, [0.02, 0.05]);
        assert_eq!(defaults.changes, CHANGES);
        assert_eq!(defaults.runs % CHANGES.len(), 0);
        assert!(defaults.runs * TRACKED.len() >= DEFAULT_INTERVALS);
        assert!((defaults.runs - CHANGES.len()) * TRACKED.len() < DEFAULT_INTERVALS);
        assert!(defaults.csv.is_none() && !defaults.keep);
    }

    #[test]
    fn the_command_line() {
        let given = settings(&[
            "--runs",
            "2",
            "--floors",
            "0.05",
            "--commits",
            "statics,comment",
            "--csv",
            "c.csv",
            "--keep",
        ])
        .unwrap();
        assert_eq!(
            given,
            Settings {
                runs: 2,
                floors: vec![0.05],
                changes: vec![Change::Statics, Change::Comment],
                csv: Some("c.csv".into()),
                keep: true,
            }
        );
        let unknown = settings(&["--commits", "nothing"]).unwrap_err();
        assert!(
            unknown.contains("no such commit") && unknown.contains("added-here"),
            "{unknown}"
        );
    }
}
