//! Each machine-read format from the same canned run: JSON lines, libtest's
//! bench lines, the job summary, the listing and exact run nextest uses,
//! and JUnit.

use super::*;

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
