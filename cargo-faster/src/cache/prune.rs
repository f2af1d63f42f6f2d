//! Keeping `<target>/faster/` from growing without bound: every base
//! commit leaves a worktree and its test binaries in `base/`, so a few are
//! kept — the most recently used — and the rest removed, worktree and all;
//! the target directories no run builds in any more are removed.
//!
//! Each commit's folder holds a file, `used`, whose modification time says
//! when a run last used it, and which a run holds a shared lock on while it
//! uses the folder: pruning takes the lock exclusively before removing a
//! folder, so it never removes one another run is building or measuring.
//! Only folders of this repository's worktrees, or of none (a repository
//! since deleted, a worktree never laid out), are pruned: a target
//! directory shared by several repositories keeps a few of each.

use crate::git::Repository;
use faster_runtime::__internal::{Held, lock_shared, try_lock};
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many base commits of a repository `<target>/faster/base/` keeps.
pub const KEPT: usize = 3;

/// The folder under `<target>/faster/base/` that is cargo's target
/// directory for the base commits built apart from the current code, not a
/// commit's.
pub const APART: &str = "target";

/// The folder under `<target>/faster/` that was cargo's target directory
/// for the current code before both revisions shared one.
const FORMER_CURRENT: &str = "current";

/// The file in a commit's folder that says when it was last used, and
/// whose lock says it is in use.
const USED: &str = "used";

/// A hold on a base commit's folder, marked used now: while it lives, no
/// run prunes the folder.
#[derive(Debug)]
pub struct InUse {
    folder: PathBuf,
    _used: Held,
}

impl InUse {
    /// Marks `folder` used now, creating it, and holds it until dropped.
    pub fn take(folder: &Path) -> Result<InUse, String> {
        let path = folder.join(USED);
        let failed = |error: std::io::Error| format!("{}: {error}", path.display());
        // A run that was pruning the folder when the lock was asked for has
        // removed the file by the time the lock is had: make it again.
        for _ in 0..3 {
            std::fs::create_dir_all(folder).map_err(failed)?;
            let used = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(failed)?;
            used.set_modified(SystemTime::now()).map_err(failed)?;
            lock_shared(&used).map_err(failed)?;
            if path.exists() {
                return Ok(InUse {
                    folder: folder.to_path_buf(),
                    _used: Held::new(used),
                });
            }
        }
        Err(format!(
            "{} is removed as soon as it is made",
            folder.display()
        ))
    }

    /// The folder held.
    pub fn folder(&self) -> &Path {
        &self.folder
    }
}

/// What pruning did, and what is left.
#[derive(Debug, Clone, PartialEq)]
pub struct Pruned {
    /// The base commits' folders left.
    pub kept: usize,
    /// The folders removed.
    pub removed: usize,
    /// The folders that could not be removed, with why.
    pub failures: Vec<String>,
}

impl Pruned {
    /// One line for the user: "target/faster keeps 3 base revisions
    /// (38.2 MiB) and the build both revisions share (292 MiB); removed 2
    /// older ones", `faster` shown as given, with the bytes the base
    /// revisions and the shared build hold on disk (see [`disk_usage`]).
    pub fn summary(&self, faster: &Path, (base, shared): (u64, u64)) -> String {
        let revisions = if self.kept == 1 {
            "revision"
        } else {
            "revisions"
        };
        let size = faster_runtime::__internal::format_bytes;
        let mut line = format!(
            "{} keeps {} base {revisions} ({}) and the build both revisions share ({})",
            faster.display(),
            self.kept,
            size(base),
            size(shared)
        );
        match self.removed {
            0 => {}
            1 => line.push_str("; removed 1 older one"),
            removed => line.push_str(&format!("; removed {removed} older ones")),
        }
        line
    }
}

/// Whose a base commit's folder is, by the worktree in it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Owner {
    /// A worktree of the repository that prunes.
    ThisRepository,
    /// A worktree of another repository that exists.
    Another,
    /// No worktree, or one of a repository that is gone.
    Nobody,
}

/// A base commit's folder.
#[derive(Debug)]
struct Folder {
    path: PathBuf,
    /// The worktree in it, if any.
    worktree: Option<PathBuf>,
    owner: Owner,
    last_used: SystemTime,
}

/// Removes the least recently used of this repository's base commits
/// under `base` (`<target>/faster/base`) beyond the `kept` most recent,
/// never `in_use`'s folder nor one another run holds (see [`InUse`]).
pub fn prune(base: &Path, in_use: &Path, repository: &Repository, kept: usize) -> Pruned {
    let paths = folder_paths(base);
    let total = paths.len();
    if total <= kept {
        // Nothing to remove: spare git the question of whose they are.
        return Pruned {
            kept: total,
            removed: 0,
            failures: Vec::new(),
        };
    }
    let folders = folders(paths, repository);
    let (mut removed, mut failures) = (0, Vec::new());
    for folder in beyond_the_kept(folders, in_use, kept) {
        match remove(&folder, repository) {
            Ok(true) => removed += 1,
            Ok(false) => {}
            Err(error) => failures.push(error),
        }
    }
    if removed > 0 {
        // The worktrees whose folders went without `git worktree remove`.
        let _ = repository.forget_removed_worktrees();
    }
    Pruned {
        kept: total - removed,
        removed,
        failures,
    }
}

/// Removes every base commit's folder under `base` that no other run holds
/// (see [`InUse`]), whosever it is (`cargo faster clean`).
pub fn remove_all(base: &Path, repository: &Repository) -> Pruned {
    let paths = folder_paths(base);
    let total = paths.len();
    let (mut removed, mut failures) = (0, Vec::new());
    for folder in folders(paths, repository) {
        match remove(&folder, repository) {
            Ok(true) => removed += 1,
            Ok(false) => {}
            Err(error) => failures.push(error),
        }
    }
    let _ = repository.forget_removed_worktrees();
    Pruned {
        kept: total - removed,
        removed,
        failures,
    }
}

/// Every base commit's folder under `base`.
pub(super) fn folder_paths(base: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(base) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter(|entry| entry.file_name() != APART)
        .map(|entry| entry.path())
        .collect()
}

/// The folders at `paths`, with whose each is and when it was last used.
fn folders(paths: Vec<PathBuf>, repository: &Repository) -> Vec<Folder> {
    let ours = repository.common_dir();
    paths
        .into_iter()
        .map(|path| {
            let worktree = worktree_in(&path.join("src"));
            Folder {
                owner: owner(worktree.as_deref(), ours.as_deref()),
                last_used: last_used(&path),
                worktree,
                path,
            }
        })
        .collect()
}

/// Those of the base commits' folders at `paths` a run in `repository` may
/// remove or empty: its own worktrees', and nobody's (see [`Owner`]).
pub(super) fn prunable(paths: Vec<PathBuf>, repository: &Repository) -> Vec<PathBuf> {
    folders(paths, repository)
        .into_iter()
        .filter(|folder| folder.owner != Owner::Another)
        .map(|folder| folder.path)
        .collect()
}

/// Those of `folders` to remove: this repository's and nobody's, but for
/// `in_use`'s and the `kept` - 1 used most recently after it.
fn beyond_the_kept(mut folders: Vec<Folder>, in_use: &Path, kept: usize) -> Vec<Folder> {
    folders.retain(|folder| folder.owner != Owner::Another);
    folders.sort_by_key(|folder| (folder.path != in_use, std::cmp::Reverse(folder.last_used)));
    folders.into_iter().skip(kept.max(1)).collect()
}

/// When a run last used `folder`: its `used` file's modification time, or
/// the folder's own for one from before that file.
fn last_used(folder: &Path) -> SystemTime {
    let modified = |path: &Path| std::fs::metadata(path).and_then(|metadata| metadata.modified());
    modified(&folder.join(USED))
        .or_else(|_| modified(folder))
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// The worktree under `sources` (`<commit>/src`): the first directory
/// holding a `.git` file, breadth first, through real directories only
/// (the links beside it lead to path dependencies outside the repository).
fn worktree_in(sources: &Path) -> Option<PathBuf> {
    const DEEPEST: usize = 32;
    let mut level = vec![sources.to_path_buf()];
    for _ in 0..DEEPEST {
        if let Some(found) = level
            .iter()
            .find(|directory| directory.join(".git").is_file())
        {
            return Some(found.clone());
        }
        level = level
            .iter()
            .filter_map(|directory| std::fs::read_dir(directory).ok())
            .flat_map(|entries| entries.flatten())
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .map(|entry| entry.path())
            .collect();
        if level.is_empty() {
            break;
        }
    }
    None
}

/// Whose `worktree` is: its `.git` file names its git directory, inside
/// the common git directory of its repository (`ours`, for the one that
/// prunes).
fn owner(worktree: Option<&Path>, ours: Option<&Path>) -> Owner {
    let git_dir = worktree.and_then(|worktree| {
        let link = std::fs::read_to_string(worktree.join(".git")).ok()?;
        let named = link.strip_prefix("gitdir:")?.trim();
        // A relative path is from the worktree (`worktree.useRelativePaths`).
        std::fs::canonicalize(worktree.join(named)).ok()
    });
    match git_dir {
        None => Owner::Nobody,
        Some(git_dir) if ours.is_some_and(|ours| git_dir.starts_with(ours)) => {
            Owner::ThisRepository
        }
        Some(_) => Owner::Another,
    }
}

/// Removes `folder`, its worktree first, unless another run holds it:
/// whether it was removed.
fn remove(folder: &Folder, repository: &Repository) -> Result<bool, String> {
    let Some(_held) = hold_exclusively(&folder.path) else {
        return Ok(false);
    };
    if let (Some(worktree), Owner::ThisRepository) = (&folder.worktree, folder.owner) {
        // Best effort: removing the folder and forgetting removed
        // worktrees afterwards comes to the same.
        let _ = repository.remove_worktree(worktree);
    }
    remove_path(&folder.path).map(|()| true)
}

/// Removes the folder or file at `path`, which may be gone already; why
/// it could not, otherwise.
pub fn remove_path(path: &Path) -> Result<(), String> {
    let removed = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match removed {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("could not remove {}: {error}", path.display()))
        }
        _ => Ok(()),
    }
}

/// An exclusive lock on the `used` file of the base commit's `folder`,
/// `Some(None)` when there is no such file (a folder from before it),
/// `None` when another run holds it (see [`InUse`]).
pub(super) fn hold_exclusively(folder: &Path) -> Option<Option<Held>> {
    let Ok(file) = File::open(folder.join(USED)) else {
        return Some(None);
    };
    match try_lock(&file) {
        Ok(true) => Some(Some(Held::new(file))),
        Ok(false) => None,
        // A file system without locks: nothing else can hold it either.
        Err(_) => Some(Some(Held::new(file))),
    }
}

/// The target directories under `faster` (`<target>/faster`) no run
/// builds in any more: the current code's of an older cargo faster, and
/// `base/target` unless the base is built `apart` now. A base's test
/// binaries and their layouts' material are copies and links of their own,
/// which outlive it.
pub fn remove_unused_targets(faster: &Path, apart: bool) {
    let _ = std::fs::remove_dir_all(faster.join(FORMER_CURRENT));
    if !apart {
        let _ = std::fs::remove_dir_all(faster.join("base").join(APART));
    }
}

/// The size on disk of everything under each of `paths`, links not
/// followed and a file linked more than once counted once, under the first
/// path it is found in (the layouts' material links cargo's libraries).
pub fn disk_usage(paths: &[&Path]) -> Vec<u64> {
    let mut seen = HashSet::new();
    let mut under = |path: &Path| {
        let mut bytes = 0;
        let mut pending = vec![path.to_path_buf()];
        while let Some(path) = pending.pop() {
            let Ok(metadata) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if metadata.is_dir() {
                let entries = std::fs::read_dir(&path).into_iter().flatten().flatten();
                pending.extend(entries.map(|entry| entry.path()));
            }
            if first_sight(&metadata, &mut seen) {
                bytes += size_on_disk(&metadata);
            }
        }
        bytes
    };
    paths.iter().map(|path| under(path)).collect()
}

#[cfg(unix)]
fn first_sight(metadata: &std::fs::Metadata, seen: &mut HashSet<(u64, u64)>) -> bool {
    use std::os::unix::fs::MetadataExt;
    metadata.nlink() < 2 || seen.insert((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn first_sight(_: &std::fs::Metadata, _: &mut HashSet<(u64, u64)>) -> bool {
    true
}

#[cfg(unix)]
fn size_on_disk(metadata: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    metadata.blocks() * 512
}

#[cfg(not(unix))]
fn size_on_disk(metadata: &std::fs::Metadata) -> u64 {
    metadata.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::Duration;

    fn git(directory: &Path, arguments: &[&str]) {
        let status = Command::new("git")
            .arg("-C")
            .arg(directory)
            .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
            .args(["-c", "commit.gpgsign=false"])
            .args(arguments)
            .output()
            .unwrap()
            .status;
        assert!(status.success(), "git {arguments:?}");
    }

    /// A fake base commit's folder under `base`, last used `age` ago, with
    /// a test binary of 100 kB.
    fn fake_base(base: &Path, name: &str, age: u64) -> PathBuf {
        let folder = base.join(name);
        std::fs::create_dir_all(folder.join("release/bin")).unwrap();
        std::fs::write(folder.join("release/bin/speed-1a2b"), vec![1; 100_000]).unwrap();
        File::create(folder.join(USED)).unwrap();
        last_used_hours_ago(&folder, age);
        folder
    }

    fn last_used_hours_ago(folder: &Path, hours: u64) {
        let used = OpenOptions::new().write(true).open(folder.join(USED));
        let then = SystemTime::now() - Duration::from_secs(3600 * hours);
        used.unwrap().set_modified(then).unwrap();
    }

    #[test]
    fn the_most_recently_used_bases_are_kept_and_none_in_use() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let root = dir.join("repository");
        std::fs::create_dir_all(&root).unwrap();
        git(&root, &["init", "--quiet"]);
        git(
            &root,
            &["commit", "--quiet", "--allow-empty", "--message", "base"],
        );
        let repository = Repository { root: root.clone() };
        let base = dir.join("target/faster/base");
        std::fs::create_dir_all(base.join(APART)).unwrap();

        // In use by this run, though the least recently used before it.
        let current = fake_base(&base, "aaaa", 9);
        // Used an hour ago, three hours ago, four hours ago.
        let recent = [fake_base(&base, "cccc", 1), fake_base(&base, "dddd", 3)];
        let older = fake_base(&base, "eeee", 4);
        // This repository's worktree, five hours ago.
        let worktree = fake_base(&base, "bbbb", 5);
        let worktree_path = worktree.join("src");
        git(
            &root,
            &[
                "worktree",
                "add",
                "--quiet",
                "--detach",
                &worktree_path.to_string_lossy(),
            ],
        );
        // Held by another run, and another repository's: kept, however old.
        let held = fake_base(&base, "ffff", 8);
        let _other_run = InUse::take(&held).unwrap();
        last_used_hours_ago(&held, 8);
        let elsewhere = fake_base(&base, "gggg", 7);
        let other_git_dir = dir.join("other/.git/worktrees/src");
        std::fs::create_dir_all(&other_git_dir).unwrap();
        std::fs::create_dir_all(elsewhere.join("src")).unwrap();
        let link = format!("gitdir: {}\n", other_git_dir.display());
        std::fs::write(elsewhere.join("src/.git"), link).unwrap();

        let pruned = prune(&base, &current, &repository, 3);
        assert_eq!((pruned.kept, pruned.removed), (5, 2), "{pruned:?}");
        assert!(pruned.failures.is_empty(), "{pruned:?}");
        for kept in [&current, &recent[0], &recent[1], &held, &elsewhere] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        assert!(!older.exists() && !worktree.exists());
        assert!(base.join(APART).exists());
        let listed = Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(["worktree", "list", "--porcelain"])
            .output()
            .unwrap();
        let listed = String::from_utf8_lossy(&listed.stdout);
        // By its path's end: a commit's hash (dated now) held `bbbb` once
        // in 200 runs.
        assert!(!listed.contains("bbbb/src"), "{listed}");
        // Five binaries of 100 kB, and the folders around them; a binary
        // linked from two places counted once, where it is found first.
        let linked = dir.join("target/faster/build/speed-1a2b");
        std::fs::create_dir_all(linked.parent().unwrap()).unwrap();
        std::fs::hard_link(current.join("release/bin/speed-1a2b"), &linked).unwrap();
        let bytes = disk_usage(&[&base]);
        assert!((500_000..1_000_000).contains(&bytes[0]), "{bytes:?}");
        let both = disk_usage(&[&linked, &base]);
        assert!((100_000..200_000).contains(&both[0]), "{both:?}");
        assert!(both[1] < bytes[0] - 90_000, "{both:?}");

        let again = prune(&base, &current, &repository, 3);
        assert_eq!(
            (again.kept, again.removed),
            (5, 0),
            "nothing more to remove"
        );
    }

    #[test]
    fn the_summary_says_what_is_kept_and_removed() {
        let pruned = |kept, removed| Pruned {
            kept,
            removed,
            failures: Vec::new(),
        };
        let (faster, bytes) = (Path::new("target/faster"), (38 << 20, 412 << 20));
        assert_eq!(
            pruned(3, 2).summary(faster, bytes),
            "target/faster keeps 3 base revisions (38.0 MiB) and the build both revisions \
             share (412 MiB); removed 2 older ones"
        );
        assert_eq!(
            pruned(1, 1).summary(faster, bytes),
            "target/faster keeps 1 base revision (38.0 MiB) and the build both revisions share \
             (412 MiB); removed 1 older one"
        );
        assert_eq!(
            pruned(2, 0).summary(faster, bytes),
            "target/faster keeps 2 base revisions (38.0 MiB) and the build both revisions share \
             (412 MiB)"
        );
    }
}
