//! What a failed `cargo test --no-fail-fast` on the docs' crate may have
//! failed on: only real timing verdicts that did not come out `faster`.
//!
//! The docs' comparisons keep the default `expect = faster` and are timed
//! for real, so on a busy machine one may end `undecided` (its interval
//! could not rule out a change of the noise floor's size) or `within
//! noise`, and its test fails. That alone is tolerated. Each failed test
//! must show one of these and nothing else:
//!
//! - a generated `#[test]` (libtest): one panic, whose message is the
//!   report, marked `✗ within the 5% floor (expected faster)` or `✗ undecided:
//!   ... (expected faster; ...`, and ends `faster: TEST is within noise, but
//!   was expected to be faster (see FILE:LINE)` (or `is undecided: ...`);
//! - a test of the docs' own that checks a report (`assert_eq!(report.verdict,
//!   Verdict::Faster)`): one panic, that assertion, with `left: WithinNoise`
//!   (the verdict of an undecided `faster` too);
//! - a comparison of a `faster::main()` target: its report, printed before
//!   `test NAME ... FAILED`, marked as above, without an error.
//!
//! Every failed target must have failed so (exit code 101, a `test result:
//! FAILED` line, each failed test accounted for), and cargo must say nothing
//! else: no compile error, no crash.

/// What the GPU examples' graphics stack prints where no desktop session
/// set `XDG_RUNTIME_DIR` (libwayland, which the Vulkan loader probes): the
/// machine's, not the examples', and said whether they pass or fail.
const MACHINE_SAYS: [&str; 1] =
    ["error: XDG_RUNTIME_DIR is invalid or not set in the environment."];

/// `Ok` when every failure in `output` (a `cargo test --no-fail-fast`'s
/// stdout and stderr) is a timing verdict that did not come out `faster`,
/// and at least one test failed; otherwise what else failed.
pub fn timing_failures_only(output: &str) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();

    // cargo's own errors: one `test failed, to rerun pass ...` per target
    // that exited with 101 (a process that exits otherwise adds `Caused
    // by:`), and the closing `N targets failed:` list. Anything else
    // (`error[E...]`, `could not compile`, ...) is not a timing failure.
    let mut failed_targets = 0;
    for line in lines.iter().filter(|line| !MACHINE_SAYS.contains(line)) {
        if line.starts_with("error: test failed, to rerun pass `") {
            failed_targets += 1;
        } else if (line.starts_with("error") && !is_targets_failed(line))
            || line.starts_with("Caused by:")
        {
            return Err(format!("and not on timing: `{line}`"));
        }
    }

    let mut results = 0;
    let mut failed = 0;
    for line in &lines {
        let Some(counts) = line.strip_prefix("test result: FAILED. ") else {
            continue;
        };
        results += 1;
        failed += counts
            .split("; ")
            .find_map(|count| count.strip_suffix(" failed"))
            .and_then(|count| count.parse::<usize>().ok())
            .ok_or_else(|| format!("and `{line}` does not say how many tests failed"))?;
    }
    if results != failed_targets {
        return Err(format!(
            "and {failed_targets} targets failed where {results} said which of their tests did"
        ));
    }
    let names = failed_tests(&lines);
    if names.len() != failed || failed == 0 {
        return Err(format!(
            "and {failed} tests failed, where the failures lists name {}",
            names.len()
        ));
    }
    for name in &names {
        failed_on_timing(name, &lines)?;
    }
    Ok(())
}

/// Whether `line` is cargo's closing `error: 2 targets failed:`.
fn is_targets_failed(line: &str) -> bool {
    line.strip_prefix("error: ")
        .and_then(|rest| {
            rest.strip_suffix(" targets failed:")
                .or_else(|| rest.strip_suffix(" target failed:"))
        })
        .is_some_and(|count| count.parse::<usize>().is_ok())
}

/// The tests named in the `failures:` lists (libtest's, and
/// `faster::main()`'s, alike: one name a line, indented by four spaces).
fn failed_tests(lines: &[&str]) -> Vec<String> {
    let mut names = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if *line != "failures:" {
            continue;
        }
        names.extend(
            lines[index + 1..]
                .iter()
                .take_while(|line| line.starts_with("    ") && !line.trim().is_empty())
                .map(|line| line.trim().to_string()),
        );
    }
    names
}

/// `Ok` when what `output` shows of the failed test `name` is a timing
/// verdict that did not come out `faster`: libtest's `---- NAME stdout ----`
/// sections, or else the report `faster::main()` printed before `test NAME
/// ... FAILED`.
fn failed_on_timing(name: &str, lines: &[&str]) -> Result<(), String> {
    let header = format!("---- {name} stdout ----");
    let sections: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| **line == header)
        .map(|(index, _)| {
            lines[index + 1..]
                .iter()
                .take_while(|line| {
                    !(line.starts_with("---- ") && line.ends_with(" stdout ----"))
                        && **line != "failures:"
                })
                .copied()
                .collect::<Vec<&str>>()
                .join("\n")
        })
        .collect();
    for section in &sections {
        if !(generated_test_failed_on_timing(section) || verdict_assertion_failed(section)) {
            return Err(format!(
                "and {name} did not fail on timing alone:\n{section}"
            ));
        }
    }
    if !sections.is_empty() {
        return Ok(());
    }

    let result = format!("test {name} ... FAILED");
    let reports: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(_, line)| **line == result)
        .map(|(index, _)| {
            let start = lines[..index]
                .iter()
                .rposition(|line| line.starts_with("test ") || line.starts_with("running "))
                .map_or(0, |previous| previous + 1);
            lines[start..index].join("\n")
        })
        .collect();
    if reports.is_empty() {
        return Err(format!("and nothing shows why {name} failed"));
    }
    for report in &reports {
        let error = report
            .lines()
            .any(|line| line.trim_start().starts_with("error: "));
        if error || !verdict_not_faster(report) {
            return Err(format!(
                "and {name} did not fail on timing alone:\n{report}"
            ));
        }
    }
    Ok(())
}

/// Whether `section`, a generated `#[test]`'s failure, is one panic whose
/// message is a report whose verdict did not come out `faster`.
fn generated_test_failed_on_timing(section: &str) -> bool {
    let said = section.lines().any(|line| {
        line.starts_with("faster: ")
            && line.contains(", but was expected to be faster")
            && (line.contains(" is within noise, ") || line.contains(" is undecided: "))
    });
    section.matches("panicked at").count() == 1 && said && verdict_not_faster(section)
}

/// Whether `section` is one panic, `assert_eq!(report.verdict,
/// Verdict::Faster)` failing on a `WithinNoise` verdict.
fn verdict_assertion_failed(section: &str) -> bool {
    let line = |expected: &str| section.lines().any(|line| line.trim() == expected);
    section.matches("panicked at").count() == 1
        && section.contains("assertion `left == right` failed")
        && line("left: WithinNoise")
        && line("right: Faster")
}

/// Whether `report`'s one `✗` verdict is `within the X floor` or `undecided:
/// ...` where `faster` was expected: `✗ within the 5% floor (expected
/// faster)`, `✗ undecided: only a change beyond 9% could be judged
/// (expected faster; noise floor 5%)`, wrapped or not.
fn verdict_not_faster(report: &str) -> bool {
    let unwrapped = report.split_whitespace().collect::<Vec<_>>().join(" ");
    let marked: Vec<&str> = unwrapped.split("✗ ").skip(1).collect();
    let [verdict] = marked[..] else {
        return false;
    };
    verdict.split_once(" (").is_some_and(|(verdict, why)| {
        why.starts_with("expected faster")
            && (verdict.starts_with("within the ") || verdict.starts_with("undecided: "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASSED: &str = "\
running 1 test
test readme_11::faster_has_duplicate ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 3.10s
";

    /// A generated test whose verdict did not decide, next to a passing one.
    fn generated(verdict_line: &str, panic_line: &str) -> String {
        format!(
            "{PASSED}
running 2 tests
test guide_writing_86::faster_buffer_format_u32 ... FAILED
test readme_11::faster_has_duplicate ... ok

failures:

---- guide_writing_86::faster_buffer_format_u32 stdout ----

thread 'guide_writing_86::faster_buffer_format_u32' panicked at src/guide_writing_86.rs:28:5:
faster: Buffer::format::<u32> vs Self::format_naive
  ⏱️ Runtime: 41.2 ns → 9.80 ns (best of 310 runs)
  4.20x faster [99% CI 0.98x – 17.9x]
{verdict_line}
{panic_line}
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    guide_writing_86::faster_buffer_format_u32

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 6.20s


error: test failed, to rerun pass `--lib`
error: 1 target failed:
    `--lib`
"
        )
    }

    #[test]
    fn an_undecided_or_within_noise_generated_test_is_a_timing_failure() {
        let undecided = generated(
            "    ✗ undecided: only a change beyond 170% could be judged (expected faster;\n      noise floor 5%)",
            "faster: guide_writing_86::faster_buffer_format_u32 is undecided: only a change beyond \
             170% could be judged, but was expected to be faster (see src/guide_writing_86.rs:28)",
        );
        assert_eq!(timing_failures_only(&undecided), Ok(()));
        let within = generated(
            "    ✗ within the 5% floor (expected faster)",
            "faster: guide_writing_86::faster_buffer_format_u32 is within noise, but was \
             expected to be faster (see src/guide_writing_86.rs:28)",
        );
        assert_eq!(timing_failures_only(&within), Ok(()));
    }

    #[test]
    fn what_the_graphics_stack_says_of_the_machine_is_not_a_failure() {
        let undecided = generated(
            "    ✗ undecided: too few rounds for an interval, so no change could be judged\n      \
             (expected faster; noise floor 5%)",
            "faster: guide_writing_86::faster_buffer_format_u32 is undecided: too few rounds for \
             an interval, so no change could be judged, but was expected to be faster (see \
             src/guide_writing_86.rs:28)",
        );
        let said = format!("{}\n{undecided}", MACHINE_SAYS[0]);
        assert_eq!(timing_failures_only(&said), Ok(()));
        let other = format!("error: XDG_RUNTIME_DIR is fine\n{undecided}");
        assert!(timing_failures_only(&other).is_err());
    }

    #[test]
    fn a_slower_verdict_a_mismatch_or_a_passing_run_is_not() {
        let slower = generated(
            "    ✗ slower (expected faster; noise floor 5%)",
            "faster: guide_writing_86::faster_buffer_format_u32 is slower, but was expected to \
             be faster (see src/guide_writing_86.rs:28)",
        );
        assert!(timing_failures_only(&slower).is_err());
        let mismatch = generated(
            "  input:     (Buffer { bytes: [0; 20] }, 42)",
            "faster: Buffer::format::<u32> vs Self::format_naive (see src/guide_writing_86.rs:28): \
             the candidate returns a different result for input 1",
        );
        assert!(timing_failures_only(&mismatch).is_err());
        // A second panic in the same test is something else failing.
        let twice = generated(
            "    ✗ within the 5% floor (expected faster)\nthread 'x' panicked at src/a.rs:1:1:",
            "faster: guide_writing_86::faster_buffer_format_u32 is within noise, but was \
             expected to be faster (see src/guide_writing_86.rs:28)",
        );
        assert!(timing_failures_only(&twice).is_err());
        // Nothing failed: cargo failed for another reason.
        assert!(timing_failures_only(PASSED).is_err());
    }

    #[test]
    fn a_verdict_assertion_on_within_noise_is_a_timing_failure() {
        let output = "\
running 1 test
test guide_writing_206::tests::the_formula_is_faster ... FAILED

failures:

---- guide_writing_206::tests::the_formula_is_faster stdout ----
faster: formula vs loop
  1.90x faster [99% CI 0.99x – 3.62x]
    ✗ undecided: only a change beyond 90% could be judged (expected faster; noise floor 5%)


thread 'guide_writing_206::tests::the_formula_is_faster' panicked at src/guide_writing_206.rs:19:9:
assertion `left == right` failed
  left: WithinNoise
 right: Faster
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    guide_writing_206::tests::the_formula_is_faster

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 3.02s

error: test failed, to rerun pass `--lib`
error: 1 target failed:
    `--lib`
";
        assert_eq!(timing_failures_only(output), Ok(()));
        let other = output.replace("left: WithinNoise", "left: Slower");
        assert!(timing_failures_only(&other).is_err());
    }

    #[test]
    fn a_faster_main_report_that_did_not_decide_is_a_timing_failure() {
        let output = "\
running 1 comparison
faster: find_bisect vs find_linear
  ⏱️ Runtime: 9.10 µs → 25.0 ns (best of 20 runs)
  364x faster [99% CI 0.90x – 1000x]
    ✗ undecided: only a change beyond 900% could be judged (expected faster; noise
      floor 5%)
test faster_find_bisect ... FAILED

failures:
    faster_find_bisect

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 3.00s

error: test failed, to rerun pass `--test speed`
error: 1 target failed:
    `--test speed`
";
        assert_eq!(timing_failures_only(output), Ok(()));
        let error = output.replace(
            "    ✗ undecided",
            "  error: the candidate panicked on input 0\n    ✗ undecided",
        );
        assert!(timing_failures_only(&error).is_err());
        // A target that crashed said nothing of its tests.
        let crashed = format!(
            "{output}error: test failed, to rerun pass `--test other`\n\nCaused by:\n  process \
             didn't exit successfully (signal: 11, SIGSEGV)\n"
        );
        assert!(timing_failures_only(&crashed).is_err());
    }

    #[test]
    fn a_compile_error_is_not_a_timing_failure() {
        let output = "error[E0425]: cannot find value `x` in this scope\n\
                      error: could not compile `my_crate` (lib test) due to 1 previous error\n";
        assert!(timing_failures_only(output).is_err());
    }
}
