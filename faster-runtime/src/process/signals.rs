//! What this process does when SIGINT (Ctrl-C) or SIGTERM (a CI job's
//! cancel) ends it: every child group it started (`group`) gets the same
//! signal, then SIGKILL once it has had a moment; the temporary files its
//! children were writing are removed; the line it was given is said; and it
//! ends by the signal, so the shell and CI see the status they would have.
//!
//! The signal's handler only writes the signal's number to a pipe (what a
//! handler may do); a thread of this module's own reads it and does the
//! rest, as ordinary code. Meanwhile this process's other threads run on,
//! so nothing they do may end the process first: an exit waits for that
//! thread (`atexit`), and what they would print then is not shown (a
//! failed build, its cargo stopped): the standard streams are pointed at
//! `/dev/null` first, and the line is said on a copy of standard error.
//!
//! Ctrl-C reaches only the terminal's foreground group, and every child of
//! faster leads a group of its own; without this handling none of them
//! would hear it. A process that set its own handler (a user's test binary
//! with one) keeps it: [`install_quietly`] takes over only the default.

use super::running::{self, Signal};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The line said once interrupted, where one was given.
static SAID: OnceLock<&'static str> = OnceLock::new();

/// The writing end of the pipe the handler writes signals to (-1: none).
static SIGNALLED: AtomicI32 = AtomicI32::new(-1);

/// Whether a signal is being handled: the process ends by it.
static ENDING: AtomicBool = AtomicBool::new(false);

/// The temporary files children are writing now: each one's path, and
/// every file beside it whose name starts with its own (a linker's own
/// temporary output) is removed once they are stopped.
static WRITING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How long the children have to end by the signal before SIGKILL.
const GRACE: Duration = Duration::from_millis(1000);

/// From now on, an interrupted process ends its children as this module
/// says, then writes `said` (a whole line, its `\n` included) to stderr.
pub fn install_saying(said: &'static str) {
    let _ = SAID.set(said);
    install(true);
}

/// As [`install_saying`] without a line, for the signals whose handling
/// is still the default (none set, none ignored): called before a child
/// is started.
pub fn install_quietly() {
    install(false);
}

/// Whether this process is ending by a signal (children are not started
/// any more).
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Lists `path` as written by a child until the returned guard is dropped:
/// removed (and what starts with its name beside it) if this process is
/// interrupted meanwhile.
pub fn writing(path: &Path) -> Writing {
    WRITING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(path.to_path_buf());
    Writing(path.to_path_buf())
}

/// A temporary file's place in the list of those being written.
#[derive(Debug)]
pub struct Writing(PathBuf);

impl Drop for Writing {
    fn drop(&mut self) {
        let mut writing = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = writing.iter().position(|path| *path == self.0) {
            writing.remove(at);
        }
    }
}

/// Removes `path` and every file beside it whose name starts with its own.
fn remove_with_siblings(path: &Path) {
    let _ = std::fs::remove_file(path);
    let (Some(folder), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let name = name.to_string_lossy();
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        if entry.file_name().to_string_lossy().starts_with(&*name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn install(forced: bool) {
    static STARTED: OnceLock<bool> = OnceLock::new();
    let started = *STARTED.get_or_init(|| {
        let mut ends = [0; 2];
        // SAFETY: `ends` has room for the two descriptors.
        if unsafe { libc::pipe(ends.as_mut_ptr()) } != 0 {
            return false;
        }
        for end in ends {
            // SAFETY: flags on descriptors this process just made.
            unsafe { libc::fcntl(end, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        let reading = ends[0];
        let spawned = std::thread::Builder::new()
            .name("faster-signals".into())
            .spawn(move || handle(reading));
        if spawned.is_err() {
            return false;
        }
        SIGNALLED.store(ends[1], Ordering::SeqCst);
        // SAFETY: registers a function with no arguments, run at exit.
        unsafe { libc::atexit(hold_exit) };
        true
    });
    if !started {
        return;
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: reads the signal's current handling, writing nothing.
        let current = unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut current);
            current.sa_sigaction
        };
        if current == on_signal as *const () as libc::sighandler_t
            || (!forced && current != libc::SIG_DFL)
        {
            continue;
        }
        // SAFETY: `on_signal` makes only async-signal-safe calls (`write`).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
fn install(_forced: bool) {}

/// The handler: hands the signal to the thread that handles it.
#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let byte = signal as u8;
    // SAFETY: `write` is async-signal-safe; `errno` is kept as it was for
    // the code the signal interrupted.
    unsafe {
        let errno = *errno_location();
        libc::write(
            SIGNALLED.load(Ordering::SeqCst),
            (&raw const byte).cast(),
            1,
        );
        *errno_location() = errno;
    }
}

#[cfg(target_os = "linux")]
unsafe fn errno_location() -> *mut libc::c_int {
    // SAFETY: the calling thread's `errno`.
    unsafe { libc::__errno_location() }
}

#[cfg(all(unix, not(target_os = "linux")))]
unsafe fn errno_location() -> *mut libc::c_int {
    // SAFETY: the calling thread's `errno`.
    unsafe { libc::__error() }
}

/// The handling thread: waits for a signal, then ends the process by it.
#[cfg(unix)]
fn handle(reading: i32) {
    let mut byte = 0_u8;
    loop {
        // SAFETY: reads at most one byte into `byte`.
        let read = unsafe { libc::read(reading, (&raw mut byte).cast(), 1) };
        if read == 1 {
            end_by(i32::from(byte));
        }
        if read == 0 {
            return;
        }
    }
}

/// Ends the children, removes their temporary files, says the line and
/// ends this process by `signal`.
#[cfg(unix)]
fn end_by(signal: i32) -> ! {
    ENDING.store(true, Ordering::SeqCst);
    // SAFETY: duplicates standard error, for the line said at the end.
    let stderr = unsafe { libc::dup(libc::STDERR_FILENO) };
    silence();
    let groups = running::running();
    for leader in &groups {
        running::kill_group(*leader, Signal::Number(signal));
    }
    let deadline = Instant::now() + GRACE;
    while groups.iter().any(|leader| runs(*leader)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    // What is left (a grandchild that ignores the signal, or outlived its
    // parent): killed, and given a moment to be gone before its file is.
    for leader in &groups {
        running::kill_group(*leader, Signal::Kill);
    }
    std::thread::sleep(Duration::from_millis(50));
    let writing = WRITING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for path in &writing {
        remove_with_siblings(path);
    }
    if let (Some(said), 0..) = (SAID.get(), stderr) {
        // SAFETY: writes `said`'s bytes, which live for the program, to
        // the standard error this process had before it was silenced.
        unsafe { libc::write(stderr, said.as_ptr().cast(), said.len()) };
    }
    // SAFETY: back to the default action, then the signal again: the
    // process ends by it, with the status it would have had.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(signal);
        libc::_exit(128 + signal);
    }
}

/// Points standard output and error at `/dev/null`: what other threads
/// would say of children ended here is not what happened.
#[cfg(unix)]
fn silence() {
    // SAFETY: opens a file and duplicates it over descriptors 1 and 2.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if null >= 0 {
            libc::dup2(null, libc::STDOUT_FILENO);
            libc::dup2(null, libc::STDERR_FILENO);
            libc::close(null);
        }
    }
}

/// Whether the child `leader` has not ended yet (left unreaped for whoever
/// waits for it).
#[cfg(unix)]
fn runs(leader: u32) -> bool {
    let id: libc::id_t = leader;
    // SAFETY: a zeroed `siginfo_t` is a valid buffer for `waitid`, which
    // with `WNOWAIT` leaves the child to be waited for by its owner.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let waited = libc::waitid(
            libc::P_PID,
            id,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        // Waited for already (an error), or ended (a pid filled in).
        waited == 0 && info.si_pid() == 0
    }
}

/// Run at exit: a process ending by a signal ends by it, not by another
/// thread's exit meanwhile, which waits (at most 10 s) for it.
#[cfg(unix)]
extern "C" fn hold_exit() {
    let deadline = Instant::now() + Duration::from_secs(10);
    while ENDING.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_file_being_written_is_listed_and_removed_with_what_starts_like_it() {
        let temp = tempfile::tempdir().unwrap();
        let staging = temp.path().join("layout-1.new-7");
        for name in ["layout-1.new-7", "layout-1.new-7.tmp0a1b", "layout-1"] {
            std::fs::write(temp.path().join(name), b"x").unwrap();
        }
        let listed = writing(&staging);
        assert!(WRITING.lock().unwrap().contains(&staging));
        remove_with_siblings(&staging);
        drop(listed);
        assert!(!WRITING.lock().unwrap().contains(&staging));
        let left: Vec<String> = std::fs::read_dir(temp.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["layout-1"]);
    }
}
