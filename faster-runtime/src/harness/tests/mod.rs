//! The harness with canned reports: every format from one run path,
//! without timing anything.

use super::*;
use crate::config::Config;
use crate::engine::replicate::Replication;
use crate::error::Error;
use crate::output::Note;
use crate::output::style::{WIDTH, display_width};
use crate::report::{Measurement, Outcome, fixtures};
use crate::stats::verdict::Expect;
use std::time::Duration;

mod formats;
/// The JSON Schema checker of the integration tests, so the harness's
/// documents are judged by the same one.
#[path = "../../../tests/support/schema.rs"]
mod schema_check;
mod undecided;

fn faster_report(_: &Config) -> Result<Measurement, Error> {
    Ok(fixtures::three_inputs().measurement())
}

fn slower_report(_: &Config) -> Result<Measurement, Error> {
    Ok(fixtures::measurement(0.8, (0.78, 0.82)))
}

/// A regression guard that could not judge (its comparison expects
/// `not_slower`).
fn undecided_report(_: &Config) -> Result<Measurement, Error> {
    Ok(fixtures::undecided_guard().measurement())
}

fn mismatch(_: &Config) -> Result<Measurement, Error> {
    Err(Error::Mismatch {
        input: 1,
        input_debug: None,
        original: "501501".into(),
        candidate: "500500".into(),
    })
}

/// Two processes of a 4x speedup, combined as `processes = 2` combines
/// them.
fn replicated_report(_: &Config) -> Result<Measurement, Error> {
    let process = |speedup: f64| {
        let mut measurement = fixtures::measurement(speedup, (speedup * 0.99, speedup * 1.01));
        measurement.candidate_ns = measurement.original_ns / speedup;
        measurement.inputs[0].candidate_ns = measurement.candidate_ns;
        measurement
    };
    let mut replication = Replication::new(&Config {
        processes: 2,
        ..Config::default()
    });
    for slice in [process(4.0), process(4.1)] {
        let slot = replication.next_slot();
        replication.record(slot, Ok(slice), Duration::ZERO)?;
    }
    Ok(replication.combined())
}

const fn comparison(
    test: &'static str,
    run: fn(&Config) -> Result<Measurement, Error>,
) -> Comparison {
    expecting(test, run, Settings::NONE)
}

const fn expecting(
    test: &'static str,
    run: fn(&Config) -> Result<Measurement, Error>,
    settings: Settings,
) -> Comparison {
    Comparison {
        test,
        label: "a vs naive",
        original: "naive",
        file: "src/lib.rs",
        line: 7,
        settings,
        debug_build: false,
        run,
        addresses: None,
    }
}

static FAST: Comparison = comparison("demo::dup::faster_has_duplicate_sorted", faster_report);
static SLOW: Comparison = comparison("demo::sum::faster_sum_slow", slower_report);
static WRONG: Comparison = comparison("demo::sum::faster_sum_wrong", mismatch);
static REPLICATED: Comparison = comparison("demo::faster_replicated", replicated_report);
static UNDECIDED: Comparison = expecting(
    "demo::mean::faster_mean_v2",
    undecided_report,
    Settings {
        expect: Some(Expect::NotSlower),
        ..Settings::NONE
    },
);

struct Ran {
    code: u8,
    stdout: String,
    /// The run's files, removed with it.
    dir: tempfile::TempDir,
    summary: String,
}

fn run(arguments: &[&str], registered: &[&'static Comparison], color: bool) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let summary_path = dir.path().join("step-summary.md");
    let arguments: Vec<String> = arguments.iter().map(|a| a.to_string()).collect();
    let cli = Cli::parse(&arguments).unwrap();
    let mut out = Vec::new();
    // The canned reports are measured here: no process to replicate them in.
    let run_wide = RunWide {
        command_line: cli.settings.overwrite(Settings {
            processes: Some(1),
            ..Settings::NONE
        }),
        ..RunWide::default()
    };
    let code = run_all(
        &cli,
        registered,
        &run_wide,
        Destinations {
            stdout: Box::new(&mut out),
            style: Style { color },
            progress: Progress::disabled(),
            files: ReportFiles::new(dir.path().join("faster"), ""),
            step_summary: Some(summary_path.clone()),
        },
    );
    Ran {
        code,
        stdout: String::from_utf8(out).unwrap(),
        summary: std::fs::read_to_string(&summary_path).unwrap_or_default(),
        dir,
    }
}

fn json_file(ran: &Ran, stem: &str) -> serde_json::Value {
    let path = ran.dir.path().join("faster").join(format!("{stem}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// What github-action-benchmark's `cargo` tool matches.
fn bench_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|line| {
            line.starts_with("test ")
                && line.contains(" ... bench: ")
                && line.ends_with(')')
                && line.contains(" ns/iter (+/- ")
        })
        .collect()
}

#[test]
fn pretty_output_has_reports_files_a_summary_and_libtests_result_line() {
    let ran = run(&[], &[&FAST, &SLOW, &WRONG], false);
    assert_eq!(ran.code, FAILED);
    let text = &ran.stdout;
    assert!(text.contains("running 3 comparisons"), "{text}");
    assert!(
        text.contains("faster: has_duplicate_sorted vs has_duplicate_naive"),
        "{text}"
    );
    assert!(
        text.contains("test dup::faster_has_duplicate_sorted ... ok"),
        "{text}"
    );
    assert!(
        text.contains("test sum::faster_sum_slow ... FAILED"),
        "{text}"
    );
    assert!(
        text.contains("  error: the candidate returns a different result for input 1"),
        "{text}"
    );
    assert!(
        text.contains("faster: 3 comparisons: 1 passed, 2 failed"),
        "{text}"
    );
    assert!(
        text.contains("test result: FAILED. 1 passed; 2 failed;"),
        "{text}"
    );
    #[cfg(feature = "plots")]
    assert!(text.contains("plot: "), "{text}");
    assert!(text.contains("data: "), "{text}");
    // Paths and libtest's own result line are as long as they are.
    let ours = |line: &&str| {
        !line.contains("plot: ") && !line.contains("data: ") && !line.starts_with("test result:")
    };
    for line in text.lines().filter(ours) {
        assert!(
            display_width(line) <= WIDTH,
            "{} columns: {line}",
            display_width(line)
        );
    }
    assert!(
        !text.contains('\x1b'),
        "escape codes without colour:\n{text}"
    );
    // Every comparison left its JSON, the failed one included, named by its
    // path with its crate.
    for stem in [
        "demo.dup.faster_has_duplicate_sorted",
        "demo.sum.faster_sum_slow",
        "demo.sum.faster_sum_wrong",
    ] {
        assert_eq!(json_file(&ran, stem)["schema"], "faster/report/v1");
    }
}

#[test]
fn colour_only_when_asked() {
    let ran = run(&["has_duplicate"], &[&FAST], true);
    assert!(ran.stdout.contains("\x1b[32m"), "{}", ran.stdout);
}

#[test]
fn every_output_of_a_replicated_comparison_shows_the_same_real_figures() {
    let junit_dir = tempfile::tempdir().unwrap();
    let junit_path = junit_dir.path().join("junit.xml");
    let junit = junit_path.to_str().unwrap();
    let bench = run(
        &["--format", "bench", "--junit", junit],
        &[&REPLICATED],
        false,
    );
    let json = run(&["--format", "json"], &[&REPLICATED], false);
    let document: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    let result = &document["result"];
    // Counts agree with the data they count.
    let rounds = result["rounds"].as_u64().unwrap() as usize;
    assert_eq!(rounds, 2 * 315);
    assert_eq!(result["round_log_ratios"].as_array().unwrap().len(), rounds);
    assert_eq!(
        result["inputs"][0]["rounds_ns"].as_array().unwrap().len(),
        rounds
    );
    assert_eq!(result["processes"].as_array().unwrap().len(), 2);
    assert_eq!(
        json_file(&json, "demo.faster_replicated")["result"]["rounds"],
        rounds
    );
    // The verdict is decided, and the same everywhere.
    assert_eq!(result["verdict"], "faster");
    let speedup = result["speedup"].as_f64().unwrap();
    assert!((speedup - (4.0f64 * 4.1).sqrt()).abs() < 1e-9, "{speedup}");
    let xml = std::fs::read_to_string(&junit_path).unwrap();
    assert!(
        xml.contains(&format!("<property name=\"rounds\" value=\"{rounds}\"/>")),
        "{xml}"
    );
    assert!(
        xml.contains(&format!("<property name=\"speedup\" value=\"{speedup}\"/>")),
        "{xml}"
    );
    assert!(
        xml.contains("<property name=\"verdict\" value=\"faster\"/>"),
        "{xml}"
    );
    for line in bench_lines(&bench.stdout) {
        assert!(!line.contains(" 0.00 ns/iter"), "{line}");
    }
    // The report says "best of" every round it holds, and one table row.
    let pretty = run(&[], &[&REPLICATED], false);
    assert!(
        pretty.stdout.contains(&format!("(best of {rounds} runs)")),
        "{}",
        pretty.stdout
    );
    assert!(
        pretty
            .stdout
            .contains("2 processes of this build read 4.000x to 4.100x faster"),
        "{}",
        pretty.stdout
    );
    assert_eq!(
        pretty
            .summary
            .matches("| `demo::faster_replicated`")
            .count(),
        0
    );
    assert_eq!(
        pretty.summary.matches("| `faster_replicated` |").count(),
        1,
        "{}",
        pretty.summary
    );
}

#[test]
fn help_prints_the_usage_and_succeeds_and_a_bad_flag_is_a_usage_error() {
    assert_eq!(run_from("tests/speed.rs", vec!["--help".into()]), 0);
    assert_eq!(run_from("tests/speed.rs", vec!["-h".into()]), 0);
    assert_eq!(
        run_from("tests/speed.rs", vec!["--frobnicate".into()]),
        USAGE_ERROR
    );
}

#[test]
fn a_report_that_could_not_be_written_fails_a_run_whose_comparisons_passed() {
    // `/dev/null` is a file, so no folder can be made under it.
    let ran = run(&["--junit", "/dev/null/junit.xml"], &[&FAST], false);
    assert!(
        ran.stdout.contains("test result: ok. 1 passed"),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.code, FAILED);
    let written = run(&[], &[&FAST], false);
    assert_eq!(written.code, 0);
}

#[test]
fn the_outputs_remember_every_file_they_could_not_write() {
    let mut outputs = Outputs::new();
    outputs.add(ReportFiles::new("/dev/null/faster".into(), "speed"));
    let outcome = Outcome {
        test: "dup::faster_has_duplicate_sorted".into(),
        label: "faster_has_duplicate_sorted vs has_duplicate".into(),
        source: None,
        result: Ok(fixtures::three_inputs()),
        enforced: true,
    };
    let notes = outputs.comparison(&outcome);
    assert!(matches!(&notes[..], [Note::Problem(_), ..]), "{notes:?}");
    let unwritten = outputs.unwritten();
    assert!(
        !unwritten.is_empty()
            && unwritten[0].starts_with("could not write /dev/null/faster/speed/"),
        "{unwritten:?}"
    );
}
