//! A server's lifeline to its parent: a pipe whose writing end only the
//! parent holds, so that the server sees it close however the parent ends
//! (returned, interrupted, killed with SIGKILL) and ends with it, along
//! with everything it started, even while its own main thread is stuck in
//! user code that never returns and never reads its input again.
//!
//! Why not `PR_SET_PDEATHSIG`: the kernel sends it when the *thread* that
//! started the child ends, and servers outlive the thread that starts them
//! (one of libtest's, for the servers of a replicated comparison); and it
//! is Linux's alone. A pipe is the same on every Unix and costs the server
//! one thread blocked in `read`, which never wakes while the parent lives
//! (a thread that polled would take the measured CPU from time to time).
//!
//! One pipe serves every child of a process: its reading end is passed to
//! each ([`attach`]), named by [`VARIABLE`]; its writing end is never
//! closed, nor passed on (close-on-exec), so it closes exactly when the
//! process ends.

use std::process::Command;
use std::sync::OnceLock;

/// The variable naming, in a child's environment, the descriptor of its
/// lifeline's reading end.
pub const VARIABLE: &str = "FASTER_LIFELINE";

/// What a child whose lifeline closed exits with, where it cannot end its
/// group (it is not its leader).
const ORPHANED: i32 = 125;

/// This process's lifeline: the reading end its children get (`None`
/// where no pipe could be made: children then end when they next read
/// their closed input, as before).
fn reading_end() -> Option<i32> {
    static PIPE: OnceLock<Option<i32>> = OnceLock::new();
    *PIPE.get_or_init(imp::pipe)
}

/// Passes this process's lifeline to the child `command` starts, which
/// [`watch`]es it when it serves.
pub fn attach(command: &mut Command) {
    let Some(reading) = reading_end() else {
        return;
    };
    command.env(VARIABLE, reading.to_string());
    imp::inherit(command, reading);
}

/// In a child started with a lifeline: from now on, the moment the parent
/// ends, ends this process and its process group (the server's, with
/// whatever its user code started). Does nothing elsewhere, and once.
pub fn watch() {
    static WATCHING: OnceLock<()> = OnceLock::new();
    WATCHING.get_or_init(|| {
        let Some(descriptor) = std::env::var(VARIABLE)
            .ok()
            .and_then(|value| value.parse::<i32>().ok())
        else {
            return;
        };
        if !imp::is_pipe(descriptor) {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("faster-lifeline".into())
            .spawn(move || {
                imp::wait_for_end(descriptor);
                imp::end_group();
                std::process::exit(ORPHANED);
            });
    });
}

#[cfg(unix)]
mod imp {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    pub fn pipe() -> Option<i32> {
        let mut ends = [0; 2];
        // Both ends close-on-exec from the start where the system can say
        // so atomically: a child forked meanwhile by another thread must
        // never keep the writing end, or the lifeline of every server would
        // outlive this process.
        #[cfg(target_os = "linux")]
        // SAFETY: `ends` has room for the two descriptors `pipe2` writes.
        let made = unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } == 0;
        #[cfg(not(target_os = "linux"))]
        // SAFETY: as above; each end then marked close-on-exec.
        let made = unsafe {
            libc::pipe(ends.as_mut_ptr()) == 0
                && libc::fcntl(ends[0], libc::F_SETFD, libc::FD_CLOEXEC) == 0
                && libc::fcntl(ends[1], libc::F_SETFD, libc::FD_CLOEXEC) == 0
        };
        if !made {
            return None;
        }
        // Each end above the standard streams: in a process started with
        // one of them closed, the pipe takes its number, and a child's
        // piped stream would be put over the lifeline (or this process's
        // output written into it).
        for end in &mut ends {
            if *end < 3 {
                // SAFETY: duplicates a descriptor this process just made,
                // close-on-exec, then closes the original.
                let moved = unsafe { libc::fcntl(*end, libc::F_DUPFD_CLOEXEC, 3) };
                unsafe { libc::close(*end) };
                if moved < 0 {
                    return None;
                }
                *end = moved;
            }
        }
        // The writing end is deliberately never closed: it closes when this
        // process ends, which is what it says.
        Some(ends[0])
    }

    pub fn inherit(command: &mut Command, reading: i32) {
        // SAFETY: runs in the child between fork and exec, where it makes
        // one async-signal-safe call on a descriptor it holds (forked with
        // it): the reading end, and only it, is kept across the exec.
        unsafe {
            command.pre_exec(move || {
                if libc::fcntl(reading, libc::F_SETFD, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }

    pub fn is_pipe(descriptor: i32) -> bool {
        // SAFETY: a zeroed `stat` is a valid buffer for `fstat` to fill.
        let mut stat: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `fstat` writes into `stat` only.
        let read = unsafe { libc::fstat(descriptor, &mut stat) } == 0;
        if read && stat.st_mode & libc::S_IFMT == libc::S_IFIFO {
            // Not passed on to what this process starts: its children have
            // lifelines of their own, to it.
            // SAFETY: sets a flag on a descriptor this process holds.
            unsafe { libc::fcntl(descriptor, libc::F_SETFD, libc::FD_CLOEXEC) };
            return true;
        }
        false
    }

    pub fn wait_for_end(descriptor: i32) {
        let mut byte = 0_u8;
        loop {
            // SAFETY: reads at most one byte into `byte`.
            let read = unsafe { libc::read(descriptor, (&raw mut byte).cast(), 1) };
            if read < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
            {
                continue;
            }
            // The end (0), or an error: nothing more can be heard.
            if read <= 0 {
                return;
            }
        }
    }

    pub fn end_group() {
        // SAFETY: `getpgrp` and `getpid` only read; the group killed is this
        // process's own, and only where it leads it (started by
        // `group::spawn`), so never its parent's.
        unsafe {
            if libc::getpgrp() == libc::getpid() {
                libc::kill(0, libc::SIGKILL);
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::process::Command;

    pub fn pipe() -> Option<i32> {
        None
    }

    pub fn inherit(_: &mut Command, _: i32) {}

    pub fn is_pipe(_: i32) -> bool {
        false
    }

    pub fn wait_for_end(_: i32) {}

    pub fn end_group() {}
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::process::group::{self, Tie};
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    /// Set in the children of the test below to the part each plays.
    const PART: &str = "FASTER_TEST_LIFELINE_PART";

    /// Whether process `id` still runs (a zombie has ended).
    fn alive(id: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{id}/stat")).is_ok_and(|stat| {
            let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
            !state.is_some_and(|state| state.starts_with('Z'))
        })
    }

    /// This test binary running test `test` alone, as `part`.
    fn part(test: &str, part: &str) -> Command {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command
            .args([test, "--exact", "--nocapture", "--test-threads=1"])
            .env(PART, part);
        command
    }

    /// The middle process: starts a server stuck in a loop, with a
    /// lifeline, says its id, and waits to be killed.
    #[test]
    fn lifeline_middle() {
        if std::env::var(PART).as_deref() != Ok("middle") {
            return;
        }
        let mut server = part("process::lifeline::tests::lifeline_stuck", "stuck");
        server.stdin(Stdio::null()).stdout(Stdio::null());
        attach(&mut server);
        let owned = group::spawn(&mut server, Tie::ByItself).unwrap();
        println!("server {}", owned.child.id());
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    /// The server: watches its lifeline, then never returns, at full CPU,
    /// never reading its input (a tracked function with `loop {}`).
    #[test]
    fn lifeline_stuck() {
        if std::env::var(PART).as_deref() != Ok("stuck") {
            return;
        }
        watch();
        loop {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn a_stuck_server_ends_when_its_parent_is_killed() {
        let mut middle = part("process::lifeline::tests::lifeline_middle", "middle");
        middle.stdout(Stdio::piped()).stdin(Stdio::null());
        let mut middle = middle.spawn().unwrap();
        // Past libtest's own words (`running 1 test`, and the test's name
        // on the line it says its id on).
        let server: u32 = BufReader::new(middle.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
            .find_map(|line| line.rsplit_once("server ")?.1.trim().parse().ok())
            .expect("the middle process names its server");
        assert!(alive(server));
        // SIGKILL: the middle process has no say in it.
        middle.kill().unwrap();
        middle.wait().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while alive(server) {
            assert!(
                Instant::now() < deadline,
                "the server outlived its parent by 20 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
