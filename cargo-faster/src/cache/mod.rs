//! The cache of base builds under `<target>/faster/base/`: each commit's
//! test binaries with the record of what built them (`build.json`, keyed by
//! [`Key`]), the pruning that keeps a few commits only (`prune`), the
//! layouts of the base commits a run did not measure (`idle_layouts`), and
//! the layout folders of test binaries superseded since (`stale_layouts`).

pub mod idle_layouts;
pub mod key;
pub mod prune;
pub mod stale_layouts;

use crate::executable::Executable;
use crate::{relink, sources};
use faster_runtime::__internal::Identity;
use faster_runtime::__internal::Layouts;
use faster_runtime::__internal::write_atomically;
pub use key::Key;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A base build's `build.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// What built it.
    key: Key,
    /// The path packages outside the repository it used, as they were.
    shared: Vec<Shared>,
    /// Its test binaries, copied next to the record.
    executables: Vec<Kept>,
}

/// A test binary the cache keeps, with what it was when kept: what comes
/// back is checked against it, and a binary changed since (truncated on a
/// full disk, overwritten) is built again, never run.
#[derive(Debug, Serialize, Deserialize)]
struct Kept {
    #[serde(flatten)]
    executable: Executable,
    /// The copy's identity once written: its size and time, which a copy
    /// restored from a CI cache at the same path keeps (see [`Identity`]).
    identity: Option<Identity>,
    /// Whether its layouts' material was kept with it.
    layouts: bool,
}

/// A path package outside the repository a base build used, by its
/// directory, with its fingerprint then (see [`sources::fingerprint`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shared {
    path: PathBuf,
    fingerprint: String,
}

/// The fingerprint of each of `directories`, to record with a build that
/// used them.
pub fn fingerprints(directories: &[PathBuf]) -> Vec<Shared> {
    directories
        .iter()
        .map(|directory| Shared {
            path: directory.clone(),
            fingerprint: sources::fingerprint(directory),
        })
        .collect()
}

/// What the cache holds for a base build.
#[derive(Debug, PartialEq)]
pub enum Lookup {
    /// Its test binaries, built from the same key.
    Built(Vec<Executable>),
    /// Nothing: it was never built (or its record is gone).
    Absent,
    /// A build it cannot use, and why, to finish "is rebuilt: ...".
    Stale(String),
}

/// The binaries `build_dir` caches for `key`, if all are there and the
/// directories outside the repository they were built with are unchanged;
/// else why not. Configuration files under `root` are named from it.
pub fn cached(build_dir: &Path, key: &Key, root: &Path) -> Lookup {
    let Ok(bytes) = std::fs::read(build_dir.join("build.json")) else {
        return Lookup::Absent;
    };
    let record = match serde_json::from_slice::<Record>(&bytes) {
        Ok(record) => record,
        Err(error) if serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_ok() => {
            return Lookup::Stale(format!(
                "its build.json is from another version of cargo faster ({error})"
            ));
        }
        Err(error) => {
            return Lookup::Stale(format!("its build.json cannot be read ({error})"));
        }
    };
    if let Some(elsewhere) = record.made_elsewhere(build_dir) {
        return Lookup::Stale(format!(
            "its build.json was written for {}, not here (a copy of another checkout's \
             target/): what it names, and the layouts made from it, are that checkout's",
            elsewhere.display()
        ));
    }
    let mut changes = key.changes_since(&record.key, root);
    changes.extend(
        record
            .shared
            .iter()
            .filter(|shared| sources::fingerprint(&shared.path) != shared.fingerprint)
            .map(|shared| shared.path.display().to_string()),
    );
    if !changes.is_empty() {
        return Lookup::Stale(format!("{} changed since it was built", listed(&changes)));
    }
    if let Some(why) = record.executables.iter().find_map(Kept::fault) {
        return Lookup::Stale(why);
    }
    Lookup::Built(
        record
            .executables
            .into_iter()
            .map(|kept| kept.executable)
            .collect(),
    )
}

impl Record {
    /// The folder this record was written for, where it is not
    /// `build_dir`: a checkout copied whole (`cp -a repo repo2`) carries
    /// its `target/` along, and the record names the binaries it kept
    /// there by absolute paths, so a run in the copy would use the
    /// original's binaries and relink layouts into the original's
    /// `target/`, under the copy's lock. The binaries' material names the
    /// original's files too, so such a record is not re-rooted: the base
    /// is built again, in the copy's own cache.
    fn made_elsewhere(&self, build_dir: &Path) -> Option<PathBuf> {
        let bin = build_dir.join("bin");
        self.executables
            .iter()
            .map(|kept| &kept.executable.path)
            .find(|path| path.parent() != Some(bin.as_path()))
            .map(|path| {
                // `<build dir>/bin/<binary>`: the build dir it was written for.
                path.ancestors().nth(2).unwrap_or(path).to_path_buf()
            })
    }
}

impl Kept {
    /// Why this binary cannot be used as kept, where it cannot.
    fn fault(&self) -> Option<String> {
        let path = &self.executable.path;
        if !path.exists() {
            return Some(format!("{} is gone", path.display()));
        }
        if Identity::of(path) != self.identity {
            return Some(format!("{} changed since it was kept", path.display()));
        }
        let damaged = self.layouts.then(|| relink::damaged(path)).flatten()?;
        Some(format!(
            "{} cannot be relinked in layouts ({damaged})",
            path.display()
        ))
    }
}

/// `names` in a sentence, the first three of them: "a", "a and b", "a, b,
/// c and 2 more".
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 3;
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [first @ .., last] if names.len() <= SHOWN => format!("{} and {last}", first.join(", ")),
        _ => format!(
            "{} and {} more",
            names[..SHOWN].join(", "),
            names.len() - SHOWN
        ),
    }
}

/// Copies `built` into `build_dir` (the next base build overwrites cargo's
/// own) and records them under `key`, with the `shared` directories'
/// fingerprints, the record written last and whole.
pub fn keep(
    built: &[Executable],
    build_dir: &Path,
    key: &Key,
    shared: Vec<Shared>,
) -> Result<Vec<Executable>, String> {
    let bin = build_dir.join("bin");
    let _ = std::fs::remove_file(build_dir.join("build.json"));
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).map_err(|error| format!("{}: {error}", bin.display()))?;
    let mut kept = Vec::with_capacity(built.len());
    for executable in built {
        let file_name = executable
            .path
            .file_name()
            .ok_or("a test binary without a name")?;
        let copy = bin.join(file_name);
        std::fs::copy(&executable.path, &copy)
            .map_err(|error| format!("could not copy {}: {error}", executable.path.display()))?;
        // What relinking it in other layouts needs goes with it (a binary
        // not linked through faster-link has nothing to keep).
        let layouts = match Layouts::of_executable(&executable.path) {
            Ok(layouts) => layouts.keep_for_copy(&copy).map(|_| true)?,
            Err(_) => false,
        };
        kept.push(Kept {
            identity: Identity::of(&copy),
            executable: Executable {
                path: copy,
                directory: executable.directory.clone(),
            },
            layouts,
        });
    }
    let record = Record {
        key: key.clone(),
        shared,
        executables: kept,
    };
    let path = build_dir.join("build.json");
    write_atomically(&path, |out| {
        serde_json::to_writer_pretty(out, &record).map_err(Into::into)
    })
    .map_err(|error| format!("could not write {}: {error}", path.display()))?;
    Ok(record
        .executables
        .into_iter()
        .map(|kept| kept.executable)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn key(rustc: &str) -> Key {
        Key {
            commit: "1a2b".into(),
            rustc: rustc.into(),
            profile: "release".into(),
            flags: Vec::new(),
            manifest_path: None,
            linker: None,
            config_files: BTreeMap::new(),
            environment: BTreeMap::new(),
            lock_file: None,
        }
    }

    /// A fresh temporary folder holding one built "binary".
    fn one_built() -> (tempfile::TempDir, [Executable; 1]) {
        let temp = tempfile::tempdir().unwrap();
        let binary = temp.path().join("built-1a2b");
        std::fs::write(&binary, b"not really a binary").unwrap();
        let built = [Executable {
            path: binary,
            directory: temp.path().to_path_buf(),
        }];
        (temp, built)
    }

    #[test]
    fn the_cache_holds_only_what_its_key_built() {
        let (temp, built) = one_built();
        let dir = temp.path();
        let key = key("rustc 1.95.0");
        let build_dir = dir.join("release");
        let outside = dir.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        assert_eq!(cached(&build_dir, &key, dir), Lookup::Absent);
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, shared).unwrap();
        assert_eq!(kept[0].path, build_dir.join("bin").join("built-1a2b"));
        assert_eq!(cached(&build_dir, &key, dir), Lookup::Built(kept.clone()));
        let mut other = self::key("rustc 1.96.0");
        other
            .environment
            .insert("RUSTFLAGS".into(), "-Copt-level=1".into());
        assert_eq!(
            cached(&build_dir, &other, dir),
            Lookup::Stale("the compiler and RUSTFLAGS changed since it was built".into())
        );
        std::fs::write(outside.join("lib.rs"), "").unwrap();
        assert_eq!(
            cached(&build_dir, &key, dir),
            Lookup::Stale(format!("{} changed since it was built", outside.display())),
            "a directory outside the repository changed"
        );
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, shared).unwrap();
        assert_eq!(cached(&build_dir, &key, dir), Lookup::Built(kept.clone()));
        // A copy cut short (a full disk) is built again, not run.
        let bytes = std::fs::read(&kept[0].path).unwrap();
        std::fs::write(&kept[0].path, &bytes[..bytes.len() / 2]).unwrap();
        assert_eq!(
            cached(&build_dir, &key, dir),
            Lookup::Stale(format!(
                "{} changed since it was kept",
                kept[0].path.display()
            ))
        );
        std::fs::remove_file(&kept[0].path).unwrap();
        assert_eq!(
            cached(&build_dir, &key, dir),
            Lookup::Stale(format!("{} is gone", kept[0].path.display()))
        );
    }

    /// Replaces every file under `dir` by a copy of it, with its
    /// modification time, made while it still exists, so under another
    /// inode: a target directory saved and restored at the same path, as a
    /// CI cache does.
    #[cfg(unix)]
    fn restore_under_new_inodes(dir: &Path) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                restore_under_new_inodes(&path);
                continue;
            }
            let modified = entry.metadata().unwrap().modified().unwrap();
            let copy = dir.join(".restoring");
            std::fs::copy(&path, &copy).unwrap();
            let file = std::fs::File::options().write(true).open(&copy).unwrap();
            file.set_modified(modified).unwrap();
            std::fs::rename(&copy, &path).unwrap();
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_base_build_restored_under_new_inodes_is_used_not_rebuilt() {
        use std::os::unix::fs::MetadataExt;
        let (temp, built) = one_built();
        let dir = temp.path();
        let key = key("rustc 1.95.0");
        let build_dir = dir.join("release");
        let kept = keep(&built, &build_dir, &key, Vec::new()).unwrap();
        let inode = |path: &Path| std::fs::metadata(path).unwrap().ino();
        let before = inode(&kept[0].path);
        restore_under_new_inodes(&build_dir);
        assert_ne!(inode(&kept[0].path), before, "restored under a new inode");
        assert_eq!(cached(&build_dir, &key, dir), Lookup::Built(kept.clone()));
    }

    /// Copies every file under `from` to `to`, times kept: `cp -a`.
    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let (path, copy) = (entry.path(), to.join(entry.file_name()));
            if path.is_dir() {
                copy_tree(&path, &copy);
                continue;
            }
            std::fs::copy(&path, &copy).unwrap();
            let modified = entry.metadata().unwrap().modified().unwrap();
            let file = std::fs::File::options().write(true).open(&copy).unwrap();
            file.set_modified(modified).unwrap();
        }
    }

    #[test]
    fn a_base_build_copied_with_its_checkout_is_built_again_not_used_from_the_original() {
        let (temp, built) = one_built();
        let dir = temp.path();
        let key = key("rustc 1.95.0");
        let original = dir.join("repo/target/faster/base/1a2b/release");
        let kept = keep(&built, &original, &key, Vec::new()).unwrap();
        let copied = dir.join("repo3/target/faster/base/1a2b/release");
        copy_tree(&original, &copied);
        assert_eq!(
            cached(&copied, &key, &dir.join("repo3")),
            Lookup::Stale(format!(
                "its build.json was written for {}, not here (a copy of another checkout's \
                 target/): what it names, and the layouts made from it, are that checkout's",
                original.display()
            ))
        );
        // The original still uses its own, and the copy's rebuilt record
        // names the copy's binaries.
        assert_eq!(
            cached(&original, &key, &dir.join("repo")),
            Lookup::Built(kept)
        );
        let rekept = keep(&built, &copied, &key, Vec::new()).unwrap();
        assert!(rekept[0].path.starts_with(&copied));
        assert_eq!(
            cached(&copied, &key, &dir.join("repo3")),
            Lookup::Built(rekept)
        );
    }

    #[test]
    fn a_record_of_another_version_or_cut_short_is_stale_and_says_which() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        // The record before configuration files and variables were keyed.
        let older = r#"{"key": {"commit": "1a2b", "rustc": "rustc 1.95.0", "profile": "release",
            "flags": [], "manifest_path": null, "linker": null}, "shared": [], "executables": []}"#;
        std::fs::write(dir.join("build.json"), older).unwrap();
        let stale = |dir: &Path| match cached(dir, &key("rustc 1.95.0"), dir) {
            Lookup::Stale(why) => why,
            other => panic!("{other:?}"),
        };
        let why = stale(dir);
        assert!(
            why.starts_with(
                "its build.json is from another version of cargo faster (missing field"
            ),
            "{why}"
        );
        // Cut short, it is said to be unreadable, not older.
        std::fs::write(dir.join("build.json"), &older[..40]).unwrap();
        let why = stale(dir);
        assert!(
            why.starts_with("its build.json cannot be read (EOF"),
            "{why}"
        );
    }

    #[test]
    fn changes_are_listed_in_a_sentence() {
        let names = |count: usize| -> Vec<String> { (1..=count).map(|n| n.to_string()).collect() };
        assert_eq!(listed(&names(1)), "1");
        assert_eq!(listed(&names(2)), "1 and 2");
        assert_eq!(listed(&names(3)), "1, 2 and 3");
        assert_eq!(listed(&names(5)), "1, 2, 3 and 2 more");
    }
}
