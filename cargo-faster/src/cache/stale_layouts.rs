//! The layout folders (`<binary>.layouts/`, see `faster-runtime/src/layout/`)
//! beside test binaries no run will measure again, removed.
//!
//! Cargo keeps every test binary it ever linked under `deps/`, a new file
//! name each time the features, the dependencies or the flags change, and
//! each one that was measured keeps a folder of its link's material and up
//! to 64 layouts of it (about 95 MiB each on `ryu`): left alone, they
//! outgrew everything else in `target/faster`. A folder is stale once its
//! binary is gone, or once two binaries of the same test target linked
//! since have folders of their own (two, so a project switching between
//! two sets of features does not relink its layouts at each switch).

use super::prune::disk_usage;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How many of a test target's binaries, the last linked, keep their
/// layouts.
pub const NEWEST_KEPT: usize = 2;

/// The name of a binary's layout folder ends so (as the runtime names it).
const SUFFIX: &str = ".layouts";

/// What [`prune`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Removed {
    /// Layout folders removed.
    pub folders: usize,
    /// The bytes they held on disk.
    pub bytes: u64,
}

/// Removes the stale layout folders under each profile's `deps/` of the
/// build directory `build` (`<target>/faster/build`); a folder that cannot
/// be removed is left for the next run.
pub fn prune(build: &Path) -> Removed {
    let mut removed = Removed::default();
    for folder in stale(&layout_folders(build)) {
        let bytes = disk_usage(&[&folder])[0];
        if std::fs::remove_dir_all(&folder).is_ok() {
            removed.folders += 1;
            removed.bytes += bytes;
        }
    }
    removed
}

/// A layout folder, and when its binary was linked (`None`: it is gone).
#[derive(Debug, Clone)]
struct Folder {
    path: PathBuf,
    linked: Option<SystemTime>,
}

/// Every layout folder under `build/*/deps/`.
fn layout_folders(build: &Path) -> Vec<Folder> {
    let deps = std::fs::read_dir(build)
        .into_iter()
        .flatten()
        .flatten()
        .map(|profile| profile.path().join("deps"));
    deps.flat_map(|deps| std::fs::read_dir(deps).into_iter().flatten().flatten())
        .map(|entry| entry.path())
        .filter(|path| path.is_dir() && path.to_string_lossy().ends_with(SUFFIX))
        .map(|path| {
            let binary = PathBuf::from(path.to_string_lossy().trim_end_matches(SUFFIX));
            let linked = std::fs::metadata(binary)
                .and_then(|metadata| metadata.modified())
                .ok();
            Folder { path, linked }
        })
        .collect()
}

/// Those of `folders` whose binary is gone, or which [`NEWEST_KEPT`]
/// binaries of the same test target in the same folder, linked later, have
/// folders of their own.
fn stale(folders: &[Folder]) -> Vec<PathBuf> {
    let mut by_target: HashMap<PathBuf, Vec<&Folder>> = HashMap::new();
    let mut stale = Vec::new();
    for folder in folders {
        match (folder.linked, target_of(&folder.path)) {
            (Some(_), Some(target)) => by_target.entry(target).or_default().push(folder),
            (None, _) => stale.push(folder.path.clone()),
            // Not named as cargo names test binaries: not ours to judge.
            (Some(_), None) => {}
        }
    }
    for mut same_target in by_target.into_values() {
        same_target.sort_by_key(|folder| std::cmp::Reverse(folder.linked));
        stale.extend(
            same_target
                .into_iter()
                .skip(NEWEST_KEPT)
                .map(|folder| folder.path.clone()),
        );
    }
    stale.sort();
    stale
}

/// The test target a layout folder's binary was linked for: its path
/// without the `-<hash>` cargo appends and the suffix (`deps/speed` for
/// `deps/speed-1a2b3c4d5e6f7a8b.layouts`).
fn target_of(folder: &Path) -> Option<PathBuf> {
    let name = folder.file_name()?.to_str()?.strip_suffix(SUFFIX)?;
    let (target, hash) = name.rsplit_once('-')?;
    hash.chars()
        .all(|character| character.is_ascii_hexdigit())
        .then(|| folder.with_file_name(target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::time::Duration;

    /// A test binary linked `age` seconds ago in `deps`, with its layout
    /// folder.
    fn binary(deps: &Path, name: &str, age: u64) {
        let file = File::create(deps.join(name)).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(age))
            .unwrap();
        std::fs::create_dir_all(deps.join(format!("{name}.layouts"))).unwrap();
        std::fs::write(deps.join(format!("{name}.layouts/layout-1")), [0; 4096]).unwrap();
    }

    #[test]
    fn a_target_keeps_the_layouts_of_its_two_last_linked_binaries_and_no_gone_binary_keeps_any() {
        let build = tempfile::tempdir().unwrap();
        let deps = build.path().join("release/deps");
        std::fs::create_dir_all(&deps).unwrap();
        for (name, age) in [
            ("speed-00000000000000a1", 300),
            ("speed-00000000000000a2", 200),
            ("speed-00000000000000a3", 100),
            ("parse-00000000000000b1", 300),
        ] {
            binary(&deps, name, age);
        }
        // A folder whose binary cargo removed, and one not named as cargo
        // names binaries.
        std::fs::create_dir_all(deps.join("gone-00000000000000c1.layouts")).unwrap();
        binary(&deps, "handmade", 400);

        let removed = prune(build.path());
        assert_eq!(removed.folders, 2);
        assert!(removed.bytes >= 4096, "{removed:?}");
        let left = |name: &str| deps.join(format!("{name}.layouts")).exists();
        assert!(!left("speed-00000000000000a1"));
        assert!(!left("gone-00000000000000c1"));
        for kept in [
            "speed-00000000000000a2",
            "speed-00000000000000a3",
            "parse-00000000000000b1",
            "handmade",
        ] {
            assert!(left(kept), "{kept}");
        }
        // The binaries themselves are cargo's: never removed.
        assert!(deps.join("speed-00000000000000a1").exists());
        assert_eq!(prune(build.path()), Removed::default());
    }
}
