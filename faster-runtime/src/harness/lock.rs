//! Locks on files, which processes take turns with: comparisons on
//! `target/faster/.lock`, held while one is measured, and cargo faster's
//! cache folders (`lock_shared` while a run uses one, `try_lock` to prune).
//!
//! The in-process lock (in the engine) keeps libtest's threads from timing
//! concurrently, but nextest runs every test in its own process, several at
//! once, and two comparisons timing side by side would disturb each other.
//! Processes that share a target directory take turns here. The children of
//! a replicated comparison never take it: their parent holds it for them.
//!
//! On Unix the locks are `flock(2)`'s, the ones std's `File::lock` takes
//! there from Rust 1.89 on, above this crate's `rust-version`. Elsewhere
//! they are std's, and building there needs Rust 1.89.
//!
//! A lock is released by [`Held`] when dropped, not only by closing its
//! file: a `flock` belongs to the open file description, which a child
//! forked by another thread meanwhile shares until it runs its own program
//! (or for good, where it never does), and closing this process's
//! descriptor alone would leave the lock held that long.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The lock on `<dir>/.lock`, released when dropped (the file first, then
/// this process's turn).
#[derive(Debug)]
pub(crate) struct ProcessLock {
    _file: Held,
    _this_process: MutexGuard<'static, ()>,
}

/// A locked file, its lock released when dropped (see the module's
/// documentation for why not by closing it).
#[derive(Debug)]
pub struct Held(File);

impl Held {
    /// Holds `file`, locked, until dropped.
    pub fn new(file: File) -> Held {
        Held(file)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        imp::unlock(&self.0);
    }
}

/// The turn among this process's threads (libtest's), taken before the
/// file's: a `flock` belongs to the open file, so a sibling thread holding
/// it would block this one like another process, and be announced as one.
static THIS_PROCESS: Mutex<()> = Mutex::new(());

/// Waits for and takes the lock on `<dir>/.lock`, saying so where another
/// process holds it (a run that seems to hang is waiting its turn). Best
/// effort: where the lock cannot be taken, the comparison runs without it,
/// and the process says so once, with the fix.
pub(crate) fn lock_across_processes(dir: &Path) -> Option<ProcessLock> {
    lock_saying_so(dir, |notice| eprintln!("{notice}"))
}

/// Whether this process has said it measures without the lock.
static SAID_UNLOCKED: AtomicBool = AtomicBool::new(false);

/// [`lock_across_processes`], telling `say` when it has to wait, and, the
/// first time, when it cannot lock.
fn lock_saying_so(dir: &Path, mut say: impl FnMut(String)) -> Option<ProcessLock> {
    let this_process = THIS_PROCESS.lock().unwrap_or_else(PoisonError::into_inner);
    let path = dir.join(".lock");
    match take_turn(dir, &path, &mut say) {
        Ok(file) => Some(ProcessLock {
            _file: Held::new(file),
            _this_process: this_process,
        }),
        Err(error) => {
            if !SAID_UNLOCKED.swap(true, Ordering::SeqCst) {
                say(format!(
                    "faster: could not lock {} ({error}): comparisons measure without taking \
                     turns with other processes measuring in this target, which may disturb \
                     them; make {} writable",
                    path.display(),
                    dir.display()
                ));
            }
            None
        }
    }
}

/// Opens (creating) the lock file at `path` in `dir` and waits for its
/// lock, telling `say` where another process holds it.
fn take_turn(dir: &Path, path: &Path, say: &mut impl FnMut(String)) -> io::Result<File> {
    std::fs::create_dir_all(dir)?;
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    if !try_lock(&file)? {
        say(format!(
            "faster: waiting for another process measuring in {} (another `cargo faster` or \
             test run in this target) to finish",
            dir.display()
        ));
        lock(&file)?;
    }
    Ok(file)
}

/// Waits for and takes an exclusive lock on `file`.
pub fn lock(file: &File) -> io::Result<()> {
    imp::lock(file, false)
}

/// Waits for and takes a shared lock on `file`.
pub fn lock_shared(file: &File) -> io::Result<()> {
    imp::lock(file, true)
}

/// Takes an exclusive lock on `file` if no one holds one: `Ok(false)` when
/// another holds it.
pub fn try_lock(file: &File) -> io::Result<bool> {
    imp::try_lock(file)
}

#[cfg(unix)]
mod imp {
    use std::fs::File;
    use std::io;
    use std::os::unix::io::AsRawFd;

    pub fn lock(file: &File, shared: bool) -> io::Result<()> {
        let operation = if shared { libc::LOCK_SH } else { libc::LOCK_EX };
        loop {
            match flock(file, operation) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                done => return done,
            }
        }
    }

    pub fn try_lock(file: &File) -> io::Result<bool> {
        match flock(file, libc::LOCK_EX | libc::LOCK_NB) {
            Ok(()) => Ok(true),
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => Ok(false),
            Err(error) => Err(error),
        }
    }

    pub fn unlock(file: &File) {
        let _ = flock(file, libc::LOCK_UN);
    }

    fn flock(file: &File, operation: libc::c_int) -> io::Result<()> {
        // SAFETY: the descriptor is `file`'s, open for as long as it lives.
        if unsafe { libc::flock(file.as_raw_fd(), operation) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

#[cfg(not(unix))]
#[allow(clippy::incompatible_msrv)]
mod imp {
    use std::fs::{File, TryLockError};
    use std::io;

    pub fn lock(file: &File, shared: bool) -> io::Result<()> {
        if shared {
            file.lock_shared()
        } else {
            file.lock()
        }
    }

    pub fn unlock(file: &File) {
        let _ = file.unlock();
    }

    pub fn try_lock(file: &File) -> io::Result<bool> {
        match file.try_lock() {
            Ok(()) => Ok(true),
            Err(TryLockError::WouldBlock) => Ok(false),
            Err(TryLockError::Error(error)) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_that_cannot_be_taken_is_said_once_with_the_fix() {
        let temp = tempfile::tempdir().unwrap();
        // A file where the folder would be: nothing can be created in it.
        let dir = temp.path().join("not-a-folder");
        std::fs::write(&dir, "").unwrap();
        SAID_UNLOCKED.store(false, Ordering::SeqCst);
        let mut said = Vec::new();
        assert!(lock_saying_so(&dir, |notice| said.push(notice)).is_none());
        assert!(lock_saying_so(&dir, |notice| said.push(notice)).is_none());
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("faster: could not lock ")
                && said[0].ends_with(&format!("make {} writable", dir.display())),
            "{said:?}"
        );
    }

    #[test]
    fn a_run_that_waits_for_another_says_so_and_one_that_does_not_is_silent() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("faster");
        let mut said = Vec::new();
        drop(lock_saying_so(&dir, |notice| said.push(notice)));
        assert!(said.is_empty(), "{said:?}");
        // Another open file holding the lock is another process to flock.
        let other = File::options().write(true).open(dir.join(".lock")).unwrap();
        assert!(try_lock(&other).unwrap());
        let (notices, waiting) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn({
            let dir = dir.clone();
            move || lock_saying_so(&dir, |notice| notices.send(notice).unwrap()).is_some()
        });
        let notice = waiting.recv().unwrap();
        assert!(
            notice.starts_with("faster: waiting for another process measuring in ")
                && notice
                    .ends_with("(another `cargo faster` or test run in this target) to finish"),
            "{notice}"
        );
        drop(other);
        assert!(
            waiter.join().unwrap(),
            "the lock is taken once the other lets go"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_is_released_when_dropped_though_a_forked_child_shares_its_file() {
        use std::os::unix::io::AsRawFd;
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join(".lock");
        let file = File::create(&path).unwrap();
        lock_shared(&file).unwrap();
        // What a child forked by another thread holds until it runs its
        // own program: the same open file description.
        // SAFETY: duplicates a descriptor this test holds.
        let shared = unsafe { libc::dup(file.as_raw_fd()) };
        assert!(shared >= 0);
        drop(Held::new(file));
        let other = File::open(&path).unwrap();
        assert!(try_lock(&other).unwrap(), "released though still shared");
        // SAFETY: closes the duplicate made above.
        unsafe { libc::close(shared) };
    }

    #[test]
    fn processes_take_turns() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("faster");
        let held = lock_across_processes(&dir).expect("the lock is free");
        // Another holder must wait: a second descriptor cannot lock.
        let other = File::options().write(true).open(dir.join(".lock")).unwrap();
        assert!(!try_lock(&other).unwrap());
        drop(held);
        assert!(try_lock(&other).unwrap());
        let shared = File::open(dir.join(".lock")).unwrap();
        drop(other);
        lock_shared(&shared).unwrap();
        let third = File::open(dir.join(".lock")).unwrap();
        assert!(
            !try_lock(&third).unwrap(),
            "a shared lock keeps exclusive ones out"
        );
    }
}
