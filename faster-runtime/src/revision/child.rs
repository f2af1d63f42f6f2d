//! The parent's side of the pipe: a process serving one revision's tracked
//! functions ([`Server`]), started from a test binary of that revision
//! ([`ServerCommand`]), asked one [`Request`] at a time and waited for with
//! a time limit. [`Endpoint`] is what the comparison needs of it, so tests
//! can serve from this process instead.

use super::protocol::{self, Request, Response, SERVE_VARIABLE};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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
            .env(SERVE_VARIABLE, "1")
            .envs(environment.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }
}

/// A running child serving one revision.
pub struct Server {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    responses: Receiver<Result<Response, String>>,
    /// The last lines the child wrote that were not responses, for errors.
    other_output: Arc<Mutex<Vec<String>>>,
    readers: Vec<JoinHandle<()>>,
    timeout: Duration,
}

/// Lines of other output kept for an error message.
const KEPT_LINES: usize = 12;

impl Server {
    /// Starts `command` (named `name` in errors, e.g. `the base revision`),
    /// answering each request within `timeout`.
    pub fn start(
        name: &str,
        command: &ServerCommand,
        environment: &[(String, String)],
        timeout: Duration,
    ) -> Result<Server, String> {
        let mut child = command
            .command(environment)
            .spawn()
            .map_err(|error| format!("could not start {}: {error}", command.program.display()))?;
        let other_output = Arc::new(Mutex::new(Vec::new()));
        let (sender, responses) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let kept = Arc::clone(&other_output);
        let stdout_reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                match protocol::decode(&line) {
                    Some(response) => {
                        if sender.send(response).is_err() {
                            break;
                        }
                    }
                    None => keep(&kept, line),
                }
            }
        });
        let kept = Arc::clone(&other_output);
        let stderr_reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = BufReader::new(stderr).read_to_string(&mut text);
            for line in text.lines() {
                keep(&kept, line.to_string());
            }
        });
        Ok(Server {
            name: name.to_string(),
            stdin: child.stdin.take(),
            child,
            responses,
            other_output,
            readers: vec![stdout_reader, stderr_reader],
            timeout,
        })
    }

    /// Why the child stopped answering: its exit status and last output.
    fn ended(&mut self, what: &str) -> String {
        let _ = self.child.kill();
        let status = self.child.wait().map_or_else(
            |error| format!("could not be waited for ({error})"),
            |status| status.to_string(),
        );
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        let output = self.other_output.lock().map(|lines| lines.join("\n"));
        format!(
            "the process serving {} {what} ({status}); its last output:\n{}",
            self.name,
            output.unwrap_or_default()
        )
    }
}

fn keep(kept: &Mutex<Vec<String>>, line: String) {
    if line.trim().is_empty() {
        return;
    }
    if let Ok(mut lines) = kept.lock() {
        lines.push(line);
        let excess = lines.len().saturating_sub(KEPT_LINES);
        lines.drain(..excess);
    }
}

impl Endpoint for Server {
    fn request(&mut self, request: &Request) -> Result<Response, String> {
        let Some(stdin) = &mut self.stdin else {
            return Err(format!("the process serving {} has ended", self.name));
        };
        let line = serde_json::to_string(request).expect("a request of plain data serializes");
        if writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_err()
        {
            self.stdin = None;
            return Err(self.ended("ended"));
        }
        match self.responses.recv_timeout(self.timeout) {
            Ok(response) => response,
            Err(RecvTimeoutError::Timeout) => {
                self.stdin = None;
                Err(self.ended(&format!("did not answer within {:?}", self.timeout)))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.stdin = None;
                Err(self.ended("ended"))
            }
        }
    }
}

impl Drop for Server {
    /// Asks the child to quit, and stops it if it does not within a second.
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let line = serde_json::to_string(&Request::Quit).expect("a request serializes");
            let _ = writeln!(stdin, "{line}");
        }
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
            Server::start("this binary", &command, &[], Duration::from_secs(60)).unwrap();
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
        let mut server =
            Server::start("the base revision", &command, &[], Duration::from_secs(60)).unwrap();
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
        let mut server =
            Server::start("the current code", &command, &[], Duration::from_secs(2)).unwrap();
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
