//! One `cargo test --release` of the fixture, judged: every comparison's
//! report read back from the runtime's JSON files, and the run's failures
//! told apart — a known multiple that missed `faster` is a miss to count
//! (the other pairs only report); anything else (a build error, a panic, outputs that differ, a missing
//! report, a test that is not a comparison) ends the suite.

use super::kinds::Kind;
use faster::Report;
use faster::Verdict;
use faster_runtime::__internal::Document;
use std::path::Path;

/// What the suite keeps of one comparison's report.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub verdict: Verdict,
    pub speedup: f64,
    /// The 99% interval.
    pub ci: (f64, f64),
    /// The best-of figure: Σ min(original) / Σ min(candidate).
    pub best_speedup: f64,
    /// Whether the verdict met the comparison's `expect`.
    pub passed: bool,
    /// The comparison's wall time, output checks included.
    pub elapsed_s: f64,
    pub rounds: usize,
    /// The floor the verdict was judged against.
    pub noise_floor: f64,
    /// Each layout the slices ran in, with the mean log speedup of its
    /// slices, in layout order (none where layouts were not varied).
    pub layouts: Vec<(u32, f64)>,
}

impl Measured {
    fn of(report: &Report) -> Measured {
        Measured {
            verdict: report.verdict,
            speedup: report.speedup,
            ci: report.ci,
            best_speedup: report.best_speedup,
            passed: report.passed(),
            elapsed_s: report.elapsed.as_secs_f64(),
            rounds: report.rounds,
            noise_floor: report.noise_floor,
            layouts: layout_means(report),
        }
    }
}

/// Each layout of `report`'s slices and their mean log speedup.
fn layout_means(report: &Report) -> Vec<(u32, f64)> {
    let mut sums: std::collections::BTreeMap<u32, (f64, f64)> = Default::default();
    for process in &report.processes {
        if let Some(layout) = process.layout {
            let sum = sums.entry(layout).or_default();
            sum.0 += process.speedup.ln();
            sum.1 += 1.0;
        }
    }
    sums.into_iter()
        .map(|(layout, (sum, count))| (layout, sum / count))
        .collect()
}

/// A comparison's name and what its report holds, or the error it holds
/// instead.
pub type Reported = (String, Result<Measured, String>);

/// Which comparison of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pair {
    /// `copy` against `original`: the same work (`expect = report`).
    Identical,
    /// `once` against `twice`: a true ratio of about 2 (`expect = faster`).
    Multiple,
    /// `without_rework` against `with_rework`: a difference of about 5%
    /// (`expect = report` at a 2% floor; `faster` is the right verdict).
    Rework,
    /// `copy_at_2_percent` against `original`: the same work at a 2% floor
    /// (`expect = report`).
    IdenticalAt2Percent,
}

impl Pair {
    /// Its name in the CSV file.
    pub fn name(self) -> &'static str {
        match self {
            Pair::Identical => "identical",
            Pair::Multiple => "multiple",
            Pair::Rework => "rework",
            Pair::IdenticalAt2Percent => "identical_at_2_percent",
        }
    }
}

/// A comparison the fixture holds: its test name, kind and pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub test: String,
    pub kind: &'static str,
    pub pair: Pair,
}

/// Every comparison of `kinds`.
pub fn expected(kinds: &[Kind]) -> Vec<Expected> {
    kinds
        .iter()
        .flat_map(|kind| {
            [
                (kind.identical_test(), Pair::Identical),
                (kind.multiple_test(), Pair::Multiple),
                (kind.rework_test(), Pair::Rework),
                (
                    kind.identical_at_2_percent_test(),
                    Pair::IdenticalAt2Percent,
                ),
            ]
            .map(|(test, pair)| Expected {
                test,
                kind: kind.name,
                pair,
            })
        })
        .collect()
}

/// Every report file in `dir`: the comparison's test name and its report
/// (or the error it holds instead).
pub fn read_reports(dir: &Path) -> Result<Vec<Reported>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|error| format!("no reports in {}: {error}", dir.display()))?;
    let mut reports = Vec::new();
    for entry in entries {
        let path = entry.map_err(|error| error.to_string())?.path();
        if path.extension().is_none_or(|extension| extension != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let document: Document = serde_json::from_str(&text).map_err(|error| {
            format!(
                "{} is not a faster/report/v1 document: {error}",
                path.display()
            )
        })?;
        let name = document.name().to_string();
        reports.push((
            name,
            document.into_report().map(|report| Measured::of(&report)),
        ));
    }
    Ok(reports)
}

/// What libtest's output says about the run: the tests it lists as
/// failed, or `None` when it printed no result line (nothing ran: a build
/// error, a crash before the summary).
pub fn failed_tests(stdout: &str) -> Option<Vec<String>> {
    let mut summaries = 0;
    let mut failed = Vec::new();
    // The last `failures:` block before a summary is the list of names;
    // an earlier one holds each failure's captured output.
    let mut listing: Option<Vec<String>> = None;
    for line in stdout.lines() {
        if line == "failures:" {
            listing = Some(Vec::new());
        } else if let Some(summary) = line.strip_prefix("test result: ") {
            summaries += 1;
            if summary.starts_with("FAILED") {
                failed.extend(listing.take().unwrap_or_default());
            }
        } else if let Some(names) = listing.as_mut() {
            match line.strip_prefix("    ") {
                Some(name) if !name.starts_with(' ') => names.push(name.trim().to_string()),
                _ if line.is_empty() => {}
                _ => listing = None,
            }
        }
    }
    (summaries > 0).then_some(failed)
}

/// One comparison of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub kind: &'static str,
    pub pair: Pair,
    pub measured: Measured,
}

/// The run's comparisons, or why the run failed for another reason than a
/// known multiple's verdict. `success` is cargo's exit status; `stdout`
/// and `stderr` are its output.
pub fn judge(
    expected: &[Expected],
    success: bool,
    stdout: &str,
    stderr: &str,
    reports: Vec<Reported>,
) -> Result<Vec<Judged>, String> {
    let Some(failed) = failed_tests(stdout) else {
        return Err(format!(
            "cargo test ended without libtest's summary (a build error or a crash):\n{}",
            super::fixture::tail(stderr, 30)
        ));
    };
    if !success && failed.is_empty() {
        return Err(format!(
            "cargo test failed, yet no test did:\n{}",
            super::fixture::tail(stderr, 30)
        ));
    }
    for (name, _) in &reports {
        if !expected.iter().any(|comparison| &comparison.test == name) {
            return Err(format!(
                "a report of `{name}`, which the fixture does not hold"
            ));
        }
    }
    let mut judged = Vec::new();
    for comparison in expected {
        let measured = match reports.iter().find(|(name, _)| *name == comparison.test) {
            None => return Err(format!("`{}` wrote no report", comparison.test)),
            Some((_, Err(error))) => {
                return Err(format!("`{}` has no verdict: {error}", comparison.test));
            }
            Some((_, Ok(measured))) => measured.clone(),
        };
        // Only the known multiples expect a verdict; the others report.
        if !measured.passed && comparison.pair != Pair::Multiple {
            return Err(format!(
                "`{}` (expect = report) did not pass: {}",
                comparison.test, measured.verdict
            ));
        }
        judged.push(Judged {
            kind: comparison.kind,
            pair: comparison.pair,
            measured,
        });
    }
    for name in &failed {
        let miss = judged.iter().zip(expected).any(|(judged, comparison)| {
            &comparison.test == name && comparison.pair == Pair::Multiple && !judged.measured.passed
        });
        if !miss {
            return Err(format!(
                "the test `{name}` failed, not for a known multiple's verdict:\n{}",
                failure_of(stdout, name)
            ));
        }
    }
    Ok(judged)
}

/// libtest's captured output of the failed test `name`.
fn failure_of(stdout: &str, name: &str) -> String {
    let header = format!("---- {name} stdout ----");
    stdout.split_once(&header).map_or_else(
        || super::fixture::tail(stdout, 30),
        |(_, rest)| {
            rest.split("\n---- ")
                .next()
                .unwrap_or(rest)
                .trim()
                .to_string()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report's figures; `passed` as `expect` would judge `verdict`.
    fn measured(speedup: f64, verdict: Verdict, passed: bool) -> Measured {
        Measured {
            verdict,
            speedup,
            ci: (speedup * 0.98, speedup * 1.02),
            best_speedup: speedup,
            passed,
            elapsed_s: 0.5,
            rounds: 100,
            noise_floor: 0.05,
            layouts: Vec::new(),
        }
    }

    const PASSED: &str = "\
running 3 tests
test unrelated::unrelated_code_runs ... ok
faster: copy vs original
    1.00x [99% CI 0.99x – 1.01x]
test parse::faster_copy ... ok
test parse::faster_once ... ok

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 2.01s

running 0 tests

test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

    /// As libtest and the runtime print it (trimmed), a failed comparison's
    /// captured output holding indented lines of its own.
    const MISSED: &str = "\
running 3 tests
test parse::faster_copy ... ok
test parse::faster_once ... FAILED

failures:

---- parse::faster_once stdout ----

thread 'parse::faster_once' (21650) panicked at faster-runtime/src/harness/mod.rs:296:9:
faster: once vs twice
  1.000x [99% CI 0.990x – 1.011x]
    ✗ within noise (expected faster; noise floor 5%)
faster: parse::faster_once is within noise, but was expected to be faster (see src/parse.rs:36)
stack backtrace:
   0: __rustc::rust_begin_unwind
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.


failures:
    parse::faster_once

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.41s
";

    fn expected_parse() -> Vec<Expected> {
        vec![
            Expected {
                test: "parse::faster_copy".into(),
                kind: "parse",
                pair: Pair::Identical,
            },
            Expected {
                test: "parse::faster_once".into(),
                kind: "parse",
                pair: Pair::Multiple,
            },
        ]
    }

    fn reports(once: Verdict) -> Vec<Reported> {
        vec![
            (
                "parse::faster_once".into(),
                Ok(measured(1.02, once, once == Verdict::Faster)),
            ),
            (
                "parse::faster_copy".into(),
                Ok(measured(1.0, Verdict::WithinNoise, true)),
            ),
        ]
    }

    #[test]
    fn libtest_lists_its_failures_after_their_output() {
        assert_eq!(failed_tests(PASSED), Some(vec![]));
        assert_eq!(
            failed_tests(MISSED),
            Some(vec!["parse::faster_once".to_string()])
        );
        assert_eq!(failed_tests("error: could not compile `x`\n"), None);
    }

    #[test]
    fn a_known_multiple_that_misses_is_counted_not_fatal() {
        let judged = judge(
            &expected_parse(),
            false,
            MISSED,
            "",
            reports(Verdict::WithinNoise),
        )
        .unwrap();
        assert_eq!(judged.len(), 2);
        assert_eq!(judged[0].pair, Pair::Identical);
        assert_eq!(judged[1].kind, "parse");
        assert!(!judged[1].measured.passed);
        let passed = judge(
            &expected_parse(),
            true,
            PASSED,
            "",
            reports(Verdict::Faster),
        )
        .unwrap();
        assert!(passed.iter().all(|judged| judged.measured.passed));
    }

    #[test]
    fn anything_else_ends_the_suite_with_the_reason() {
        let expected = expected_parse();
        let error = |success, stdout, reports| judge(&expected, success, stdout, "E", reports);
        assert!(
            error(false, "", reports(Verdict::Faster))
                .unwrap_err()
                .contains("without libtest's summary")
        );
        // The test failed, yet its report says the verdict was met: a panic.
        assert!(
            error(false, MISSED, reports(Verdict::Faster))
                .unwrap_err()
                .contains("not for a known multiple's verdict:\nthread 'parse::faster_once'")
        );
        let mut missing = reports(Verdict::Faster);
        missing.pop();
        assert!(
            error(true, PASSED, missing)
                .unwrap_err()
                .contains("`parse::faster_copy` wrote no report")
        );
        let mut broken = reports(Verdict::Faster);
        broken[1].1 = Err("outputs differ on input 0".into());
        assert!(
            error(true, PASSED, broken)
                .unwrap_err()
                .contains("no verdict: outputs differ")
        );
        let mut stranger = reports(Verdict::Faster);
        stranger.push(("other::faster_x".into(), Err("?".into())));
        assert!(
            error(true, PASSED, stranger)
                .unwrap_err()
                .contains("does not hold")
        );
        assert!(
            error(false, PASSED, reports(Verdict::Faster))
                .unwrap_err()
                .contains("yet no test did")
        );
    }
}
