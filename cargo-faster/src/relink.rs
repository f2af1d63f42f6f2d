//! Test binaries that serve tracked functions but cannot be relinked in
//! layouts, though they were linked through `faster-link`: their record
//! (`<binary>.layouts/material.json`) damaged, gone, or of another link.
//! Measured in the one link they have against the other revision in many,
//! their verdicts would be about that link, run after run; they are linked
//! again instead (cargo relinks a binary whose file is gone).

use crate::executable::Executable;
use faster_runtime::__internal::{Layouts, Unavailable, own_dir};
use std::path::Path;

/// What frames every message between a comparison and a test binary
/// serving it (`faster_runtime::__internal::wire`): only a binary holding it
/// can serve tracked functions, and only such a binary needs layouts.
const SERVES_MARKER: &[u8] = b"faster-frame/";

/// Why the layouts of `executable` cannot be made although it serves
/// tracked functions and `faster-link` linked it; `None` where they can,
/// or where it needs none.
pub fn damaged(executable: &Path) -> Option<Unavailable> {
    match Layouts::of_executable(executable) {
        Ok(_) | Err(Unavailable::Platform | Unavailable::TurnedOff) => None,
        // A binary that does not link the runtime has no record either.
        Err(Unavailable::NotLinkedThrough) => serves(executable).then_some(Unavailable::Damaged(
            format!("{} is gone", own_dir(executable).display()),
        )),
        Err(why) => Some(why),
    }
}

/// Removes every one of `executables` whose layouts are [`damaged`],
/// saying so, and whether any was: then building again links them anew
/// (and `faster-link` keeps their material again).
pub fn remove_damaged(executables: &[Executable], revision: &str) -> bool {
    let mut removed = false;
    for executable in executables {
        let Some(why) = damaged(&executable.path) else {
            continue;
        };
        eprintln!(
            "cargo faster: {} of {revision} cannot be relinked in layouts ({why}): linking it again",
            executable.path.display()
        );
        let _ = std::fs::remove_dir_all(own_dir(&executable.path));
        let _ = std::fs::remove_file(&executable.path);
        removed = true;
    }
    removed
}

/// Whether the binary at `path` can serve tracked functions.
fn serves(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let first = SERVES_MARKER[0];
    let mut rest = &bytes[..];
    while let Some(at) = rest.iter().position(|&byte| byte == first) {
        if rest[at..].starts_with(SERVES_MARKER) {
            return true;
        }
        rest = &rest[at + 1..];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_serves_where_it_holds_the_frame_marker() {
        let temp = tempfile::tempdir().unwrap();
        let binary = temp.path().join("demo-1a2b");
        std::fs::write(&binary, b"\x7fELF ffff faster-frame/2 ...").unwrap();
        assert!(serves(&binary));
        std::fs::write(&binary, b"\x7fELF faster-fram").unwrap();
        assert!(!serves(&binary));
        assert!(!serves(&temp.path().join("none")));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_serving_binary_without_its_record_is_damaged_and_one_that_does_not_serve_is_not() {
        let temp = tempfile::tempdir().unwrap();
        let serving = temp.path().join("serving-1a2b");
        std::fs::write(&serving, b"... faster-frame/2 ...").unwrap();
        let other = temp.path().join("other-3c4d");
        std::fs::write(&other, b"no marker").unwrap();
        assert!(damaged(&other).is_none());
        let gone = damaged(&serving).expect("serves, but has no record");
        assert!(
            gone.to_string().contains("serving-1a2b.layouts is gone"),
            "{gone}"
        );

        // A record that cannot be read is damaged whatever the binary holds.
        std::fs::create_dir_all(own_dir(&other)).unwrap();
        std::fs::write(own_dir(&other).join("material.json"), "{\"kept\": {").unwrap();
        let unreadable = damaged(&other).expect("an unreadable record");
        assert!(
            unreadable.to_string().contains("cannot be read"),
            "{unreadable}"
        );

        let executables = [serving.clone(), other.clone()].map(|path| Executable {
            path,
            directory: temp.path().to_path_buf(),
        });
        assert!(remove_damaged(&executables, "the current code"));
        assert!(!serving.exists() && !other.exists() && !own_dir(&other).exists());
        assert!(!remove_damaged(&executables, "the current code"));
    }
}
