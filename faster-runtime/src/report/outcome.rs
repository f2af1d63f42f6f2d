//! What running one registered comparison came to, as every output sees it:
//! its names, where its attribute is, the report or the error, and whether
//! a missed expectation fails the run.

use super::Report;
use crate::error::{Error, OnlyIn};

/// One comparison's run: the one value every output renders.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The comparison's test name as libtest lists it and filters match it
    /// (`sum::faster_sum_fast`).
    pub test: String,
    /// The report's heading (`sum_fast vs sum_naive`).
    pub label: String,
    /// Where the attribute is, for a registered comparison.
    pub source: Option<Source>,
    /// The report, or why there is none.
    pub result: Result<Report, Error>,
    /// Whether a verdict that misses the expectation fails the run: not in
    /// a build with `debug_assertions`, unless enforced there too.
    pub enforced: bool,
}

/// Where a registered comparison's attribute is and what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The generated test's path with its crate first
    /// (`demo::sum::faster_sum_fast`): unique in a binary.
    pub path: String,
    /// The original as written in the attribute (`sum_naive`).
    pub original: String,
    /// The file holding the attribute.
    pub file: String,
    /// The attribute's line.
    pub line: u32,
    /// Whether the crate holding the attribute was built with
    /// `debug_assertions`.
    pub debug_assertions: bool,
}

crate::options::choices! {
    /// How a comparison ended. An undecided verdict is not a status of its
    /// own, so that every status keeps its meaning for what it does to the run:
    /// it passed or failed as its expectation and
    /// [`Report::if_undecided`] say, and [`Outcome::undecided`] tells it apart.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Status {
        /// The verdict meets the expectation.
        Passed = "passed",
        /// The verdict misses the expectation, and that fails the run.
        Failed = "failed",
        /// The verdict misses the expectation in a debug build, where timing is
        /// reported but not enforced.
        NotEnforced = "not_enforced",
        /// No verdict: outputs differed, user code panicked, or a setting was
        /// invalid.
        Error = "error",
        /// Nothing to compare: a tracked function exists in one revision only.
        /// Reported, like libtest's ignored tests, and never a failure.
        Skipped = "skipped",
    }
}

impl Status {
    /// The status of `result` when a missed expectation is (or is not)
    /// `enforced`.
    pub fn of(result: &Result<Report, Error>, enforced: bool) -> Status {
        match result {
            Ok(report) if report.passed() => Status::Passed,
            Ok(_) if enforced => Status::Failed,
            Ok(_) => Status::NotEnforced,
            Err(Error::OneSided { .. }) => Status::Skipped,
            Err(_) => Status::Error,
        }
    }

    /// Whether the run may still pass: passed, missed where not enforced,
    /// or skipped.
    pub fn ok(self) -> bool {
        matches!(self, Status::Passed | Status::NotEnforced | Status::Skipped)
    }
}

impl Outcome {
    /// How this comparison ended.
    pub fn status(&self) -> Status {
        Status::of(&self.result, self.enforced)
    }

    /// Whether it lets the run pass.
    pub fn passed(&self) -> bool {
        self.status().ok()
    }

    /// Whether it has a verdict that did not decide its expectation (see
    /// [`Report::decided`]), whether or not that fails the run.
    pub fn undecided(&self) -> bool {
        matches!(&self.result, Ok(report) if !report.decided())
    }

    /// Whether it let the run pass undecided: shown as `?` and counted
    /// apart from the passes.
    pub fn passed_undecided(&self) -> bool {
        self.passed() && self.undecided()
    }

    /// The revision that alone has it, when it is a tracked function in
    /// one revision only (so [`Status::Skipped`]).
    pub fn only_in(&self) -> Option<OnlyIn> {
        match self.result {
            Err(Error::OneSided { only_in }) => Some(only_in),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::report;
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn a_miss_fails_only_where_enforced_and_an_error_always_fails() {
        let missed = || Ok(report(0.8, (0.78, 0.82), Verdict::Slower, Expect::Faster));
        assert_eq!(Status::of(&missed(), true), Status::Failed);
        assert_eq!(Status::of(&missed(), false), Status::NotEnforced);
        assert!(Status::NotEnforced.ok() && !Status::Failed.ok());
        let met = Ok(report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster));
        assert_eq!(Status::of(&met, true), Status::Passed);
        assert_eq!(Status::of(&Err(Error::NoInputs), false), Status::Error);
        assert!(!Status::Error.ok());
        let one_sided = Err(Error::OneSided {
            only_in: OnlyIn::Base,
        });
        assert_eq!(Status::of(&one_sided, true), Status::Skipped);
        assert!(Status::Skipped.ok());
    }

    #[test]
    fn an_undecided_guard_passes_apart_or_fails_where_asked() {
        use crate::report::fixtures::undecided_guard;
        use crate::stats::verdict::Undecided;
        let outcome = |report: Report| Outcome {
            test: "guard".into(),
            label: "guard".into(),
            source: None,
            result: Ok(report),
            enforced: true,
        };
        let lenient = outcome(undecided_guard());
        assert_eq!(lenient.status(), Status::Passed);
        assert!(lenient.undecided() && lenient.passed_undecided());
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        let strict = outcome(strict);
        assert_eq!(strict.status(), Status::Failed);
        assert!(strict.undecided() && !strict.passed_undecided());
        let decided = outcome(report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster));
        assert!(!decided.undecided());
        assert!(
            !Outcome {
                result: Err(Error::NoInputs),
                ..decided
            }
            .undecided()
        );
    }
}
