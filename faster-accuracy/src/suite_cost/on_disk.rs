//! The layouts' folders beside the test binaries, measured on disk.

use std::collections::HashSet;
use std::path::Path;

/// The layouts' folders beside the test binaries: how many, their files,
/// the bytes they hold on disk (each file once, however many names it
/// has), and of those the bytes of files with a name elsewhere too (hard
/// links to the build's objects and libraries).
#[derive(Debug, Default, PartialEq)]
pub struct OnDisk {
    folders: usize,
    files: usize,
    bytes: u64,
    shared_bytes: u64,
}

pub fn layouts_on_disk(target: &Path) -> Result<OnDisk, String> {
    let deps = target.join("release/deps");
    let entries =
        std::fs::read_dir(&deps).map_err(|error| format!("{}: {error}", deps.display()))?;
    let mut on_disk = OnDisk::default();
    let mut seen = HashSet::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && path.extension().is_some_and(|ext| ext == "layouts") {
            on_disk.folders += 1;
            add_files(&path, &mut on_disk, &mut seen);
        }
    }
    Ok(on_disk)
}

/// Adds the files under `dir`, each inode once.
fn add_files(dir: &Path, on_disk: &mut OnDisk, seen: &mut HashSet<(u64, u64)>) {
    use std::os::unix::fs::MetadataExt;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(metadata) = entry.path().symlink_metadata() else {
            continue;
        };
        if metadata.is_dir() {
            add_files(&entry.path(), on_disk, seen);
        } else if metadata.is_file() {
            on_disk.files += 1;
            if seen.insert((metadata.dev(), metadata.ino())) {
                let bytes = metadata.blocks() * 512;
                on_disk.bytes += bytes;
                if metadata.nlink() > 1 {
                    on_disk.shared_bytes += bytes;
                }
            }
        }
    }
}

pub fn describe_layouts(on_disk: &OnDisk) -> String {
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    format!(
        "layouts folders (target/release/deps/*.layouts): {} holding {} files, {:.1} MiB on disk \
         (each file once), of which {:.1} MiB are files with another name too (hard links to the \
         build's objects and libraries) and {:.1} MiB their own",
        on_disk.folders,
        on_disk.files,
        mib(on_disk.bytes),
        mib(on_disk.shared_bytes),
        mib(on_disk.bytes - on_disk.shared_bytes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_on_disk_count_each_file_once() {
        let temp = tempfile::tempdir().unwrap();
        let target = temp.path();
        let folder = target.join("release/deps/suite_cost-1.layouts");
        std::fs::create_dir_all(folder.join("layout-1")).unwrap();
        std::fs::write(folder.join("material.json"), vec![b'x'; 10_000]).unwrap();
        std::fs::hard_link(folder.join("material.json"), folder.join("layout-1/again")).unwrap();
        std::fs::write(target.join("release/deps/suite_cost-1"), "binary").unwrap();
        let on_disk = layouts_on_disk(target).unwrap();
        assert_eq!((on_disk.folders, on_disk.files), (1, 2));
        assert!(on_disk.bytes >= 10_000 && on_disk.bytes == on_disk.shared_bytes);
    }
}
