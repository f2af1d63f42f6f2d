//! `cargo faster clean`: removes `<target>/faster/`, everything `cargo
//! faster` and the comparisons keep there — both revisions' build, the base
//! revisions' worktrees and binaries, every layout, the reports — saying
//! how much it freed, and then the folder itself. A base revision another
//! run is using is left, and said; a run measuring there now makes it stop before removing anything.
//! The worktrees removed are forgotten by git (`git worktree prune`).

use crate::cache::prune::{self, APART};
use crate::cargo::Cargo;
use crate::git::Repository;
use faster_runtime::__internal::format_bytes;
use faster_runtime::__internal::{Held, try_lock};
use std::fs::File;
use std::path::Path;

/// Removes `<target>/faster/` of the project in the current directory
/// (`--manifest-path` may name another); the exit code, or why it could
/// not.
pub fn run(arguments: &[String]) -> Result<u8, String> {
    let manifest_path = match arguments {
        [] => None,
        [flag, path] if flag == "--manifest-path" => Some(path.into()),
        _ => {
            return Err(format!(
                "`cargo faster clean` takes no arguments but --manifest-path PATH, not `{}`",
                arguments.join(" ")
            ));
        }
    };
    let directory = std::env::current_dir()
        .map_err(|error| format!("cannot read the current directory: {error}"))?;
    let cargo = Cargo {
        program: std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
        profile: String::new(),
        flags: Vec::new(),
        manifest_path,
        linker: None,
    };
    let faster = cargo.workspace(&directory)?.target.join("faster");
    let repository = Repository::of(&directory)?;
    let (freed, left) = clean(&faster, &repository)?;
    eprintln!(
        "cargo faster: removed {} ({} freed){}",
        faster.display(),
        format_bytes(freed),
        match left {
            0 => String::new(),
            1 => "; left 1 base revision another run is using".into(),
            left => format!("; left {left} base revisions other runs are using"),
        }
    );
    Ok(0)
}

/// Removes what `faster` holds but the base revisions other runs hold;
/// the bytes freed and how many base revisions were left.
fn clean(faster: &Path, repository: &Repository) -> Result<(u64, usize), String> {
    if !faster.exists() {
        return Ok((0, 0));
    }
    // Held until the end: no comparison starts measuring meanwhile.
    let _measuring = match File::open(faster.join(".lock")) {
        Ok(lock) if !try_lock(&lock).unwrap_or(true) => {
            return Err(format!(
                "a run is measuring in {} now: clean once it has ended",
                faster.display()
            ));
        }
        lock => lock.ok().map(Held::new),
    };
    let before = prune::disk_usage(&[faster])[0];
    let base = faster.join("base");
    let pruned = prune::remove_all(&base, repository);
    let (left, mut failures) = (pruned.kept, pruned.failures);
    for entry in std::fs::read_dir(faster).into_iter().flatten().flatten() {
        let path = entry.path();
        if path == base && left > 0 {
            // The folders in use stay; the base's own target directory,
            // built apart, goes.
            failures.extend(prune::remove_path(&base.join(APART)).err());
        } else if entry.file_name() != ".lock" {
            failures.extend(prune::remove_path(&path).err());
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("; "));
    }
    let freed = before - prune::disk_usage(&[faster])[0];
    if left == 0 {
        // Nothing is left to guard: the lock file and the folder go too,
        // so a clean project has no `target/faster/` at all. (`remove_dir`
        // removes only an empty folder: a file a run wrote meanwhile stays.)
        let _ = std::fs::remove_file(faster.join(".lock"));
        let _ = std::fs::remove_dir(faster);
    }
    Ok((freed, left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::prune::InUse;
    use faster_runtime::__internal::lock;

    /// A git repository with a `target/faster` holding a build, a report,
    /// and two base revisions' folders.
    fn project() -> (tempfile::TempDir, Repository, std::path::PathBuf) {
        let root = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(root.path())
            .status()
            .unwrap();
        assert!(status.success());
        let faster = root.path().join("target/faster");
        for file in [
            "build/release/deps/speed-00000000000000a1",
            "src/demo.faster_x.json",
            "base/1a2b3c4d5e6f/release/bin/speed",
            "base/1a2b3c4d5e6f/release/bin/speed.layouts/material.json",
            "base/6f5e4d3c2b1a/release/bin/speed",
        ] {
            let path = faster.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, [0; 4096]).unwrap();
        }
        let repository = Repository::of(root.path()).unwrap();
        (root, repository, faster)
    }

    #[test]
    fn clean_removes_everything_but_a_base_revision_another_run_holds() {
        let (_root, repository, faster) = project();
        let held = InUse::take(&faster.join("base/6f5e4d3c2b1a")).unwrap();
        let (freed, left) = clean(&faster, &repository).unwrap();
        assert_eq!(left, 1);
        assert!(freed >= 3 * 4096, "{freed}");
        assert!(!faster.join("build").exists());
        assert!(!faster.join("src").exists());
        assert!(!faster.join("base/1a2b3c4d5e6f").exists());
        assert!(faster.join("base/6f5e4d3c2b1a/release/bin/speed").exists());
        drop(held);
        std::fs::write(faster.join(".lock"), "").unwrap();
        let (_, left) = clean(&faster, &repository).unwrap();
        assert_eq!(left, 0);
        assert!(!faster.join("base/6f5e4d3c2b1a").exists());
        assert!(!faster.exists(), "no empty target/faster/ left");
        assert_eq!(
            clean(&faster, &repository).unwrap(),
            (0, 0),
            "cleaned twice"
        );
    }

    #[test]
    fn clean_refuses_while_a_run_measures_there_and_removes_nothing() {
        let (_root, repository, faster) = project();
        let measuring = File::create(faster.join(".lock")).unwrap();
        lock(&measuring).unwrap();
        // flock locks are per open file: a second open sees it held.
        let refused = clean(&faster, &repository).unwrap_err();
        assert!(refused.contains("a run is measuring in"), "{refused}");
        assert!(faster.join("build").exists());
    }
}
