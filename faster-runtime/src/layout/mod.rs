//! Layouts of the binary: the same code linked with its functions in
//! another order, so a verdict can be about the code and not about where
//! one link happened to put it.
//!
//! Where a hot loop lands (which fetch blocks and cache lines it spans,
//! which branch-predictor entries it shares) moves real functions by several
//! percent, tens of percent for some (`guide/layouts.md` has what was
//! measured), and any edit anywhere in a crate moves it.
//! Every process of a replicated comparison therefore runs in a layout of
//! its own, and the interval covers the spread between them.
//!
//! Two sides share the [`Material`] this module defines (its format is
//! [`material`]'s, written down once for both):
//! - the linker wrapper `faster-link` (the `cargo-faster` package's second
//!   binary, set as the linker by `cargo faster`; its code lives there,
//!   out of users' test binaries) runs each link as usual and, for a
//!   binary that links this runtime, keeps what the link needs: the
//!   command line and hard links to the object files rustc deletes after
//!   linking;
//! - a comparison finds its binary's material ([`Layouts::of_executable`])
//!   and relinks it with lld's `--shuffle-sections=*=SEED`
//!   ([`Layouts::binary`]), once per seed (what a relink costs is in
//!   `guide/layouts.md`), and later runs of the same build reuse it;
//! - `cargo faster` removes what was made from a base build it did not
//!   measure ([`made_from`]) and keeps the material, which relinks it.
//!
//! Nothing less would do: no stable way lets a dependency add arguments to
//! a dependent's final link, rustc deletes the final crate's objects once
//! linked, and rebuilding from inside a running test would need cargo's
//! lock, which the running `cargo test` holds.

mod made;
pub mod material;
pub mod paired;
mod room;

pub use material::Material;
pub use paired::Paired;

use made::{Made, digest, made_record, made_whole, remember_verified};
use material::{Arranged, Pads};
use room::{no_room, remove_abandoned, write_failed};

/// The variable naming the real linker `faster-link` runs (`cc` when it is
/// unset): set it (in `.cargo/config.toml`'s `[env]`) where the project
/// linked with another one before.
pub const LINKER_VARIABLE: &str = "FASTER_LINKER";

use crate::output::files::write_atomically;
use crate::process::{group, signals, tail};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where a binary's material is kept: next to it, `<binary>.layouts/`.
const SUFFIX: &str = ".layouts";

/// A binary that can be relinked in other layouts.
#[derive(Debug, Clone)]
pub struct Layouts {
    /// `<binary>.layouts/`: the material, and the layouts made from it.
    dir: PathBuf,
    material: Material,
    /// Where its layouts place the hot code of a comparison across
    /// revisions alike in both (see [`paired`]); `None`: shuffled only.
    paired: Option<Paired>,
}

/// The folder, in a binary's `.layouts/`, of the layouts made for one
/// pairing: `paired-<id>`.
const PAIRED_PREFIX: &str = "paired-";

/// The files of a layout, in a binary's `.layouts/` or a pairing's folder:
/// `layout-K`, its record `layout-K.made`, and `layout-K.new-PID` while
/// (or where, interrupted) a relink writes it.
const LAYOUT_PREFIX: &str = "layout-";

/// Between a layout's name and the id of the process relinking it, in the
/// name of the file the linker writes: `layout-K.new-PID`.
const STAGING: &str = ".new-";

/// Why a binary's layouts cannot be varied: then its verdicts hold for this
/// build only, and the report says so with this reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unavailable {
    /// Not on this platform: lld's `--shuffle-sections` is an ELF option.
    Platform,
    /// The binary was not linked through `faster-link`.
    NotLinkedThrough,
    /// `faster-link` saw the link but could not keep its material.
    NotKept(String),
    /// The material `faster-link` kept cannot be read any more (a file cut
    /// short): `cargo faster` links such a binary again.
    Damaged(String),
    /// The binary changed since `faster-link` linked it.
    Changed,
    /// Relinking it failed (a linker without `--shuffle-sections`, say).
    RelinkFailed(String),
    /// Turned off (`FASTER_LAYOUTS=off`, `--layouts off`).
    TurnedOff,
}

/// How to get layouts, where a binary was not linked through `faster-link`.
const SET_UP: &str = "`cargo faster test` (installed with cargo-faster) runs the tests in layouts \
                      (README: \"Verdicts about the code: set-up\")";

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::Platform => f.write_str("code layouts are varied on Linux with lld only"),
            Unavailable::NotLinkedThrough => write!(
                f,
                "this binary was not linked through faster-link: {SET_UP}"
            ),
            Unavailable::NotKept(why) => {
                write!(f, "faster-link could not keep what relinking needs: {why}")
            }
            Unavailable::Damaged(why) => write!(f, "its layout record is damaged: {why}"),
            Unavailable::Changed => write!(
                f,
                "this binary was linked again, not through faster-link, since faster-link last \
                 linked it: {SET_UP}"
            ),
            Unavailable::RelinkFailed(why) => write!(f, "relinking it failed: {why}"),
            Unavailable::TurnedOff => f.write_str("layouts are turned off (FASTER_LAYOUTS=off)"),
        }
    }
}

impl Layouts {
    /// The layouts of `executable`, from the material `faster-link` kept
    /// when it linked it (next to it, or, for a binary cargo hard-linked
    /// out of `deps/` under another name, next to the file it links to).
    pub fn of_executable(executable: &Path) -> Result<Layouts, Unavailable> {
        if !cfg!(target_os = "linux") {
            return Err(Unavailable::Platform);
        }
        let identity = material::Identity::of(executable).ok_or(Unavailable::NotLinkedThrough)?;
        let own = own_dir(executable);
        let mut reason = Unavailable::NotLinkedThrough;
        // The scan of the folders beside it only where its own folder
        // does not answer: `deps/` may hold thousands of files.
        let linked_from = std::iter::once_with(|| linked_from(executable)).flatten();
        for dir in std::iter::once(own.clone()).chain(linked_from) {
            match Material::read(&dir) {
                Some(Ok(material)) if material.identity == identity => {
                    return Ok(Layouts {
                        dir,
                        material,
                        paired: None,
                    });
                }
                Some(Ok(material)) if dir == own || material.identity.same_file(&identity) => {
                    reason = Unavailable::Changed;
                }
                Some(Err(why)) if dir == own => reason = why,
                _ => {}
            }
        }
        Err(reason)
    }

    /// Keeps these layouts' material for `copy`, a copy of this binary made
    /// to outlive it (the next build overwrites the binary and its
    /// material): the kept files are linked again beside the copy.
    pub fn keep_for_copy(&self, copy: &Path) -> Result<Layouts, String> {
        let dir = own_dir(copy);
        let material = self.material.copied(&self.dir, &dir, copy)?;
        Ok(Layouts {
            dir,
            material,
            paired: None,
        })
    }

    /// These layouts placing the hot code as `paired` says, made in a
    /// folder of that pairing's own; the folders of other pairings are
    /// removed (a base revision compared with another head, its code
    /// since changed: their layouts would not be used again).
    pub fn paired(self, paired: Paired) -> Layouts {
        let keep = format!("{PAIRED_PREFIX}{}", paired.id());
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(PAIRED_PREFIX) && name != keep {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        Layouts {
            paired: Some(paired),
            ..self
        }
    }

    /// Removes what relinks that ended with their process left in these
    /// layouts' folders (`layout-K.new-PID`, and the linker's own files
    /// beside it), once that process is gone: killed (SIGKILL), a run could
    /// not remove them itself.
    pub fn remove_abandoned(&self) {
        remove_abandoned(&self.dir);
        if let Some(paired) = &self.paired {
            remove_abandoned(&self.dir.join(format!("{PAIRED_PREFIX}{}", paired.id())));
        }
    }

    /// The binary in layout `seed` (from 1): relinked now where this build
    /// (and pairing) has not made it yet, else the one made before.
    pub fn binary(&self, seed: u32) -> Result<PathBuf, Unavailable> {
        let folder = match &self.paired {
            Some(paired) => self.dir.join(format!("{PAIRED_PREFIX}{}", paired.id())),
            None => self.dir.clone(),
        };
        let path = folder.join(format!("{LAYOUT_PREFIX}{seed}"));
        if made_whole(&path) {
            return Ok(path);
        }
        let arranged = match &self.paired {
            Some(paired) => Some(self.arrange(paired, &folder, seed)?),
            None => None,
        };
        let staging = folder.join(format!(
            "{LAYOUT_PREFIX}{seed}{STAGING}{}",
            std::process::id()
        ));
        // Removed, with what the linker writes beside it, if this process
        // is interrupted while the linker runs.
        let _writing = signals::writing(&staging);
        let output = group::output(
            Command::new(&self.material.linker)
                .args(
                    self.material
                        .relink_arguments(&staging, seed, arranged.as_ref()),
                )
                .current_dir(&self.material.directory),
        )
        .map_err(|error| {
            Unavailable::RelinkFailed(format!("could not run {}: {error}", self.material.linker))
        })?;
        if !output.status.success() {
            let _ = std::fs::remove_file(&staging);
            // A linker that runs out of disk reports a crash of its own (lld
            // writes through a mapping: "Bus error"), not the disk.
            let needed = self.material.identity.size();
            return Err(Unavailable::RelinkFailed(
                no_room(&folder, needed)
                    .unwrap_or_else(|| tail(&String::from_utf8_lossy(&output.stderr), 4)),
            ));
        }
        let needed = self.material.identity.size();
        std::fs::rename(&staging, &path)
            .map_err(|error| write_failed(&folder, needed, &path, error))?;
        // Which file the link made, written once it is in place: a layout
        // changed since (truncated on a full disk, overwritten, damaged in
        // place) is not the one recorded, and is made again rather than run.
        let unreadable = || Unavailable::RelinkFailed(format!("{} cannot be read", path.display()));
        let made = Made {
            identity: material::Identity::of(&path).ok_or_else(unreadable)?,
            digest: digest(&path).ok_or_else(unreadable)?,
        };
        write_atomically(&made_record(&path), |out| {
            serde_json::to_writer(out, &made).map_err(Into::into)
        })
        .map_err(|error| write_failed(&folder, needed, &path, error))?;
        remember_verified(&path, made.identity);
        Ok(path)
    }

    /// What relinking layout `seed` as `paired` places needs, written in
    /// `folder`: the symbol ordering, and the pads assembled where the
    /// linker is a C compiler that can (else the ordering's pads name
    /// nothing, and each part starts where the one before it ends).
    fn arrange(&self, paired: &Paired, folder: &Path, seed: u32) -> Result<Arranged, Unavailable> {
        let needed = self.material.identity.size();
        let failed = |error: std::io::Error| write_failed(folder, needed, folder, error);
        std::fs::create_dir_all(folder).map_err(failed)?;
        let ordering = folder.join(format!("order-{seed}"));
        std::fs::write(&ordering, paired.ordering(seed)).map_err(failed)?;
        if !self.material.through_compiler() {
            return Ok(Arranged {
                ordering,
                pads: None,
            });
        }
        let source = folder.join(format!("pads-{seed}.s"));
        let object = folder.join(format!("pads-{seed}.o"));
        std::fs::write(&source, Paired::pads(seed)).map_err(failed)?;
        let assembled = group::output(
            Command::new(&self.material.linker)
                .args(["-c", "-x", "assembler"])
                .arg(&source)
                .arg("-o")
                .arg(&object),
        )
        .map_err(failed)?;
        if !assembled.status.success() {
            return Err(Unavailable::RelinkFailed(format!(
                "assembling {}: {}",
                source.display(),
                tail(&String::from_utf8_lossy(&assembled.stderr), 4)
            )));
        }
        Ok(Arranged {
            ordering,
            pads: Some(Pads {
                object,
                symbols: paired::PADS.iter().map(|pad| pad.to_string()).collect(),
            }),
        })
    }
}

/// `<executable>.layouts`: where `faster-link` keeps the material of the
/// binary it linked, and where its layouts are made.
pub fn own_dir(executable: &Path) -> PathBuf {
    let mut dir = executable.as_os_str().to_owned();
    dir.push(SUFFIX);
    PathBuf::from(dir)
}

/// What was made from the material in `executable`'s `.layouts/`: each
/// layout with its record (and what an interrupted relink left), and each
/// pairing's folder. Removed, they cost the next run that asks for a
/// layout its relink, nothing else: [`Layouts::binary`] makes a layout
/// without its record, or a record without its layout, again, never runs
/// it. The material itself is not listed.
pub fn made_from(executable: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(own_dir(executable)) else {
        return Vec::new();
    };
    let mut made: Vec<PathBuf> = entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with(LAYOUT_PREFIX) || name.starts_with(PAIRED_PREFIX)
        })
        .map(|entry| entry.path())
        .collect();
    made.sort();
    made
}

/// Where the material of `executable` may be besides its own folder: the
/// folders of binaries cargo may have hard-linked it from (`name-HASH`,
/// beside it or in `deps/` below it), checked by identity.
fn linked_from(executable: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let (Some(parent), Some(name)) = (executable.parent(), executable.file_name()) else {
        return found;
    };
    // Compared with every `-` read as `_`, as cargo names `deps/` files
    // (`my-tool` links as `my_tool-HASH`), the hash's own `-` included.
    let prefix = format!("{}_", name.to_string_lossy().replace('-', "_"));
    for folder in [parent.to_path_buf(), parent.join("deps")] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let file_name = entry.file_name().to_string_lossy().replace('-', "_");
            if file_name.starts_with(&prefix) && file_name.ends_with(SUFFIX) {
                found.push(entry.path());
            }
        }
    }
    found
}

/// The binaries the processes of one comparison run: this binary or its
/// layouts — the layouts where it can be relinked, else the binary itself —
/// and what that means for the verdict ([`Binaries::scope`]).
#[derive(Debug)]
pub struct Binaries {
    executable: PathBuf,
    layouts: Result<Layouts, Unavailable>,
}

impl Binaries {
    /// The binaries of `executable`: its layouts where `vary` and it was
    /// linked through `faster-link`, placing the hot code as `paired` says
    /// where it says (the first layout is made now, so a linker that
    /// cannot relink is found before any process runs), else `executable`
    /// itself.
    pub fn of(executable: PathBuf, vary: bool, paired: Option<&Paired>) -> Binaries {
        let layouts = if vary {
            Layouts::of_executable(&executable)
                .map(|layouts| match paired {
                    Some(paired) => layouts.paired(paired.clone()),
                    None => layouts,
                })
                .inspect(Layouts::remove_abandoned)
                .and_then(|layouts| layouts.binary(1).map(|_| layouts))
        } else {
            Err(Unavailable::TurnedOff)
        };
        Binaries {
            executable,
            layouts,
        }
    }

    /// The binary the process of slot `slot` (from 1; see
    /// `engine::replicate`) runs: layout `slot`, or the binary itself where
    /// layouts are not varied.
    pub fn binary(&self, slot: u32) -> Result<PathBuf, Unavailable> {
        match &self.layouts {
            Ok(layouts) => layouts.binary(slot),
            Err(_) => Ok(self.executable.clone()),
        }
    }

    /// The layout the process of slot `slot` runs in, where layouts are
    /// varied.
    pub fn layout(&self, slot: u32) -> Option<u32> {
        self.layouts.is_ok().then_some(slot)
    }

    /// How far a verdict measured in these binaries reaches.
    pub fn scope(&self) -> crate::report::Scope {
        match &self.layouts {
            Ok(_) => crate::report::Scope::Layouts,
            Err(why) => crate::report::Scope::ThisBuild(why.to_string()),
        }
    }
}

/// Binaries made by hand, for the tests of what reads how far they vary.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// Binaries that vary in layout (`Ok`), or do not, and why.
    pub(crate) fn binaries(varied: Result<(), Unavailable>) -> Binaries {
        let material = Material {
            linker: "cc".into(),
            arguments: Vec::new(),
            output_argument: 0,
            directory: PathBuf::new(),
            identity: material::Identity::of(Path::new(".")).expect("a readable folder"),
        };
        Binaries {
            executable: PathBuf::from("demo-1a2b"),
            layouts: varied.map(|()| Layouts {
                dir: PathBuf::from("demo-1a2b.layouts"),
                material,
                paired: None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `layout`'s record as its relink does, without noting it
    /// read whole in this process; its identity.
    fn record_made(layout: &Path) -> material::Identity {
        let made = Made {
            identity: material::Identity::of(layout).unwrap(),
            digest: digest(layout).unwrap(),
        };
        std::fs::write(made_record(layout), serde_json::to_vec(&made).unwrap()).unwrap();
        made.identity
    }

    /// Writes `bytes` over the file at `path`, its modification time kept.
    fn write_keeping_time(path: &Path, bytes: &[u8]) {
        let modified = std::fs::metadata(path).unwrap().modified().unwrap();
        std::fs::write(path, bytes).unwrap();
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(modified).unwrap();
    }

    #[test]
    fn a_layout_damaged_in_place_with_its_size_and_time_kept_is_made_again() {
        let temp = tempfile::tempdir().unwrap();
        let layout = temp.path().join("layout-1");
        let whole: Vec<u8> = (0..100_003_u32).map(|n| (n * 7 % 251) as u8).collect();
        std::fs::write(&layout, &whole).unwrap();
        let identity = record_made(&layout);
        let mut damaged = whole.clone();
        damaged[50_000] ^= 0x10;
        write_keeping_time(&layout, &damaged);
        assert_eq!(
            material::Identity::of(&layout),
            Some(identity),
            "its size and time are as recorded"
        );
        assert!(!made_whole(&layout), "damaged: made again, not run");
        write_keeping_time(&layout, &whole);
        assert!(made_whole(&layout), "whole again");

        // A record without a digest (an older runtime's) is made again.
        std::fs::write(made_record(&layout), serde_json::to_vec(&identity).unwrap()).unwrap();
        let other = temp.path().join("layout-2");
        std::fs::copy(&layout, &other).unwrap();
        std::fs::copy(made_record(&layout), made_record(&other)).unwrap();
        assert!(!made_whole(&other));
    }

    #[test]
    fn a_digest_tells_any_change_of_the_contents() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("file");
        let digest_of = |bytes: &[u8]| {
            std::fs::write(&file, bytes).unwrap();
            digest(&file).unwrap()
        };
        // Longer than one read, not a whole number of blocks.
        let bytes: Vec<u8> = (0..(1_u32 << 17) + 5).map(|n| (n % 253) as u8).collect();
        let whole = digest_of(&bytes);
        assert_eq!(digest_of(&bytes), whole, "read twice, the same");
        for at in [0, 31, 32, 65_536, bytes.len() - 1] {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert_ne!(digest_of(&changed), whole, "a bit flipped at {at}");
        }
        assert_ne!(digest_of(&bytes[..bytes.len() - 1]), whole, "cut short");
        let mut zeros = bytes.clone();
        zeros.push(0);
        assert_ne!(digest_of(&zeros), whole, "a zero added");
        assert_eq!(digest(&temp.path().join("none")), None);
    }

    #[test]
    fn a_layout_changed_since_its_relink_is_made_again() {
        let temp = tempfile::tempdir().unwrap();
        let layout = temp.path().join("layout-1");
        std::fs::write(&layout, b"a whole layout").unwrap();
        assert!(
            !made_whole(&layout),
            "no record: its relink was interrupted"
        );
        record_made(&layout);
        assert!(made_whole(&layout));
        std::fs::write(&layout, b"a whole").unwrap();
        assert!(!made_whole(&layout), "cut short");
        std::fs::remove_file(&layout).unwrap();
        assert!(!made_whole(&layout), "removed, its record left");
    }

    #[test]
    fn what_was_made_is_listed_apart_from_the_material_that_makes_it_again() {
        let temp = tempfile::tempdir().unwrap();
        let binary = temp.path().join("demo-1a2b");
        std::fs::write(&binary, b"a binary").unwrap();
        assert_eq!(made_from(&binary), Vec::<PathBuf>::new(), "no folder");
        let dir = own_dir(&binary);
        for file in [
            "material.json",
            "inputs/demo.o",
            "layout-1",
            "layout-1.made",
            "layout-2.new-77",
            "paired-00ff/layout-1",
            "paired-00ff/order-1",
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"made").unwrap();
        }
        let made = made_from(&binary);
        let expected = [
            "layout-1",
            "layout-1.made",
            "layout-2.new-77",
            "paired-00ff",
        ];
        assert_eq!(made, expected.map(|name| dir.join(name)));
    }

    #[cfg(unix)]
    #[test]
    fn a_layout_restored_under_a_new_inode_with_its_time_is_used_as_made() {
        // What a CI cache restored at the same path holds: the same files,
        // their times kept, under new inodes.
        let temp = tempfile::tempdir().unwrap();
        let layout = temp.path().join("layout-1");
        std::fs::write(&layout, b"a whole layout").unwrap();
        let identity = record_made(&layout);
        let modified = std::fs::metadata(&layout).unwrap().modified().unwrap();
        let restored = temp.path().join("layout-1.restored");
        std::fs::copy(&layout, &restored).unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(&restored)
            .unwrap();
        file.set_modified(modified).unwrap();
        std::fs::rename(&restored, &layout).unwrap();
        let now = material::Identity::of(&layout).unwrap();
        assert!(!now.same_file(&identity), "a new inode");
        assert!(made_whole(&layout), "not made again");
    }

    #[test]
    fn an_uplifted_binary_finds_the_material_of_the_file_it_was_linked_as() {
        // cargo links `examples/my-tool-HASH` (and `deps/my_tool-HASH`) and
        // hard-links the first as `examples/my-tool`, the path that runs.
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let examples = root.join("examples");
        for dir in [
            "examples/my-tool-1a2b.layouts",
            "examples/deps/my_tool-3c4d.layouts",
            "examples/my-toolkit-5e6f.layouts",
            "examples/other-7a8b.layouts",
        ] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        let mut found = linked_from(&examples.join("my-tool"));
        found.sort();
        assert_eq!(
            found,
            [
                examples.join("deps/my_tool-3c4d.layouts"),
                examples.join("my-tool-1a2b.layouts"),
            ]
        );
    }
}
