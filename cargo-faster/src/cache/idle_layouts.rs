//! The layouts made for the base revisions a run did not measure, removed
//! at its end, the material that relinks them kept.
//!
//! A layout is a whole copy of its test binary, linked in another order
//! (see `faster-runtime/src/layout/`), and a comparison makes up to 64 of
//! each binary it measures: on `ryu`, 1.6 MB each, 6 to 22 MiB a base
//! revision in quiet runs (4 to 14 layouts), about 100 MB a binary where
//! noise takes all 64, against 11 MiB for the base's binaries and their
//! material. Of the base revisions `<target>/faster/base/` keeps (see
//! [`super::prune`]), the one a run measured keeps its layouts, which the
//! next run against it (the usual next run) reuses; the others keep their
//! material only (the link's command line and links to its objects), and a
//! run that measures one of them again relinks the layouts it runs in, about
//! 100 ms each on `ryu` (1.2 s for 12). A layout whose file or record is
//! gone is made again, never run (`Layouts::binary`).

use super::prune::{self, disk_usage};
use crate::git::Repository;
use faster_runtime::__internal::made_from;
use std::path::{Path, PathBuf};

/// What [`prune()`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Removed {
    /// The base revisions whose layouts were removed.
    pub revisions: usize,
    /// The bytes they held on disk.
    pub bytes: u64,
}

/// Removes the layouts made from the test binaries of the base commits
/// under `base` (`<target>/faster/base`) but `measured`'s, those of other
/// repositories (see [`prune::prunable`]) and those another run holds
/// (see [`prune::InUse`]); what cannot be removed is left for the next run.
pub fn prune(base: &Path, measured: &Path, repository: &Repository) -> Removed {
    let candidates: Vec<PathBuf> = prune::folder_paths(base)
        .into_iter()
        .filter(|folder| folder != measured && !made_in(folder).is_empty())
        .collect();
    let mut removed = Removed::default();
    if candidates.is_empty() {
        // Nothing to remove: spare git the question of whose they are.
        return removed;
    }
    for folder in prune::prunable(candidates, repository) {
        let Some(_held) = prune::hold_exclusively(&folder) else {
            continue;
        };
        let made = made_in(&folder);
        let paths: Vec<&Path> = made.iter().map(PathBuf::as_path).collect();
        let sizes = disk_usage(&paths);
        let mut any = false;
        for (path, bytes) in made.iter().zip(sizes) {
            if prune::remove_path(path).is_ok() {
                removed.bytes += bytes;
                any = true;
            }
        }
        removed.revisions += usize::from(any);
    }
    removed
}

/// What was made from the test binaries a base commit's `folder` keeps:
/// under each profile's folder that holds a `build.json`, its `bin/`.
fn made_in(folder: &Path) -> Vec<PathBuf> {
    let profiles = std::fs::read_dir(folder).into_iter().flatten().flatten();
    let kept = profiles
        .map(|profile| profile.path())
        .filter(|profile| profile.join("build.json").is_file())
        .flat_map(|profile| std::fs::read_dir(profile.join("bin")).into_iter().flatten())
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file());
    kept.flat_map(|binary| made_from(&binary)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_runtime::__internal::own_dir;
    use std::process::Command;

    /// A base commit's folder under `base` holding a test binary whose
    /// `.layouts/` holds material and two layouts of 8 kB, one of them in
    /// a pairing's folder.
    fn base_with_layouts(base: &Path, name: &str) -> PathBuf {
        let folder = base.join(name);
        let bin = folder.join("release/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(folder.join("release/build.json"), "{}").unwrap();
        let binary = bin.join("speed-1a2b");
        std::fs::write(&binary, [1; 8192]).unwrap();
        let layouts = own_dir(&binary);
        for (file, bytes) in [
            ("material.json", 100),
            ("inputs/speed.o", 4096),
            ("layout-1", 8192),
            ("layout-1.made", 100),
            ("paired-00ff/layout-1", 8192),
        ] {
            let path = layouts.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, vec![2; bytes]).unwrap();
        }
        folder
    }

    #[test]
    fn only_the_measured_base_keeps_its_layouts_and_every_base_its_material() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("repository");
        std::fs::create_dir_all(&root).unwrap();
        let status = Command::new("git")
            .args(["init", "--quiet"])
            .current_dir(&root)
            .status()
            .unwrap();
        assert!(status.success());
        let repository = Repository { root };
        let base = temp.path().join("target/faster/base");
        let measured = base_with_layouts(&base, "aaaa");
        let idle = base_with_layouts(&base, "bbbb");
        let held = base_with_layouts(&base, "cccc");
        let _other_run = prune::InUse::take(&held).unwrap();

        let removed = prune(&base, &measured, &repository);
        assert_eq!(removed.revisions, 1, "{removed:?}");
        assert!((16_384..32_768).contains(&removed.bytes), "{removed:?}");
        let layouts = |folder: &Path| own_dir(&folder.join("release/bin/speed-1a2b"));
        for kept in [&measured, &held] {
            assert!(layouts(kept).join("paired-00ff/layout-1").exists());
            assert!(layouts(kept).join("layout-1.made").exists());
        }
        let mut left: Vec<_> = std::fs::read_dir(layouts(&idle))
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["inputs", "material.json"], "the material stays");
        assert!(idle.join("release/bin/speed-1a2b").exists());
        assert_eq!(prune(&base, &measured, &repository), Removed::default());
    }
}
