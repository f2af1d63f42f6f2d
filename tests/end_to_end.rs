//! A real `cargo test --release` on the library in `tests/fixtures/demo`,
//! which uses `#[cfg_attr(test, faster::compare(...))]` as the README
//! recommends: the generated tests pass for correct candidates and fail,
//! naming the input and both outputs, for a wrong one; an empty input set,
//! a panicking inputs function and an input without `Debug` fail clearly.
//!
//! The fixture's `wrong` feature breaks two candidates and adds the failing
//! comparisons; its `hostile` feature adds comparisons of functions that make
//! measuring hard (optimized away, slower than the budget, asleep, NaN
//! outputs, slow inputs, a panic on one input, a stack overflow), each of
//! which must end in a clear verdict or a clear error while the rest of the
//! run goes on. One run with both features is shared by the tests that read
//! it.

mod support;

use std::path::Path;
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

/// The fixture's tests with the `wrong` and `hostile` features, run once
/// for every test that reads them.
fn wrong_run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| cargo_test_demo(&["wrong", "hostile"]))
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
    // libtest's `panicked at` names the user's attribute, as the message's
    // `see` does, not the runtime's `run_test`.
    let see = failure
        .split("(see ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no `see FILE:LINE`:\n{failure}"));
    assert!(see.starts_with("src/lib.rs:"), "{failure}");
    assert!(
        failure.contains(&format!(" panicked at {see}:")),
        "the panic is not located at the attribute ({see}):\n{failure}"
    );
    assert!(!failure.contains("faster-runtime/src"), "{failure}");
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

/// `output` with every run of whitespace made one space, so that a warning
/// wrapped at 80 columns reads as one line.
fn unwrapped(output: &str) -> String {
    output.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The report printed for a comparison that passed: from its `faster: LABEL`
/// heading to its `test TEST ... ok` line, whitespace unwrapped.
fn report_of(label: &str, test: &str, output: &str) -> String {
    let heading = format!("faster: {label}\n");
    let start = output
        .find(&heading)
        .unwrap_or_else(|| panic!("no report for {label}:\n{output}"));
    let end = output[start..]
        .find(&format!("test {test} ... ok"))
        .unwrap_or_else(|| panic!("{test} did not pass:\n{output}"));
    unwrapped(&output[start..start + end])
}

/// Whether `report` (unwrapped by [`report_of`]) shows what a passing
/// `expect = not_slower` guard prints, whichever real verdict the machine
/// gave: `✓ faster`, `✓ within the 5% floor`, `✓ not slower` (within noise, but
/// reaching past the floor on the faster side), or `? undecided: ...`
/// where the interval could not rule out a slowdown of the floor's size
/// (undecided passes: the runs strip `FASTER_UNDECIDED`).
fn a_passing_guard(report: &str) -> bool {
    report.contains("✓ faster (")
        || report.contains("✓ within the ")
        || report.contains("✓ not slower (")
        || report.contains("? undecided: ")
}

/// Whether `report` (unwrapped by [`report_of`]) shows a verdict line of an
/// `expect = report` comparison, which never fails on timing: any decided
/// verdict (`✓ faster`, `✓ within the 5% floor`, `✓ slower`) or `? undecided: ...`.
fn any_verdict(report: &str) -> bool {
    a_passing_guard(report) || report.contains("✓ slower (")
}

/// The comparisons that have nothing hostile about them all ran and passed
/// next to the hostile ones (both are `not_slower` guards, which a busy
/// machine's undecided verdict does not fail).
fn assert_the_rest_ran(output: &str) {
    for test in ["faster_has_duplicate_sorted", "faster_checksum_again"] {
        assert!(
            output.contains(&format!("test {test} ... ok")),
            "{test} did not run to the end next to the hostile functions:\n{output}"
        );
    }
}

#[test]
fn a_function_the_optimizer_removed_is_measured_and_called_out() {
    let output = &wrong_run().output;
    let report = report_of(
        "touch_all vs touch_all_naive",
        "hostile::faster_touch_all",
        output,
    );
    // A guard: the removed work is faster by far, but a busy machine may
    // leave the interval too wide to decide it.
    assert!(a_passing_guard(&report), "{report}");
    assert!(
        report.contains("about what the measuring loop costs with nothing in it")
            && report.contains("either the compiler optimized the work away"),
        "{report}"
    );
    assert_the_rest_ran(output);
}

#[test]
fn a_call_longer_than_the_whole_budget_is_an_error_saying_what_budget_fits() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test hostile::faster_settle ... FAILED"),
        "{output}"
    );
    // 300 ms per call against a 200 ms budget shared by four processes:
    // the first stopped after the check's two calls, not after a tuning
    // pair, a warm-up round and two rounds, and the message is about the
    // budget the attribute gave, not one process's share.
    let failure = unwrapped(failure_of("hostile::faster_settle", output));
    assert!(
        failure.contains("one round (each function called once on every input) takes 0.")
            && failure.contains("do not fit in max_time = \"200ms\" shared by 4 processes")
            && failure.contains("raise max_time to at least \"")
            && failure.contains("(about ten rounds in each process)")
            && !failure.contains("process 1 of the replicated comparison"),
        "{failure}"
    );
    assert_the_rest_ran(output);
}

#[test]
fn a_function_that_sleeps_gets_its_verdict_and_a_note_that_it_waits() {
    let output = &wrong_run().output;
    let report = report_of("nap vs nap_naive", "hostile::faster_nap", output);
    // A guard: sleeps that wake late on a busy machine may leave it
    // undecided.
    assert!(a_passing_guard(&report), "{report}");
    assert!(
        report.contains("of the measurement asleep or waiting")
            && report.contains("FASTER_TIMER=thread-cpu"),
        "{report}"
    );
    assert_the_rest_ran(output);
}

#[test]
fn nan_outputs_agree_under_approx_and_a_nan_for_a_number_fails() {
    let output = &wrong_run().output;
    // NaN where the original has NaN: checked equal, then timed (calls of
    // a few nanoseconds apart, whose interval may well not rule out 5%, or
    // may decide either way: `expect = report` takes any verdict).
    let report = report_of("ratios vs ratios_naive", "hostile::faster_ratios", output);
    assert!(any_verdict(&report), "{report}");
    // NaN where the original has 0: the input and the place are named.
    assert!(
        output.contains("test hostile::faster_ratios_flushed ... FAILED"),
        "{output}"
    );
    let failure = failure_of("hostile::faster_ratios_flushed", output);
    for expected in [
        "the candidate returns a different result for input 1",
        "  candidate: [0.5, NaN, 0.75]",
        "  first difference at [1]: 0.0 vs NaN, not within approx(1e-12)",
    ] {
        assert!(failure.contains(expected), "no {expected:?} in:\n{failure}");
    }
    assert_the_rest_ran(output);
}

#[test]
fn slow_inputs_are_prepared_outside_the_budget() {
    let output = &wrong_run().output;
    let report = report_of(
        "sum_loaded vs sum_naive",
        "hostile::faster_sum_loaded",
        output,
    );
    // Measured and judged, whichever verdict a busy machine gives: the test
    // is about the budget.
    assert!(any_verdict(&report), "{report}");
    // The inputs take 1.5 s to prepare; the measurement itself keeps to its
    // 100 ms budget (with room for the check and calibration).
    let document = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target/fixtures/faster/src/demo.hostile.faster_sum_loaded.json"),
    )
    .expect("the comparison wrote its report");
    let document: serde_json::Value = serde_json::from_str(&document).expect("a JSON document");
    let elapsed = document["result"]["elapsed_s"]
        .as_f64()
        .unwrap_or_else(|| panic!("no elapsed_s in {document}"));
    assert!(
        elapsed < 0.5,
        "measured for {elapsed} s against a 100 ms budget"
    );
    assert_the_rest_ran(output);
}

#[test]
fn a_candidate_that_panics_on_one_input_of_many_fails_naming_it() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test hostile::faster_parse ... FAILED"),
        "{output}"
    );
    // The panic's own message (the default hook's) comes first in the
    // test's output; the failure names the input after it.
    let reported = output
        .lines()
        .find(|line| line.starts_with("faster: parse vs parse_naive (see src/hostile.rs:"))
        .unwrap_or_else(|| panic!("no failure for parse:\n{output}"));
    assert!(
        reported.ends_with("the candidate panicked on input 3: not a digit: '+'"),
        "{reported}"
    );
    assert_the_rest_ran(output);
}

#[test]
fn a_stack_overflow_in_a_replicated_comparison_fails_that_comparison_only() {
    let output = &wrong_run().output;
    assert!(
        output.contains("test hostile::faster_depth ... FAILED"),
        "{output}"
    );
    // The first process measuring it aborted; the parent says so and shows
    // the end of its output.
    let failure = failure_of("hostile::faster_depth", output);
    for expected in [
        "process 1 of the replicated comparison failed: the process serving this binary's \
         comparisons ended: it exited with signal: 6 (SIGABRT)",
        "has overflowed its stack",
    ] {
        assert!(failure.contains(expected), "no {expected:?} in:\n{failure}");
    }
    assert_the_rest_ran(output);
}
