//! The crates whose sources differ between the base revision and the
//! current code: the packages of the repository holding a file git says
//! changed, by their library's name — what a compiled function's path
//! starts with, so a callee whose code changed can be told edited rather
//! than blamed on code generation.

use crate::git::Repository;
use std::collections::BTreeSet;
use std::path::Path;

/// The library names of the packages, in `repository`, holding a file that
/// differs between `commit` and the commit `to` (the working tree where
/// `to` is `None`); none where git cannot tell (the note then says what
/// code generation may have done).
pub fn edited_crates(repository: &Repository, commit: &str, to: Option<&str>) -> Vec<String> {
    let Ok(changed) = repository.changed_between(commit, to) else {
        return Vec::new();
    };
    let crates: BTreeSet<String> = changed
        .iter()
        .filter_map(|file| library_holding(&repository.root, file))
        .collect();
    crates.into_iter().collect()
}

/// The library name of the package whose directory, nearest up from
/// `file` (relative to `root`, not above it), holds a manifest.
fn library_holding(root: &Path, file: &Path) -> Option<String> {
    file.ancestors()
        .skip(1)
        .find_map(|directory| library_name(&root.join(directory).join("Cargo.toml")))
}

/// The library name `manifest` gives its package: `[lib] name`, else its
/// `[package] name` with `-` as `_`. `None` where it has no package (a
/// workspace's root manifest) or cannot be read.
fn library_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let document: toml_edit::DocumentMut = text.parse().ok()?;
    let name = |table: &str| document.get(table)?.get("name")?.as_str();
    Some(name("lib").or_else(|| name("package"))?.replace('-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let directory =
            std::env::temp_dir().join(format!("cargo-faster-edited-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&directory);
        std::fs::create_dir_all(directory.join("parser/src/simd")).unwrap();
        std::fs::write(
            directory.join("Cargo.toml"),
            "[workspace]\nmembers = [\"parser\"]\n",
        )
        .unwrap();
        directory
    }

    #[test]
    fn a_file_is_its_nearest_package_s_library() {
        let root = scratch("nearest");
        std::fs::write(
            root.join("parser/Cargo.toml"),
            "[package]\nname = \"http-parse\"\nversion = \"0.1.0\"\n",
        )
        .unwrap();
        let in_package = Path::new("parser/src/simd/avx2.rs");
        assert_eq!(
            library_holding(&root, in_package).as_deref(),
            Some("http_parse")
        );
        // The workspace's own manifest names no package.
        assert_eq!(library_holding(&root, Path::new("README.md")), None);
        std::fs::write(
            root.join("parser/Cargo.toml"),
            "[package]\nname = \"http-parse\"\n[lib]\nname = \"httparse\"\n",
        )
        .unwrap();
        assert_eq!(
            library_holding(&root, in_package).as_deref(),
            Some("httparse")
        );
        std::fs::remove_dir_all(root).unwrap();
    }
}
