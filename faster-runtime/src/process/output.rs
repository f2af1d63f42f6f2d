//! A child asked one thing and read to its end (a test binary's list of
//! tests): its whole output, within a time limit, after which it is
//! stopped with everything it started, and the error names it.

use super::group::{self, Tie};
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Runs `command` (named `name` in errors, e.g. `` `tests-1a2b --list` ``)
/// with no input, in a process group of its own, and returns its output
/// once its standard output and error close, or an error when that takes
/// longer than `timeout`.
pub fn output(name: &str, mut command: Command, timeout: Duration) -> Result<Output, String> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut owned = group::spawn(&mut command, Tie::ToThisThread)
        .map_err(|error| format!("could not start {name}: {error}"))?;
    // Each pipe read to its end on a thread of its own, which says when it
    // is done by dropping its sender: the wait is on the channel, not a
    // poll, and a child that fills one pipe while the other is read never
    // blocks.
    let (done, closed) = channel::<()>();
    let read = |pipe: Option<Box<dyn Read + Send>>| -> JoinHandle<Vec<u8>> {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            drop(done);
            bytes
        })
    };
    let stdout = read(owned.child.stdout.take().map(|pipe| Box::new(pipe) as _));
    let stderr = read(owned.child.stderr.take().map(|pipe| Box::new(pipe) as _));
    drop(done);
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match closed.recv_timeout(left) {
            Ok(()) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                owned.stop();
                let _ = owned.child.wait();
                // Not joined: a process that left the group may still hold
                // a pipe, and the error is the answer either way.
                return Err(format!(
                    "{name} did not finish within {timeout:?}: it was stopped"
                ));
            }
        }
    }
    let status = owned
        .child
        .wait()
        .map_err(|error| format!("{name} could not be waited for: {error}"))?;
    let joined = |reader: JoinHandle<Vec<u8>>| reader.join().unwrap_or_default();
    Ok(Output {
        status,
        stdout: joined(stdout),
        stderr: joined(stderr),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_child_that_ends_in_time_hands_back_its_whole_output_and_status() {
        let output = output(
            "`a script`",
            shell("echo listed; echo warned >&2; exit 3"),
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(output.stdout, b"listed\n");
        assert_eq!(output.stderr, b"warned\n");
        assert_eq!(output.status.code(), Some(3));
    }

    #[test]
    fn a_child_that_overruns_is_stopped_with_what_it_started_and_named() {
        // The `sleep` is the shell's child, holding the pipes: only stopping
        // the whole group closes them.
        let started = Instant::now();
        let error = output(
            "`hangs --list`",
            shell("echo partly; sleep 30; echo never"),
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert_eq!(
            error,
            "`hangs --list` did not finish within 300ms: it was stopped"
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );
    }
}
