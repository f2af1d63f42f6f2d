//! The child's side of a comparison across revisions: serve this binary's
//! tracked functions ([`Tracked`]) to the parent, one request at a time,
//! until it says `quit` or closes the pipe.
//!
//! The listing is made of what the registrations say, without running user
//! code; each function is opened (its inputs collected) and its inputs
//! digested (the function called twice on each) only when the parent asks,
//! or before it is first timed, and once. A function that cannot be opened
//! or whose inputs cannot be digested answers with its error from then on,
//! and the others are served; a function that never returns holds up only
//! the request about it, which the parent gives up on. A panic while timing
//! is answered as a failure, and the child goes on serving.

use super::machine_code;
use super::protocol::{Digested, FunctionListing, Listing, Request, Response};
use crate::config::Config;
use crate::engine::tracked::Served;
use crate::error::Error;
use crate::process;
use crate::registry::Tracked;
use crate::time::{Clock, Timer, calibrate};
use std::io::{self, BufRead, Write};

/// Serves `tracked` on `requests` and `responses`, timing with the timer
/// of the configuration the parent sends first ([`Request::Configure`]).
/// Returns when the parent quits or closes the pipe; fails only when the
/// pipe does.
pub fn serve(
    tracked: &[&Tracked],
    requests: impl BufRead,
    responses: impl Write,
) -> io::Result<()> {
    let mut functions: Vec<Function> = tracked
        .iter()
        .map(|tracked| Function {
            tracked,
            state: State::Closed,
        })
        .collect();
    let mut timing = None;
    process::serve(requests, responses, |request| {
        Some(match request {
            Ok(Request::Quit) => return None,
            Ok(Request::Configure { config }) => {
                timing = Some(Timing::of(&config, tracked));
                Response::Configured
            }
            Ok(request) => match &timing {
                Some(timing) => answer(request, timing, &mut functions),
                None => Response::Failed(Error::Revision(format!(
                    "asked {request:?} before its configuration, which comes first"
                ))),
            },
            Err(why) => Response::Failed(Error::Revision(format!("an unreadable request: {why}"))),
        })
    })
}

/// What a configured child times with: its timer, and the listing that
/// names it and its calibration.
struct Timing {
    timer: Timer,
    listing: Listing,
}

impl Timing {
    /// The timer `config` asks for (or the one it falls back to),
    /// calibrated, and `tracked` as the listing gives them.
    fn of(config: &Config, tracked: &[&Tracked]) -> Timing {
        let (timer, timer_fallback) = Timer::select(config.timer);
        let listing = Listing {
            timer: timer.name().to_string(),
            timer_fallback,
            calibration: calibrate(&timer).into(),
            functions: tracked.iter().map(|tracked| listed(tracked)).collect(),
        };
        Timing { timer, listing }
    }
}

/// The answer to `request` of a configured child.
fn answer(request: Request, timing: &Timing, functions: &mut [Function<'_>]) -> Response {
    match request {
        Request::List => Response::Listing(timing.listing.clone()),
        Request::Open { function } => match named(functions, &function) {
            Ok(function) => match function.open() {
                Ok(opened) => Response::Opened(opened.input_count()),
                Err(error) => Response::Failed(error),
            },
            Err(missing) => missing,
        },
        Request::Digest { function } => match named(functions, &function) {
            Ok(function) => match function.digest() {
                Ok((_, digested)) => Response::Digested(digested.clone()),
                Err(error) => Response::Failed(error),
            },
            Err(missing) => missing,
        },
        Request::Time {
            function,
            input,
            batch,
        } => match named(functions, &function).map(Function::digest) {
            Ok(Ok((opened, _))) => match opened.time_batch(&timing.timer, input, batch) {
                Ok(nanos) => Response::Nanos(nanos),
                Err(error) => Response::Failed(error),
            },
            Ok(Err(error)) => Response::Failed(Error::Revision(format!(
                "`{function}` cannot be served: {error}"
            ))),
            Err(missing) => missing,
        },
        Request::Configure { .. } | Request::Quit => unreachable!("`serve` answers it"),
    }
}

/// The function of `functions` named `name`, or the answer that there is
/// none.
fn named<'f, 't>(
    functions: &'f mut [Function<'t>],
    name: &str,
) -> Result<&'f mut Function<'t>, Response> {
    functions
        .iter_mut()
        .find(|function| function.tracked.name == name)
        .ok_or_else(|| {
            Response::Failed(Error::Revision(format!(
                "no tracked function is named `{name}`"
            )))
        })
}

/// `tracked` as the listing gives it: what its registration says, before
/// any of its code runs.
fn listed(tracked: &Tracked) -> FunctionListing {
    FunctionListing {
        name: tracked.name.to_string(),
        file: tracked.file.to_string(),
        line: tracked.line,
        debug_build: tracked.debug_build,
        settings: tracked.settings,
        inputs: Vec::new(),
        error: None,
        source_digest: tracked.source_digest,
        timed_loop: None,
    }
}

/// One tracked function in the child, opened and its inputs digested on
/// first need.
struct Function<'a> {
    tracked: &'a Tracked,
    state: State,
}

/// How far a function has got: each step runs user code, once.
enum State {
    /// Nothing of it has run.
    Closed,
    /// Its inputs are collected.
    Opened(Box<dyn Served>),
    /// It was called twice on every input, which answered this.
    Digested(Box<dyn Served>, Digested),
    /// Opening it or digesting its inputs failed, for this reason: it is
    /// not served.
    Failed(Error),
}

impl Function<'_> {
    /// The function with its inputs collected, collecting them if they are
    /// not yet; the error of its inputs function (or of an earlier call).
    fn open(&mut self) -> Result<&mut Box<dyn Served>, Error> {
        if matches!(self.state, State::Closed) {
            self.state = match (self.tracked.open)() {
                Ok(served) if served.input_count() == 0 => State::Failed(Error::NoInputs),
                Ok(served) => State::Opened(served),
                Err(error) => State::Failed(error),
            };
        }
        match &mut self.state {
            State::Opened(served) | State::Digested(served, _) => Ok(served),
            State::Failed(error) => Err(error.clone()),
            State::Closed => unreachable!("opened above"),
        }
    }

    /// The function with its inputs digested, opening it and digesting
    /// them if that was not done yet; the error of its inputs function or
    /// of a call.
    fn digest(&mut self) -> Result<(&mut Box<dyn Served>, &Digested), Error> {
        self.open()?;
        if let State::Opened(_) = self.state {
            let State::Opened(mut served) = std::mem::replace(&mut self.state, State::Closed)
            else {
                unreachable!("matched above")
            };
            self.state = match served.digest_inputs() {
                Ok(inputs) => {
                    let timed_loop = machine_code::from_entry(served.timed_loop());
                    State::Digested(served, Digested { inputs, timed_loop })
                }
                Err(error) => State::Failed(error),
            };
        }
        match &mut self.state {
            State::Digested(served, digested) => Ok((served, digested)),
            State::Failed(error) => Err(error.clone()),
            State::Closed | State::Opened(_) => unreachable!("digested above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{collect_inputs, track_by_ref};
    use crate::config::Settings;
    use crate::engine::tracked::fixtures::described;
    use crate::stats::verdict::Expect;
    use std::time::Duration;

    fn double(n: &u64) -> u64 {
        if *n == 0 {
            panic!("zero");
        }
        std::hint::black_box(n * 2)
    }

    const DOUBLE: Tracked = Tracked {
        name: "demo::double",
        test: "demo::faster_track_double",
        file: "src/lib.rs",
        line: 3,
        settings: Settings {
            expect: Some(Expect::Report),
            max_time: Some(Duration::from_millis(500)),
            ..Settings::NONE
        },
        debug_build: false,
        source_digest: 1,
        open: || track_by_ref(vec![1_u64, 0, 7], double, described, described),
    };

    const BROKEN: Tracked = Tracked {
        name: "demo::broken",
        test: "demo::faster_track_broken",
        file: "src/lib.rs",
        line: 9,
        settings: Settings::NONE,
        debug_build: false,
        source_digest: 2,
        open: || {
            let inputs: Vec<u64> = collect_inputs(|| -> Vec<u64> { panic!("no inputs today") })?;
            track_by_ref(inputs, double, described, described)
        },
    };

    /// The responses to `requests` (one per line), as written.
    fn raw_session(tracked: &[&Tracked], requests: &[String]) -> Vec<Response> {
        let mut out = Vec::new();
        let framed: Vec<String> = requests
            .iter()
            .map(|json| format!("faster-frame/{} {json}", process::wire::VERSION))
            .collect();
        serve(tracked, framed.join("\n").as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter_map(process::wire::decode)
            .map(Result::unwrap)
            .collect()
    }

    /// Serves `requests` (one per line) after the default configuration,
    /// and returns the responses to them.
    fn session(tracked: &[&Tracked], requests: &[&str]) -> Vec<Response> {
        let configure = Request::Configure {
            config: Config::default(),
        };
        let requests: Vec<String> = std::iter::once(serde_json::to_string(&configure).unwrap())
            .chain(requests.iter().map(|request| request.to_string()))
            .collect();
        let mut responses = raw_session(tracked, &requests);
        assert_eq!(responses.remove(0), Response::Configured);
        responses
    }

    #[test]
    fn a_child_times_with_the_timer_it_is_configured_with_and_answers_nothing_before() {
        let list = r#"{"op":"list"}"#.to_string();
        let configure = |timer| {
            let config = Config {
                timer,
                ..Config::default()
            };
            serde_json::to_string(&Request::Configure { config }).unwrap()
        };
        let responses = raw_session(
            &[&DOUBLE],
            &[
                list.clone(),
                configure(crate::options::TimerKind::ThreadCpu),
                list,
            ],
        );
        let [
            Response::Failed(early),
            Response::Configured,
            Response::Listing(listing),
        ] = &responses[..]
        else {
            panic!("{responses:?}");
        };
        assert!(
            matches!(early, Error::Revision(why) if why.starts_with("asked List before its configuration")),
            "{early:?}"
        );
        // Thread CPU time, or the monotonic clock where it is not available,
        // saying why: never the default the child would take by itself.
        match &listing.timer_fallback {
            None => assert_eq!(listing.timer, "thread CPU time"),
            Some(why) => assert!(why.starts_with("thread CPU time is not available"), "{why}"),
        }
        assert_eq!(listing.functions.len(), 1);
    }

    /// A function whose registration panics when opened: any request that
    /// runs its code would end the session with this panic.
    const UNTOUCHABLE: Tracked = Tracked {
        name: "demo::untouchable",
        test: "demo::faster_track_untouchable",
        file: "src/lib.rs",
        line: 15,
        settings: Settings::NONE,
        debug_build: false,
        source_digest: 4,
        open: || panic!("the listing ran user code"),
    };

    #[test]
    fn the_listing_names_every_function_with_its_settings_and_runs_no_user_code() {
        let [Response::Listing(listing)] =
            &session(&[&BROKEN, &DOUBLE, &UNTOUCHABLE], &[r#"{"op":"list"}"#])[..]
        else {
            panic!("one listing expected");
        };
        assert!(listing.calibration.reading_cost_ns > 0.0);
        let [broken, double, untouchable] = &listing.functions[..] else {
            panic!("{listing:?}");
        };
        assert_eq!(broken.name, "demo::broken");
        assert_eq!(double.settings, DOUBLE.settings);
        assert_eq!(double.source_digest, 1);
        assert_eq!(
            (untouchable.file.as_str(), untouchable.line),
            ("src/lib.rs", 15)
        );
        for function in &listing.functions {
            assert_eq!(
                (function.inputs.len(), &function.error, function.timed_loop),
                (0, &None, None),
                "{function:?}"
            );
        }
    }

    #[test]
    fn each_function_is_opened_and_digested_on_request_answering_its_digests_or_its_error() {
        // Input 1 panics: the function answers with the error; the other
        // function with its own, and neither stops the child, which still
        // never touches the third.
        let responses = session(
            &[&BROKEN, &DOUBLE, &UNTOUCHABLE],
            &[
                r#"{"op":"open","function":"demo::broken"}"#,
                r#"{"op":"digest","function":"demo::broken"}"#,
                r#"{"op":"open","function":"demo::double"}"#,
                r#"{"op":"digest","function":"demo::double"}"#,
                r#"{"op":"time","function":"demo::double","input":0,"batch":10}"#,
                r#"{"op":"digest","function":"demo::missing"}"#,
            ],
        );
        let failures: Vec<String> = responses
            .iter()
            .filter_map(|response| match response {
                Response::Failed(error) => Some(error.to_string()),
                _ => None,
            })
            .collect();
        assert!(matches!(responses[2], Response::Opened(3)), "{responses:?}");
        let [
            inputs_failed,
            still_failed,
            call_failed,
            cannot_be_served,
            missing,
        ] = &failures[..]
        else {
            panic!("{responses:?}");
        };
        // A panic crosses as the error it is, not as its words.
        assert!(
            responses.iter().any(|response| matches!(
                response,
                Response::Failed(Error::Panicked { input: Some(1), .. })
            )),
            "{responses:?}"
        );
        assert!(inputs_failed.contains("no inputs today"), "{inputs_failed}");
        assert_eq!(still_failed, inputs_failed);
        assert!(
            call_failed.contains("panicked on input 1: zero"),
            "{call_failed}"
        );
        assert!(
            cannot_be_served.starts_with("`demo::double` cannot be served: ")
                && cannot_be_served.contains("panicked on input 1: zero"),
            "{cannot_be_served}"
        );
        assert!(
            missing.contains("no tracked function is named `demo::missing`"),
            "{missing}"
        );
    }

    #[test]
    fn a_function_not_opened_yet_is_opened_and_digested_when_first_timed() {
        const HEALTHY: Tracked = Tracked {
            name: "demo::healthy",
            open: || track_by_ref(vec![3_u64, 5], double, described, described),
            ..DOUBLE
        };
        let responses = session(
            &[&HEALTHY, &UNTOUCHABLE],
            &[
                r#"{"op":"time","function":"demo::healthy","input":1,"batch":100}"#,
                r#"{"op":"digest","function":"demo::healthy"}"#,
            ],
        );
        assert!(
            matches!(responses[0], Response::Nanos(nanos) if nanos > 0.0),
            "{responses:?}"
        );
        let Response::Digested(digested) = &responses[1] else {
            panic!("{responses:?}");
        };
        assert_eq!(digested.inputs[1].output_digest, Some(10));
        #[cfg(target_os = "linux")]
        assert!(digested.timed_loop.is_some(), "{digested:?}");
    }

    #[test]
    fn batches_are_timed_and_failures_answered_until_quit() {
        const HEALTHY: Tracked = Tracked {
            name: "demo::healthy",
            open: || track_by_ref(vec![3_u64, 5], double, described, described),
            ..DOUBLE
        };
        let responses = session(
            &[&HEALTHY],
            &[
                r#"{"op":"digest","function":"demo::healthy"}"#,
                r#"{"op":"time","function":"demo::healthy","input":1,"batch":1000}"#,
                r#"{"op":"time","function":"demo::missing","input":0,"batch":1}"#,
                r#"{"op":"time","function":"demo::healthy","input":9,"batch":1}"#,
                "not json",
                r#"{"op":"quit"}"#,
                r#"{"op":"list"}"#,
            ],
        );
        assert_eq!(responses.len(), 5, "{responses:?}");
        let Response::Digested(digested) = &responses[0] else {
            panic!("{responses:?}");
        };
        let inputs = &digested.inputs;
        assert_eq!(inputs[1].input_digest, Some(5));
        assert_eq!(inputs[1].output_digest, Some(10));
        assert_eq!(inputs[1].output_shown, "10");
        assert!(matches!(responses[1], Response::Nanos(nanos) if nanos > 0.0));
        let failures: Vec<String> = responses[2..]
            .iter()
            .map(|response| match response {
                Response::Failed(error) => error.to_string(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(failures[0].contains("no tracked function is named `demo::missing`"));
        assert!(
            failures[1].contains("input 9 does not exist"),
            "{failures:?}"
        );
        assert!(
            failures[2].starts_with("an unreadable request"),
            "{failures:?}"
        );
    }
}
