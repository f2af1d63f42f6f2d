//! An undecided regression guard in every output: a pass marked as one
//! that could not judge, or a failure where the run asks for it.

use super::*;

/// What the undecided guard of the fixtures would take, as every output says it.
const WOULD_TAKE: &str =
    "; to judge 5% it would take about 27496 rounds (315 so far), 10.4s more of measuring";

#[test]
fn an_undecided_guard_passes_marked_in_every_output() {
    let pretty = run(&[], &[&FAST, &UNDECIDED], false);
    assert_eq!(pretty.code, 0, "{}", pretty.stdout);
    let text = &pretty.stdout;
    assert!(
        text.contains("? undecided: only a change beyond 24% could be judged (noise floor 5%)"),
        "{text}"
    );
    assert!(text.contains("test mean::faster_mean_v2 ... ok"), "{text}");
    assert!(
        text.contains("faster: 2 comparisons: 2 passed (1 undecided)\n"),
        "{text}"
    );
    assert!(text.contains("? undecided (24%)\n"), "{text}");
    // The result line keeps libtest's counts (it passed) and says how many
    // of the passes were undecided, so it does not contradict the table.
    assert!(
        text.contains("test result: ok. 2 passed (1 undecided); 0 failed;"),
        "{text}"
    );
    assert!(
        pretty
            .summary
            .contains("— 2 comparisons, 2 passed (1 undecided)"),
        "{}",
        pretty.summary
    );
    assert!(
        pretty.summary.contains(&format!(
            "| ❔ undecided: only a change beyond 24% could be judged{WOULD_TAKE} |"
        )),
        "{}",
        pretty.summary
    );
    let data = json_file(&pretty, "demo.mean.faster_mean_v2");
    assert_eq!(data["status"], "passed");
    assert_eq!(data["result"]["decided"], false);
    assert_eq!(data["result"]["if_undecided"], "pass");
    let schema: serde_json::Value = serde_json::from_str(schema_check::REPORT_SCHEMA).unwrap();
    let problems = schema_check::violations(&schema, &data);
    assert!(problems.is_empty(), "{problems:?}\n{data}");

    // JUnit: not a failure, but skipped with what it could judge.
    let junit = run(&["--format", "junit"], &[&FAST, &UNDECIDED], false);
    assert_eq!(junit.code, 0);
    let document = roxmltree::Document::parse(&junit.stdout).expect("well-formed XML");
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .unwrap();
    assert_eq!(suite.attribute("failures"), Some("0"));
    assert_eq!(suite.attribute("skipped"), Some("1"));
    let case = suite
        .children()
        .find(|n| n.attribute("name") == Some("mean::faster_mean_v2"))
        .unwrap();
    let skipped = case
        .children()
        .find(|n| n.has_tag_name("skipped"))
        .expect("an undecided pass is marked skipped");
    assert_eq!(
        skipped.attribute("message"),
        Some("undecided: only a change beyond 24% could be judged")
    );
    assert!(!case.children().any(|n| n.has_tag_name("failure")));
    assert!(
        junit
            .stdout
            .contains("<property name=\"decided\" value=\"false\"/>"),
        "{}",
        junit.stdout
    );

    // Bench lines stay as tools parse them; a line of its own says it.
    let bench = run(&["--format", "bench"], &[&UNDECIDED], false);
    assert_eq!(bench_lines(&bench.stdout).len(), 2, "{}", bench.stdout);
    assert!(
        bench.stdout.contains(
            "test mean::faster_mean_v2 ... ? undecided: only a change beyond 24% could be judged\n"
        ),
        "{}",
        bench.stdout
    );
}

#[test]
fn an_undecided_guard_fails_where_asked() {
    // Asked to fail, it fails the run like any missed expectation.
    let strict = run(&["--undecided", "fail"], &[&FAST, &UNDECIDED], false);
    assert_eq!(strict.code, FAILED, "{}", strict.stdout);
    let text = &strict.stdout;
    assert!(
        text.contains("✗ undecided: only a change beyond 24% could be judged (undecided = fail;"),
        "{text}"
    );
    assert!(
        text.contains("test mean::faster_mean_v2 ... FAILED"),
        "{text}"
    );
    assert!(
        text.contains("faster: 2 comparisons: 1 passed, 1 failed\n"),
        "{text}"
    );
    assert!(
        strict.summary.contains(&format!(
            "| ❌ undecided: only a change beyond 24% could be judged{WOULD_TAKE} |"
        )),
        "{}",
        strict.summary
    );
    let data = json_file(&strict, "demo.mean.faster_mean_v2");
    assert_eq!(data["status"], "failed");
    assert_eq!(data["result"]["if_undecided"], "fail");
    let junit = run(
        &["--format", "junit", "--undecided=fail"],
        &[&UNDECIDED],
        false,
    );
    assert!(
        junit.stdout.contains(
            "<failure type=\"verdict\" message=\"1.03x slower [99% CI 1.15x faster – 1.22x slower]  ✗ \
             undecided: only a change beyond 24% could be judged (undecided = fail; noise floor \
             5%)\">"
        ),
        "{}",
        junit.stdout
    );
    // The report is the failure's body, not repeated as its output.
    let case = &junit.stdout[junit.stdout.find("<failure").unwrap()..];
    let case = &case[..case.find("</testcase>").unwrap()];
    assert!(!case.contains("<system-out>"), "{case}");
}
