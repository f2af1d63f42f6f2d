//! What `faster-link` keeps after a link: for a binary that links the
//! runtime, the command line and hard links to the files rustc deletes
//! once the link is done, written as the runtime's
//! [`Material`] in `<binary>.layouts/` (or the reason it could not be).

use faster_runtime::__internal::own_dir;
use faster_runtime::__internal::{Identity, Material, link_tree};
use std::path::{Path, PathBuf};

/// Keeps the material of the link `linker arguments` just run in
/// `directory`, into `<output>.layouts/`, where the output is a binary
/// that links the runtime; returns that folder, or `None` for a link that
/// needs no layouts (a library, a build script, a binary without
/// comparisons). Where the material cannot be kept, the folder holds the
/// reason instead, for the comparison to report.
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
    let dir = own_dir(&output);
    let material = kept(
        linker,
        &arguments,
        output_argument,
        directory,
        &output,
        &dir,
    );
    let written = Material::write(&dir, material.as_ref().map_err(String::as_str));
    written.ok().map(|()| dir)
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
    fn links_that_need_no_layouts_keep_nothing() {
        let directory = std::env::temp_dir();
        let library = [
            "-shared".to_string(),
            "-o".into(),
            "libx.so".into(),
            "/d/libfaster_runtime-1a.rlib".into(),
        ];
        assert_eq!(keep("cc", &library, &directory), None);
        let without_runtime = ["-o".to_string(), "x".into(), "/d/libstd-1a.rlib".into()];
        assert_eq!(keep("cc", &without_runtime, &directory), None);
    }

    /// The two crates' contract: what the wrapper writes is what a test
    /// binary's runtime reads, the object file rustc deletes kept as a hard
    /// link, the toolchain's library left where it is.
    #[cfg(unix)]
    #[test]
    fn what_the_wrapper_keeps_the_runtime_reads() {
        let temp = tempfile::tempdir().unwrap();
        let directory = temp.path();
        let deps = directory.join("target/release/deps");
        std::fs::create_dir_all(&deps).unwrap();
        for file in ["bench-1a", "bench-1a.bench.o", "libfaster_runtime-2b.rlib"] {
            std::fs::write(deps.join(file), file).unwrap();
        }
        let arguments: Vec<String> = [
            "-m64",
            "target/release/deps/bench-1a.bench.o",
            "target/release/deps/libfaster_runtime-2b.rlib",
            "/toolchain/libstd-3c.rlib",
            "-o",
            "target/release/deps/bench-1a",
        ]
        .map(str::to_string)
        .into();

        let dir = keep("cc", &arguments, directory).expect("a binary linking the runtime");
        assert_eq!(dir, own_dir(&deps.join("bench-1a")));
        let material = Material::read(&dir).expect("material").expect("kept");
        assert_eq!(
            (material.linker.as_str(), material.output_argument),
            ("cc", 5)
        );
        assert_eq!(material.directory, directory);
        assert_eq!(
            Identity::of(&deps.join("bench-1a")),
            Some(material.identity)
        );
        assert_eq!(material.arguments[0], "-m64");
        assert_eq!(material.arguments[3..], arguments[3..]);
        for (index, name) in [(1, "bench-1a.bench.o"), (2, "libfaster_runtime-2b.rlib")] {
            let kept = Path::new(&material.arguments[index]);
            assert!(kept.starts_with(dir.join("inputs")), "{}", kept.display());
            assert_eq!(std::fs::read_to_string(kept).unwrap(), name);
        }
    }
}
