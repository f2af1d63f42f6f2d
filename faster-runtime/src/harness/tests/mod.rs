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
fn json_format_prints_one_valid_document_per_line_and_nothing_else() {
    let ran = run(&["--format", "json"], &[&FAST, &WRONG], false);
    assert_eq!(ran.code, FAILED);
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", ran.stdout);
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["name"], "dup::faster_has_duplicate_sorted");
    assert_eq!(first["status"], "passed");
    assert_eq!(first["source"]["line"], 7);
    let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let schema: serde_json::Value = serde_json::from_str(schema_check::REPORT_SCHEMA).unwrap();
    for document in [&first, &second] {
        let problems = schema_check::violations(&schema, document);
        assert!(problems.is_empty(), "{problems:?}\n{document}");
    }
    assert_eq!(second["status"], "error");
    assert!(second["result"].is_null());
    assert!(second["error"].as_str().unwrap().contains("input 1"));
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
fn bench_format_prints_libtest_bench_lines() {
    let ran = run(&["--format", "bench", "--bench"], &[&FAST, &SLOW], false);
    let bench = bench_lines(&ran.stdout);
    assert_eq!(bench.len(), 4, "{}", ran.stdout);
    assert!(
        bench[0].starts_with("test dup::faster_has_duplicate_sorted/original  ... bench: "),
        "{}",
        bench[0]
    );
    assert!(
        bench[1].starts_with("test dup::faster_has_duplicate_sorted/candidate ... bench: "),
        "{}",
        bench[1]
    );
    assert!(
        ran.stdout
            .contains("test result: FAILED. 0 passed; 1 failed; 0 ignored; 2 measured;"),
        "{}",
        ran.stdout
    );
}

#[test]
fn the_job_summary_gets_one_table_with_a_row_per_comparison() {
    let ran = run(&["--format", "terse"], &[&FAST, &WRONG], false);
    let summary = &ran.summary;
    assert_eq!(summary.matches("### faster: ").count(), 1, "{summary}");
    assert!(summary.contains("— 2 comparisons, 1 failed"), "{summary}");
    assert!(
        summary.contains(
            "| comparison | best-of original | best-of candidate | paired speedup [99% CI] | verdict |"
        ),
        "{summary}"
    );
    assert!(summary.contains("| `dup::faster_has_duplicate_sorted` | 405 µs | 44.0 µs | 8.95x faster [8.78x – 9.11x] | ✅ faster |"), "{summary}");
    assert!(summary.contains("| `sum::faster_sum_wrong` | | | | ❌ error: the candidate returns a different result for input 1<br>original:  501501<br>candidate: 500500 |"), "{summary}");
    // Terse: result lines and the summary table, no reports.
    assert!(!ran.stdout.contains("⏱️"), "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("test dup::faster_has_duplicate_sorted ... ok"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("faster: 2 comparisons: 1 passed, 1 failed"),
        "{}",
        ran.stdout
    );
}

#[test]
fn listing_is_what_nextest_reads() {
    let ran = run(&["--list", "--format", "terse"], &[&FAST, &SLOW], false);
    assert_eq!(
        ran.stdout,
        "dup::faster_has_duplicate_sorted: test\nsum::faster_sum_slow: test\n"
    );
    let ran = run(
        &["--list", "--format", "terse", "--ignored"],
        &[&FAST, &SLOW],
        false,
    );
    assert_eq!(ran.stdout, "");
    let ran = run(&["--list"], &[&FAST], false);
    assert_eq!(
        ran.stdout,
        "dup::faster_has_duplicate_sorted: test\n\n1 tests, 0 benchmarks\n"
    );
}

#[test]
fn one_exact_comparison_as_nextest_runs_it() {
    let ran = run(
        &["--exact", "dup::faster_has_duplicate_sorted", "--nocapture"],
        &[&FAST, &SLOW],
        false,
    );
    assert_eq!(ran.code, 0);
    assert!(
        ran.stdout
            .contains("test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out")
    );
    // One comparison: its report is the summary.
    assert!(!ran.stdout.contains("comparisons:"), "{}", ran.stdout);
}

#[test]
fn junit_has_a_case_per_comparison_and_a_failure_with_the_verdict_line() {
    let ran = run(&["--format", "junit"], &[&FAST, &SLOW, &WRONG], false);
    assert_eq!(ran.code, FAILED);
    let document = roxmltree::Document::parse(&ran.stdout).expect("well-formed XML");
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .unwrap();
    assert_eq!(suite.attribute("tests"), Some("3"));
    assert_eq!(suite.attribute("failures"), Some("2"));
    let cases: Vec<_> = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 3);
    let property = |case: &roxmltree::Node, name: &str| {
        case.descendants()
            .find(|n| n.has_tag_name("property") && n.attribute("name") == Some(name))
            .and_then(|n| n.attribute("value"))
            .map(str::to_string)
    };
    assert_eq!(
        cases[0].attribute("name"),
        Some("dup::faster_has_duplicate_sorted")
    );
    assert_eq!(property(&cases[0], "speedup").as_deref(), Some("8.95"));
    assert!(
        property(&cases[0], "data")
            .unwrap()
            .ends_with("demo.dup.faster_has_duplicate_sorted.json")
    );
    assert!(!cases[0].children().any(|n| n.has_tag_name("failure")));
    let failure = cases[1]
        .children()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(
        failure.attribute("message"),
        Some("1.25x slower [99% CI 1.22x – 1.28x]  ✗ slower (expected faster; noise floor 5%)")
    );
    let error = cases[2]
        .children()
        .find(|n| n.has_tag_name("failure"))
        .unwrap();
    assert_eq!(
        error.attribute("message"),
        Some("the candidate returns a different result for input 1")
    );
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
