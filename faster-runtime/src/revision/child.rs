//! The parent's side of the pipe: a process serving one revision's tracked
//! functions ([`Server`]), started from a test binary of that revision
//! ([`ServerCommand`]), configured with the run's configuration, asked one
//! [`Request`] at a time and waited for with a time limit (both through
//! `crate::process`), and started again, configured again, when it stops
//! answering. [`Endpoint`] is what the comparison needs of it, so
//! tests can serve from this process instead. [`digest_listed`] opens the
//! functions a run measures and digests their inputs, one request each, so
//! that one that never returns fails alone, named.

use super::protocol::{FunctionListing, Listing, Request, Response};
use crate::config::Config;
use crate::error::Error;
use crate::process::{self, Role, command};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Something that answers requests about one revision's tracked functions.
pub trait Endpoint {
    /// Sends `request` and waits for its response.
    fn request(&mut self, request: &Request) -> Result<Response, String>;
}

/// How to start a test binary that serves its tracked functions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCommand {
    /// The test binary.
    pub program: PathBuf,
    /// The name of one of its generated `faster_track_*` tests: the one
    /// libtest runs (`NAME --exact`), which serves them all.
    pub test: String,
    /// The package's directory, where `cargo test` would run it.
    pub directory: PathBuf,
}

impl ServerCommand {
    /// The command line, environment and directory that start it serving.
    fn command(&self) -> Command {
        let mut serving = command::child(&self.program, Some(&Role::ServeTracked));
        serving
            .args(command::one_test(&self.test))
            .current_dir(&self.directory)
            // What `cargo test` sets for a test binary at run time.
            .env("CARGO_MANIFEST_DIR", &self.directory);
        serving
    }
}

/// A running child serving one revision, with how it was started, to
/// start it again.
pub struct Server {
    process: process::Server,
    name: String,
    command: ServerCommand,
    slot: u32,
    config: Config,
    timeout: Duration,
}

impl Server {
    /// Starts `command` (named `name` in errors, e.g. `the base revision`)
    /// as a child of slot `slot` (held to that slot's CPU: see
    /// [`process::cpu`]), configured with `config` (the run's, as the
    /// parent resolved it), answering each request within `timeout`.
    pub fn start(
        name: &str,
        (command, slot): (&ServerCommand, u32),
        config: &Config,
        timeout: Duration,
    ) -> Result<Server, String> {
        let mut started = command.command();
        process::cpu::hold(&mut started, slot);
        let mut process = process::Server::start(name, started, timeout)?;
        let configure = Request::Configure {
            config: config.clone(),
        };
        match process.request(&configure)? {
            Response::Configured => {}
            other => {
                return Err(format!(
                    "the process serving {name} answered its configuration with {other:?}"
                ));
            }
        }
        Ok(Server {
            process,
            name: name.to_string(),
            command: command.clone(),
            slot,
            config: config.clone(),
            timeout,
        })
    }

    /// Whether the child has stopped serving: it ended, or was stopped for
    /// not answering in time. It answers nothing more.
    pub fn has_ended(&mut self) -> bool {
        self.process.has_ended()
    }

    /// Replaces the child with a fresh one started as it was, which has
    /// opened none of its functions yet.
    pub fn restart(&mut self) -> Result<(), String> {
        let fresh = Server::start(
            &self.name,
            (&self.command, self.slot),
            &self.config,
            self.timeout,
        )?;
        *self = fresh;
        Ok(())
    }
}

impl Endpoint for Server {
    fn request(&mut self, request: &Request) -> Result<Response, String> {
        self.process.request(request)
    }
}

/// Opens and digests the inputs of, through `servers` (one per test binary
/// of a revision, `listings` theirs in the same order), each function
/// `wanted` names by its server's index and its name, in that order, and
/// fills in its listing: its inputs and timed loop, or its error. One
/// request opens it and one digests its inputs, so that where a child stops
/// answering (a function that never returns, or ends the process) the error
/// says what it was doing; that function gets the error, naming it, and the
/// child is started again for the next. Fails only when a child cannot be
/// started again.
pub fn digest_listed(
    servers: &mut [Server],
    listings: &mut [Listing],
    wanted: &[(usize, impl AsRef<str>)],
) -> Result<(), String> {
    for (server_index, name) in wanted {
        let (server_index, name) = (*server_index, name.as_ref());
        let (Some(server), Some(listing)) = (
            servers.get_mut(server_index),
            listings.get_mut(server_index),
        ) else {
            continue;
        };
        let Some(function) = listing
            .functions
            .iter_mut()
            .find(|function| function.name == name)
        else {
            continue;
        };
        if !digest_one(server, function) {
            server.restart().map_err(|why| {
                format!("`{name}` stopped its child, which could not be started again: {why}")
            })?;
        }
    }
    Ok(())
}

/// Opens `function` and digests its inputs through `server`, filling in
/// its listing; whether the child still serves afterwards.
fn digest_one(server: &mut Server, function: &mut FunctionListing) -> bool {
    let name = function.name.clone();
    let opened = server.request(&Request::Open {
        function: name.clone(),
    });
    let answered = match opened {
        Ok(Response::Opened(_)) => server
            .request(&Request::Digest {
                function: name.clone(),
            })
            .map_err(|why| (why, "its outputs were checked on its inputs")),
        other => other.map_err(|why| (why, "its inputs were collected")),
    };
    match answered {
        Ok(Response::Digested(digested)) => {
            function.inputs = digested.inputs;
            function.timed_loop = digested.timed_loop;
            true
        }
        Ok(Response::Failed(error)) => {
            function.error = Some(error);
            true
        }
        Ok(other) => {
            function.error = Some(Error::Revision(format!(
                "its child answered the request for its inputs' digests with {other:?}"
            )));
            true
        }
        Err((why, doing)) => {
            function.error = Some(Error::Revision(stopped_answering(&name, doing, &why)));
            !server.has_ended()
        }
    }
}

/// The error of a function whose child stopped answering (`why`) while it
/// was `doing` something: the function first, since the child's last
/// output names only the test that started it, which serves them all.
pub fn stopped_answering(function: &str, doing: &str, why: &str) -> String {
    format!("`{function}` stopped answering while {doing}: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::track_by_ref;
    use crate::config::Settings;
    use crate::engine::tracked::fixtures::described;
    use crate::harness::run_tracked_test;
    use crate::registry::Tracked;

    fn square_or_panic(n: &u64) -> u64 {
        assert!(*n < 100, "too big: {n}");
        std::hint::black_box(n * n)
    }

    /// This test binary's own tracked function, served by a child of it.
    const SERVED: Tracked = Tracked {
        name: "faster_runtime::revision::child::square",
        test: "faster_runtime::revision::child::tests::faster_track_square",
        file: file!(),
        line: line!(),
        settings: Settings::NONE,
        debug_build: false,
        source_digest: 3,
        open: || track_by_ref(vec![3_u64, 4], square_or_panic, described, described),
    };
    inventory::submit! { SERVED }

    fn square_or_hang(n: &u64) -> u64 {
        if *n == 0 {
            loop {
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        std::hint::black_box(n * n)
    }

    /// A tracked function of this binary that never returns on its second
    /// input: every child of this binary serves it beside [`SERVED`], and
    /// only a request about it may wait on it. It has no generated test,
    /// which would hang.
    const HANGS: Tracked = Tracked {
        name: "faster_runtime::revision::child::hangs",
        test: "faster_runtime::revision::child::tests::faster_track_hangs",
        file: file!(),
        line: line!(),
        settings: Settings::NONE,
        debug_build: false,
        source_digest: 4,
        open: || track_by_ref(vec![2_u64, 0], square_or_hang, described, described),
    };
    inventory::submit! { HANGS }

    /// What the attribute would generate: checks the function, or serves
    /// when started to.
    #[test]
    fn faster_track_square() {
        run_tracked_test(&SERVED);
    }

    fn this_binary(test: &str) -> ServerCommand {
        ServerCommand {
            program: std::env::current_exe().unwrap(),
            test: test.into(),
            directory: std::env::current_dir().unwrap(),
        }
    }

    /// A child of this binary, timing out after `timeout`, and its listing.
    fn listed(timeout: Duration) -> (Server, Listing) {
        let command = this_binary("revision::child::tests::faster_track_square");
        let mut server = Server::start(
            "the current code",
            (&command, 1),
            &Config::default(),
            timeout,
        )
        .unwrap();
        let Response::Listing(listing) = server.request(&Request::List).unwrap() else {
            panic!("no listing");
        };
        (server, listing)
    }

    fn function<'a>(listing: &'a Listing, name: &str) -> &'a FunctionListing {
        listing
            .functions
            .iter()
            .find(|function| function.name == name)
            .unwrap_or_else(|| panic!("`{name}` is not listed: {listing:?}"))
    }

    /// A batch of `square` on its second input.
    fn time_square() -> Request {
        Request::Time {
            function: SERVED.name.into(),
            input: 1,
            batch: 100,
        }
    }

    #[test]
    fn a_test_binary_serves_its_tracked_functions() {
        // Listing `square` and digesting its inputs never runs `hangs`,
        // which would not return: what a run whose filter leaves it out does.
        let (server, listing) = listed(Duration::from_secs(60));
        assert!(function(&listing, SERVED.name).inputs.is_empty());
        assert_eq!(function(&listing, HANGS.name).error, None);
        let (mut servers, mut listings) = (vec![server], vec![listing]);
        digest_listed(&mut servers, &mut listings, &[(0, SERVED.name)]).unwrap();
        let square = function(&listings[0], SERVED.name);
        assert_eq!(square.error, None);
        assert_eq!(square.inputs[1].output_shown, "16");
        let server = &mut servers[0];
        assert!(
            matches!(server.request(&time_square()), Ok(Response::Nanos(nanos)) if nanos > 0.0)
        );
        assert!(!server.has_ended());
    }

    #[test]
    fn a_function_that_never_returns_fails_alone_named_and_the_others_are_served() {
        // `hangs` first: its child is stopped, and `square`'s inputs are
        // digested and timed in the one started again.
        let (server, listing) = listed(Duration::from_secs(2));
        let (mut servers, mut listings) = (vec![server], vec![listing]);
        digest_listed(
            &mut servers,
            &mut listings,
            &[(0, HANGS.name), (0, SERVED.name)],
        )
        .unwrap();
        let hangs = function(&listings[0], HANGS.name);
        let error = hangs.error.as_ref().expect("`hangs` failed").to_string();
        assert!(
            error.starts_with(
                "`faster_runtime::revision::child::hangs` stopped answering while its outputs \
                 were checked on its inputs: the process serving the current code did not \
                 answer within 2s"
            ),
            "{error}"
        );
        assert!(hangs.inputs.is_empty());
        let square = function(&listings[0], SERVED.name);
        assert_eq!(square.error, None, "{square:?}");
        assert_eq!(square.inputs[1].output_shown, "16");
        let server = &mut servers[0];
        assert!(!server.has_ended(), "the child was started again");
        assert!(
            matches!(server.request(&time_square()), Ok(Response::Nanos(nanos)) if nanos > 0.0)
        );
    }

    #[test]
    fn a_child_that_ends_or_hangs_is_an_error_with_its_last_output() {
        // A test that does not serve: the child ends before it is
        // configured, and the error says so with what it said.
        let command = this_binary("no_such_test");
        let error = Server::start(
            "the base revision",
            (&command, 1),
            &Config::default(),
            Duration::from_secs(60),
        )
        .err()
        .expect("the child ended");
        assert!(
            error.starts_with("the process serving the base revision ended"),
            "{error}"
        );
        assert!(error.contains("running 0 tests"), "{error}");

        // A batch of 2^40 calls takes many minutes: the child is stopped.
        let command = this_binary("revision::child::tests::faster_track_square");
        let mut server = Server::start(
            "the current code",
            (&command, 1),
            &Config::default(),
            Duration::from_secs(2),
        )
        .unwrap();
        assert!(matches!(
            server.request(&Request::List),
            Ok(Response::Listing(_))
        ));
        let endless = Request::Time {
            function: SERVED.name.into(),
            input: 0,
            batch: 1 << 40,
        };
        let error = server.request(&endless).unwrap_err();
        assert!(
            error.starts_with("the process serving the current code did not answer within 2s"),
            "{error}"
        );
        assert!(server.has_ended());
        server.restart().unwrap();
        assert!(!server.has_ended());
        assert!(matches!(
            server.request(&time_square()),
            Ok(Response::Nanos(_))
        ));
    }
}
