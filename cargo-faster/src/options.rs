//! The command line of `cargo faster`: its own flags (the base revision,
//! what to build, whether changed outputs are expected) and, for everything
//! else, the flags and filters of `faster::main()`.

use faster_runtime::harness::cli::Cli;
use std::path::PathBuf;

/// The usage text of `--help` and of a usage error.
pub const USAGE: &str = "\
usage: cargo faster --against REV [OPTIONS] [FILTER...]
       cargo faster test|bench [CARGO TEST OR BENCH ARGUMENTS...]

`cargo faster test` is `cargo test`, every binary linked through faster-link
(in target/faster/current/), so each comparison is measured in layouts of its
binary and its verdict is about the code, not this one link.


Compares every function registered with #[faster::track] in the current code
with the function of the same name at revision REV (a branch, a tag, a
commit), both built with the same toolchain and profile and linked through
faster-link, measured in pairs of processes in alternating order, each pair
in a layout of both binaries of its own (the same code linked in another
order), so a commit that only moves code elsewhere does not read as a change.
Fails when a function became slower beyond the noise floor, or returns
something else on some input.

  --against REV              the base revision (required)
  --accept-changes           changed outputs are expected: report them, and measure
  -p, --package SPEC         build this package's tests (repeatable), as cargo test -p
  --workspace                build every workspace member's tests
  --features FEATURES, --all-features, --no-default-features
                             as for cargo test, on both revisions
  --profile NAME             the cargo profile of both builds (default: release)
  --manifest-path PATH       the workspace's Cargo.toml

  FILTER                     compare functions whose name contains it
  --exact, --skip FILTER     as for faster::main()
  --list                     list the tracked functions and which revision has them
  --max-time DURATION        budget per function, e.g. 500ms, 3s  [FASTER_MAX_TIME]
  --noise-floor FRACTION     smallest difference that counts, e.g. 0.05  [FASTER_NOISE_FLOOR]
  --processes N              measure in at least N pairs of processes (4), more
                             while a verdict is undecided  [FASTER_PROCESSES]
  --layouts on|off           each pair in a layout of its own  [FASTER_LAYOUTS]
  --undecided pass|fail      a verdict that could not rule out a slowdown of the floor's
                             size: passes, shown as `?` (pass, the default), or fails
                             (fail)  [FASTER_UNDECIDED]
  --timer wall|cycles|thread-cpu
                             the timing source of both processes  [FASTER_TIMER]
  --format pretty|terse|json|bench|junit
                             what to print on stdout  [FASTER_FORMAT]
  --junit PATH               also write a JUnit XML report to PATH
  --color auto|always|never  colour the output
  -h, --help                 this text

The base revision is checked out in a git worktree and built under
target/faster/base/, once per commit and build configuration (compiler, flags,
.cargo/config.toml files, RUSTFLAGS and cargo's variables): a second run
against it builds nothing. The three base revisions used last are kept, older
ones removed. The current code is built under target/faster/current/.
Exit codes: 0 passed (undecided ones too, unless --undecided fail), 101 a
function failed, 2 a bad command line, 1 could not build or run.";

/// The parsed command line.
#[derive(Debug, PartialEq)]
pub struct Options {
    /// `--against REV`.
    pub against: String,
    /// `--accept-changes`.
    pub accept_changes: bool,
    /// The flags that select what cargo builds, passed to both builds.
    pub cargo_flags: Vec<String>,
    /// `--profile NAME`.
    pub profile: String,
    /// `--manifest-path PATH`.
    pub manifest_path: Option<PathBuf>,
    /// The rest: filters, budget, formats.
    pub harness: Cli,
    /// `--help`.
    pub help: bool,
}

/// Parses `arguments` (without the program name, nor cargo's `faster`).
pub fn parse(arguments: &[String]) -> Result<Options, String> {
    let mut against = None;
    let mut accept_changes = false;
    let mut cargo_flags = Vec::new();
    let mut profile = "release".to_string();
    let mut manifest_path = None;
    let mut rest = Vec::new();
    let mut arguments = arguments.iter();
    while let Some(argument) = arguments.next() {
        let (flag, inline) = match argument.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_string())),
            _ => (argument.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| arguments.next().cloned())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag {
            "--against" => against = Some(value()?),
            "--accept-changes" => accept_changes = true,
            "-p" | "--package" | "--features" => {
                cargo_flags.extend([flag.to_string(), value()?]);
            }
            "--workspace" | "--all-features" | "--no-default-features" => {
                cargo_flags.push(flag.to_string());
            }
            "--profile" => profile = value()?,
            "--release" => profile = "release".to_string(),
            "--manifest-path" => manifest_path = Some(PathBuf::from(value()?)),
            // `--quick` and the other flags of faster::main() that take no
            // value, and filters, go on as they are.
            _ => rest.push(argument.clone()),
        }
    }
    let harness = Cli::parse(&rest)?.with_env(|name| std::env::var(name).ok())?;
    let help = harness.help;
    let against = match against {
        Some(against) if !against.trim().is_empty() => against,
        Some(_) => return Err("--against needs a revision: a branch, a tag or a commit".into()),
        None if help => String::new(),
        None => {
            return Err("name the base revision: `cargo faster --against origin/main`".into());
        }
    };
    Ok(Options {
        against,
        accept_changes,
        cargo_flags,
        profile,
        manifest_path,
        harness,
        help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Options, String> {
        super::parse(&arguments.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn own_flags_are_taken_and_the_rest_is_faster_mains() {
        let options = parse(&[
            "--against",
            "origin/main",
            "-p",
            "demo",
            "--features=simd",
            "--workspace",
            "--profile",
            "bench",
            "--accept-changes",
            "parse",
            "--max-time",
            "1s",
            "--format",
            "json",
            "--undecided=fail",
        ])
        .unwrap();
        assert_eq!(options.against, "origin/main");
        assert!(options.accept_changes);
        assert_eq!(
            options.cargo_flags,
            ["-p", "demo", "--features", "simd", "--workspace"]
        );
        assert_eq!(options.profile, "bench");
        assert_eq!(options.harness.filters, ["parse"]);
        assert_eq!(
            options.harness.settings.max_time,
            Some(std::time::Duration::from_secs(1))
        );
        assert_eq!(
            options.harness.settings.if_undecided,
            Some(faster_runtime::Undecided::Fail)
        );
    }

    #[test]
    fn the_revision_is_required_and_bad_flags_are_errors() {
        assert!(parse(&[]).unwrap_err().contains("--against origin/main"));
        assert!(parse(&["--against"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["--against", " "]).unwrap_err().contains("a branch"));
        assert_eq!(
            parse(&["--against", "main", "--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate"
        );
        assert!(parse(&["--help"]).unwrap().help);
        assert_eq!(parse(&["--against", "v1"]).unwrap().profile, "release");
    }

    #[test]
    fn every_own_flag_is_in_the_usage() {
        for flag in [
            "--against",
            "--accept-changes",
            "--package",
            "--workspace",
            "--features",
            "--all-features",
            "--no-default-features",
            "--profile",
            "--manifest-path",
        ] {
            assert!(USAGE.contains(flag), "{flag}");
        }
    }
}
