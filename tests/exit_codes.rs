//! Nothing passes silently: a `harness = false` target with a failing
//! comparison exits non-zero through a real `cargo test` — whether its
//! `main` is `faster::main()`, `faster::main();` or returns `faster::run()`
//! — and through `cargo nextest run` where nextest is installed; with only
//! passing comparisons, each exits 0; under libtest, the passes that were
//! undecided are counted after its result line. The fixture is
//! `tests/fixtures/exit_codes`.

mod support;

use support::{cargo, cargo_with_env};

const TARGETS: [&str; 3] = ["main_expression", "main_statement", "run_exit_code"];

#[test]
fn a_failing_comparison_fails_cargo_test_in_every_form_of_main() {
    for target in TARGETS {
        let run = cargo(
            "exit_codes",
            &["test"],
            &["--release", "--features", "fail", "--test", target],
        );
        let output = &run.output;
        assert!(
            !run.success(),
            "{target}: cargo test passed with failing comparisons:\n{output}"
        );
        assert!(
            output.contains("test faster_chain_wrong ... FAILED")
                && output.contains("test faster_chain_slower ... FAILED")
                && output.contains("test faster_chain_again ... ok"),
            "{target}:\n{output}"
        );
        assert!(
            // The pass, whether or not it was undecided ("1 passed (1
            // undecided)"): the identical chains may straddle the floor.
            output.contains("test result: FAILED. 1 passed") && output.contains("; 2 failed;"),
            "{target}:\n{output}"
        );
        // The binary itself, run directly, ends with libtest's code.
        let code = std::process::Command::new(executable(target, &["--features", "fail"]))
            .output()
            .expect("the test binary runs")
            .status
            .code();
        assert_eq!(code, Some(101), "{target}");
    }
}

/// The path of the fixture's built test target `target`.
fn executable(target: &str, features: &[&str]) -> String {
    let mut arguments = vec![
        "--release",
        "--no-run",
        "--message-format=json",
        "--test",
        target,
    ];
    arguments.extend(features);
    let built = cargo("exit_codes", &["test"], &arguments);
    built
        .output
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| {
            (message["target"]["name"] == target)
                .then(|| message["executable"].as_str().map(str::to_string))
                .flatten()
        })
        .unwrap_or_else(|| panic!("no executable for {target}:\n{}", built.output))
}

#[test]
fn passing_comparisons_pass_cargo_test_in_every_form_of_main() {
    for target in TARGETS {
        let run = cargo("exit_codes", &["test"], &["--release", "--test", target]);
        assert!(run.success(), "{target}:\n{}", run.output);
        assert!(
            run.output.contains("test result: ok. 1 passed") && run.output.contains("; 0 failed;"),
            "{target}:\n{}",
            run.output
        );
    }
    let returned = cargo(
        "exit_codes",
        &["test"],
        &["--release", "--test", "run_exit_code"],
    );
    assert!(
        returned
            .output
            .contains("faster::run() returned; main goes on")
    );
}

#[test]
fn the_command_lines_settings_reach_every_process_of_a_comparison() {
    // The comparison is measured in child processes, which run without
    // this command line: its floor must still be the one judged against.
    let run = cargo(
        "exit_codes",
        &["test"],
        &[
            "--release",
            "--test",
            "main_statement",
            "--",
            "--noise-floor",
            "0.37",
        ],
    );
    assert!(run.success(), "{}", run.output);
    assert!(
        run.output.contains("processes of this build read")
            || run.output.contains("layouts of the binary"),
        "not replicated:\n{}",
        run.output
    );
    // "✓ within the 37% floor", or "(noise floor 37%)" beside a verdict
    // that decided a change.
    assert!(
        run.output.contains("within the 37% floor") || run.output.contains("(noise floor 37%)"),
        "{}",
        run.output
    );
}

#[test]
fn undecided_fail_never_fails_a_comparison_that_only_reports() {
    // A floor of 0.1% leaves the identical chains' interval, which is never
    // narrower than ±0.5%, straddling it: undecided, or (a layout apart)
    // decided; `expect = report` passes either way, asked to fail or not.
    let run = cargo(
        "exit_codes",
        &["test"],
        &[
            "--release",
            "--test",
            "main_statement",
            "--",
            "--undecided",
            "fail",
            "--noise-floor",
            "0.001",
        ],
    );
    assert!(run.success(), "{}", run.output);
    assert!(run.output.contains("(noise floor 0.1%)"), "{}", run.output);
}

#[test]
fn under_libtest_the_undecided_passes_are_counted_after_its_result_line() {
    // A regression guard of identical chains at a 0.01% floor: undecided,
    // or (a layout apart) decided. Either way the count agrees with it.
    let run = cargo_with_env(
        "exit_codes",
        &["test"],
        &["--release", "--lib", "--features", "guard"],
        &[("FASTER_NOISE_FLOOR", "0.0001")],
    );
    let output = &run.output;
    let result = output
        .find("test result: ")
        .unwrap_or_else(|| panic!("no result line:\n{output}"));
    if !run.success() {
        // The guard's identical chains read slower by chance at a 0.01%
        // floor: a failure, which says nothing of the count.
        assert!(output.contains("✗ slower"), "{output}");
        return;
    }
    // Each comparison's report is printed before its test's line; the
    // report-only chain is counted too where its interval straddles the
    // floor, as `faster::main`'s table counts it. Which of the two is
    // undecided is the timing's to say: the count must name exactly those.
    let undecided_before = |test: &str| {
        let end = output
            .find(&format!("test {test} "))
            .unwrap_or_else(|| panic!("no line for {test}:\n{output}"));
        let start = output[..end].rfind("faster: ").unwrap_or(0);
        output[start..end].contains("? undecided")
    };
    let undecided: Vec<&str> = ["faster_chain_again", "faster_chain_guarded"]
        .into_iter()
        .filter(|test| undecided_before(test))
        .collect();
    let closing = &output[result..];
    if undecided.is_empty() {
        assert!(!closing.contains("passed undecided"), "{output}");
    } else {
        let count = format!(
            "{} of this binary's 2 comparisons passed undecided",
            undecided.len()
        );
        assert!(closing.contains(&count), "{count}:\n{output}");
        for test in undecided {
            assert!(closing.contains(test), "{test}:\n{output}");
        }
    }
}

#[test]
fn help_succeeds_and_a_bad_flag_is_a_usage_error() {
    let help = cargo(
        "exit_codes",
        &["test"],
        &["--release", "--test", "main_statement", "--", "--help"],
    );
    assert!(help.success(), "{}", help.output);
    assert!(help.output.contains("--processes N"), "{}", help.output);
    // An unknown flag, and a value that cannot be used, which names its flag.
    for (flags, expected) in [
        (
            &["--frobnicate"][..],
            "faster: unknown flag --frobnicate (see --help)",
        ),
        (
            &["--noise_floor=0.1"],
            "faster: unknown flag --noise_floor; did you mean --noise-floor? (see --help)",
        ),
        (
            &["--noise-floor", "abc"],
            "faster: --noise-floor: `abc` is not a number; write a fraction such as 0.05 for 5%",
        ),
        (
            &["--undecided", "never"],
            "faster: --undecided: `never` is not a choice; write `pass` or `fail`",
        ),
    ] {
        let mut arguments = vec!["--release", "--test", "main_statement", "--"];
        arguments.extend(flags);
        let bad = cargo("exit_codes", &["test"], &arguments);
        assert_eq!(bad.code, Some(2), "{}", bad.output);
        assert!(bad.output.contains(expected), "{}", bad.output);
        // One line, not the usage under it.
        assert!(!bad.output.contains("usage:"), "{}", bad.output);
    }
}

#[test]
fn every_switch_reads_on_and_off_and_a_bad_one_is_an_error_naming_it() {
    let list = ["--release", "--test", "main_statement", "--", "--list"];
    let on = cargo_with_env("exit_codes", &["test"], &list, &[("FASTER_STRICT", "on")]);
    assert!(on.success(), "{}", on.output);
    let maybe = cargo_with_env(
        "exit_codes",
        &["test"],
        &list,
        &[("FASTER_STRICT", "maybe")],
    );
    assert_eq!(maybe.code, Some(2), "{}", maybe.output);
    assert!(
        maybe
            .output
            .contains("faster: invalid setting: FASTER_STRICT: `maybe` is neither on nor off"),
        "{}",
        maybe.output
    );
}

/// Whether `cargo nextest` is installed: the suite must not require it.
fn nextest_installed() -> bool {
    std::process::Command::new(env!("CARGO"))
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn nextest_fails_with_a_failing_comparison_and_passes_without() {
    if !nextest_installed() {
        println!("cargo nextest is not installed here; skipped");
        return;
    }
    for target in ["main_expression", "main_statement"] {
        let failing = cargo(
            "exit_codes",
            &["nextest", "run"],
            &[
                "--release",
                "--no-fail-fast",
                "--features",
                "fail",
                "--test",
                target,
            ],
        );
        assert!(
            !failing.success(),
            "{target}: nextest passed with failing comparisons:\n{}",
            failing.output
        );
        assert!(
            failing.output.contains("3 tests run: 1 passed, 2 failed"),
            "{target}:\n{}",
            failing.output
        );
        let passing = cargo(
            "exit_codes",
            &["nextest", "run"],
            &["--release", "--test", target],
        );
        assert!(passing.success(), "{target}:\n{}", passing.output);
    }
}

/// A real replicated run through `faster::main()`: the children hand their
/// figures back and write nothing, so every output shows one comparison
/// once, with real figures and the same round count.
#[test]
fn a_replicated_comparison_is_reported_once_with_the_same_figures_everywhere() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let summary = dir.join("step-summary.md");
    let junit = dir.join("junit.xml");
    let variables = [
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ("FASTER_OUTPUT_DIR", dir.to_str().unwrap()),
    ];
    let run = |format: &str| {
        cargo_with_env(
            "exit_codes",
            &["test"],
            &[
                "--release",
                "--test",
                "main_expression",
                "--",
                "--processes",
                "2",
                "--format",
                format,
                "--junit",
                junit.to_str().unwrap(),
            ],
            &variables,
        )
    };
    let json = run("json");
    assert!(json.success(), "{}", json.output);
    let document: serde_json::Value = json
        .output
        .lines()
        .find_map(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("no JSON line:\n{}", json.output));
    let result = &document["result"];
    let rounds = result["rounds"].as_u64().unwrap() as usize;
    // At least the two asked for; more while the verdict is unsettled.
    assert!(
        result["processes"].as_array().unwrap().len() >= 2,
        "{result}"
    );
    let per_process: usize = result["processes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|process| process["rounds"].as_u64().unwrap() as usize)
        .sum();
    assert_eq!(per_process, rounds);
    assert_eq!(result["round_log_ratios"].as_array().unwrap().len(), rounds);
    assert_eq!(
        result["inputs"][0]["rounds_ns"].as_array().unwrap().len(),
        rounds
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(&format!("<property name=\"rounds\" value=\"{rounds}\"/>")),
        "{xml}"
    );

    let bench = run("bench");
    assert!(bench.success(), "{}", bench.output);
    let lines: Vec<&str> = bench
        .output
        .lines()
        .filter(|l| l.contains(" ... bench: "))
        .collect();
    assert_eq!(lines.len(), 2, "{}", bench.output);
    for line in lines {
        assert!(!line.contains(" 0.00 ns/iter"), "{line}");
    }
    // Two runs, each one table with one row: the children wrote nothing.
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(
        summary.matches("### faster: `main_expression`").count(),
        2,
        "{summary}"
    );
    assert_eq!(
        summary.matches("| `faster_chain_again` |").count(),
        2,
        "{summary}"
    );
    // The report files are the parent's alone: one JSON per comparison.
    let folder = dir.join("tests-main_expression");
    let files: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().collect();
    assert!(
        files
            .iter()
            .any(|f| f.file_name() == "exit_codes.faster_chain_again.json")
    );
}
