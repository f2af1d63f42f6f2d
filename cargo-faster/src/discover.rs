//! Which test binaries serve tracked functions: each one lists its tests
//! (`--list --format terse`, as nextest asks), and one that has a generated
//! `faster_track_*` test serves all of its tracked functions when that test
//! is run in the role of serving them (see `faster-runtime/src/process/`).
//!
//! A test binary lists its tests as a child of `cargo faster` like any
//! other (`faster-runtime/src/process/`): the environment a child of faster
//! gets, a process group of its own, and a time limit, so that one that
//! hangs on `--list` (a static constructor that waits, a custom harness)
//! is an error naming it rather than a `cargo faster` that never ends.

use crate::executable::Executable;
use faster_runtime::__internal::{ServerCommand, child_output, command};
use std::time::Duration;

/// How long one test binary may take to list its tests: libtest answers
/// in milliseconds, so this is only ever reached by one that hangs.
const LIST_TIMEOUT: Duration = Duration::from_secs(60);

/// How each of `executables` that holds tracked functions is started to
/// serve them.
pub fn servers(executables: &[Executable]) -> Result<Vec<ServerCommand>, String> {
    let mut servers = Vec::new();
    for executable in executables {
        if let Some(test) = listed_tracked_test(executable, LIST_TIMEOUT)? {
            servers.push(ServerCommand {
                program: executable.path.clone(),
                test,
                directory: executable.directory.clone(),
            });
        }
    }
    Ok(servers)
}

/// The generated test `executable` serves its tracked functions from, if
/// it has one, from its list of tests, which may take up to `timeout`.
fn listed_tracked_test(
    executable: &Executable,
    timeout: Duration,
) -> Result<Option<String>, String> {
    let mut list = command::child(&executable.path, None);
    list.args(["--list", "--format", "terse"])
        .current_dir(&executable.directory);
    let name = format!("`{} --list`", executable.path.display());
    let output = child_output(&name, list, timeout)?;
    if !output.status.success() {
        return Err(format!(
            "{name} failed: it exited with {}{}",
            output.status,
            match String::from_utf8_lossy(&output.stderr).trim() {
                "" => String::new(),
                said => format!(", saying:\n{said}"),
            }
        ));
    }
    Ok(tracked_test(&String::from_utf8_lossy(&output.stdout)))
}

/// The first generated `faster_track_*` test in a terse listing.
fn tracked_test(listing: &str) -> Option<String> {
    listing
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .find(|name| {
            name.rsplit("::")
                .next()
                .is_some_and(|last| last.starts_with("faster_track_"))
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_generated_test_is_the_one() {
        let listing = "text::tests::parses: test\n\
                       text::faster_track_parse: test\n\
                       faster_track_sum: test\n\
                       text::faster_track_bench: benchmark\n";
        assert_eq!(
            tracked_test(listing).as_deref(),
            Some("text::faster_track_parse")
        );
        assert_eq!(tracked_test("a::b: test\n"), None);
        assert_eq!(tracked_test("my_faster_track_x: test\n"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_test_binary_that_hangs_on_list_is_an_error_naming_it() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        let script = |name: &str, text: &str| {
            let path = folder.path().join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            Executable {
                path,
                directory: folder.path().to_path_buf(),
            }
        };
        // The shell's `sleep` is a child of the binary: stopping the binary
        // alone would leave it holding the pipes.
        let hangs = script("hangs", "#!/bin/sh\necho 'a::b: test'\nsleep 30\n");
        let started = std::time::Instant::now();
        let error = listed_tracked_test(&hangs, Duration::from_millis(500)).unwrap_err();
        assert_eq!(
            error,
            format!(
                "`{} --list` did not finish within 500ms: it was stopped",
                hangs.path.display()
            )
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{:?}",
            started.elapsed()
        );

        let lists = script(
            "lists",
            "#!/bin/sh\necho 'text::faster_track_parse: test'\n",
        );
        assert_eq!(
            listed_tracked_test(&lists, Duration::from_secs(60)).unwrap(),
            Some("text::faster_track_parse".to_string())
        );
    }
}
