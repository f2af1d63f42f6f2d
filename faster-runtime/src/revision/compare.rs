//! One tracked function compared across two revisions: the two revisions'
//! functions matched by name ([`pair_up`]), their inputs and outputs checked
//! by digest ([`check_behaviour`]), then both measured by the engine's
//! sampler ([`measure`]), each batch timed by the child serving its
//! revision: the base revision is the original, the current code the
//! candidate, and the rounds, stop rule, estimate, interval and verdict are
//! those of any comparison.

use super::child::{Endpoint, stopped_answering};
use super::protocol::{FunctionListing, Listing, Request, Response};
use crate::config::Config;
use crate::engine::compare::measurement_of;
use crate::engine::sampler::{self, Subject};
use crate::engine::tracked::DigestedInput;
use crate::error::Error;
use crate::indexes::format_inputs;
use crate::report::notice::UNCHECKED;
use crate::report::{Measurement, Notice};
use crate::stats::samples::Side;
use crate::time::{Calibration, Clock};
use std::collections::BTreeMap;
use std::time::Instant;

/// Where a tracked function is served: by which child of its revision
/// (the index of that child's listing), and as what.
#[derive(Debug, Clone, Copy)]
pub struct Located<'a> {
    /// The child serving it.
    pub server: usize,
    /// Its listing.
    pub function: &'a FunctionListing,
}

/// A tracked function name and where the two revisions have it.
#[derive(Debug, Clone, Copy)]
pub enum Match<'a> {
    /// In both: compared.
    Both {
        /// At the base revision.
        base: Located<'a>,
        /// In the current code.
        current: Located<'a>,
    },
    /// At the base revision only (removed or renamed since).
    OnlyBase(Located<'a>),
    /// In the current code only (new, or renamed).
    OnlyCurrent(Located<'a>),
}

/// Every tracked function of either revision, by name, with where each
/// revision has it. `base` and `current` hold one listing per child. The
/// same registration served by several children (a library's function
/// linked into several test binaries) counts once; two registrations of one
/// name are an error.
pub fn pair_up<'a>(
    base: &'a [Listing],
    current: &'a [Listing],
) -> Result<Vec<(&'a str, Match<'a>)>, String> {
    let base = by_name(base)?;
    let mut current = by_name(current)?;
    let mut matches: Vec<(&str, Match)> = base
        .into_iter()
        .map(|(name, base)| match current.remove(name) {
            Some(current) => (name, Match::Both { base, current }),
            None => (name, Match::OnlyBase(base)),
        })
        .collect();
    matches.extend(
        current
            .into_iter()
            .map(|(name, current)| (name, Match::OnlyCurrent(current))),
    );
    matches.sort_by_key(|(name, _)| *name);
    Ok(matches)
}

fn by_name(listings: &[Listing]) -> Result<BTreeMap<&str, Located<'_>>, String> {
    let mut found: BTreeMap<&str, Located> = BTreeMap::new();
    for (server, listing) in listings.iter().enumerate() {
        for function in &listing.functions {
            match found.get(function.name.as_str()) {
                Some(seen)
                    if (seen.function.file.as_str(), seen.function.line)
                        != (function.file.as_str(), function.line) =>
                {
                    return Err(format!(
                        "two tracked functions are named `{}` ({}:{} and {}:{}): give one \
                         another `name = \"...\"`",
                        function.name,
                        seen.function.file,
                        seen.function.line,
                        function.file,
                        function.line
                    ));
                }
                Some(_) => {}
                None => {
                    found.insert(function.name.as_str(), Located { server, function });
                }
            }
        }
    }
    Ok(found)
}

/// What the digests showed: how many inputs to measure, and what the
/// report should say.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// Inputs measured: those both revisions have.
    pub inputs: usize,
    /// Whether every measured input's outputs were compared.
    pub outputs_checked: bool,
    /// What the reader should know.
    pub warnings: Vec<String>,
}

/// Compares the revisions' inputs and outputs, input by input. An output
/// that changed is [`Error::BehaviourChanged`], naming the input, unless
/// `accept_changes`, when it is a warning. Inputs that differ between the
/// revisions (each build calls its own inputs function), outputs without a
/// digest, and a different number of inputs are warnings.
pub fn check_behaviour(
    base: &[DigestedInput],
    current: &[DigestedInput],
    accept_changes: bool,
) -> Result<Checked, Error> {
    let inputs = base.len().min(current.len());
    let mut warnings = Vec::new();
    if base.len() != current.len() {
        warnings.push(format!(
            "the inputs differ between the revisions: {} at the base, {} now; the first {inputs} \
             are compared",
            base.len(),
            current.len()
        ));
    }
    let (mut other_input, mut unchecked, mut varies, mut changed) = (vec![], vec![], false, vec![]);
    for (index, (base, current)) in base.iter().zip(current).enumerate() {
        let digests = (base.input_digest, current.input_digest);
        if matches!(digests, (Some(before), Some(now)) if before != now) {
            other_input.push(index);
            continue;
        }
        match (base.output_digest, current.output_digest) {
            (Some(before), Some(now)) if before != now => changed.push(index),
            (Some(_), Some(_)) => {}
            _ => {
                varies |= base.output_varies || current.output_varies;
                unchecked.push(index);
            }
        }
    }
    if let Some((&first, also)) = changed.split_first() {
        if !accept_changes {
            return Err(Error::BehaviourChanged {
                input: first,
                input_shown: current[first].input_shown.clone(),
                base: base[first].output_shown.clone(),
                current: current[first].output_shown.clone(),
                also: also.to_vec(),
            });
        }
        warnings.push(format!(
            "the output changed since the base revision for {} (accepted with \
             --accept-changes)",
            format_inputs(&changed)
        ));
    }
    if !other_input.is_empty() {
        warnings.push(format!(
            "{} differ between the revisions (each build makes its own): their outputs are not \
             compared, and their times are of different work",
            format_inputs(&other_input)
        ));
    }
    if !unchecked.is_empty() {
        let why = if varies {
            "the function returns different outputs from call to call"
        } else {
            "the output type has neither `Hash` nor `Debug` to digest"
        };
        warnings.push(format!(
            "{UNCHECKED} for {} across the revisions: {why}",
            format_inputs(&unchecked)
        ));
    }
    Ok(Checked {
        inputs,
        outputs_checked: unchecked.is_empty() && other_input.is_empty(),
        warnings,
    })
}

/// The two children of one comparison: the base revision's and the
/// current code's.
pub struct Children<'a> {
    /// The base revision's, timing the original.
    pub base: &'a mut dyn Endpoint,
    /// The current code's, timing the candidate.
    pub current: &'a mut dyn Endpoint,
}

/// One tracked function to compare: its listing in both revisions.
#[derive(Debug, Clone, Copy)]
pub struct Across<'a> {
    /// The report's heading.
    pub label: &'a str,
    /// At the base revision.
    pub base: &'a FunctionListing,
    /// In the current code.
    pub current: &'a FunctionListing,
    /// Whether a changed output is expected (`--accept-changes`).
    pub accept_changes: bool,
}

/// Checks and measures `across` through `children`, whose timer is named
/// `timer` and calibrated as `calibration`, keeping the budget on `clock`.
pub fn measure<C: Clock>(
    across: Across<'_>,
    children: Children<'_>,
    (calibration, timer): (Calibration, &str),
    clock: &C,
    config: &Config,
) -> Result<Measurement, Error> {
    let started = Instant::now();
    let Across {
        label,
        base,
        current,
        accept_changes,
    } = across;
    config.validate()?;
    for (listing, revision) in [(base, BASE), (current, CURRENT)] {
        if let Some(error) = &listing.error {
            return Err(Error::Revision(format!("in {revision}: {error}")));
        }
        // A child lists no inputs until they are digested, and a function
        // whose inputs are digested has at least one: none is a function
        // this run did not digest, which must fail rather than measure
        // nothing.
        if listing.inputs.is_empty() {
            return Err(Error::Revision(format!(
                "in {revision}: `{}`'s inputs were not digested",
                listing.name
            )));
        }
    }
    let checked = check_behaviour(&base.inputs, &current.inputs, accept_changes)?;
    let mut remote = Remote {
        children,
        function: current.name.clone(),
        max_batch: base
            .inputs
            .iter()
            .zip(&current.inputs)
            .take(checked.inputs)
            .map(|(base, current)| base.max_batch.min(current.max_batch))
            .collect(),
    };
    let samples = sampler::sample(clock, calibration, &mut remote, config)?;
    let mut measurement = measurement_of(
        label,
        &samples,
        timer,
        checked.outputs_checked,
        started,
        config,
    );
    measurement.notices = checked.warnings.into_iter().map(Notice::Said).collect();
    Ok(measurement)
}

/// How the two revisions are named in messages.
pub const BASE: &str = "the base revision";
/// See [`BASE`].
pub const CURRENT: &str = "the current code";

/// The sampler's [`Subject`]: each batch is timed by the child of its
/// revision, one child at a time, and only the nanoseconds that child
/// measured come back.
struct Remote<'a> {
    children: Children<'a>,
    function: String,
    max_batch: Vec<u64>,
}

impl Subject for Remote<'_> {
    fn input_count(&self) -> usize {
        self.max_batch.len()
    }

    fn warms_each_batch(&self) -> bool {
        // Each child calls the function once, untimed, before each batch
        // (`engine/tracked.rs`).
        true
    }

    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error> {
        let (child, revision) = match side {
            Side::Original => (&mut *self.children.base, BASE),
            Side::Candidate => (&mut *self.children.current, CURRENT),
        };
        let request = Request::Time {
            function: self.function.clone(),
            input,
            batch,
        };
        match child.request(&request) {
            Ok(Response::Nanos(nanos)) => Ok(nanos),
            Ok(Response::Failed(message)) => {
                Err(Error::Revision(format!("in {revision}: {message}")))
            }
            Ok(other) => Err(Error::Revision(format!(
                "{revision} answered a time request with {other:?}"
            ))),
            Err(message) => Err(Error::Revision(stopped_answering(
                &self.function,
                &format!("input {input} was timed"),
                &message,
            ))),
        }
    }

    fn max_batch(&self, input: usize) -> u64 {
        self.max_batch[input]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;
    use crate::revision::protocol::fixtures::listing;
    use crate::stats::verdict::{Expect, Verdict};
    use crate::time::{SimClock, calibrate};
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::time::Duration;

    fn digested(input: u64, output: u64) -> DigestedInput {
        DigestedInput {
            input_digest: Some(input),
            input_shown: format!("{input}"),
            output_digest: Some(output),
            output_shown: format!("{output}"),
            output_varies: false,
            max_batch: 1 << 20,
        }
    }

    fn function(name: &str, line: u32, inputs: Vec<DigestedInput>) -> FunctionListing {
        FunctionListing {
            name: name.into(),
            file: "src/lib.rs".into(),
            line,
            debug_build: false,
            settings: Settings::NONE,
            inputs,
            error: None,
            source_digest: 0,
            timed_loop: None,
        }
    }

    #[test]
    fn functions_are_matched_by_name_and_one_sided_ones_kept() {
        let base = [
            listing(vec![
                function("demo::kept", 1, vec![]),
                function("demo::gone", 2, vec![]),
            ]),
            // The same registration served by a second test binary.
            listing(vec![function("demo::kept", 1, vec![])]),
        ];
        let current = [listing(vec![
            function("demo::new", 3, vec![]),
            function("demo::kept", 4, vec![]),
        ])];
        let matches = pair_up(&base, &current).unwrap();
        let summary: Vec<(&str, &str)> = matches
            .iter()
            .map(|(name, matched)| {
                let side = match matched {
                    Match::Both { base, current } => {
                        assert_eq!((base.server, current.server), (0, 0));
                        "both"
                    }
                    Match::OnlyBase(_) => "base",
                    Match::OnlyCurrent(_) => "current",
                };
                (*name, side)
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("demo::gone", "base"),
                ("demo::kept", "both"),
                ("demo::new", "current")
            ]
        );
    }

    #[test]
    fn two_registrations_of_one_name_are_an_error() {
        let current = [listing(vec![
            function("demo::twice", 1, vec![]),
            function("demo::twice", 9, vec![]),
        ])];
        let error = pair_up(&[], &current).unwrap_err();
        assert!(error.contains("src/lib.rs:1 and src/lib.rs:9"), "{error}");
    }

    #[test]
    fn a_changed_output_fails_naming_the_input_unless_accepted() {
        let base = [digested(1, 10), digested(2, 20), digested(3, 30)];
        let current = [digested(1, 10), digested(2, 21), digested(3, 31)];
        assert_eq!(
            check_behaviour(&base, &base, false).unwrap(),
            Checked {
                inputs: 3,
                outputs_checked: true,
                warnings: vec![],
            }
        );
        let error = check_behaviour(&base, &current, false).unwrap_err();
        assert_eq!(
            error,
            Error::BehaviourChanged {
                input: 1,
                input_shown: "2".into(),
                base: "20".into(),
                current: "21".into(),
                also: vec![2],
            }
        );
        let text = error.to_string();
        assert!(text.starts_with("the output changed since the base revision for input 1\n"));
        assert!(text.contains("changed too: input 2"), "{text}");
        let accepted = check_behaviour(&base, &current, true).unwrap();
        assert!(accepted.outputs_checked);
        assert_eq!(
            accepted.warnings,
            [
                "the output changed since the base revision for inputs 1, 2 (accepted with \
              --accept-changes)"
            ]
        );
    }

    #[test]
    fn inputs_that_differ_or_outputs_without_digests_are_said() {
        let base = [digested(1, 10), digested(2, 20), digested(3, 30)];
        let mut current = vec![digested(1, 10), digested(5, 50)];
        let checked = check_behaviour(&base, &current, false).unwrap();
        assert_eq!(checked.inputs, 2);
        assert!(!checked.outputs_checked);
        assert!(
            checked.warnings[0].contains("3 at the base, 2 now"),
            "{checked:?}"
        );
        assert!(
            checked.warnings[1].starts_with("input 1 differ"),
            "{checked:?}"
        );
        current[1] = digested(2, 20);
        current[0].output_digest = None;
        current[0].output_varies = true;
        let checked = check_behaviour(&base[..2], &current, false).unwrap();
        assert!(!checked.outputs_checked);
        assert_eq!(
            checked.warnings,
            [format!(
                "{UNCHECKED} for input 0 across the revisions: the function returns different \
                 outputs from call to call"
            )]
        );
        // 2,048 inputs without a digest are one range, not 2,048 numbers.
        let many: Vec<DigestedInput> = (0..2048)
            .map(|input| DigestedInput {
                output_digest: None,
                ..digested(input, input)
            })
            .collect();
        let checked = check_behaviour(&many, &many, false).unwrap();
        assert_eq!(
            checked.warnings,
            [format!(
                "{UNCHECKED} for inputs 0–2047 across the revisions: the output type has \
                 neither `Hash` nor `Debug` to digest"
            )]
        );
    }

    /// A child of one revision on a simulated clock: each call of its
    /// function costs `per_call_ns`, and it logs which revision was asked.
    struct Simulated {
        clock: SimClock,
        per_call_ns: f64,
        revision: &'static str,
        log: Rc<RefCell<Vec<&'static str>>>,
        fail_after: Option<(usize, Fails)>,
    }

    /// How a simulated child fails a request.
    #[derive(Debug, Clone, Copy)]
    enum Fails {
        /// The function panics: the child answers with the panic.
        Panics,
        /// The child does not answer in time, and is stopped.
        StopsAnswering,
    }

    impl Endpoint for Simulated {
        fn request(&mut self, request: &Request) -> Result<Response, String> {
            let Request::Time { batch, .. } = request else {
                return Err(format!("unexpected {request:?}"));
            };
            self.log.borrow_mut().push(self.revision);
            match self.fail_after {
                Some((after, fails)) if self.log.borrow().len() > after => {
                    return match fails {
                        Fails::Panics => Ok(Response::Failed(Error::Panicked {
                            during: crate::error::Phase::Function,
                            input: Some(0),
                            message: "boom".into(),
                        })),
                        Fails::StopsAnswering => Err(format!(
                            "the process serving the {} revision did not answer within 2s",
                            self.revision
                        )),
                    };
                }
                _ => {}
            }
            self.clock.advance(self.per_call_ns * *batch as f64);
            Ok(Response::Nanos(self.per_call_ns * *batch as f64))
        }
    }

    fn run_simulated(
        per_call_ns: [f64; 2],
        fail_after: Option<(usize, Fails)>,
    ) -> (Result<Measurement, Error>, Vec<&'static str>) {
        let clock = SimClock::with_reading_cost(20.0);
        let log = Rc::new(RefCell::new(Vec::new()));
        let child = |per_call_ns, revision| Simulated {
            clock: clock.clone(),
            per_call_ns,
            revision,
            log: Rc::clone(&log),
            fail_after,
        };
        let (mut base, mut current) = (
            child(per_call_ns[0], "base"),
            child(per_call_ns[1], "current"),
        );
        let inputs = vec![digested(1, 10), digested(2, 20)];
        let (base_listing, current_listing) = (
            function("demo::parse", 1, inputs.clone()),
            function("demo::parse", 1, inputs),
        );
        let config = Config {
            expect: Expect::NotSlower,
            max_time: Duration::from_millis(200),
            ..Config::default()
        };
        let result = measure(
            Across {
                label: "demo::parse vs main",
                base: &base_listing,
                current: &current_listing,
                accept_changes: false,
            },
            Children {
                base: &mut base,
                current: &mut current,
            },
            (calibrate(&clock), "simulated"),
            &clock,
            &config,
        );
        let log = log.borrow().clone();
        (result, log)
    }

    #[test]
    fn a_tenth_more_work_reads_as_one_over_one_point_one_and_fails_the_guard() {
        let (result, log) = run_simulated([1_000.0, 1_100.0], None);
        let config = Config {
            expect: Expect::NotSlower,
            ..Config::default()
        };
        let report = crate::judge::judge(result.unwrap(), &config, Default::default());
        assert!(
            (report.speedup * 1.1 - 1.0).abs() < 1e-3,
            "{}",
            report.speedup
        );
        assert_eq!(report.verdict, Verdict::Slower);
        assert!(!report.passed());
        assert_eq!(report.name, "demo::parse vs main");
        assert!(report.outputs_checked);
        // Each pair of rounds holds both orders, and pairs take turns at
        // which comes first: after tuning, requests come base/current, then
        // current/base, then current/base, then base/current, input by input.
        let measured = &log[log.len() - 4 * report.rounds..];
        for (index, round) in measured.chunks(4).enumerate() {
            let expected = if [true, false, false, true][index % 4] {
                ["base", "current", "base", "current"]
            } else {
                ["current", "base", "current", "base"]
            };
            assert_eq!(round, expected, "round {index}");
        }
    }

    #[test]
    fn a_failure_in_a_child_is_the_comparisons_error_naming_the_revision() {
        let (result, _) = run_simulated([1_000.0, 1_000.0], Some((5, Fails::Panics)));
        let error = result.unwrap_err().to_string();
        assert!(
            error.starts_with("in the base revision: the function panicked on input 0")
                || error.starts_with("in the current code: the function panicked on input 0"),
            "{error}"
        );
    }

    #[test]
    fn a_child_that_stops_answering_is_the_comparisons_error_naming_the_function_and_input() {
        let (result, log) = run_simulated([1_000.0, 1_000.0], Some((5, Fails::StopsAnswering)));
        let error = result.unwrap_err().to_string();
        let revision = log[5];
        assert!(
            error.starts_with("`demo::parse` stopped answering while input ")
                && error.ends_with(&format!(
                    "was timed: the process serving the {revision} revision did not answer \
                     within 2s"
                )),
            "{error}"
        );
    }
}
