//! One `cargo test` of the generated crate, read: its wall time and which
//! comparisons passed, from libtest's lines.

use super::Setting;
use super::generated::{Runner, Suite};

/// What one `cargo test` came to.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Run {
    pub wall_s: f64,
    /// Comparisons that passed and failed, the 2x ones and the identical.
    pub double: Outcomes,
    pub same: Outcomes,
    /// The failed comparisons' test names.
    pub failed: Vec<String>,
    /// What the runner said of the failures (each failed comparison's
    /// report, then libtest's `failures:` section), empty when none
    /// failed: a failure in a figure is shown with its cause.
    pub said: String,
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Outcomes {
    pub passed: usize,
    pub failed: usize,
}

/// The test a libtest `test NAME ... ok|FAILED` line is of. Its result is
/// not read there: with several test threads libtest writes the name and
/// the result apart, and a report written past its capture can land
/// between them (`test a ... faster: b vs …`, the `ok` a line later), so
/// the result comes from libtest's closing list of failures instead.
fn libtest_name(line: &str) -> Option<&str> {
    let (name, _) = line.strip_prefix("test ")?.split_once(" ... ")?;
    Some(name)
}

/// The tests libtest's closing summary lists under `failures:` (the last
/// such heading; an earlier one heads each failure's captured output).
fn libtest_failures(output: &str) -> Vec<&str> {
    let lines: Vec<&str> = output.lines().collect();
    let Some(heading) = lines.iter().rposition(|line| *line == "failures:") else {
        return Vec::new();
    };
    lines[heading + 1..]
        .iter()
        .map_while(|line| line.strip_prefix("    "))
        .collect()
}

/// libtest's results: each test it names, passed unless listed as failed.
fn libtest_results(stdout: &str) -> impl Iterator<Item = (&str, bool)> {
    let failures = libtest_failures(stdout);
    stdout
        .lines()
        .filter_map(libtest_name)
        .map(move |name| (name, !failures.contains(&name)))
}

/// nextest's `PASS [ 0.006s] (1/3) crate NAME` line (`FAIL` where it
/// failed; the failures are listed again at the end).
fn nextest_line(line: &str) -> Option<(&str, bool)> {
    let line = line.trim_start();
    let passed = line.starts_with("PASS [");
    if !passed && !line.starts_with("FAIL [") {
        return None;
    }
    Some((line.split_whitespace().last()?, passed))
}

/// The comparisons' outcomes from a runner's results: each test counted
/// once.
fn outcomes<'a>(results: impl Iterator<Item = (&'a str, bool)>, wall_s: f64) -> Run {
    let mut run = Run {
        wall_s,
        ..Run::default()
    };
    let mut seen = std::collections::BTreeSet::new();
    for (name, passed) in results {
        if !seen.insert(name) {
            continue;
        }
        let outcomes = if name.starts_with("faster_halved_") {
            &mut run.double
        } else if name.starts_with("faster_same_") {
            &mut run.same
        } else {
            continue;
        };
        if passed {
            outcomes.passed += 1;
        } else {
            outcomes.failed += 1;
            run.failed.push(name.to_string());
        }
    }
    run
}

/// One run in `setting`: its outcomes, or why it is not a run of the suite.
pub fn run_once(suite: &Suite, setting: &Setting, comparisons: usize) -> Result<Run, String> {
    let (succeeded, stdout, stderr, wall) =
        suite.cargo(setting.runner, &[], setting.environment)?;
    if stderr
        .lines()
        .any(|line| line.trim_start().starts_with("Compiling "))
    {
        return Err(format!(
            "{}: cargo test rebuilt the crate, so the run timed a build",
            setting.label
        ));
    }
    let (mut run, output) = match setting.runner {
        Runner::Libtest => (
            outcomes(libtest_results(&stdout), wall.as_secs_f64()),
            &stdout,
        ),
        Runner::Nextest => (
            outcomes(stderr.lines().filter_map(nextest_line), wall.as_secs_f64()),
            &stderr,
        ),
    };
    if !run.failed.is_empty() {
        run.said = failures_said(output, &run.failed);
    }
    if succeeded != run.failed.is_empty() {
        return Err(format!(
            "{}: the runner exited {} but its lines read {} failed:\n{}",
            setting.label,
            if succeeded { "0" } else { "non-zero" },
            run.failed.len(),
            crate::layouts::tail(&stderr, 30)
        ));
    }
    let seen = run.double.passed + run.double.failed + run.same.passed + run.same.failed;
    if seen != comparisons {
        return Err(format!(
            "{}: libtest reported {seen} of the {comparisons} comparisons:\n{}",
            setting.label,
            crate::layouts::tail(&stderr, 30)
        ));
    }
    Ok(run)
}

/// What the runner said of each failed comparison: its report (from
/// `faster: NAME vs` to its `data:` line, at most 30 lines), then libtest's
/// `failures:` section, so that a failure in a figure is shown with its
/// cause.
fn failures_said(output: &str, failed: &[String]) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let mut said: Vec<&str> = Vec::new();
    for name in failed {
        let heading = format!("faster: {} vs", name.trim_start_matches("faster_"));
        if let Some(start) = lines.iter().position(|line| line.starts_with(&heading)) {
            let report = lines[start..].iter().take(30);
            let end = report
                .clone()
                .position(|line| line.trim_start().starts_with("data:"));
            said.extend(report.take(end.map_or(30, |end| end + 1)));
        }
    }
    if let Some(start) = lines.iter().position(|line| *line == "failures:") {
        said.extend(lines[start..].iter().take(40));
    }
    said.join("\n")
}

/// A run in a line: its wall time and what passed (and below it, what
/// the runner said of any failure).
pub fn describe(run: &Run) -> String {
    let failed = if run.failed.is_empty() {
        String::new()
    } else {
        format!("; failed: {}\n{}\n", run.failed.join(", "), run.said)
    };
    format!(
        "{:.1} s; 2x passed {} of {}, identical passed {} of {}{failed}",
        run.wall_s,
        run.double.passed,
        run.double.passed + run.double.failed,
        run.same.passed,
        run.same.passed + run.same.failed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_lines_tell_each_kind_s_outcomes() {
        let stdout = "\
running 4 tests
test faster_halved_0 ... ok
test faster_same_1 ... FAILED
test faster_same_2 ... ok
test some_other_test ... ok

failures:

---- faster_same_1 stdout ----
faster: same_1 is slower

failures:
    faster_same_1

test result: FAILED. 3 passed; 1 failed
";
        let run = outcomes(libtest_results(stdout), 2.5);
        assert_one_double_passed_and_one_of_two_same_failed(&run);
        assert_eq!(run.failed, ["faster_same_1"]);
        assert!(describe(&run).contains("identical passed 1 of 2; failed: faster_same_1"));
    }

    #[test]
    fn a_report_landing_between_libtest_s_name_and_result_is_not_a_failure() {
        let stdout = "\
running 2 tests
test faster_same_52 ... faster: same_53 vs original_53
  1.001x slower [99% CI 0.998x – 1.004x]  ✓ not slower (noise floor 5%)
ok
test faster_same_53 ... ok

test result: ok. 2 passed; 0 failed
";
        let run = outcomes(libtest_results(stdout), 1.0);
        assert_eq!(
            run.same,
            Outcomes {
                passed: 2,
                failed: 0
            }
        );
        assert!(run.failed.is_empty());
    }

    /// What both runners' sample lines come to.
    fn assert_one_double_passed_and_one_of_two_same_failed(run: &Run) {
        let outcomes = |passed, failed| Outcomes { passed, failed };
        assert_eq!(run.double, outcomes(1, 0));
        assert_eq!(run.same, outcomes(1, 1));
    }

    #[test]
    fn nextest_lines_tell_each_test_once() {
        let stderr = "\
        PASS [   0.006s] (1/3) suite faster_same_1
        PASS [   0.008s] (2/3) suite faster_halved_0
        FAIL [   0.063s] (3/3) suite faster_same_2
    test faster_same_2 ... FAILED
     Summary [   0.070s] 3 tests run: 2 passed, 1 failed, 0 skipped
        FAIL [   0.063s] (3/3) suite faster_same_2
";
        let run = outcomes(stderr.lines().filter_map(nextest_line), 1.0);
        assert_one_double_passed_and_one_of_two_same_failed(&run);
        assert_eq!(run.failed, ["faster_same_2"]);
    }
}
