//! The parent's side of the pipe: a process serving one revision's tracked
//! functions ([`Server`]), started from a test binary of that revision
//! ([`ServerCommand`]), asked one [`Request`] at a time and waited for with
//! a time limit (both through `crate::process`). [`Endpoint`] is what the
//! comparison needs of it, so tests can serve from this process instead.

use super::protocol::{Request, Response};
use crate::process::{self, Role};
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
    /// The command line, environment and directory that start it serving,
    /// with `environment` (the run's `FASTER_*` settings) besides.
    fn command(&self, environment: &[(String, String)]) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args([
                self.test.as_str(),
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .current_dir(&self.directory)
            // What `cargo test` sets for a test binary at run time.
            .env("CARGO_MANIFEST_DIR", &self.directory)
            .env(
                process::SERVE_VARIABLE,
                Role::ServeTracked.serve_value().unwrap_or_default(),
            )
            .envs(environment.iter().map(|(name, value)| (name, value)));
        command
    }
}

/// A running child serving one revision.
pub struct Server(process::Server);

impl Server {
    /// Starts `command` (named `name` in errors, e.g. `the base revision`)
    /// as a child of slot `slot` (held to that slot's CPU: see
    /// [`process::cpu`]), answering each request within `timeout`.
    pub fn start(
        name: &str,
        (command, slot): (&ServerCommand, u32),
        environment: &[(String, String)],
        timeout: Duration,
    ) -> Result<Server, String> {
        let mut command = command.command(environment);
        process::cpu::hold(&mut command, slot);
        process::Server::start(name, command, timeout).map(Server)
    }
}

impl Endpoint for Server {
    fn request(&mut self, request: &Request) -> Result<Response, String> {
        self.0.request(request)
    }
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

    #[test]
    fn a_test_binary_serves_its_tracked_functions() {
        let command = this_binary("revision::child::tests::faster_track_square");
        let mut server =
            Server::start("this binary", (&command, 1), &[], Duration::from_secs(60)).unwrap();
        let Response::Listing(listing) = server.request(&Request::List).unwrap() else {
            panic!("no listing");
        };
        let square = listing
            .functions
            .iter()
            .find(|function| function.name == SERVED.name)
            .expect("the binary's tracked function is listed");
        assert_eq!(square.inputs[1].output_shown, "16");
        let time = Request::Time {
            function: SERVED.name.into(),
            input: 1,
            batch: 100,
        };
        assert!(matches!(server.request(&time), Ok(Response::Nanos(nanos)) if nanos > 0.0));
    }

    #[test]
    fn a_child_that_ends_or_hangs_is_an_error_with_its_last_output() {
        let command = this_binary("no_such_test");
        let mut server = Server::start(
            "the base revision",
            (&command, 1),
            &[],
            Duration::from_secs(60),
        )
        .unwrap();
        let error = server.request(&Request::List).unwrap_err();
        assert!(
            error.starts_with("the process serving the base revision ended"),
            "{error}"
        );
        assert!(error.contains("running 0 tests"), "{error}");
        assert!(
            server
                .request(&Request::List)
                .unwrap_err()
                .contains("has ended")
        );

        // A batch of 2^40 calls takes many minutes: the child is stopped.
        let command = this_binary("revision::child::tests::faster_track_square");
        let mut server = Server::start(
            "the current code",
            (&command, 1),
            &[],
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
    }
}
