//! What relinking a binary needs, as `faster-link` keeps it: the linker and
//! its arguments, with hard links in place of the files rustc deletes once
//! the link is done, and the identity of the binary that link made. Written
//! to `<binary>.layouts/material.json` by the wrapper ([`Material::keep`]),
//! read back by a comparison ([`Material::read`]).

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

/// A file as the file system knows it: which file it is, and which
/// version of it (size and modification time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
}

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

    /// Whether both name the same file, in whichever version.
    pub fn same_file(&self, other: &Identity) -> bool {
        (self.device, self.inode) == (other.device, other.inode)
    }
}

impl Material {
    /// The material in `dir` (a binary's `.layouts/` folder): `None` where
    /// there is none, `Some(Err)` with the reason `faster-link` gave for not
    /// keeping it, or an unreadable file.
    pub fn read(dir: &Path) -> Option<Result<Material, String>> {
        let text = std::fs::read(dir.join(FILE)).ok()?;
        Some(match serde_json::from_slice(&text) {
            Ok(Record::Kept { format, material }) if format == FORMAT => Ok(material),
            Ok(Record::NotKept { format, reason }) if format == FORMAT => Err(reason),
            Ok(_) => Err("it was kept by another version of faster-link".into()),
            Err(error) => Err(format!(
                "{} cannot be read: {error}",
                dir.join(FILE).display()
            )),
        })
    }

    /// The arguments that link this binary again at `output`, its sections
    /// shuffled with `seed` (lld's `--shuffle-sections`, through the C
    /// compiler's `-Wl,` where the linker is one).
    pub fn relink_arguments(&self, output: &Path, seed: u32) -> Vec<String> {
        let mut arguments = self.arguments.clone();
        arguments[self.output_argument] = output.to_string_lossy().into_owned();
        let through_compiler = arguments
            .iter()
            .any(|argument| argument.starts_with("-Wl,") || argument.starts_with("-fuse-ld="));
        let shuffle = format!("--shuffle-sections=*={seed}");
        arguments.push(if through_compiler {
            format!("-Wl,{shuffle}")
        } else {
            shuffle
        });
        arguments
    }

    /// Keeps the material of the link `linker arguments` just run in
    /// `directory`, into `<output>.layouts/`, where the output is a binary
    /// that links this runtime; returns that folder, or `None` for a link
    /// that needs no layouts (a library, a build script, a binary without
    /// comparisons). Where the material cannot be kept, the folder holds
    /// the reason instead, for the comparison to report.
    pub fn keep(linker: &str, arguments: &[String], directory: &Path) -> Option<PathBuf> {
        let arguments = expand_response_files(arguments, directory);
        let output_argument = arguments.iter().position(|argument| argument == "-o")? + 1;
        let output = directory.join(arguments.get(output_argument)?);
        let links_runtime = arguments.iter().any(|argument| {
            let name = Path::new(argument)
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with("libfaster_runtime-") && name.ends_with(".rlib")
        });
        let library = arguments
            .iter()
            .any(|argument| matches!(argument.as_str(), "-shared" | "-r" | "-Wl,-r"));
        if !links_runtime || library {
            return None;
        }
        let dir = super::own_dir(&output);
        let record = match kept(
            linker,
            &arguments,
            output_argument,
            directory,
            &output,
            &dir,
        ) {
            Ok(material) => Record::Kept {
                format: FORMAT,
                material,
            },
            Err(reason) => Record::NotKept {
                format: FORMAT,
                reason,
            },
        };
        let written = write_atomically(&dir.join(FILE), |out| {
            serde_json::to_writer_pretty(out, &record).map_err(Into::into)
        });
        written.ok().map(|()| dir)
    }
}

/// Replaces `dir` with a fresh one holding hard links to the files of
/// `arguments` that may not stay as they are — those rustc deletes after
/// the link (its temporary folder's files, the object files) and those the
/// next build may overwrite (every file of the build's profile folder, such
/// as `deps/*.rlib`) — and returns the material naming them. The
/// toolchain's and the system's libraries stay where they are.
fn kept(
    linker: &str,
    arguments: &[String],
    output_argument: usize,
    directory: &Path,
    output: &Path,
    dir: &Path,
) -> Result<Material, String> {
    let identity = Identity::of(output).ok_or("the linked binary cannot be read")?;
    let _ = std::fs::remove_dir_all(dir);
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).map_err(|error| format!("{}: {error}", inputs.display()))?;
    let mut kept_arguments = Vec::with_capacity(arguments.len());
    // `target/release` for `target/release/deps/name-HASH`.
    let build = output.parent().and_then(Path::parent).unwrap_or(directory);
    for (index, argument) in arguments.iter().enumerate() {
        let path = directory.join(argument);
        let fleeting = index != output_argument
            && (in_rustc_temporary_folder(&path)
                || (path.is_file() && (argument.ends_with(".o") || path.starts_with(build))));
        if !fleeting || !path.exists() {
            kept_arguments.push(argument.clone());
            continue;
        }
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned());
        let copy = inputs.join(format!("{index}-{}", name.unwrap_or_default()));
        link_tree(&path, &copy).map_err(|error| format!("{}: {error}", path.display()))?;
        kept_arguments.push(copy.to_string_lossy().into_owned());
    }
    Ok(Material {
        linker: linker.to_string(),
        arguments: kept_arguments,
        output_argument,
        directory: directory.to_path_buf(),
        identity,
    })
}

/// Whether `path` lies in a temporary folder rustc made for one link
/// (`rustcXXXXXX`, removed once it is done).
fn in_rustc_temporary_folder(path: &Path) -> bool {
    path.components().any(|component| {
        let name = component.as_os_str().to_string_lossy();
        name.len() == 11
            && name.starts_with("rustc")
            && name[5..].chars().all(|c| c.is_ascii_alphanumeric())
    })
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
        let record = Record::Kept {
            format: FORMAT,
            material: material.clone(),
        };
        write_atomically(&dir.join(FILE), |out| {
            serde_json::to_writer_pretty(out, &record).map_err(Into::into)
        })
        .map_err(failed)?;
        Ok(material)
    }
}

/// Hard-links the file `from` to `to` (copies it where it cannot), or, for
/// a folder, every file under it.
fn link_tree(from: &Path, to: &Path) -> std::io::Result<()> {
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

/// The arguments with every `@file` (a response file, which rustc writes
/// when a command line is too long) replaced by the arguments it holds.
fn expand_response_files(arguments: &[String], directory: &Path) -> Vec<String> {
    arguments
        .iter()
        .flat_map(|argument| {
            argument
                .strip_prefix('@')
                .and_then(|file| std::fs::read_to_string(directory.join(file)).ok())
                .map(|text| split_response_file(&text))
                .unwrap_or_else(|| vec![argument.clone()])
        })
        .collect()
}

/// A GNU-style response file's arguments: separated by white space, with
/// `\` escaping the next character and quotes grouping.
fn split_response_file(text: &str) -> Vec<String> {
    let mut arguments = Vec::new();
    let mut current: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut characters = text.chars();
    while let Some(c) = characters.next() {
        match (c, quote) {
            ('\\', _) => {
                if let Some(next) = characters.next() {
                    current.get_or_insert_with(String::new).push(next);
                }
            }
            (q, None) if q == '"' || q == '\'' => {
                quote = Some(q);
                current.get_or_insert_with(String::new);
            }
            (q, Some(open)) if q == open => quote = None,
            (c, None) if c.is_whitespace() => arguments.extend(current.take()),
            (c, _) => current.get_or_insert_with(String::new).push(c),
        }
    }
    arguments.extend(current);
    arguments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_files_split_as_gcc_reads_them() {
        assert_eq!(
            split_response_file("-m64\n/tmp/a\\ b.o\n\"-Wl,x y\"\n  '-o' out\n"),
            vec!["-m64", "/tmp/a b.o", "-Wl,x y", "-o", "out"]
        );
        assert!(split_response_file("").is_empty());
    }

    #[test]
    fn rustc_temporary_folders_are_told_by_their_name() {
        assert!(in_rustc_temporary_folder(Path::new(
            "/w/target/release/deps/rustcaq12V8/symbols.o"
        )));
        assert!(!in_rustc_temporary_folder(Path::new(
            "/w/target/release/deps/libstd-1a2b.rlib"
        )));
        assert!(!in_rustc_temporary_folder(Path::new("/w/rustc/lib.o")));
    }

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
            material.relink_arguments(Path::new("/w/bin.layouts/layout-3"), 3),
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
            ..material
        };
        assert_eq!(
            direct.relink_arguments(Path::new("/w/x"), 7)[2],
            "--shuffle-sections=*=7"
        );
    }

    #[test]
    fn links_that_need_no_layouts_keep_nothing() {
        let directory = std::env::temp_dir();
        let library = [
            "-shared".to_string(),
            "-o".into(),
            "libx.so".into(),
            "/d/libfaster_runtime-1a.rlib".into(),
        ];
        assert_eq!(Material::keep("cc", &library, &directory), None);
        let without_runtime = ["-o".to_string(), "x".into(), "/d/libstd-1a.rlib".into()];
        assert_eq!(Material::keep("cc", &without_runtime, &directory), None);
    }
}
