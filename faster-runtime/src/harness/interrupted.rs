//! What a run says when it is interrupted (Ctrl-C's SIGINT, a CI job's
//! SIGTERM): one line on stderr, once the processes it started have ended
//! (`process::signals`), then it ends as the signal ends it, so the shell
//! and CI see the same status as before. Without it a stopped run ended
//! with no word at all.

/// From now on, an interrupted run ends the processes it started, writes
/// `said` (a whole line, its `\n` included) to stderr and ends.
pub fn say_when_interrupted(said: &'static str) {
    crate::process::signals::install_saying(said);
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
        // Handled on a thread of its own, which ends the process.
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
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
