//! The protocol between `cargo faster` (the parent) and a process serving
//! one revision's tracked functions (a child): one message per line, each
//! a frame of `crate::process::wire` (which tells them apart from what
//! else reaches the child's stdout, such as libtest's `running 1 test` or a
//! `println!` in user code).
//!
//! The parent writes [`Request`]s to the child's stdin; the child answers
//! each with one [`Response`] on its stdout:
//!
//! ```text
//! → faster-frame/6 {"op":"configure","config":{"noise_floor":0.05,...,"timer":"monotonic",...}}
//! ← faster-frame/6 "configured"
//! → faster-frame/6 {"op":"list"}
//! ← faster-frame/6 {"listing":{"timer":"monotonic clock",...,"functions":[...]}}
//! → faster-frame/6 {"op":"open","function":"demo::parse"}
//! ← faster-frame/6 {"opened":3}
//! → faster-frame/6 {"op":"digest","function":"demo::parse"}
//! ← faster-frame/6 {"digested":{"inputs":[...],"timed_loop":-4096}}
//! → faster-frame/6 {"op":"time","function":"demo::parse","input":0,"batch":4096}
//! ← faster-frame/6 {"nanos":81234.0}
//! → faster-frame/6 {"op":"quit"}
//! ```
//!
//! Its version is the frames' ([`wire::VERSION`](crate::process::wire::VERSION)),
//! raised whenever a message here changes shape: a child of another
//! version answers the first request by refusing its frame, and that
//! refusal, in a frame of the child's version, is refused by the parent,
//! naming both versions.
//!
//! The listing runs no user code: a function is opened (its inputs
//! collected) and its inputs digested (the function called twice on each)
//! only when asked for, one request each, so a function that never returns
//! holds up only itself, and the parent knows what it was doing; a function
//! the run does not select is never called. `time` opens a function and
//! digests its inputs where that was not done yet (a fresh child is asked
//! to time directly).
//!
//! The first request of every child is the configuration the parent
//! resolved (the user's `FASTER_*` variables, `cargo faster`'s flags), as
//! a comparison's server of one binary gets it with each request: the
//! child applies its timer, which it calibrates and times with, and
//! answers nothing else before it.
//!
//! The child times each batch with its own timer and hands back only the
//! nanoseconds it measured: the pipe is never inside a measurement.

use crate::config::{Config, Settings};
use crate::engine::tracked::DigestedInput;
use crate::error::Error;
use crate::time::Calibration;
use serde::{Deserialize, Serialize};

/// What the parent asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// Time with what `config` says (its timer): the first request, once.
    Configure {
        /// The run's configuration, as the parent resolved it.
        config: Config,
    },
    /// Every tracked function's name, place and settings: no user code
    /// runs for it.
    List,
    /// Collect `function`'s inputs (call its inputs function), once.
    Open {
        /// The tracked function's name.
        function: String,
    },
    /// Call `function` twice on every input (opening it first if it is
    /// not yet), once: the digests of its inputs and outputs.
    Digest {
        /// The tracked function's name.
        function: String,
    },
    /// Time `batch` calls of `function` on its input `input` (opening it
    /// and digesting its inputs first where that was not done yet).
    Time {
        /// The tracked function's name.
        function: String,
        /// The input's index.
        input: usize,
        /// How many calls.
        batch: u64,
    },
    /// End the process.
    Quit,
}

/// What the child answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// The answer to [`Request::Configure`].
    Configured,
    /// The answer to [`Request::List`].
    Listing(Listing),
    /// The answer to [`Request::Open`]: how many inputs it has.
    Opened(usize),
    /// The answer to [`Request::Digest`].
    Digested(Digested),
    /// The answer to [`Request::Time`]: the batch's nanoseconds.
    Nanos(f64),
    /// The request could not be served: user code panicked (the error as
    /// it is), an unknown function or input, an unreadable request
    /// ([`Error::Revision`]).
    Failed(Error),
}

/// A child's tracked functions and the timer it measures with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Listing {
    /// The timer's name.
    pub timer: String,
    /// Why the timer asked for was not usable, if it was not.
    pub timer_fallback: Option<String>,
    /// The timer's calibration in the child.
    pub calibration: CalibrationDoc,
    /// Every tracked function registered in the child, by name.
    pub functions: Vec<FunctionListing>,
}

/// One tracked function's inputs, digested: what [`Request::Digest`]
/// answers, which the parent puts in its [`FunctionListing`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Digested {
    /// Each input, in order.
    pub inputs: Vec<DigestedInput>,
    /// See [`FunctionListing::timed_loop`].
    pub timed_loop: Option<i64>,
}

/// [`Calibration`] as it crosses the pipe.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CalibrationDoc {
    /// See [`Calibration::reading_cost_ns`].
    pub reading_cost_ns: f64,
    /// See [`Calibration::resolution_ns`].
    pub resolution_ns: f64,
    /// See [`Calibration::empty_call_ns`].
    pub empty_call_ns: f64,
}

impl From<Calibration> for CalibrationDoc {
    fn from(calibration: Calibration) -> Self {
        CalibrationDoc {
            reading_cost_ns: calibration.reading_cost_ns,
            resolution_ns: calibration.resolution_ns,
            empty_call_ns: calibration.empty_call_ns,
        }
    }
}

impl From<CalibrationDoc> for Calibration {
    fn from(doc: CalibrationDoc) -> Self {
        Calibration {
            reading_cost_ns: doc.reading_cost_ns,
            resolution_ns: doc.resolution_ns,
            empty_call_ns: doc.empty_call_ns,
        }
    }
}

/// One tracked function as a child serves it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionListing {
    /// Its name, which matches it across revisions.
    pub name: String,
    /// Where its attribute is.
    pub file: String,
    /// The attribute's line.
    pub line: u32,
    /// Whether its crate was built with `debug_assertions`.
    pub debug_build: bool,
    /// The settings its attribute gives (`expect = ...`, `noise_floor =
    /// ...`), each as text by name: one the parent cannot read is an error
    /// naming it, not dropped. Defaults where absent, as below.
    #[serde(default)]
    pub settings: Settings,
    /// Each input, in order, once its inputs are digested and the inputs
    /// function and every call succeeded; empty in the child's listing,
    /// which runs no user code (the parent fills it in from
    /// [`Response::Digested`]).
    #[serde(default)]
    pub inputs: Vec<DigestedInput>,
    /// Why it cannot be served (its inputs function or a call panicked,
    /// no inputs, it did not answer), once digesting its inputs failed.
    #[serde(default)]
    pub error: Option<Error>,
    /// The digest of its own source (`Tracked::source_digest`).
    pub source_digest: u64,
    /// Where its timed loop is in the child's executable, as an offset
    /// from the program's entry point (see `machine_code`); `None` where
    /// the platform cannot tell, or until its inputs are digested.
    #[serde(default)]
    pub timed_loop: Option<i64>,
}

/// Listings made by hand, for the tests of what reads them.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A listing of `functions` from a child timing on a simulated clock.
    pub(crate) fn listing(functions: Vec<FunctionListing>) -> Listing {
        Listing {
            timer: "simulated".into(),
            timer_fallback: None,
            calibration: CalibrationDoc {
                reading_cost_ns: 20.0,
                resolution_ns: 1.0,
                empty_call_ns: 0.0,
            },
            functions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::wire;

    /// A listing of one function whose attribute expects `not_slower`.
    fn a_listing() -> Response {
        Response::Listing(Listing {
            timer: "monotonic clock".into(),
            timer_fallback: None,
            calibration: CalibrationDoc {
                reading_cost_ns: 21.5,
                resolution_ns: 1.0,
                empty_call_ns: 0.3,
            },
            functions: vec![FunctionListing {
                name: "demo::parse".into(),
                file: "src/lib.rs".into(),
                line: 12,
                debug_build: false,
                settings: Settings {
                    expect: Some(crate::stats::verdict::Expect::NotSlower),
                    max_time: Some(std::time::Duration::from_millis(500)),
                    ..Settings::NONE
                },
                inputs: vec![DigestedInput {
                    input_digest: Some(u64::MAX),
                    input_shown: "\"a,b\"".into(),
                    output_digest: None,
                    output_shown: "[1.5]".into(),
                    output_varies: true,
                    max_batch: 1 << 20,
                }],
                error: None,
                source_digest: 0x1234_5678_9abc_def0,
                timed_loop: Some(-4_096),
            }],
        })
    }

    #[test]
    fn requests_and_responses_read_back_as_written() {
        let time = Request::Time {
            function: "demo::parse".into(),
            input: 2,
            batch: 4_096,
        };
        let line = serde_json::to_string(&time).unwrap();
        assert_eq!(
            line,
            r#"{"op":"time","function":"demo::parse","input":2,"batch":4096}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), time);
        assert_eq!(
            serde_json::from_str::<Request>(r#"{"op":"quit"}"#).unwrap(),
            Request::Quit
        );
        let digest = Request::Digest {
            function: "demo::parse".into(),
        };
        let line = serde_json::to_string(&digest).unwrap();
        assert_eq!(line, r#"{"op":"digest","function":"demo::parse"}"#);
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), digest);
        assert_eq!(
            serde_json::from_str::<Request>(r#"{"op":"open","function":"demo::parse"}"#).unwrap(),
            Request::Open {
                function: "demo::parse".into()
            }
        );

        let configure = Request::Configure {
            config: Config {
                timer: crate::options::TimerKind::ThreadCpu,
                ..Config::default()
            },
        };
        let line = wire::encode(&configure);
        assert!(line.contains(r#"{"op":"configure","config":{"#), "{line}");
        assert_eq!(wire::decode(&line), Some(Ok(configure)));

        let listing = a_listing();
        let Response::Listing(Listing { functions, .. }) = &listing else {
            unreachable!()
        };
        let digested = Response::Digested(Digested {
            inputs: functions[0].inputs.clone(),
            timed_loop: Some(-4_096),
        });
        for response in [
            listing,
            Response::Opened(3),
            digested,
            Response::Nanos(81_234.5),
            Response::Failed(Error::NoInputs),
            Response::Configured,
        ] {
            let line = wire::encode(&response);
            assert_eq!(wire::decode(&line), Some(Ok(response)));
        }
    }

    #[test]
    fn an_attribute_setting_this_side_cannot_read_fails_the_listing_naming_it() {
        let line = wire::encode(&a_listing());
        assert!(line.contains(r#""settings":{"expect":"not_slower","max_time":"500ms"}"#));
        let error = wire::decode::<Response>(&line.replace("not_slower", "sometimes"))
            .unwrap()
            .unwrap_err();
        assert!(
            error.contains("`expect = sometimes`: `sometimes` is not a choice"),
            "{error}"
        );
    }
}
