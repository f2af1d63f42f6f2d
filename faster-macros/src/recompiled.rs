//! A library's file compiled again as a module of one of its package's
//! integration tests or benches (`#[path = "../src/d2s.rs"] mod d2s;`, as
//! `ryu`'s tests do): what its attributes add belongs to the library's own
//! compilation, once per crate, and the copy adds nothing. Added in each
//! copy, a tracked function would be served (and measured) once per test
//! binary, and the options' paths (`inputs = crate::cases::floats`) name
//! the library's modules, which the test crate does not have.
//!
//! Cargo sets `CARGO_TARGET_TMPDIR` only while it compiles an integration
//! test or a bench, and `CARGO_MANIFEST_DIR` to the package's directory:
//! a file under the package's `src/` compiled then is the library's,
//! borrowed. Anything uncertain (no file for the span, as before Rust
//! 1.88 or under rust-analyzer; no such variables, outside cargo) counts
//! as not borrowed: the expansion is then what it always was.

use proc_macro2::Span;
use std::path::{Path, PathBuf};

/// Whether the attribute being expanded is written in a file of the
/// library's that an integration test or a bench compiles again.
pub(crate) fn borrowed_from_the_library() -> bool {
    if !proc_macro::is_available() {
        return false;
    }
    let (Some(_), Some(package)) = (
        std::env::var_os("CARGO_TARGET_TMPDIR"),
        std::env::var_os("CARGO_MANIFEST_DIR"),
    ) else {
        return false;
    };
    Span::call_site()
        .local_file()
        .is_some_and(|file| in_library_sources(&file, Path::new(&package)))
}

/// Whether `file` (as rustc names it: relative to its working directory,
/// through `..` where a `#[path]` leads out of `tests/`) is under
/// `package`'s `src/`.
fn in_library_sources(file: &Path, package: &Path) -> bool {
    let resolved = |path: &Path| -> Option<PathBuf> { std::fs::canonicalize(path).ok() };
    match (resolved(file), resolved(&package.join("src"))) {
        (Some(file), Some(sources)) => file.starts_with(sources),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_src_is_the_librarys_however_the_path_reaches_it() {
        let package = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(in_library_sources(&package.join("src/lib.rs"), package));
        assert!(in_library_sources(
            &package.join("tests/../src/track.rs"),
            package
        ));
        assert!(!in_library_sources(&package.join("tests/expand"), package));
        assert!(!in_library_sources(
            &package.join("src/no_such_file.rs"),
            package
        ));
        assert!(!in_library_sources(&package.join("Cargo.toml"), package));
    }
}
