//! A child in a process group of its own, and ending it with everything it
//! started: a test that spawns a helper, a shell script's commands, cargo's
//! rustc and a linker's `collect2` and `ld`, which would otherwise outlive
//! it (and this process) and hold its pipes open.
//!
//! Every group started here is listed while it runs, so that an interrupted
//! process ends them all before it ends itself (`signals`), and on Linux
//! its leader is killed by the kernel when the thread that started it
//! ends, however it ends (SIGKILL included): `PR_SET_PDEATHSIG`, and its
//! guard (`process::guard`) then ends the rest of its group (rustc under
//! cargo). A server outlives the thread that starts it, and ends by its
//! lifeline instead (`process::lifeline`).

use super::running::{RUNNING, Signal, kill_group};
use std::io;
use std::process::{Child, Command, Output, Stdio};
use std::sync::PoisonError;

/// How many times a program that is being written is tried again (`Text
/// file busy`), a few milliseconds apart.
const BUSY_TRIES: u32 = 50;

/// How a child's life is tied to this process's, besides its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// Killed by the kernel when the thread that starts it ends, and what
    /// it started with it by its guard (Linux): for a child waited for on
    /// that thread (cargo, a linker).
    ToThisThread,
    /// Left to end by itself when this process does: a server, which may
    /// outlive the thread that starts it (one of libtest's), and ends by
    /// its lifeline instead.
    ByItself,
}

/// A running child, the leader of its own process group, listed until it
/// is dropped.
#[derive(Debug)]
pub struct Owned {
    /// The child.
    pub child: Child,
    /// Its listing, dropped after it (once it is waited for).
    _listed: Listed,
}

/// A group's place in the list of those running, given up when dropped.
#[derive(Debug)]
struct Listed(u32);

impl Owned {
    /// Waits for the child to end, reading its output as
    /// [`Child::wait_with_output`] does; unlisted after.
    pub fn wait_with_output(self) -> io::Result<Output> {
        let Owned {
            child,
            _listed: listed,
        } = self;
        let output = child.wait_with_output();
        drop(listed);
        output
    }

    /// Kills the child's whole group and then the child (where it left the
    /// group). It is not yet waited for, so its id is still its own.
    pub fn stop(&mut self) {
        kill_group(self.child.id(), Signal::Kill);
        let _ = self.child.kill();
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        running.retain(|leader| *leader != self.0);
    }
}

/// Starts `command` as the leader of a new process group, tied to this
/// process as `tie` says, and lists the group until the returned child is
/// dropped. A program still being written (`Text file busy`: another
/// thread's child, forked while the file was open for writing, holds it
/// until it runs its own program) is tried again for a while.
pub fn spawn(command: &mut Command, tie: Tie) -> io::Result<Owned> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(target_os = "linux")]
    if tie == Tie::ToThisThread {
        linux::die_with_this_thread(command);
        super::guard::attach(command);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = tie;
    // Listed before the signal handling is needed, so an interrupted run
    // that started no child yet ends as it did.
    super::signals::install_quietly();
    let mut tries = 0;
    let child = loop {
        // Held across the start: a signal's handling waits for the group
        // to be listed, so none is started unlisted meanwhile.
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        if super::signals::ending() {
            return Err(io::Error::other("this process is ending by a signal"));
        }
        match command.spawn() {
            Ok(child) => {
                running.push(child.id());
                break child;
            }
            Err(error) if is_busy(&error) && tries < BUSY_TRIES => {
                drop(running);
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(2 << tries.min(5)));
            }
            Err(error) => return Err(error),
        }
    };
    let listed = Listed(child.id());
    Ok(Owned {
        child,
        _listed: listed,
    })
}

/// Runs `command` to its end as [`spawn`] starts it, tied to this thread,
/// its output collected (its input empty), as [`Command::output`] does.
pub fn output(command: &mut Command) -> io::Result<Output> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    spawn(command, Tie::ToThisThread)?.wait_with_output()
}

/// Whether `error` says the program is open for writing (`ETXTBSY`).
fn is_busy(error: &io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::ETXTBSY);
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// Makes the kernel kill `command`'s process when the thread that
    /// starts it ends, and fails its start where this process has ended
    /// already (between the fork and the request, it would miss it).
    pub fn die_with_this_thread(command: &mut Command) {
        let parent = std::process::id();
        // SAFETY: runs in the child between fork and exec, where it makes
        // only async-signal-safe system calls (`prctl`, `getppid`).
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if u32::try_from(libc::getppid()) != Ok(parent) {
                    return Err(std::io::Error::other("its parent ended as it started"));
                }
                Ok(())
            });
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::process::running::running;

    #[test]
    fn a_running_group_is_listed_until_it_is_dropped() {
        let mut command = Command::new("sleep");
        command.arg("30");
        let mut owned = spawn(&mut command, Tie::ToThisThread).unwrap();
        let id = owned.child.id();
        assert!(running().contains(&id));
        owned.stop();
        let status = owned.child.wait().unwrap();
        assert!(!status.success());
        drop(owned);
        assert!(!running().contains(&id));
    }

    #[test]
    fn output_collects_what_the_child_says_and_unlists_it() {
        let output = output(Command::new("sh").args(["-c", "echo said; exit 4"])).unwrap();
        assert_eq!(output.stdout, b"said\n");
        assert_eq!(output.status.code(), Some(4));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_tied_to_its_thread_is_killed_when_the_thread_ends() {
        // The child is started on a thread that ends at once: the kernel
        // kills it then, though this process lives on.
        let (sender, ids) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut command = Command::new("sleep");
            command.arg("30");
            let owned = spawn(&mut command, Tie::ToThisThread).unwrap();
            sender.send(owned.child.id()).unwrap();
            // Not waited for, as a parent that ends leaves it.
            drop(owned);
        })
        .join()
        .unwrap();
        let id = ids.recv().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            // Reaped here, as its parent: ended by SIGKILL.
            let mut status = 0;
            // SAFETY: waits for a child of this process, writing its status.
            let reaped = unsafe { libc::waitpid(id as i32, &mut status, libc::WNOHANG) };
            if reaped == id as i32 {
                assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL);
                break;
            }
            assert!(std::time::Instant::now() < deadline, "still running");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
