//! What relinking a binary needs, as `faster-link` keeps it: the linker and
//! its arguments, with hard links in place of the files rustc deletes once
//! the link is done, and the identity of the binary that link made. Written
//! to `<binary>.layouts/material.json` by the wrapper (cargo-faster's
//! `faster-link`, through [`Material::write`]), read back by a comparison
//! ([`Material::read`]). This file is the format both sides use, the one
//! place it is written down.

use super::Unavailable;
use crate::output::files::write_atomically;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The material's format: a runtime reads only its own.
const FORMAT: u32 = 1;

/// The file in a binary's `.layouts/` folder.
const FILE: &str = "material.json";

/// A link, kept so it can be run again with another section order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Material {
    /// The linker program, as the wrapper ran it (`cc`).
    pub linker: String,
    /// Its arguments, kept files in place of deleted ones.
    pub arguments: Vec<String>,
    /// Which argument names the output.
    pub output_argument: usize,
    /// The directory the link ran in.
    pub directory: PathBuf,
    /// The binary the link made, as it was right after.
    pub identity: Identity,
}

/// What the file `faster-link` wrote is, or why it wrote none.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    /// The material.
    Kept { format: u32, material: Material },
    /// Why the wrapper could not keep it.
    NotKept { format: u32, reason: String },
}

/// A file as the file system knows it: which file it is (device and
/// inode), and which version of it (size and modification time).
///
/// Two identities are equal when they are the same version, whichever file
/// holds it: a target directory saved and restored at the same path (a CI
/// cache: `actions/cache` archives with `tar --posix`, which keeps
/// modification times to the nanosecond) holds the same builds and layouts
/// under new inodes, and they are used as they are, not made again. A file
/// cut short or written since differs in size or time; which file it is,
/// [`Identity::same_file`] says.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
}

impl PartialEq for Identity {
    fn eq(&self, other: &Identity) -> bool {
        (self.size, self.modified_ns) == (other.size, other.modified_ns)
    }
}

impl Eq for Identity {}

impl Identity {
    /// The identity of the file at `path`, where there is one.
    pub fn of(path: &Path) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let metadata = std::fs::metadata(path).ok()?;
            Some(Identity {
                device: metadata.dev(),
                inode: metadata.ino(),
                size: metadata.size(),
                modified_ns: i128::from(metadata.mtime()) * 1_000_000_000
                    + i128::from(metadata.mtime_nsec()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            None
        }
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether both name the same file, in whichever version.
    pub fn same_file(&self, other: &Identity) -> bool {
        (self.device, self.inode) == (other.device, other.inode)
    }
}

impl Material {
    /// The material in `dir` (a binary's `.layouts/` folder): `None` where
    /// there is none, `Some(Err)` with the reason `faster-link` gave for not
    /// keeping it, or for a file it cannot read.
    pub fn read(dir: &Path) -> Option<Result<Material, Unavailable>> {
        let text = std::fs::read(dir.join(FILE)).ok()?;
        Some(match serde_json::from_slice(&text) {
            Ok(Record::Kept { format, material }) if format == FORMAT => Ok(material),
            Ok(Record::NotKept { format, reason }) if format == FORMAT => {
                Err(Unavailable::NotKept(reason))
            }
            Ok(_) => Err(Unavailable::NotKept(
                "it was kept by another version of faster-link".into(),
            )),
            Err(error) => Err(Unavailable::Damaged(format!(
                "{} cannot be read: {error}",
                dir.join(FILE).display()
            ))),
        })
    }

    /// The arguments that link this binary again at `output`, its sections
    /// shuffled with `seed` (lld's `--shuffle-sections`) and, where
    /// `arranged`, its hot code placed as that says (see
    /// [`Arranged`]); linker options go through the C compiler's `-Wl,`
    /// where the linker is one.
    pub fn relink_arguments(
        &self,
        output: &Path,
        seed: u32,
        arranged: Option<&Arranged>,
    ) -> Vec<String> {
        let mut arguments = self.arguments.clone();
        arguments[self.output_argument] = output.to_string_lossy().into_owned();
        let mut options = vec![vec![format!("--shuffle-sections=*={seed}")]];
        if let Some(arranged) = arranged {
            options.push(vec![format!(
                "--symbol-ordering-file={}",
                arranged.ordering.display()
            )]);
            options.push(vec!["--no-warn-symbol-ordering".into()]);
            options.push(vec!["-z".into(), "separate-code".into()]);
            if let Some(pads) = &arranged.pads {
                arguments.push(pads.object.to_string_lossy().into_owned());
                options.extend(
                    pads.symbols
                        .iter()
                        .map(|symbol| vec![format!("--undefined={symbol}")]),
                );
            }
        }
        for option in options {
            if self.through_compiler() {
                arguments.push(format!("-Wl,{}", option.join(",")));
            } else {
                arguments.extend(option);
            }
        }
        arguments
    }

    /// Whether the link ran through a C compiler (`cc`, `clang`), which
    /// passes linker options on with `-Wl,` and assembles as well.
    pub fn through_compiler(&self) -> bool {
        self.arguments
            .iter()
            .any(|argument| argument.starts_with("-Wl,") || argument.starts_with("-fuse-ld="))
    }

    /// Writes `material` in `dir` (a binary's `.layouts/` folder), or,
    /// where it could not be kept, the reason, which [`Material::read`]
    /// then gives.
    pub fn write(dir: &Path, material: Result<&Material, &str>) -> std::io::Result<()> {
        let record = match material {
            Ok(material) => Record::Kept {
                format: FORMAT,
                material: material.clone(),
            },
            Err(reason) => Record::NotKept {
                format: FORMAT,
                reason: reason.to_string(),
            },
        };
        write_atomically(&dir.join(FILE), |out| {
            serde_json::to_writer_pretty(out, &record).map_err(Into::into)
        })
    }
}

/// How a relink places a binary's hot code beyond shuffling it: first in
/// `.text`, in the order of a symbol ordering file, the executable segment
/// on a page of its own, and pads of given sizes where the ordering names
/// them (see `super::paired`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arranged {
    /// The symbol ordering file (lld's `--symbol-ordering-file`).
    pub ordering: PathBuf,
    /// The pads, where the linker can take an object made for them.
    pub pads: Option<Pads>,
}

/// An object holding pads, and the symbols that keep them from being
/// collected as unused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pads {
    /// The object file.
    pub object: PathBuf,
    /// The pads' symbols.
    pub symbols: Vec<String>,
}

impl Material {
    /// This material for a copy of its binary at `copy`, whose folder is
    /// `dir`: the kept files linked into `dir`, and the copy's identity.
    pub fn copied(&self, from_dir: &Path, dir: &Path, copy: &Path) -> Result<Material, String> {
        let identity = Identity::of(copy).ok_or("the copy cannot be read")?;
        let failed = |error: std::io::Error| format!("{}: {error}", dir.display());
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).map_err(failed)?;
        link_tree(&from_dir.join("inputs"), &dir.join("inputs")).map_err(failed)?;
        let (from, to) = (from_dir.to_string_lossy(), dir.to_string_lossy());
        let arguments = self
            .arguments
            .iter()
            .map(|argument| match argument.strip_prefix(from.as_ref()) {
                Some(rest) => format!("{to}{rest}"),
                None => argument.clone(),
            })
            .collect();
        let material = Material {
            arguments,
            identity,
            ..self.clone()
        };
        Material::write(dir, Ok(&material)).map_err(failed)?;
        Ok(material)
    }
}

/// Hard-links the file `from` to `to` (copies it where it cannot), or, for
/// a folder, every file under it: how kept files are kept.
pub fn link_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            link_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    std::fs::hard_link(from, to).or_else(|_| std::fs::copy(from, to).map(drop))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relink_names_its_own_output_and_shuffles_the_way_the_linker_takes_it() {
        let material = Material {
            linker: "cc".into(),
            arguments: vec![
                "-m64".into(),
                "-o".into(),
                "/w/bin".into(),
                "-fuse-ld=lld".into(),
            ],
            output_argument: 2,
            directory: "/w".into(),
            identity: Identity {
                device: 1,
                inode: 2,
                size: 3,
                modified_ns: 4,
            },
        };
        assert_eq!(
            material.relink_arguments(Path::new("/w/bin.layouts/layout-3"), 3, None),
            vec![
                "-m64",
                "-o",
                "/w/bin.layouts/layout-3",
                "-fuse-ld=lld",
                "-Wl,--shuffle-sections=*=3"
            ]
        );
        let direct = Material {
            linker: "ld.lld".into(),
            arguments: vec!["-o".into(), "/w/bin".into()],
            output_argument: 1,
            ..material.clone()
        };
        assert_eq!(
            direct.relink_arguments(Path::new("/w/x"), 7, None)[2],
            "--shuffle-sections=*=7"
        );
        // Arranged: the ordering, the segment apart, the pads kept.
        let arranged = Arranged {
            ordering: "/w/order-2".into(),
            pads: Some(Pads {
                object: "/w/pads-2.o".into(),
                symbols: vec!["pad".into()],
            }),
        };
        assert_eq!(
            material.relink_arguments(Path::new("/w/o"), 2, Some(&arranged))[4..],
            [
                "/w/pads-2.o",
                "-Wl,--shuffle-sections=*=2",
                "-Wl,--symbol-ordering-file=/w/order-2",
                "-Wl,--no-warn-symbol-ordering",
                "-Wl,-z,separate-code",
                "-Wl,--undefined=pad"
            ]
        );
        let direct_arranged = direct.relink_arguments(Path::new("/w/x"), 2, Some(&arranged));
        assert!(
            direct_arranged
                .windows(2)
                .any(|pair| pair == ["-z", "separate-code"]),
            "{direct_arranged:?}"
        );
    }

    /// Replaces the file at `path` by a copy of it, with its modification
    /// time, made while it still exists, so under another inode: what a
    /// cache restored at the same path holds.
    #[cfg(unix)]
    fn restore_under_a_new_inode(path: &Path) {
        let modified = std::fs::metadata(path).unwrap().modified().unwrap();
        let copy = path.with_extension("restoring");
        std::fs::copy(path, &copy).unwrap();
        let file = std::fs::File::options().write(true).open(&copy).unwrap();
        file.set_modified(modified).unwrap();
        std::fs::rename(&copy, path).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_file_restored_under_a_new_inode_with_its_time_is_the_same_version_not_the_same_file() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("layout-1");
        std::fs::write(&file, b"a whole layout").unwrap();
        let recorded = Identity::of(&file).unwrap();
        restore_under_a_new_inode(&file);
        let restored = Identity::of(&file).unwrap();
        assert!(!restored.same_file(&recorded), "a new inode");
        assert_eq!(restored, recorded, "the same version");
        let later = std::fs::metadata(&file).unwrap().modified().unwrap()
            + std::time::Duration::from_secs(1);
        let written = std::fs::File::options().write(true).open(&file).unwrap();
        written.set_modified(later).unwrap();
        assert_ne!(Identity::of(&file).unwrap(), recorded, "written since");
        std::fs::write(&file, b"a whole").unwrap();
        assert_ne!(Identity::of(&file).unwrap(), recorded, "cut short");
    }

    #[test]
    fn what_is_written_is_read_back_and_another_format_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let material = Material {
            linker: "cc".into(),
            arguments: vec!["-o".into(), "/w/bin".into()],
            output_argument: 1,
            directory: "/w".into(),
            identity: Identity {
                device: 1,
                inode: 2,
                size: 3,
                modified_ns: -4,
            },
        };
        Material::write(dir, Ok(&material)).unwrap();
        assert_eq!(Material::read(dir), Some(Ok(material)));
        Material::write(dir, Err("the linked binary cannot be read")).unwrap();
        assert_eq!(
            Material::read(dir),
            Some(Err(Unavailable::NotKept(
                "the linked binary cannot be read".into()
            )))
        );
        let newer = r#"{"not_kept": {"format": 2, "reason": "?"}}"#;
        std::fs::write(dir.join(FILE), newer).unwrap();
        let read = Material::read(dir).unwrap().unwrap_err().to_string();
        assert!(read.contains("another version of faster-link"), "{read}");
        std::fs::write(dir.join(FILE), &newer[..20]).unwrap();
        let read = Material::read(dir).unwrap().unwrap_err();
        assert!(
            matches!(&read, Unavailable::Damaged(why) if why.contains("material.json cannot be read")),
            "{read:?}"
        );
        assert_eq!(Material::read(&dir.join("none")), None);
    }
}
