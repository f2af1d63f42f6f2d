//! The parent's side of a child process: started with its standard streams
//! piped, in a process group of its own and with a [lifeline](super::lifeline)
//! (so it ends with this process, however this process ends), sent
//! [frames](super::wire), waited for with a time limit (on a channel, not by
//! polling), and stopped with everything it started when it overruns, ends,
//! or is dropped.

use super::group::{self, Owned, Tie};
use super::{lifeline, wire};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::{BufRead, BufReader, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A running child that answers frames with frames.
pub struct Server {
    /// What it serves, for errors (`the process serving the base revision`).
    name: String,
    /// The program it runs, for errors: a crash of one `cargo faster`
    /// keeps may be its damage (see [`kept_file_crashed`]).
    program: PathBuf,
    child: Owned,
    stdin: Option<ChildStdin>,
    /// Its frames, as lines, in the order it wrote them.
    frames: Receiver<String>,
    /// The last lines it wrote that were not frames, for errors.
    other_output: Arc<Mutex<Vec<String>>>,
    /// Whether it has been sent a request: what it said before the first
    /// (starting up) is the first's to quote.
    asked: bool,
    readers: Vec<JoinHandle<()>>,
    /// How long one answer may take.
    timeout: Duration,
}

/// Lines of other output kept for an error message.
const KEPT_LINES: usize = 12;

/// How long a dropped child has to end by itself once its input is closed.
const GRACE: Duration = Duration::from_secs(1);

impl Server {
    /// Starts `command` (made by [`command::child`](super::command::child),
    /// its arguments and directory set by the caller), named `name` in
    /// errors, each answer awaited for up to `timeout`.
    pub fn start(name: &str, mut command: Command, timeout: Duration) -> Result<Server, String> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        lifeline::attach(&mut command);
        // Not tied to this thread: a server outlives the thread that starts
        // it (one of libtest's), and ends by its lifeline instead.
        let mut owned = group::spawn(&mut command, Tie::ByItself).map_err(|error| {
            format!(
                "could not start {}: {error}",
                command.get_program().to_string_lossy()
            )
        })?;
        let child = &mut owned.child;
        let other_output = Arc::new(Mutex::new(Vec::new()));
        let (sender, frames) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let kept = Arc::clone(&other_output);
        let stdout_reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if wire::decode::<serde::de::IgnoredAny>(&line).is_some() {
                    if sender.send(line).is_err() {
                        break;
                    }
                } else {
                    keep(&kept, line);
                }
            }
        });
        let kept = Arc::clone(&other_output);
        // Line by line: a server lives for the whole run, and what it says
        // on stderr (a panic's message) must not pile up.
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                keep(&kept, line);
            }
        });
        Ok(Server {
            name: name.to_string(),
            program: PathBuf::from(command.get_program()),
            stdin: child.stdin.take(),
            child: owned,
            frames,
            other_output,
            asked: false,
            readers: vec![stdout_reader, stderr_reader],
            timeout,
        })
    }

    /// How long each answer from now on may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Whether the child has ended, or was stopped for not answering in
    /// time or for closing its pipe: it answers nothing more.
    pub fn has_ended(&mut self) -> bool {
        self.stdin.is_none() || !matches!(self.child.child.try_wait(), Ok(None))
    }

    /// Sends `request` and waits for its answer.
    pub fn request<Q: Serialize, A: DeserializeOwned>(&mut self, request: &Q) -> Result<A, String> {
        let Some(stdin) = &mut self.stdin else {
            return Err(format!("the process serving {} has ended", self.name));
        };
        // An error quotes what the child said answering this request, not
        // what it said for an earlier one (another test's function). Before
        // the first there was none: what it said starting up (a panic, a
        // test runner's lines) stays, however soon its readers read it.
        if self.asked {
            if let Ok(mut kept) = self.other_output.lock() {
                kept.clear();
            }
        }
        self.asked = true;
        if writeln!(stdin, "{}", wire::encode(request))
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return Err(self.ended("ended"));
        }
        self.receive()
    }

    /// Waits for the next frame the child writes, unasked (a child started
    /// to do one thing says its result once).
    pub fn receive<A: DeserializeOwned>(&mut self) -> Result<A, String> {
        if self.stdin.is_none() && self.readers.is_empty() {
            return Err(format!("the process serving {} has ended", self.name));
        }
        match self.frames.recv_timeout(self.timeout) {
            Ok(line) => wire::decode(&line)
                .expect("the reader passes frames only")
                .map_err(|why| format!("the process serving {}: {why}", self.name)),
            Err(RecvTimeoutError::Timeout) => Err(self.overran()),
            Err(RecvTimeoutError::Disconnected) => Err(self.ended("ended")),
        }
    }

    /// Stops the child for not answering in time, and says so with its last
    /// output (not the SIGKILL it ended by, which was this process's).
    fn overran(&mut self) -> String {
        self.stdin = None;
        self.stop();
        let _ = self.child.child.wait();
        let output = self.last_output();
        format!(
            "the process serving {} did not answer within {:?}: it was stopped; its last \
             output:\n{output}",
            self.name, self.timeout,
        )
    }

    /// Its last lines that were not frames, once its readers are done.
    fn last_output(&mut self) -> String {
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
        let output = self.other_output.lock().map(|lines| lines.join("\n"));
        output.unwrap_or_default()
    }

    /// Stops the child and says why it stopped answering: its exit status
    /// and last output.
    fn ended(&mut self, what: &str) -> String {
        self.stdin = None;
        self.stop();
        let waited = self.child.child.wait();
        let status = waited.as_ref().map_or_else(
            |error| format!("could not be waited for ({error})"),
            ToString::to_string,
        );
        let hint = waited
            .ok()
            .and_then(|status| kept_file_crashed(&self.program, status))
            .map(|hint| format!("\n{hint}"))
            .unwrap_or_default();
        let output = self.last_output();
        format!(
            "the process serving {} {what}: it exited with {status}; its last output:\n\
             {output}{hint}",
            self.name,
        )
    }

    /// Kills the child and its process group.
    fn stop(&mut self) {
        self.child.stop();
    }
}

/// What to say where `program` crashed (`status`: a segmentation fault,
/// a bus error, an illegal instruction) and is a file `cargo faster` made
/// and keeps across runs — a layout (in a binary's `.layouts/` folder) or a
/// cached base binary (under `faster/base/`): one damaged there with its
/// size and time kept crashes every function run in it, run after run,
/// which its records cannot all tell (a layout's digest can, and it is made
/// again; see `crate::layout`). `None` for any other program or ending.
fn kept_file_crashed(program: &Path, status: ExitStatus) -> Option<String> {
    if !crashed(status) {
        return None;
    }
    let names: Vec<&std::ffi::OsStr> = program
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    let layout = names
        .iter()
        .any(|name| name.to_string_lossy().ends_with(".layouts"));
    let cached = names
        .windows(2)
        .any(|pair| pair[0] == "faster" && pair[1] == "base");
    (layout || cached).then(|| {
        format!(
            "it ran {}, which cargo faster made in an earlier run and keeps: if every function \
             fails like this, its cache may be damaged; `cargo faster clean` removes it, and the \
             next run builds and relinks what it needs again",
            program.display()
        )
    })
}

/// Whether `status` is a crash: a segmentation fault, a bus error or an
/// illegal instruction.
#[cfg(unix)]
fn crashed(status: ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let crash = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL];
    status
        .signal()
        .is_some_and(|signal| crash.contains(&signal))
}

/// Whether `status` is a crash: not told apart here.
#[cfg(not(unix))]
fn crashed(_: ExitStatus) -> bool {
    false
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

impl Drop for Server {
    /// Closes the child's input, which ends a serving child, and stops it
    /// if its output has not closed within a second.
    fn drop(&mut self) {
        self.stdin = None;
        let deadline = std::time::Instant::now() + GRACE;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.frames.recv_timeout(left) {
                Ok(_) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    break;
                }
            }
        }
        let _ = self.child.child.wait();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn an_error_quotes_only_what_the_child_said_since_it_was_asked() {
        let answer = wire::encode(&1_u32);
        let script = format!(
            "read line; echo 'said for the first'; echo '{answer}'; \
             read line; echo 'said for the second' >&2; sleep 30"
        );
        let mut command = Command::new("sh");
        command.args(["-c", &script]);
        let mut server = Server::start("the test", command, Duration::from_secs(5)).unwrap();
        assert_eq!(server.request::<u32, u32>(&0), Ok(1));
        let error = server.request::<u32, u32>(&0).unwrap_err();
        assert!(
            error.starts_with(
                "the process serving the test did not answer within 5s: it was stopped;"
            ) && error.ends_with("its last output:\nsaid for the second"),
            "{error}"
        );
    }

    #[test]
    fn an_error_at_the_first_request_quotes_what_the_child_said_starting_up() {
        let mut command = Command::new("sh");
        command.args(["-c", "echo 'said starting up' >&2; read line; exit 3"]);
        let mut server = Server::start("the test", command, Duration::from_secs(60)).unwrap();
        // Asked only once its reader has kept the line, as a loaded machine
        // orders it (a child that ran ahead of its parent).
        let said = || server.other_output.lock().unwrap().len() == 1;
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while !said() {
            assert!(
                std::time::Instant::now() < deadline,
                "the child said nothing"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let error = server.request::<u32, u32>(&0).unwrap_err();
        assert!(
            error.starts_with("the process serving the test ended: it exited with exit status: 3")
                && error.ends_with("its last output:\nsaid starting up"),
            "{error}"
        );
    }

    #[test]
    fn a_crash_of_a_kept_layout_says_the_cache_may_be_damaged_and_how_to_heal_it() {
        let temp = tempfile::tempdir().unwrap();
        let layouts = temp
            .path()
            .join("target/faster/build/release/deps/demo-1a2b.layouts");
        std::fs::create_dir_all(&layouts).unwrap();
        // A layout that crashes as a damaged one does: a shell, linked (not
        // written, so no other test's fork can hold it open for writing),
        // which kills itself with SIGSEGV.
        let layout = layouts.join("layout-1");
        std::os::unix::fs::symlink("/bin/sh", &layout).unwrap();
        let mut command = Command::new(&layout);
        command.args(["-c", "kill -SEGV $$"]);
        let mut server = Server::start("demo", command, Duration::from_secs(30)).unwrap();
        let error = server.receive::<u32>().unwrap_err();
        assert!(error.contains("SIGSEGV"), "{error}");
        assert!(
            error.ends_with(&format!(
                "it ran {}, which cargo faster made in an earlier run and keeps: if every \
                 function fails like this, its cache may be damaged; `cargo faster clean` \
                 removes it, and the next run builds and relinks what it needs again",
                layout.display()
            )),
            "{error}"
        );
    }

    #[test]
    fn only_a_crash_of_a_file_cargo_faster_keeps_points_at_its_cache() {
        let segv = ExitStatus::from_raw(libc::SIGSEGV);
        let bus = ExitStatus::from_raw(libc::SIGBUS);
        let killed = ExitStatus::from_raw(libc::SIGKILL);
        let failed = ExitStatus::from_raw(1 << 8);
        let layout =
            Path::new("/w/target/faster/build/release/deps/t-1.layouts/paired-0a/layout-3");
        let base = Path::new("/w/target/faster/base/1a2b3c4d5e6f/release/bin/t-1");
        let current = Path::new("/w/target/release/deps/t-1");
        assert!(kept_file_crashed(layout, segv).is_some());
        assert!(kept_file_crashed(base, bus).is_some());
        assert!(
            kept_file_crashed(layout, killed).is_none(),
            "stopped, not crashed"
        );
        assert!(
            kept_file_crashed(layout, failed).is_none(),
            "a failure of its own"
        );
        assert!(
            kept_file_crashed(current, segv).is_none(),
            "cargo's own build"
        );
    }
}
