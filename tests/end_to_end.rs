//! A real `cargo test --release` on the library in `tests/fixtures/demo`,
//! which uses `#[cfg_attr(test, faster::compare(...))]` as the README
//! recommends: the generated tests pass for correct candidates and fail,
//! naming the input and both outputs, for a wrong one; an empty input set,
//! a panicking inputs function and an input without `Debug` fail clearly.
//!
//! The fixture's `wrong` feature breaks two candidates and adds the failing
//! comparisons; its run is shared by the tests that read it.

mod support;

use std::sync::OnceLock;
use support::{Run, cargo};

fn cargo_test_demo(features: &[&str]) -> Run {
    let features = features.join(",");
    let mut arguments = vec!["--release"];
    if !features.is_empty() {
        arguments.extend(["--features", &features]);
    }
    cargo("demo", &["test"], &arguments)
}

#[test]
fn correct_candidates_pass_and_are_reported() {
    let run = cargo_test_demo(&[]);
    let output = &run.output;
    assert!(
        run.success(),
        "cargo test failed on the correct fixture:\n{output}"
    );
    for test in [
        "faster_has_duplicate_sorted",
        "faster_sum_unrolled",
        "faster_checksum_again",
        "faster_halve_all",
    ] {
        assert!(
            output.contains(&format!("test {test} ... ok")),
            "{test} did not pass:\n{output}"
        );
    }
    assert!(
        !output.contains("failing::"),
        "the failing comparisons exist without `wrong`:\n{output}"
    );
    for heading in [
        "has_duplicate_sorted vs has_duplicate_naive",
        "sum_unrolled vs sum_naive",
        "checksum_again vs checksum",
        "halve_all vs halve_all_naive",
    ] {
        assert!(
            output.contains(heading),
            "no report for {heading}:\n{output}"
        );
    }
}

/// The fixture's tests with the `wrong` feature, run once for every test
/// that reads them.
fn wrong_run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| cargo_test_demo(&["wrong"]))
}

#[test]
fn a_wrong_candidate_fails_naming_the_input_and_both_outputs() {
    let run = wrong_run();
    let output = &run.output;
    assert!(
        !run.success(),
        "cargo test passed although sum_unrolled is wrong:\n{output}"
    );
    assert!(
        output.contains("test faster_sum_unrolled ... FAILED"),
        "{output}"
    );
    // The wrong candidate drops the last value (1 001) of input 1 only.
    let failure = failure_of("faster_sum_unrolled", output);
    assert!(
        failure.contains("input 1"),
        "the failure does not name input 1:\n{output}"
    );
    assert!(
        !failure.contains("input 0"),
        "input 0 is correct but was blamed:\n{output}"
    );
    assert!(
        failure.contains("501501"),
        "the original's output is missing:\n{output}"
    );
    assert!(
        failure.contains("500500"),
        "the candidate's output is missing:\n{output}"
    );
    // The input itself, cut to a readable length: 1 001 values, the first
    // few shown.
    assert!(
        failure.contains("  input:     [1, 2, 3, 4, 5, "),
        "the input is not shown:\n{failure}"
    );
    let input_line = failure
        .lines()
        .find(|line| line.trim_start().starts_with("input:"))
        .unwrap_or_default();
    assert!(
        input_line.ends_with(" more)]") && input_line.len() < 300,
        "the input is not cut: {input_line}"
    );
    // One wrong candidate does not take the other comparisons down with it.
    assert!(
        output.contains("test faster_has_duplicate_sorted ... ok"),
        "{output}"
    );
    assert!(
        output.contains("test faster_checksum_again ... ok"),
        "{output}"
    );
}

#[test]
fn a_mutated_argument_outside_the_tolerance_is_shown_where_it_differs() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test faster_halve_all ... FAILED"),
        "{output}"
    );
    let failure = failure_of("faster_halve_all", output);
    for expected in [
        "the candidate returns a different result for input 0",
        "  input:     [0.0, 1.0, 2.0, ",
        // The elements around the difference, not the first 30 of 1 000.
        "  original:  [… (248 before), 124.0, 124.5, 125.0, 125.5, ",
        "  candidate: [… (248 before), 124.0, 124.5, 125.000001, 125.5, ",
        "  first difference at [250]: 125.0 vs 125.000001, not within approx(1e-9)",
        "  compared:  `v` after the call",
    ] {
        assert!(failure.contains(expected), "no {expected:?} in:\n{failure}");
    }
}

#[test]
fn an_input_without_debug_is_named_by_its_type() {
    let output = &wrong_run().output;
    let failure = failure_of("failing::faster_count_set", output);
    assert!(
        failure.contains("different result for input 1"),
        "{failure}"
    );
    assert!(
        failure
            .contains("  input:     (a `demo::failing::Grid`, which does not implement `Debug`)"),
        "{failure}"
    );
    assert!(
        failure.contains("original:  2") && failure.contains("candidate: 1"),
        "{failure}"
    );
}

#[test]
fn an_empty_input_set_fails_the_test() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test failing::faster_sum_on_nothing ... FAILED"),
        "{output}"
    );
    let failure = failure_of("failing::faster_sum_on_nothing", output);
    assert!(
        failure.contains(
            "the input set is empty: the `inputs` function must yield at least one input"
        ),
        "{failure}"
    );
}

#[test]
fn a_panicking_inputs_function_is_reported_as_such() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test failing::faster_sum_on_missing ... FAILED"),
        "{output}"
    );
    let reported = output
        .lines()
        .find(|line| {
            line.starts_with("faster: sum_on_missing vs super::sum_naive (see src/lib.rs:")
        })
        .unwrap_or_else(|| panic!("no failure for sum_on_missing:\n{output}"));
    assert!(
        reported.ends_with("the inputs function panicked: the recorded inputs file is missing"),
        "{reported}"
    );
}

/// What libtest printed for the failed `test`: from its `---- test stdout
/// ----` line to the first blank line after the text.
fn failure_of<'a>(test: &str, output: &'a str) -> &'a str {
    let header = format!("---- {test} stdout ----");
    let start = output
        .find(&header)
        .unwrap_or_else(|| panic!("no failure output for {test}:\n{output}"));
    let section = output[start + header.len()..].trim_start_matches('\n');
    section.find("\n\n").map_or(section, |end| &section[..end])
}
