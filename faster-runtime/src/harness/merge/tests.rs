//! Merging canned shards: run documents written as shards write them, from
//! reports made by hand, so every exit code is checked without timing.

use super::*;
use crate::partition::Partition;
use crate::report::fixtures::{report, three_inputs, undecided_guard};
use crate::report::{Document, Report};
use crate::stats::verdict::{Expect, Verdict};

/// A tracked function's outcome across revisions.
fn outcome(name: &str, report: Report) -> Outcome {
    Outcome {
        test: name.into(),
        label: name.into(),
        source: None,
        result: Ok(report),
        enforced: true,
    }
}

fn not_slower() -> Report {
    let mut within = report(1.0, (0.99, 1.01), Verdict::WithinNoise, Expect::NotSlower);
    within.name = "passes".into();
    within
}

fn regression() -> Report {
    report(0.8, (0.78, 0.82), Verdict::Slower, Expect::NotSlower)
}

/// Shard `shard` of a run, measuring `outcomes`, as `cargo faster
/// --against` writes it.
fn shard(shard: &str, outcomes: &[Outcome]) -> RunDocument {
    let mut run = RunDocument::new("against", outcomes.iter().map(Document::of).collect());
    run.against = Some("main (1a2b3c4)".into());
    run.shard = Some(Partition::parse(shard).unwrap());
    run.toolchain = Some("rustc 1.85.0 (4d91de4e4 2025-02-17)".into());
    run.passed = outcomes.iter().all(Outcome::passed);
    run.filtered_out = 4 - outcomes.len();
    run
}

/// The shards written into folders of a temporary directory, one each
/// (as a CI's artifacts download), merged.
struct Merged {
    code: u8,
    dir: tempfile::TempDir,
}

impl Merged {
    fn file(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join("out").join(name)).unwrap()
    }
}

fn merge(runs: &[RunDocument], if_undecided: Option<Undecided>) -> Merged {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("shards");
    for (index, run) in runs.iter().enumerate() {
        let path = folder
            .join(format!("shard-{index}"))
            .join("against")
            .join(RUN_FILE);
        crate::output::files::write_json(&path, run).unwrap();
    }
    let merge = Merge {
        directories: vec![folder],
        out: dir.path().join("out"),
        if_undecided,
        color: ColorChoice::Never,
    };
    let code = merge_into(&merge, Box::new(std::io::sink()));
    Merged { code, dir }
}

/// Two shards of four functions that all pass.
fn passing() -> [RunDocument; 2] {
    [
        shard(
            "hash:1/2",
            &[outcome("a", not_slower()), outcome("b", three_inputs())],
        ),
        shard(
            "hash:2/2",
            &[outcome("c", not_slower()), outcome("d", not_slower())],
        ),
    ]
}

#[test]
fn passing_shards_merge_into_one_run_of_every_function() {
    let merged = merge(&passing(), None);
    assert_eq!(merged.code, 0);
    let document = RunDocument::read(&merged.dir.path().join("out").join(MERGED_FILE)).unwrap();
    let names: Vec<&str> = document.comparisons.iter().map(Document::name).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    assert_eq!(document.shards.len(), 2);
    let read: Vec<Read> = passing()
        .into_iter()
        .map(|run| (PathBuf::from("+run.json"), run))
        .collect();
    let checked = shards::check(read).unwrap();
    assert_eq!(
        merged_line(&checked, 4),
        "merged 2 shards (hash:K/2): 4 comparisons"
    );
    assert_eq!(document.shards[1].shard.to_string(), "hash:2/2");
    assert_eq!(document.filtered_out, 0);
    assert!(document.passed && document.shard.is_none());
    let comment = merged.file(COMMENT_FILE);
    assert!(
        comment.contains("against `main (1a2b3c4)` — 4 comparisons, 4 passed"),
        "{comment}"
    );
    assert!(
        comment.contains("measured in 2 shards (hash:K/2)"),
        "{comment}"
    );
    assert!(comment.contains("#### Passed (4)") && !comment.contains("Regressions"));
    assert!(comment.contains("| judges changes beyond |"), "{comment}");
    let junit = merged.file(JUNIT_FILE);
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
}

#[test]
fn a_regression_in_one_shard_fails_the_merge_and_comes_first() {
    let [first, _] = passing();
    let second = shard(
        "hash:2/2",
        &[outcome("c", regression()), outcome("d", undecided_guard())],
    );
    assert!(!second.passed);
    let merged = merge(&[first, second], None);
    assert_eq!(merged.code, FAILED);
    let comment = merged.file(COMMENT_FILE);
    let regressions = comment.find("#### Regressions and errors (1)").unwrap();
    let passed = comment.find("#### Passed (2)").unwrap();
    let undecided = comment.find("#### Undecided (1)").unwrap();
    assert!(regressions < passed && passed < undecided, "{comment}");
    assert!(
        comment.contains("10.4s more of measuring | 24% |"),
        "{comment}"
    );
}

#[test]
fn a_shard_that_failed_fails_the_merge_though_its_comparisons_passed() {
    let [first, mut second] = passing();
    // `cargo faster test`: cargo's exit code failed, say an ordinary test.
    second.passed = false;
    assert_eq!(merge(&[first, second], None).code, FAILED);
}

#[test]
fn undecided_verdicts_pass_unless_the_merge_or_a_shard_says_fail() {
    let [first, _] = passing();
    let second = shard(
        "hash:2/2",
        &[outcome("c", undecided_guard()), outcome("d", not_slower())],
    );
    assert!(second.passed);
    let runs = [first, second];
    assert_eq!(merge(&runs, None).code, 0);
    assert_eq!(merge(&runs, Some(Undecided::Pass)).code, 0);
    let strict = merge(&runs, Some(Undecided::Fail));
    assert_eq!(strict.code, FAILED);
    assert!(
        strict
            .file(COMMENT_FILE)
            .contains("#### Regressions and errors (1)")
    );
    // A shard run with `--undecided fail` keeps its choice, and failed:
    // the merge's `--undecided pass` does not pass a shard that failed.
    let mut fails = undecided_guard();
    fails.if_undecided = Undecided::Fail;
    let [first, _] = passing();
    let second = shard("hash:2/2", &[outcome("c", fails)]);
    assert!(!second.passed);
    assert_eq!(merge(&[first.clone(), second.clone()], None).code, FAILED);
    assert_eq!(merge(&[first, second], Some(Undecided::Pass)).code, FAILED);
}

#[test]
fn a_missing_or_doubled_shard_is_an_error_naming_it() {
    let [first, second] = passing();
    let third = shard("hash:3/3", &[]);
    let of_three = |run: &RunDocument| {
        let mut run = run.clone();
        run.shard = run.shard.map(|shard| Partition { count: 3, ..shard });
        run
    };
    let read = |runs: Vec<RunDocument>| -> Vec<Read> {
        runs.into_iter()
            .enumerate()
            .map(|(index, run)| (PathBuf::from(format!("s{index}/+run.json")), run))
            .collect()
    };
    let missing = shards::check(read(vec![of_three(&first), third.clone()])).unwrap();
    assert_eq!(
        missing.missing,
        [
            "shard hash:2/3 is missing: no folder given holds its run document (did its job fail \
          before measuring, or its artifact not download?)"
        ]
    );
    assert_eq!(
        merge(&[of_three(&first), third.clone()], None).code,
        COULD_NOT_MERGE
    );
    let doubled = shards::check(read(vec![first.clone(), second.clone(), second.clone()]));
    assert_eq!(
        doubled.unwrap_err(),
        "shard hash:2/2 is there 2 times: s1/+run.json, s2/+run.json (give each shard's folder \
         once)"
    );
    assert_eq!(
        merge(&[first.clone(), second.clone(), second.clone()], None).code,
        COULD_NOT_MERGE
    );
    // Shards of two partitions, a function measured twice, and a whole run
    // among shards are not one run either.
    let mixed = shards::check(read(vec![first.clone(), second.clone(), third])).unwrap_err();
    assert_eq!(
        mixed,
        "the shards are not of one run: their partition differs: hash:K/2 (hash:1/2 in \
         s0/+run.json, hash:2/2 in s1/+run.json); hash:K/3 (hash:3/3 in s2/+run.json)",
        "each shard named as it is"
    );
    let mut again = second.clone();
    again.comparisons.push(first.comparisons[0].clone());
    let twice = shards::check(read(vec![first.clone(), again])).unwrap_err();
    assert!(twice.starts_with("a was measured by two shards (s0/+run.json and s1/+run.json)"));
    let mut whole = second;
    whole.shard = None;
    let whole_among = shards::check(read(vec![first, whole.clone()])).unwrap_err();
    assert!(
        whole_among.starts_with("s1/+run.json measured every function, not a shard"),
        "{whole_among}"
    );
    // A whole run alone merges as it is.
    assert_eq!(merge(&[whole], None).code, 0);
}

#[test]
fn shards_are_of_one_base_by_its_commit_whatever_each_job_named_it() {
    let [mut first, mut second] = passing();
    first.against = Some("HEAD~1 (12141ff)".into());
    second.against = Some("base (12141ff)".into());
    let merged = merge(&[first.clone(), second.clone()], None);
    assert_eq!(merged.code, 0, "one commit under two names");
    second.against = Some("12141ff".into());
    assert_eq!(merge(&[first.clone(), second.clone()], None).code, 0);
    second.against = Some("base (9970884)".into());
    let read = vec![
        (PathBuf::from("s0/+run.json"), first),
        (PathBuf::from("s1/+run.json"), second),
    ];
    assert_eq!(
        shards::check(read).unwrap_err(),
        "the shards are not of one run: their base revision differs: 12141ff (HEAD~1 (12141ff) \
         in s0/+run.json); 9970884 (base (9970884) in s1/+run.json)"
    );
}

#[test]
fn shards_measured_on_different_machines_or_toolchains_are_flagged() {
    let [mut first, mut second] = passing();
    first.environment.cpu = Some("AMD EPYC 7763 64-Core Processor".into());
    second.environment.cpu = Some("Intel(R) Xeon(R) Platinum 8370C".into());
    first.toolchain = Some("rustc 1.86.0".into());
    let merged = merge(&[first.clone(), second.clone()], None);
    assert_eq!(merged.code, 0);
    let comment = merged.file(COMMENT_FILE);
    assert!(
        comment.contains(
            "⚠️ the shards differ in CPU: AMD EPYC 7763 64-Core Processor (hash:1/2) vs \
             Intel(R) Xeon(R) Platinum 8370C (hash:2/2); each compared"
        ),
        "{comment}"
    );
    assert!(
        comment.contains("the shards differ in toolchain: rustc 1.85.0"),
        "{comment}"
    );
    // Host names differ on every CI matrix: not flagged.
    let [mut first, mut second] = passing();
    first.environment.host = Some("runner-1".into());
    second.environment.host = Some("runner-2".into());
    let merged = merge(&[first, second], None);
    let comment = merged.file(COMMENT_FILE);
    assert!(!comment.contains("differ in"), "{comment}");
    assert!(
        comment.contains("1 on runner-1, 2 on runner-2"),
        "{comment}"
    );
}

#[test]
fn folders_without_run_documents_say_which_file_to_upload() {
    let dir = tempfile::tempdir().unwrap();
    let error = find(&[dir.path().to_path_buf()]).unwrap_err();
    assert!(error.contains("holds no +run.json"), "{error}");
    assert!(
        find(&[])
            .unwrap_err()
            .contains("cargo faster merge shards/")
    );
    let not_a_run = dir.path().join(RUN_FILE);
    std::fs::write(&not_a_run, r#"{"schema": "faster/report/v1"}"#).unwrap();
    let error = find(&[dir.path().to_path_buf()]).unwrap_err();
    assert!(error.contains("is not a run document"), "{error}");
}

#[test]
fn a_merge_with_a_shard_missing_writes_what_the_others_measured_and_fails() {
    let [first, _] = passing();
    let mut first = first;
    first.shard = Some(Partition::parse("hash:1/3").unwrap());
    let mut third = shard("hash:3/3", &[outcome("c", not_slower())]);
    third.filtered_out = 3;
    let merged = merge(&[first, third], None);
    assert_eq!(merged.code, COULD_NOT_MERGE);
    let comment = merged.file(COMMENT_FILE);
    let missing = comment
        .find("❌ shard hash:2/3 is missing")
        .expect("the missing shard named");
    let passed = comment
        .find("#### Passed (3)")
        .expect("the others' comparisons");
    assert!(missing < passed, "named first: {comment}");
    let junit = merged.file(JUNIT_FILE);
    assert_eq!(junit.matches("<testcase ").count(), 3, "{junit}");
    let document = RunDocument::read(&merged.dir.path().join("out").join(MERGED_FILE)).unwrap();
    assert!(!document.passed, "not the whole run");
}

#[test]
fn a_document_whose_verdict_or_status_its_figures_do_not_give_is_refused() {
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let [first, second] = passing();
        let mut value = serde_json::to_value(&second).unwrap();
        edit(&mut value["comparisons"][0]);
        let second: RunDocument = serde_json::from_value(value).unwrap();
        let read = vec![
            (PathBuf::from("s0/+run.json"), first.clone()),
            (PathBuf::from("s1/+run.json"), second.clone()),
        ];
        (shards::check(read), merge(&[first, second], None))
    };
    // As it was written, it merges.
    let (checked, merged) = edited(&|_| {});
    assert!(checked.is_ok());
    assert_eq!(merged.code, 0);
    // A regression's interval, [1.61x – 1.77x] slower, with its verdict
    // edited to within noise and its status to passed.
    let (checked, merged) = edited(&|comparison| {
        comparison["result"]["ci"]["low"] = serde_json::json!(1.0 / 1.77);
        comparison["result"]["ci"]["high"] = serde_json::json!(1.0 / 1.61);
        comparison["result"]["speedup"] = serde_json::json!(1.0 / 1.69);
        comparison["result"]["verdict"] = "within_noise".into();
        comparison["status"] = "passed".into();
    });
    let error = checked.unwrap_err();
    assert!(
        error.contains("c in s1/+run.json: its verdict reads \"within noise\" where its interval")
            && error.contains("reads \"slower\""),
        "{error}"
    );
    assert_eq!(merged.code, COULD_NOT_MERGE);
    assert!(!merged.dir.path().join("out").join(COMMENT_FILE).exists());
    // A result whose status says it was new in this revision.
    let (checked, _) = edited(&|comparison| comparison["status"] = "skipped".into());
    let error = checked.unwrap_err();
    assert!(
        error.contains("its status is \"skipped\" where its result is \"passed\""),
        "{error}"
    );
}
