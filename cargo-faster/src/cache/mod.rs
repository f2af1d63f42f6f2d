//! The cache of base builds under `<target>/faster/base/`: each commit's
//! test binaries with the record of what built them (`build.json`, keyed by
//! [`Key`]), and the pruning that keeps a few commits only (`prune`).

pub mod key;
pub mod prune;

use crate::executable::Executable;
use crate::sources;
use faster_runtime::layout::Layouts;
use faster_runtime::output::files::write_atomically;
pub use key::Key;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A base build's `build.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    /// What built it.
    key: Key,
    /// The directories outside the repository it used, as they were.
    shared: Vec<Shared>,
    /// Its test binaries, copied next to the record.
    executables: Vec<Executable>,
}

/// A directory outside the repository a base build used, with its
/// fingerprint then (see [`sources::fingerprint`]).
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
    let Ok(record) = serde_json::from_slice::<Record>(&bytes) else {
        return Lookup::Stale("its build.json is from an older cargo faster".into());
    };
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
    match record
        .executables
        .iter()
        .find(|executable| !executable.path.exists())
    {
        Some(gone) => Lookup::Stale(format!("{} is gone", gone.path.display())),
        None => Lookup::Built(record.executables),
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
        if let Ok(layouts) = Layouts::of_executable(&executable.path) {
            layouts.keep_for_copy(&copy)?;
        }
        kept.push(Executable {
            path: copy,
            directory: executable.directory.clone(),
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
    Ok(record.executables)
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
        }
    }

    #[test]
    fn the_cache_holds_only_what_its_key_built() {
        let dir = std::env::temp_dir().join(format!("cargo-faster-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let binary = dir.join("built-1a2b");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&binary, b"not really a binary").unwrap();
        let built = [Executable {
            path: binary,
            directory: dir.clone(),
        }];
        let key = key("rustc 1.95.0");
        let build_dir = dir.join("release");
        let outside = dir.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        assert_eq!(cached(&build_dir, &key, &dir), Lookup::Absent);
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, shared).unwrap();
        assert_eq!(kept[0].path, build_dir.join("bin").join("built-1a2b"));
        assert_eq!(cached(&build_dir, &key, &dir), Lookup::Built(kept.clone()));
        let mut other = self::key("rustc 1.96.0");
        other
            .environment
            .insert("RUSTFLAGS".into(), "-Copt-level=1".into());
        assert_eq!(
            cached(&build_dir, &other, &dir),
            Lookup::Stale("the compiler and RUSTFLAGS changed since it was built".into())
        );
        std::fs::write(outside.join("lib.rs"), "").unwrap();
        assert_eq!(
            cached(&build_dir, &key, &dir),
            Lookup::Stale(format!("{} changed since it was built", outside.display())),
            "a directory outside the repository changed"
        );
        let shared = fingerprints(std::slice::from_ref(&outside));
        let kept = keep(&built, &build_dir, &key, shared).unwrap();
        assert_eq!(cached(&build_dir, &key, &dir), Lookup::Built(kept.clone()));
        std::fs::remove_file(&kept[0].path).unwrap();
        assert_eq!(
            cached(&build_dir, &key, &dir),
            Lookup::Stale(format!("{} is gone", kept[0].path.display()))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_record_of_an_older_cargo_faster_is_stale() {
        let dir = std::env::temp_dir().join(format!("cargo-faster-older-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The record before configuration files and variables were keyed.
        let older = r#"{"key": {"commit": "1a2b", "rustc": "rustc 1.95.0", "profile": "release",
            "flags": [], "manifest_path": null, "linker": null}, "shared": [], "executables": []}"#;
        std::fs::write(dir.join("build.json"), older).unwrap();
        assert_eq!(
            cached(&dir, &key("rustc 1.95.0"), &dir),
            Lookup::Stale("its build.json is from an older cargo faster".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
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
