//! `accuracy --layouts`: are the verdicts right about real functions when
//! the code layout changes? A fixture library of real functions (parsing,
//! UTF-8 scanning, searching, hashing, sorting, tokenizing, run-length
//! encoding, JSON string escaping, edit distance, a CRC-32 through a
//! table), each compared
//! with a copy of itself (identical work: any `faster` or `slower` verdict
//! is false), with itself run twice (a known multiple of about 2) and with
//! itself run again on a twentieth of its input (a difference of about 5%,
//! judged at a 2% floor, beside a second identical pair at that floor: the
//! resolution), is built several times with other unrelated code and
//! another link order, and `cargo test --release` — the README's command —
//! runs several times per build; every comparison's report is read back.
//!
//! ```text
//! accuracy --layouts [--builds 5] [--runs 4] [--faster PATH] [--linker PATH] [--markdown] [--csv FILE] [--keep]
//! ```
//!
//! Build k has k unrelated functions and link order k (lld's
//! `--shuffle-sections=*=k`, for the test binary only). The fixture depends
//! on the faster workspace at `--faster` (default: this one) as a user's
//! crate does, and `--linker` links every build of it (its dependencies
//! included) through another linker. Modules: `kinds` (the functions and
//! each kind's module), `library` (the library's root and the unrelated
//! code), `fixture` (the crate on disk, cargo, the symbol
//! check), `symbols` (a binary's functions and their addresses), `run`
//! (one `cargo test` judged), `tally` (the figures), `offsets`
//! (how much of a comparison's spread between layouts the offsets of its
//! functions in a cache line explain), `table` (the tables and the CSV
//! row). With `--keep`, each run's reports stay in
//! the fixture's scratch folder, `reports/build-B-run-R/`.

mod fixture;
mod kinds;
mod library;
mod offsets;
mod run;
mod symbols;
mod table;
mod tally;

use crate::machine;
use crate::options::Options;
use crate::output::Csv;
use fixture::{CRATE, Fixture};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tally::Comparison;

// `--suite-cost` builds its crate the same way: on a faster workspace,
// through a linker, for the host.
pub(crate) use fixture::{host_triple, manifest, tail};
// `--coverage` tracks the kinds' work across revisions, in a library
// written around it as this one is, and prints its figures in these tables.
pub(crate) use kinds::{KINDS, Kind};
pub(crate) use library::{INPUT_HELPERS, unrelated, unrelated_functions};
pub(crate) use table::Table;

/// What the command line asked for.
#[derive(Debug, PartialEq)]
struct Settings {
    builds: usize,
    runs: usize,
    faster: Option<String>,
    linker: Option<String>,
    markdown: bool,
    csv: Option<String>,
    keep: bool,
}

impl Settings {
    /// The options this mode takes, with its defaults.
    fn of(options: &Options) -> Settings {
        Settings {
            builds: options.builds.unwrap_or(5),
            runs: options.runs.unwrap_or(4),
            faster: options.faster.clone(),
            linker: options.linker.clone(),
            markdown: options.markdown(),
            csv: options.csv.clone(),
            keep: options.keep,
        }
    }
}

/// `accuracy --layouts`.
pub fn layouts(options: &Options) -> ExitCode {
    let settings = Settings::of(options);
    match measure(&settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("accuracy --layouts: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The faster workspace the fixture depends on: `--faster`, or this one.
pub(crate) fn faster_workspace(given: Option<&str>) -> Result<PathBuf, String> {
    let path = given.map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("the suite lives in the workspace")
                .to_path_buf()
        },
        PathBuf::from,
    );
    let path = path
        .canonicalize()
        .map_err(|error| format!("--faster {}: {error}", path.display()))?;
    let manifest = std::fs::read_to_string(path.join("Cargo.toml")).unwrap_or_default();
    if !manifest.contains("name = \"faster-test\"") {
        return Err(format!(
            "--faster {}: not the faster workspace (its Cargo.toml names no package \
             `faster-test`); give the directory of faster's root Cargo.toml",
            path.display()
        ));
    }
    Ok(path)
}

/// `--linker`: a path (made absolute, as cargo runs in the fixture), or a
/// command found on `PATH`.
pub(crate) fn linker(given: &str) -> Result<PathBuf, String> {
    let path = Path::new(given);
    if given.contains(std::path::MAIN_SEPARATOR) {
        return path
            .canonicalize()
            .map_err(|error| format!("--linker {given}: {error}"));
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(path))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| format!("--linker {given}: no such command on PATH; give its path"))
}

fn measure(settings: &Settings) -> Result<(), String> {
    let started = Instant::now();
    let faster = faster_workspace(settings.faster.as_deref())?;
    let linker = settings.linker.as_deref().map(linker).transpose()?;
    let fixture = Fixture::create(&faster, linker.as_deref(), settings.keep)?;
    print_header(settings, &faster, &fixture);
    let mut csv = settings
        .csv
        .as_deref()
        .map(|path| {
            Csv::create(path, table::CSV_COLUMNS).map_err(|error| format!("{path}: {error}"))
        })
        .transpose()?;
    let expected = run::expected(KINDS);
    let mut comparisons: Vec<Comparison> = Vec::new();
    let mut builds = Vec::new();
    let mut spreads = Vec::new();
    for build in 1..=settings.builds {
        let seed = build as u64;
        let built = fixture.build(build, seed)?;
        if build > 1 && built.compiled != [CRATE] {
            return Err(format!(
                "build {build} compiled {:?}: a new link order must rebuild the fixture only",
                built.compiled
            ));
        }
        let mut record = table::Build {
            build,
            seed,
            unrelated: build,
            rebuild_s: built.wall.as_secs_f64(),
            compiled: built.compiled,
            runs_s: Vec::new(),
        };
        for run in 1..=settings.runs {
            let (judged, wall_s) = run_once(&fixture, &expected, seed)
                .map_err(|error| format!("build {build}, run {run}: {error}"))?;
            fixture.keep_reports(build, run)?;
            record.runs_s.push(wall_s);
            for one in judged {
                let comparison = Comparison {
                    build,
                    run,
                    kind: one.kind,
                    pair: one.pair,
                    measured: one.measured,
                };
                if let Some(csv) = csv.as_mut() {
                    csv.row(table::csv_fields(&comparison, &record, wall_s))
                        .map_err(|error| error.to_string())?;
                }
                comparisons.push(comparison);
            }
        }
        // Read now: the next build replaces this one's layouts.
        let of_build: Vec<&Comparison> = comparisons
            .iter()
            .filter(|comparison| comparison.build == build)
            .collect();
        spreads.extend(offsets::spreads(
            &built.test_binary,
            KINDS,
            CRATE,
            &of_build,
        )?);
        print_build(&record, &comparisons, &built.test_binary);
        builds.push(record);
    }
    print_tables(settings, &comparisons, &builds, &spreads);
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(())
}

/// One `cargo test --release` of the built layout: its comparisons and its
/// wall time in seconds.
fn run_once(
    fixture: &Fixture,
    expected: &[run::Expected],
    seed: u64,
) -> Result<(Vec<run::Judged>, f64), String> {
    fixture.clear_reports()?;
    let ran = fixture.cargo(&["test", "--release"], seed)?;
    if ran.code.is_none() {
        return Err(format!(
            "cargo test was killed by a signal:\n{}",
            fixture::tail(&ran.stderr, 30)
        ));
    }
    if ran
        .stderr
        .lines()
        .any(|line| line.trim_start().starts_with("Compiling "))
    {
        return Err(
            "cargo test rebuilt the fixture: the run would not measure the layout built".into(),
        );
    }
    // A run that failed before writing any report is judged on its output.
    let reports = run::read_reports(&fixture.reports()).or_else(|error| {
        if ran.success {
            Err(error)
        } else {
            Ok(Vec::new())
        }
    })?;
    let judged = run::judge(expected, ran.success, &ran.stdout, &ran.stderr, reports)?;
    Ok((judged, ran.wall.as_secs_f64()))
}

fn print_header(settings: &Settings, faster: &Path, fixture: &Fixture) {
    println!(
        "faster accuracy suite: real functions across code layouts, {}",
        machine::now_utc()
    );
    println!("{}", machine::at_start());
    println!("faster: {}; linker: {}", faster.display(), fixture.linker());
    println!(
        "fixture: {} (target {})",
        fixture.root.display(),
        fixture.target.display()
    );
    println!(
        "{} builds (build k: k unrelated functions, link order --shuffle-sections=*=k), {} runs of \
         `cargo test --release` each; default settings (noise floor 5%); identical pairs expect = \
         report, known multiples expect = faster; the ~5% differences (the work, then again on a \
         twentieth of the input) and a second identical pair expect = report at noise_floor = 0.02",
        settings.builds, settings.runs
    );
    for kind in KINDS {
        println!("  {:<8} {}", kind.name, kind.what);
    }
    println!();
}

/// A line per build, as it ends.
fn print_build(build: &table::Build, comparisons: &[Comparison], binary: &Path) {
    let of_build: Vec<Comparison> = comparisons
        .iter()
        .filter(|comparison| comparison.build == build.build)
        .cloned()
        .collect();
    let identical = tally::identical(&of_build, None);
    let multiple = tally::multiple(&of_build, None);
    let rework = tally::rework(&of_build, None);
    let identical_at_2 = tally::identical_at_2_percent(&of_build, None);
    let runs: Vec<String> = build.runs_s.iter().map(|s| format!("{s:.1}")).collect();
    println!(
        "build {}: built in {:.1} s ({} crates compiled, test binary {}); cargo test {} s; \
         identical: {} false of {}; multiples: {} of {} not faster; 5% found at 2% floor: {} of \
         {}; identical at 2%: false {} of {}",
        build.build,
        build.rebuild_s,
        build.compiled.len(),
        binary.file_name().unwrap_or_default().to_string_lossy(),
        runs.join(", "),
        identical.false_verdicts(),
        identical.comparisons,
        multiple.misses(),
        multiple.comparisons,
        rework.faster,
        rework.comparisons,
        identical_at_2.false_verdicts(),
        identical_at_2.comparisons,
    );
}

fn print_tables(
    settings: &Settings,
    comparisons: &[Comparison],
    builds: &[table::Build],
    spreads: &[offsets::Spread],
) {
    let kinds: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
    let markdown = settings.markdown;
    println!(
        "\nIdentical work (copy vs original; any faster or slower verdict is false, judged at the \
         default 5% floor):\n"
    );
    println!(
        "{}",
        table::identical_table(comparisons, &kinds).render(markdown)
    );
    let all = tally::identical(comparisons, None);
    if let Some((kind, (low, high))) = tally::widest(comparisons, &kinds) {
        println!(
            "\nwidest spread of one kind's build medians: {kind} {low:.2}x – {high:.2}x; \
             target (DESIGN.md): at most 1 false verdict in 100 comparisons ({} in {} here) and \
             the interval holding 1.00 in at least 95% ({:.1}% here)",
            all.false_verdicts(),
            all.comparisons,
            100.0 * all.holds_one as f64 / all.comparisons.max(1) as f64,
        );
    }
    println!("\nKnown multiples (once vs twice, true ratio about 2; expect = faster):\n");
    println!(
        "{}",
        table::multiple_table(comparisons, &kinds).render(markdown)
    );
    println!(
        "\nResolution (without_rework vs with_rework, the work then again on about a twentieth of \
         its input: a ~5% difference, judged at a 2% floor, expect = report; `faster` is right. \
         The best-of ratio is the suite's reading of the true ratio, which it has no reference \
         for. Beside it, copy_at_2_percent vs original, identical work at the same floor: any \
         faster or slower verdict is false):\n"
    );
    println!(
        "{}",
        table::resolution_table(comparisons, &kinds).render(markdown)
    );
    if !spreads.is_empty() {
        println!(
            "\nSpread between layouts (comparisons measured in at least {} layouts; a layout's \
             reading is the mean log speedup of its slices) and what the two functions' offsets \
             in a 64-byte cache line explain: the residual once each side's offset is fitted, and the \
             99% interval of the mean over offsets beside the engine's. Both identical pairs and \
             the 5% are judged here at the 2% floor:\n",
            offsets::LEAST_LAYOUTS
        );
        println!("{}", table::spread_table(spreads, &kinds).render(markdown));
    }
    println!(
        "\nBuilds (rebuild: cargo test --release --no-run, compile and link; build 1 with the dependencies):\n"
    );
    println!("{}", table::build_table(builds).render(markdown));
    let mut floors: Vec<String> = comparisons
        .iter()
        .map(|comparison| format!("{}%", 100.0 * comparison.measured.noise_floor))
        .collect();
    floors.sort();
    floors.dedup();
    println!("\nnoise floor of the reports: {}", floors.join(", "));
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
        let defaults = parse(&["--layouts"]);
        assert_eq!((defaults.builds, defaults.runs), (5, 4));
        assert!(defaults.faster.is_none() && defaults.linker.is_none() && !defaults.markdown);
        let given = parse(&[
            "--layouts",
            "--builds",
            "10",
            "--faster",
            "/f",
            "--linker",
            "faster-link",
            "--markdown",
            "--csv",
            "a.csv",
        ]);
        assert_eq!(given.builds, 10);
        assert_eq!(given.faster.as_deref(), Some("/f"));
        assert_eq!(given.linker.as_deref(), Some("faster-link"));
        assert!(given.markdown);
        assert_eq!(given.csv.as_deref(), Some("a.csv"));
    }

    #[test]
    fn a_wrong_faster_or_linker_is_told_with_the_fix() {
        assert!(
            faster_workspace(Some("/"))
                .unwrap_err()
                .contains("not the faster workspace")
        );
        assert!(faster_workspace(None).is_ok());
        // Relative to where it runs (cargo runs unit tests in the package).
        assert_eq!(
            faster_workspace(Some("..")).unwrap(),
            faster_workspace(None).unwrap()
        );
        assert!(
            linker("no-such-linker-here")
                .unwrap_err()
                .contains("no such command on PATH")
        );
        assert!(linker("/no/such/linker").is_err());
        assert!(linker("sh").is_ok());
    }
}
