//! The layouts folder on its disk: whether a layout has room there, the
//! error that says the disk is full (the file system's own says less), and
//! the files a relink by a process that has ended left half-written.

use super::{LAYOUT_PREFIX, STAGING, Unavailable};
use std::path::Path;

/// Removes the files in `folder` that a relink by a process that no longer
/// runs was writing: `layout-K.new-PID` and what starts so.
pub(super) fn remove_abandoned(folder: &Path) {
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let writer = name
            .strip_prefix(LAYOUT_PREFIX)
            .and_then(|rest| rest.split_once(STAGING))
            .map(|(_, rest)| {
                let digits = rest.find(|c: char| !c.is_ascii_digit());
                &rest[..digits.unwrap_or(rest.len())]
            })
            .and_then(|digits| digits.parse::<u32>().ok());
        if writer.is_some_and(|writer| writer != std::process::id() && !runs(writer)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `id` runs (is taken, as far as this process can tell).
#[cfg(unix)]
fn runs(id: u32) -> bool {
    let Ok(id) = libc::pid_t::try_from(id) else {
        return false;
    };
    // SAFETY: signal 0 sends nothing, only checks that the process is there.
    let signalled = unsafe { libc::kill(id, 0) };
    signalled == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn runs(_id: u32) -> bool {
    true
}

/// Where the disk holding `folder` has less room than `needed` bytes (what
/// one layout of the binary takes), saying so, where, and what to do.
pub(super) fn no_room(folder: &Path, needed: u64) -> Option<String> {
    let free = free_bytes(folder)?;
    (free < needed).then(|| {
        format!(
            "the disk holding {} is full: {} MB free, and each layout of this binary takes \
             about {} MB (a comparison makes up to {} of them): free some space there, or \
             measure without layouts (FASTER_LAYOUTS=off)",
            folder.display(),
            free / 1_000_000,
            needed.div_ceil(1_000_000),
            crate::engine::replicate::MOST_LAYOUTS,
        )
    })
}

/// Why writing `what` in `folder` failed: the disk full, where it has less
/// room than a layout takes (`needed` bytes) — at 0 MB free the file
/// system's own error says less — else `error`.
pub(super) fn write_failed(
    folder: &Path,
    needed: u64,
    what: &Path,
    error: impl std::fmt::Display,
) -> Unavailable {
    Unavailable::RelinkFailed(
        no_room(folder, needed).unwrap_or_else(|| format!("{}: {error}", what.display())),
    )
}

/// The bytes an unprivileged process may still write on the file system
/// holding `path`.
#[cfg(unix)]
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stats` a buffer of the
    // type `statvfs` fills; it is read only where the call succeeded.
    let stats = unsafe {
        if libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) != 0 {
            return None;
        }
        stats.assume_init()
    };
    // `fsblkcnt_t` and `c_ulong` are narrower than `u64` on some targets.
    #[allow(clippy::useless_conversion)]
    let (blocks, block_size) = (u64::from(stats.f_bavail), u64::from(stats.f_frsize));
    Some(blocks.saturating_mul(block_size))
}

#[cfg(not(unix))]
fn free_bytes(_path: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[cfg(unix)]
    #[test]
    fn a_relink_without_room_on_its_disk_says_the_disk_is_full_and_where() {
        let temp = tempfile::tempdir().unwrap();
        assert_eq!(no_room(temp.path(), 1), None, "a byte fits");
        let full = no_room(temp.path(), u64::MAX).expect("no disk holds that much");
        assert!(
            full.starts_with(&format!(
                "the disk holding {} is full: ",
                temp.path().display()
            )) && full.contains("FASTER_LAYOUTS=off"),
            "{full}"
        );
        assert_eq!(
            no_room(&temp.path().join("none"), 1),
            None,
            "nothing to ask"
        );
        // A write that fails there says the same, not the file system's
        // error; with room, the error.
        let file = temp.path().join("order-1");
        let said = |needed| write_failed(temp.path(), needed, &file, "os error 28").to_string();
        assert!(said(u64::MAX).contains(&full), "{}", said(u64::MAX));
        assert!(said(1).ends_with("order-1: os error 28"), "{}", said(1));
    }

    #[cfg(unix)]
    #[test]
    fn a_relink_abandoned_by_a_process_that_is_gone_is_removed_and_a_running_ones_kept() {
        let temp = tempfile::tempdir().unwrap();
        // A process that has ended: a child of this one, waited for.
        let mut ended = Command::new("true").spawn().unwrap();
        ended.wait().unwrap();
        let gone = ended.id();
        let this = std::process::id();
        let names = [
            format!("layout-2.new-{gone}"),
            format!("layout-2.new-{gone}.tmp1a2b"),
            format!("layout-3.new-{this}"),
            "layout-1".to_string(),
            "layout-1.made".to_string(),
            "material.json".to_string(),
        ];
        for name in &names {
            std::fs::write(temp.path().join(name), b"x").unwrap();
        }
        remove_abandoned(temp.path());
        let mut left: Vec<String> = std::fs::read_dir(temp.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [&*names[3], &names[4], &names[2], &names[5]]);
    }
}
