//! A child in a process group of its own, and stopping it with everything
//! it started: a test that spawns a helper, a shell script's commands,
//! which would otherwise outlive it and hold its pipes open.

use std::process::{Child, Command};

/// Starts `command`'s process as the leader of a new process group.
pub fn own(command: &mut Command) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(not(unix))]
    let _ = command;
}

/// Kills `child` and, where it was started by [`own`], its process group.
/// `child` is not yet waited for, so its id is still its own.
pub fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(group) = i32::try_from(child.id()) {
        // SAFETY: `kill` has no memory effects; the group is the child's
        // own (`process_group(0)` in `own`), not ours, and the child is not
        // yet reaped, so no other process can have taken its id.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}
