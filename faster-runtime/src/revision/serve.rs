//! The child's side of a comparison across revisions: serve this binary's
//! tracked functions ([`Tracked`]) to the parent, one request at a time,
//! until it says `quit` or closes the pipe.
//!
//! Every function is opened (its inputs collected) and probed (called twice
//! per input) once, before the first answer; a function that cannot be is
//! listed with its error, and the others are served. A panic while timing
//! is answered as a failure, and the child goes on serving.

use super::machine_code;
use super::protocol::{FunctionListing, Listing, PROTOCOL, Request, Response};
use crate::config::{Config, Settings};
use crate::engine::tracked::Served;
use crate::error::Error;
use crate::process;
use crate::registry::Tracked;
use crate::time::{Clock, Timer, calibrate};
use std::io::{self, BufRead, Write};

/// Serves `tracked` on `requests` and `responses`, timing with the timer
/// `settings` choose. Returns when the parent quits or closes the pipe;
/// fails only when the pipe does.
pub fn serve(
    tracked: &[&Tracked],
    settings: &Settings,
    requests: impl BufRead,
    responses: impl Write,
) -> io::Result<()> {
    let config = Config::default().with(settings);
    let (timer, timer_fallback) = Timer::select(config.timer);
    let mut functions: Vec<(String, Option<Box<dyn Served>>)> = Vec::new();
    let mut listed = Vec::new();
    for function in tracked {
        let (served, listing) = open(function);
        functions.push((function.name.to_string(), served));
        listed.push(listing);
    }
    let listing = Listing {
        protocol: PROTOCOL,
        timer: timer.name().to_string(),
        timer_fallback,
        calibration: calibrate(&timer).into(),
        functions: listed,
    };

    process::serve(requests, responses, |request| {
        Some(match request {
            Ok(Request::Quit) => return None,
            Ok(Request::List) => Response::Listing(listing.clone()),
            Ok(Request::Time {
                function,
                input,
                batch,
            }) => match functions.iter_mut().find(|(name, _)| *name == function) {
                Some((_, Some(served))) => match served.time_batch(&timer, input, batch) {
                    Ok(nanos) => Response::Nanos(nanos),
                    Err(error) => Response::Failed(error.to_string()),
                },
                Some((_, None)) => Response::Failed(format!("`{function}` cannot be served")),
                None => Response::Failed(format!("no tracked function is named `{function}`")),
            },
            Err(why) => Response::Failed(format!("an unreadable request: {why}")),
        })
    })
}

/// `function` opened and probed, with its listing (its error in the listing
/// when it cannot be served).
fn open(function: &Tracked) -> (Option<Box<dyn Served>>, FunctionListing) {
    let mut listing = FunctionListing {
        name: function.name.to_string(),
        file: function.file.to_string(),
        line: function.line,
        debug_build: function.debug_build,
        settings: function.settings,
        inputs: Vec::new(),
        error: None,
        source_digest: function.source_digest,
        timed_loop: None,
    };
    let probed = (function.open)().and_then(|mut served| {
        if served.input_count() == 0 {
            return Err(Error::NoInputs);
        }
        let probes = served.probe()?;
        Ok((served, probes))
    });
    match probed {
        Ok((served, probes)) => {
            listing.inputs = probes;
            listing.timed_loop = machine_code::from_entry(served.timed_loop());
            (Some(served), listing)
        }
        Err(error) => {
            listing.error = Some(error.to_string());
            (None, listing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::{collect_inputs, track_by_ref};
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

    /// Serves `requests` (one per line) and returns the responses.
    fn session(tracked: &[&Tracked], requests: &[&str]) -> Vec<Response> {
        let mut out = Vec::new();
        let framed: Vec<String> = requests
            .iter()
            .map(|json| format!("faster-frame/{} {json}", process::wire::VERSION))
            .collect();
        serve(
            tracked,
            &Settings::NONE,
            framed.join("\n").as_bytes(),
            &mut out,
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter_map(process::wire::decode)
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn the_listing_names_every_function_with_its_settings_digests_and_errors() {
        // Input 1 panics: the function is listed with the error; the other
        // function is listed with its error too, and neither stops the child.
        let [Response::Listing(listing)] = &session(&[&BROKEN, &DOUBLE], &[r#"{"op":"list"}"#])[..]
        else {
            panic!("one listing expected");
        };
        assert_eq!(listing.protocol, PROTOCOL);
        assert!(listing.calibration.reading_cost_ns > 0.0);
        let [broken, double] = &listing.functions[..] else {
            panic!("{listing:?}");
        };
        assert_eq!(broken.name, "demo::broken");
        assert!(
            broken.error.as_deref().unwrap().contains("no inputs today"),
            "{broken:?}"
        );
        assert_eq!(double.settings, DOUBLE.settings);
        assert!(
            double
                .error
                .as_deref()
                .unwrap()
                .contains("panicked on input 1: zero"),
            "{double:?}"
        );
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
                r#"{"op":"list"}"#,
                r#"{"op":"time","function":"demo::healthy","input":1,"batch":1000}"#,
                r#"{"op":"time","function":"demo::missing","input":0,"batch":1}"#,
                r#"{"op":"time","function":"demo::healthy","input":9,"batch":1}"#,
                "not json",
                r#"{"op":"quit"}"#,
                r#"{"op":"list"}"#,
            ],
        );
        assert_eq!(responses.len(), 5, "{responses:?}");
        let Response::Listing(listing) = &responses[0] else {
            panic!("{responses:?}");
        };
        let inputs = &listing.functions[0].inputs;
        assert_eq!(inputs[1].input_digest, Some(5));
        assert_eq!(inputs[1].output_digest, Some(10));
        assert_eq!(inputs[1].output_shown, "10");
        assert!(matches!(responses[1], Response::Nanos(nanos) if nanos > 0.0));
        let failures: Vec<&str> = responses[2..]
            .iter()
            .map(|response| match response {
                Response::Failed(message) => message.as_str(),
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
