//! Which test binaries serve tracked functions: each one lists its tests
//! (`--list --format terse`, as nextest asks), and one that has a generated
//! `faster_track_*` test serves all of its tracked functions when that test
//! is run with `FASTER_SERVE=1`.

use crate::executable::Executable;
use faster_runtime::__internal::ServerCommand;
use std::process::Command;

/// How each of `executables` that holds tracked functions is started to
/// serve them.
pub fn servers(executables: &[Executable]) -> Result<Vec<ServerCommand>, String> {
    let mut servers = Vec::new();
    for executable in executables {
        let output = Command::new(&executable.path)
            .args(["--list", "--format", "terse"])
            .current_dir(&executable.directory)
            .env_remove(faster_runtime::__internal::SERVE_VARIABLE)
            .output()
            .map_err(|error| format!("could not run {}: {error}", executable.path.display()))?;
        if !output.status.success() {
            return Err(format!(
                "`{} --list` failed: it exited with {}{}",
                executable.path.display(),
                output.status,
                match String::from_utf8_lossy(&output.stderr).trim() {
                    "" => String::new(),
                    said => format!(", saying:\n{said}"),
                }
            ));
        }
        if let Some(test) = tracked_test(&String::from_utf8_lossy(&output.stdout)) {
            servers.push(ServerCommand {
                program: executable.path.clone(),
                test,
                directory: executable.directory.clone(),
            });
        }
    }
    Ok(servers)
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
}
