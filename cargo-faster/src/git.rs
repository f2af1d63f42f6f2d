//! What `cargo faster` asks git: the repository a workspace is in, the
//! commit a revision names, and a worktree checked out at that commit.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A git repository, by its top-level directory.
#[derive(Debug, Clone)]
pub struct Repository {
    /// The working tree's top level.
    pub root: PathBuf,
}

impl Repository {
    /// The repository holding `directory`.
    pub fn of(directory: &Path) -> Result<Repository, String> {
        let root = git(directory, &["rev-parse", "--show-toplevel"]).map_err(|error| {
            format!(
                "{} is not in a git repository: {error}",
                directory.display()
            )
        })?;
        Ok(Repository {
            root: PathBuf::from(root),
        })
    }

    /// The full commit `revision` names.
    pub fn commit(&self, revision: &str) -> Result<String, String> {
        git(
            &self.root,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{revision}^{{commit}}"),
            ],
        )
        .map_err(|_| {
            format!(
                "`{revision}` names no commit here; fetch it first (in GitHub Actions: \
                 `actions/checkout` with `fetch-depth: 0`, or `git fetch origin main`)"
            )
        })
    }

    /// The commits from `good` to `bad`, both full hashes, oldest first,
    /// each the first parent of the next (the path `git bisect` walks on
    /// a history of merges, by their first parents): an error where `good`
    /// is not an ancestor of `bad`.
    pub fn path(&self, good: &str, bad: &str) -> Result<Vec<String>, String> {
        let ancestor = ["merge-base", "--is-ancestor", good, bad];
        if good == bad || git(&self.root, &ancestor).is_err() {
            return Err(format!(
                "{} is not an ancestor of {}: give a good revision older than the bad one                  (`cargo faster bisect GOOD..BAD`)",
                name(good, good),
                name(bad, bad)
            ));
        }
        let range = format!("{good}..{bad}");
        let listed = git(
            &self.root,
            &[
                "rev-list",
                "--first-parent",
                "--ancestry-path",
                "--reverse",
                &range,
            ],
        )?;
        let mut path = vec![good.to_string()];
        path.extend(listed.lines().map(str::to_string));
        Ok(path)
    }

    /// `commit`'s subject line and its committer date (ISO 8601).
    pub fn subject_and_date(&self, commit: &str) -> Result<(String, String), String> {
        let shown = git(&self.root, &["show", "-s", "--format=%cI%n%s", commit])?;
        let (date, subject) = shown.split_once('\n').unwrap_or((&shown, ""));
        Ok((subject.to_string(), date.to_string()))
    }

    /// Whether `commit` tracks a file at `path` (from the repository's top
    /// level, `/`-separated as git names it).
    pub fn tracks(&self, commit: &str, path: &str) -> bool {
        git(&self.root, &["cat-file", "-e", &format!("{commit}:{path}")]).is_ok()
    }

    /// A worktree at `path` with `commit` checked out: the one there when
    /// it already is one of this repository's, at that commit, else a new
    /// one (whatever was at `path` is removed: it is ours, under `target/`).
    pub fn worktree(&self, path: &Path, commit: &str) -> Result<(), String> {
        if self.is_worktree_at(path, commit) {
            return Ok(());
        }
        if path.exists() {
            std::fs::remove_dir_all(path)
                .map_err(|error| format!("could not remove {}: {error}", path.display()))?;
        }
        // Forget worktrees whose directories are gone, so the path is free.
        self.forget_removed_worktrees()?;
        let path_text = path.to_string_lossy();
        git(
            &self.root,
            &["worktree", "add", "--force", "--detach", &path_text, commit],
        )
        .map(drop)
    }

    /// Whether `path` is a worktree of this repository with `commit` checked
    /// out.
    pub fn is_worktree_at(&self, path: &Path, commit: &str) -> bool {
        path.join(".git").exists()
            && common_dir(path).is_some_and(|common| Some(common) == self.common_dir())
            && git(path, &["rev-parse", "HEAD"]).ok().as_deref() == Some(commit)
    }

    /// The git directory every worktree of this repository shares (the
    /// main worktree's `.git`), canonical.
    pub fn common_dir(&self) -> Option<PathBuf> {
        common_dir(&self.root)
    }

    /// Removes the worktree at `path`, changes and all: it is ours, under
    /// `target/`.
    pub fn remove_worktree(&self, path: &Path) -> Result<(), String> {
        let path_text = path.to_string_lossy();
        git(&self.root, &["worktree", "remove", "--force", &path_text]).map(drop)
    }

    /// Forgets the worktrees whose directories are gone.
    pub fn forget_removed_worktrees(&self) -> Result<(), String> {
        git(&self.root, &["worktree", "prune"]).map(drop)
    }

    /// The files (from the top level) that differ between `commit` and the
    /// commit `to`, or the working tree where `to` is `None`: changed,
    /// added, removed, and (in the working tree) new files git does not
    /// ignore.
    pub fn changed_between(&self, commit: &str, to: Option<&str>) -> Result<Vec<PathBuf>, String> {
        let (changed, new) = match to {
            Some(to) => (
                git(&self.root, &["diff", "--name-only", commit, to])?,
                String::new(),
            ),
            None => (
                git(&self.root, &["diff", "--name-only", commit])?,
                git(&self.root, &["ls-files", "--others", "--exclude-standard"])?,
            ),
        };
        Ok(changed
            .lines()
            .chain(new.lines())
            .map(PathBuf::from)
            .collect())
    }
}

/// The common git directory of the repository holding `directory`,
/// canonical.
fn common_dir(directory: &Path) -> Option<PathBuf> {
    git(
        directory,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )
    .ok()
    .and_then(|dir| std::fs::canonicalize(dir).ok())
}

/// How messages and reports name `commit`, which `revision` named: its
/// short hash alone when `revision` was a hash (`1a2b3c4`, not forty
/// characters and the same seven again), else both (`main (1a2b3c4)`).
pub fn name(revision: &str, commit: &str) -> String {
    let short = &commit[..7.min(commit.len())];
    let lowercase = revision.to_ascii_lowercase();
    if lowercase.len() >= short.len() && commit.starts_with(&lowercase) {
        short.to_string()
    } else {
        format!("{revision} ({short})")
    }
}

/// Runs `git ARGUMENTS` in `directory`: its trimmed stdout, or its stderr.
fn git(directory: &Path, arguments: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(directory)
        .args(arguments)
        .output()
        .map_err(|error| format!("could not run git: {error}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    } else {
        Err(format!(
            "git {} failed: {}",
            arguments.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_named_once_and_short_a_name_with_its_hash() {
        let commit = "45cac38d2353ca95ba752d35334e8a9d5e1b89aa";
        assert_eq!(name(commit, commit), "45cac38");
        assert_eq!(name("45CAC38D2353", commit), "45cac38");
        assert_eq!(name("origin/main", commit), "origin/main (45cac38)");
        assert_eq!(name("45ca", commit), "45ca (45cac38)");
    }
}
