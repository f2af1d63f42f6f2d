//! A group's guard (Linux): ends what a child started the moment the child
//! ends, however it ends. The kernel kills a child tied to its thread when
//! this process is killed (`PR_SET_PDEATHSIG`, SIGKILL included), but only
//! the child: cargo's rustc, a compiler driver's `collect2` and `ld` would
//! run on, orphaned, to the end of their work, holding their files.
//!
//! The guard is forked by the child just before it runs its program, so
//! it is the child's own child, in the child's new process group: the
//! kernel tells it when its parent (the child) ends, by a signal it blocks
//! and waits for, and it then kills the group, itself included. It never
//! runs a program: it lives in the forked copy, making only
//! async-signal-safe system calls. It closes every descriptor it was
//! forked with first (a pipe end it kept would keep this process's readers,
//! or a server's input, from ever seeing the end), and ignores the signals
//! this process forwards to the group (they are the program's to act on;
//! the guard stays to end what they leave).
//!
//! Its cost: one process per such child, asleep, gone with the child. A
//! program that waits for every child it has, known or not, would wait for
//! it; the programs started so (cargo, linkers, test binaries asked for
//! their tests) wait for the children they started.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// The signal the kernel sends the guard when its parent ends: blocked in
/// the guard, and waited for.
const PARENT_ENDED: i32 = libc::SIGUSR2;

/// The signals this process forwards to a child's group (`signals`), and a
/// terminal's: the guard ignores them.
const IGNORED: [i32; 5] = [
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGPIPE,
];

/// Makes the child `command` starts fork its guard just before it runs its
/// program. Must come after the child's group is set (`process_group`,
/// which the standard library applies before any `pre_exec`).
pub fn attach(command: &mut Command) {
    // SAFETY: runs in the child between fork and exec, single-threaded,
    // where it makes only async-signal-safe system calls (`getpid`,
    // `fork`); the guard it forks never returns into the standard
    // library's code.
    unsafe {
        command.pre_exec(|| {
            let child = libc::getpid();
            match libc::fork() {
                -1 => Err(io::Error::last_os_error()),
                0 => guard(child),
                _ => Ok(()),
            }
        });
    }
}

/// The guard's whole life: waits for `parent` to end, then kills its group.
fn guard(parent: libc::pid_t) -> ! {
    close_every_descriptor();
    // SAFETY: `getpgrp` only reads; `_exit` ends this forked copy at once.
    // The group it kills must be its parent's own, never this process's.
    unsafe {
        if libc::getpgrp() != parent {
            libc::_exit(0);
        }
    }
    // SAFETY: each call below is a system call on this single-threaded
    // forked process's own state (its mask, dispositions, name, group),
    // async-signal-safe; the set is a local `sigemptyset` initializes.
    unsafe {
        let mut waited: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut waited);
        libc::sigaddset(&mut waited, PARENT_ENDED);
        libc::sigprocmask(libc::SIG_BLOCK, &waited, std::ptr::null_mut());
        for signal in IGNORED {
            libc::signal(signal, libc::SIG_IGN);
        }
        // Its name in `ps` and `/proc`, else that of this process's program.
        libc::prctl(libc::PR_SET_NAME, c"faster-guard".as_ptr());
        libc::prctl(libc::PR_SET_PDEATHSIG, PARENT_ENDED);
        // Checked after the request: a parent that ended before it was
        // made sends nothing, and its guard has been adopted since.
        while libc::getppid() == parent {
            libc::sigwaitinfo(&waited, std::ptr::null_mut());
        }
        libc::kill(0, libc::SIGKILL);
        libc::_exit(0)
    }
}

/// Closes every descriptor this process has.
fn close_every_descriptor() {
    // SAFETY: closing descriptors has no memory effects; `close_range`
    // (Linux 5.9) closes them all at once, else each is closed in turn,
    // up to the limit on their number.
    unsafe {
        if libc::syscall(libc::SYS_close_range, 0_u32, u32::MAX, 0_u32) == 0 {
            return;
        }
        let mut limit: libc::rlimit = std::mem::zeroed();
        let most = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur.min(1 << 20)
        } else {
            1024
        };
        for descriptor in 0..most {
            libc::close(descriptor as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::process::group::{self, Tie};
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Whether process `id` still runs (a zombie has ended).
    fn alive(id: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{id}/stat")).is_ok_and(|stat| {
            let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
            !state.is_some_and(|state| state.starts_with('Z'))
        })
    }

    /// The children of process `id`, from `/proc`.
    fn children_of(id: u32) -> Vec<u32> {
        std::fs::read_to_string(format!("/proc/{id}/task/{id}/children"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|child| child.parse().ok())
            .collect()
    }

    /// The guard of process `id`: its child named `faster-guard`, looked
    /// for over up to 60 s. The guard names itself once it first runs,
    /// which on a loaded machine can be after its parent has started its
    /// program and spoken.
    fn guard_of(id: u32) -> Option<u32> {
        let named = |child: &u32| {
            std::fs::read_to_string(format!("/proc/{child}/comm"))
                .is_ok_and(|name| name.trim() == "faster-guard")
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let guard = children_of(id).into_iter().find(named);
            if guard.is_some() || Instant::now() > deadline {
                return guard;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn what_a_child_started_ends_when_the_child_is_killed_with_this_thread() {
        // A shell (the child) starts `sleep` (its grandchild here) and says
        // its id; the thread that started the shell then ends, and the
        // kernel kills the shell: the shell's guard ends the sleep.
        let (sender, ids) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut command = Command::new("sh");
            command
                .args(["-c", "sleep 30 & echo $!; wait"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped());
            let mut owned = group::spawn(&mut command, Tie::ToThisThread).unwrap();
            let mut line = String::new();
            BufReader::new(owned.child.stdout.take().unwrap())
                .read_line(&mut line)
                .unwrap();
            let guard = guard_of(owned.child.id()).expect("the shell's guard is its child");
            sender
                .send((line.trim().parse::<u32>().unwrap(), guard))
                .unwrap();
            // Not waited for, as a parent that is killed leaves it.
            drop(owned);
        })
        .join()
        .unwrap();
        let (sleep, guard) = ids.recv().unwrap();
        let deadline = Instant::now() + Duration::from_secs(2);
        while alive(sleep) || alive(guard) {
            assert!(
                Instant::now() < deadline,
                "the sleep ({sleep}) or the guard ({guard}) outlived the shell by 2 s"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn a_guarded_child_that_ends_by_itself_leaves_nothing_and_holds_no_pipe() {
        // The output is read to its end: the guard holds none of its pipe.
        let started = Instant::now();
        let output =
            group::output(Command::new("sh").args(["-c", "sleep 60 & echo started"])).unwrap();
        assert_eq!(output.stdout, b"started\n");
        // The sleep holds the pipe too, until the guard ends it with the
        // shell's group.
        assert!(started.elapsed() < Duration::from_secs(30));
    }
}
