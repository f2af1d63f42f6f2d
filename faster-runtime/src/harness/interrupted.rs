//! What a run says when it is interrupted (Ctrl-C's SIGINT, a CI job's
//! SIGTERM): one line on stderr, then it ends as the signal ends it, so
//! the shell and CI see the same status as before. Without it a stopped
//! run ended with no word at all.

use std::sync::OnceLock;

/// The line to say, set once.
static SAID: OnceLock<&'static str> = OnceLock::new();

/// From now on, an interrupted run writes `said` (a whole line, its `\n`
/// included) to stderr before it ends.
pub fn say_when_interrupted(said: &'static str) {
    if SAID.set(said).is_err() {
        return;
    }
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let handler: extern "C" fn(libc::c_int) = on_signal;
        // SAFETY: `on_signal` only reads an initialized static and makes
        // calls that are async-signal-safe (`write`, `signal`, `raise`).
        unsafe {
            libc::signal(signal, handler as libc::sighandler_t);
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    if let Some(said) = SAID.get() {
        // SAFETY: writes `said`'s bytes, which live for the program.
        unsafe {
            libc::write(libc::STDERR_FILENO, said.as_ptr().cast(), said.len());
        }
    }
    // SAFETY: back to the default action, then the signal again: the
    // process ends by it, with the status it would have had.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    const CHILD: &str = "FASTER_TEST_INTERRUPTED_CHILD";

    /// In a child started by the test below: interrupted, says its line.
    #[test]
    fn interrupted_child() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        say_when_interrupted("demo: interrupted, said once\n");
        // SAFETY: raises a signal this process handles.
        unsafe {
            libc::raise(libc::SIGINT);
        }
        unreachable!("the signal ends the process");
    }

    #[test]
    fn an_interrupted_run_says_so_and_ends_by_the_signal() {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "harness::interrupted::tests::interrupted_child",
                "--exact",
                "--nocapture",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        assert_eq!(output.status.signal(), Some(libc::SIGINT), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("demo: interrupted, said once\n"),
            "{stderr}"
        );
    }
}
