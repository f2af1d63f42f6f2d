//! The process groups started here and running now, by leader, and
//! sending one a signal: what `group` lists as it starts a child and
//! unlists when the child is waited for, and what `signals` ends when this
//! process is interrupted. Below both, so neither imports the other back.

use std::sync::{Mutex, PoisonError};

/// The process groups started here and not yet waited for, by leader.
pub(super) static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// A signal to send a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    /// This one (the one that interrupted this process).
    #[cfg_attr(not(unix), allow(dead_code))]
    Number(i32),
    /// SIGKILL.
    Kill,
}

/// The leaders of the groups started here and running now.
pub(crate) fn running() -> Vec<u32> {
    RUNNING
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Sends `signal` to the group led by `leader`.
pub(crate) fn kill_group(leader: u32, signal: Signal) {
    #[cfg(unix)]
    if let Ok(group) = i32::try_from(leader) {
        let number = match signal {
            Signal::Number(number) => number,
            Signal::Kill => libc::SIGKILL,
        };
        // SAFETY: `kill` has no memory effects; the group is a child's own
        // (`process_group(0)`), listed while it is not yet waited for, so no
        // other process can have taken its id.
        unsafe {
            libc::kill(-group, number);
        }
    }
    #[cfg(not(unix))]
    let _ = (leader, signal);
}
