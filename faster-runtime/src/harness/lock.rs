//! Comparisons take turns across processes: an exclusive lock on
//! `target/faster/.lock`, held while one is measured.
//!
//! The in-process lock (in the engine) keeps libtest's threads from timing
//! concurrently, but nextest runs every test in its own process, several at
//! once, and two comparisons timing side by side would disturb each other.
//! Processes that share a target directory take turns here. The children of
//! a replicated comparison never take it: their parent holds it for them.

use std::fs::File;
use std::path::Path;

/// The lock, released when dropped.
#[derive(Debug)]
pub struct ProcessLock(File);

impl Drop for ProcessLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Waits for and takes the lock on `<dir>/.lock`. Best effort: where the
/// lock file cannot be created, the comparison runs without it.
pub fn lock_across_processes(dir: &Path) -> Option<ProcessLock> {
    std::fs::create_dir_all(dir).ok()?;
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".lock"))
        .ok()?;
    file.lock().ok()?;
    Some(ProcessLock(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processes_take_turns() {
        let dir = std::env::temp_dir().join(format!("faster-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = lock_across_processes(&dir).expect("the lock is free");
        // Another holder must wait: a second descriptor cannot lock.
        let other = File::options().write(true).open(dir.join(".lock")).unwrap();
        assert!(other.try_lock().is_err());
        drop(held);
        assert!(other.try_lock().is_ok());
        other.unlock().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
