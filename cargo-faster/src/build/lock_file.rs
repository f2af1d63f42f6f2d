//! The lock file a base revision is built with where its commit tracks
//! none: a copy of the current workspace's, so both revisions build the
//! same versions of their dependencies, and the hash of that copy, which
//! the base's cache [`Key`](crate::cache::Key) holds.

use crate::cache::key;
use crate::git::Repository;
use std::path::Path;

/// A hash of the current workspace's `Cargo.lock` (at `workspace`, its
/// root) where `commit` of `repository` tracks none there: the base is
/// built with a copy of it ([`share_lock_file`]), so its key records which.
/// `None` where the commit tracks its own, or there is none to copy.
pub fn copied_lock_file(repository: &Repository, commit: &str, workspace: &Path) -> Option<String> {
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    let inside = canonical(workspace)?
        .strip_prefix(canonical(&repository.root)?)
        .ok()?
        .join("Cargo.lock");
    // git names paths with `/` on every system.
    let tracked: Vec<String> = inside
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if repository.tracks(commit, &tracked.join("/")) {
        return None;
    }
    let contents = std::fs::read(workspace.join("Cargo.lock")).ok()?;
    Some(key::content_hash(&contents))
}

/// Gives a base revision whose commit tracks no `Cargo.lock` the current
/// workspace's, so both builds use the same versions of their
/// dependencies; `current` and `base` are the workspace's root in each.
/// One copied for an earlier build is replaced: the current one may have
/// changed since (`cargo update`), which is why the base is rebuilt.
pub fn share_lock_file(current: &Path, base: &Path) -> Result<(), String> {
    if !base.is_dir() {
        // The workspace is not where the base commit has it: cargo's own
        // error on building there says so better than a failed copy.
        return Ok(());
    }
    let (current, base) = (current.join("Cargo.lock"), base.join("Cargo.lock"));
    std::fs::copy(&current, &base).map(drop).map_err(|error| {
        format!(
            "could not copy {} to {}: {error}",
            current.display(),
            base.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(directory: &Path, arguments: &[&str]) -> String {
        let output = Command::new("git")
            .arg("-C")
            .arg(directory)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(arguments)
            .output()
            .unwrap();
        assert!(output.status.success(), "git {arguments:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    #[test]
    fn a_base_that_tracks_no_lock_file_is_keyed_by_the_copy_it_gets() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("repo");
        let workspace = root.join("rust");
        std::fs::create_dir_all(&workspace).unwrap();
        git(&root, &["init", "-q"]);
        std::fs::write(workspace.join("Cargo.toml"), "[workspace]\n").unwrap();
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", "no lock file"]);
        let untracked = git(&root, &["rev-parse", "HEAD"]);
        let repository = Repository { root: root.clone() };
        let lock = workspace.join("Cargo.lock");

        assert_eq!(
            copied_lock_file(&repository, &untracked, &workspace),
            None,
            "none to copy"
        );
        std::fs::write(&lock, "version = 4\n# itoa 1.0.14\n").unwrap();
        let before = copied_lock_file(&repository, &untracked, &workspace);
        assert!(before.is_some());
        // `cargo update`: the same commit is keyed otherwise.
        std::fs::write(&lock, "version = 4\n# itoa 1.0.15\n").unwrap();
        let after = copied_lock_file(&repository, &untracked, &workspace);
        assert!(after.is_some());
        assert_ne!(after, before);

        // A commit that tracks its own is fixed by it, whatever the current one.
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", "lock file"]);
        let tracked = git(&root, &["rev-parse", "HEAD"]);
        assert_eq!(copied_lock_file(&repository, &tracked, &workspace), None);
        assert_eq!(after, copied_lock_file(&repository, &untracked, &workspace));

        // The copy an earlier build got is replaced by the current one.
        let base = temp.path().join("base");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("Cargo.lock"), "version = 4\n# itoa 1.0.14\n").unwrap();
        share_lock_file(&workspace, &base).unwrap();
        assert_eq!(
            share_lock_file(&workspace, &temp.path().join("moved")),
            Ok(())
        );
        assert_eq!(
            std::fs::read(base.join("Cargo.lock")).unwrap(),
            std::fs::read(&lock).unwrap()
        );
    }
}
