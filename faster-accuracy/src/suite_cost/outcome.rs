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
}

#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Outcomes {
    pub passed: usize,
    pub failed: usize,
}

/// libtest's `test NAME ... ok|FAILED` line: the test and whether it passed.
fn libtest_line(line: &str) -> Option<(&str, bool)> {
    let (name, result) = line
        .strip_prefix("test ")
        .and_then(|rest| rest.split_once(" ... "))?;
    Some((name, result.starts_with("ok")))
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

/// The comparisons' outcomes, from the lines `read` understands: each test
/// counted once.
fn outcomes(output: &str, read: fn(&str) -> Option<(&str, bool)>, wall_s: f64) -> Run {
    let mut run = Run {
        wall_s,
        ..Run::default()
    };
    let mut seen = std::collections::BTreeSet::new();
    for (name, passed) in output.lines().filter_map(read) {
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
    let (_, stdout, stderr, wall) = suite.cargo(setting.runner, &[], setting.environment)?;
    if stderr
        .lines()
        .any(|line| line.trim_start().starts_with("Compiling "))
    {
        return Err(format!(
            "{}: cargo test rebuilt the crate, so the run timed a build",
            setting.label
        ));
    }
    let run = match setting.runner {
        Runner::Libtest => outcomes(&stdout, libtest_line, wall.as_secs_f64()),
        Runner::Nextest => outcomes(&stderr, nextest_line, wall.as_secs_f64()),
    };
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

/// A run in a line: its wall time and what passed.
pub fn describe(run: &Run) -> String {
    let failed = if run.failed.is_empty() {
        String::new()
    } else {
        format!("; failed: {}", run.failed.join(", "))
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

test result: FAILED. 3 passed; 1 failed
";
        let run = outcomes(stdout, libtest_line, 2.5);
        assert_one_double_passed_and_one_of_two_same_failed(&run);
        assert_eq!(run.failed, ["faster_same_1"]);
        assert!(describe(&run).contains("identical passed 1 of 2; failed: faster_same_1"));
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
        let run = outcomes(stderr, nextest_line, 1.0);
        assert_one_double_passed_and_one_of_two_same_failed(&run);
        assert_eq!(run.failed, ["faster_same_2"]);
    }
}
