//! Another process: everything about running part of a run in a child of
//! this one, and nothing about what the child measures or how its results
//! are judged (that policy is `engine::replicate`'s and the harness's).
//!
//! - [`Role`]: what a child was started to do, read from its environment;
//! - [`command`]: the one way a child is started — its command, its
//!   environment (the parent's, less any role), a test binary's command line;
//! - [`wire`]: the one framing of every message, both ways, with the one
//!   version both ends check;
//! - [`group`]: every child leads a process group of its own, listed while
//!   it runs and ended with this process however it ends (`signals` on
//!   SIGINT and SIGTERM; the kernel on Linux, or the child's [`lifeline`]);
//! - `guard`: on Linux, what such a child started ends with it;
//! - [`Server`]: the parent's side — start, ask, wait with a time limit,
//!   stop the child and what it started;
//! - [`output()`]: a child asked one thing and read to its end, within a time
//!   limit (a test binary's `--list`);
//! - [`cpu`]: which CPU a child of each slot measures on;
//! - [`serve`] and [`say`]: the child's side — answer each request read
//!   from standard input, or say one result unasked.
//!
//! Four kinds of children use it: the servers a replicated comparison
//! measures in (one per layout of the binary, living as long as the run,
//! each serving every comparison of it), the servers of `cargo faster`
//! (one per revision, serving its tracked functions), the test binaries
//! `cargo faster` asks for their tests, and the one-shot children of the
//! accuracy suite's checks.

pub mod command;
pub mod cpu;
pub mod group;
#[cfg(target_os = "linux")]
mod guard;
pub mod lifeline;
mod output;
mod running;
mod server;
pub mod signals;
pub mod wire;

pub use output::output;
pub use server::Server;

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::io::{self, BufRead, Write};

/// Set in a child's environment to what it serves: `comparisons` (every
/// registered comparison, one request at a time) or `tracked` (every
/// tracked function, for `cargo faster`).
pub const SERVE_VARIABLE: &str = "FASTER_SERVE";

/// Set in a one-shot child's environment to what it must do (a key its
/// program defines), once.
pub const CHILD_VARIABLE: &str = "FASTER_CHILD";

/// What this process was started to do, where a parent started it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// Serve every registered comparison ([`SERVE_VARIABLE`] `comparisons`).
    ServeComparisons,
    /// Serve every tracked function ([`SERVE_VARIABLE`] `tracked`).
    ServeTracked,
    /// Do the one thing the key names and say its result ([`CHILD_VARIABLE`]).
    Once(String),
}

impl Role {
    /// The variable, and its value, that start a child in this role.
    pub fn variable(&self) -> (&'static str, &str) {
        match self {
            Role::ServeComparisons => (SERVE_VARIABLE, "comparisons"),
            Role::ServeTracked => (SERVE_VARIABLE, "tracked"),
            Role::Once(key) => (CHILD_VARIABLE, key.as_str()),
        }
    }
}

/// This process's role, from its environment: `None` for a process no
/// parent of ours started.
pub fn role() -> Option<Role> {
    let variable = |name| std::env::var(name).ok().filter(|value| !value.is_empty());
    match variable(SERVE_VARIABLE).as_deref() {
        Some("comparisons") => return Some(Role::ServeComparisons),
        Some("tracked") => return Some(Role::ServeTracked),
        _ => {}
    }
    variable(CHILD_VARIABLE).map(Role::Once)
}

/// The child's side of a server: reads one request frame per line from
/// `requests`, writes `answer`'s answer to each as a frame on `answers`,
/// until the input ends or `answer` has none (the parent said to stop). A
/// line that is not a frame is skipped; a frame that cannot be read is
/// handed to `answer` as its error, so the parent hears why. Fails only
/// when a pipe does.
pub fn serve<Q: DeserializeOwned, A: Serialize>(
    requests: impl BufRead,
    mut answers: impl Write,
    mut answer: impl FnMut(Result<Q, String>) -> Option<A>,
) -> io::Result<()> {
    // A server stuck in user code never reads its input again: the end of
    // its parent must reach it some other way.
    lifeline::watch();
    for line in requests.lines() {
        let Some(request) = wire::decode::<Q>(&line?) else {
            continue;
        };
        let Some(answer) = answer(request) else {
            break;
        };
        // A line of its own, whatever user code printed without a newline.
        writeln!(answers, "\n{}", wire::encode(&answer))?;
        answers.flush()?;
    }
    Ok(())
}

/// A one-shot child's result, said once on standard output, past libtest's
/// capture, for the parent to read.
pub fn say<A: Serialize>(result: &A) {
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "\n{}", wire::encode(result));
    let _ = stdout.flush();
}

/// The last `lines` lines of `text` that are not blank: a failed child's
/// or linker's last words, for an error message.
pub(crate) fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
