//! `cargo faster test ...` and `cargo faster bench ...`: cargo's own
//! command, with every binary linked through `faster-link`, so each
//! comparison is measured in layouts of its binary and its verdict is about
//! the code rather than one link. Nothing in the project's configuration
//! names `faster-link`, so a teammate or a CI job without it builds and
//! tests as before.
//!
//! It builds in the target directory `cargo faster --against` builds both
//! revisions in, with the same compiler by the same path (`RUSTC`) and the
//! current code's rustc wrapper (see [`crate::wrapper`]), so the
//! current code's crates and every dependency are compiled once for both
//! commands: cargo rebuilds everything it links when the linker changes, so
//! sharing the project's own `target/` with plain `cargo test` would
//! rebuild the whole project each time one follows the other.
//!
//! `--partition hash:K/N` (before `--`) is not cargo's: it is taken out (by
//! the runtime's parser of faster's flags) and handed to every test binary
//! as `FASTER_PARTITION`, and once cargo is done
//! the run's document is written (`test_run`) for `cargo faster merge`.

use crate::build::shared_target;
use crate::cargo::Cargo;
use crate::test_run::TestRun;
use crate::toolchain;
use crate::wrapper;
use faster_runtime::__internal::COULD_NOT_RUN;
use faster_runtime::__internal::LINKER_VARIABLE;
use faster_runtime::__internal::{Action, Beside, Cli, Known, Own};
use faster_runtime::__internal::{PARTITION_VARIABLE, Partition, partition_from_env};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The cargo commands run linked through `faster-link`.
pub const SUBCOMMANDS: [&str; 2] = ["test", "bench"];

/// Runs `cargo <subcommand> <arguments>` linked through `faster-link`, its
/// reports written where `cargo test` writes them; cargo's exit code, or
/// why it could not run.
pub fn run(subcommand: &str, arguments: &[String]) -> Result<u8, String> {
    let directory = std::env::current_dir()
        .map_err(|error| format!("cannot read the current directory: {error}"))?;
    let (rustc, version) = toolchain::toolchain(&directory)?;
    let cargo = Cargo {
        program: std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
        profile: String::new(),
        flags: Vec::new(),
        manifest_path: manifest_path(arguments),
        linker: None,
    };
    let (arguments, partition) = match take_partition(arguments) {
        Ok(taken) => taken,
        Err(error) => {
            eprintln!("cargo faster: {error}");
            return Ok(crate::USAGE_ERROR);
        }
    };
    let workspace = cargo.workspace(&directory)?;
    let mut command = Command::new(&cargo.program);
    command
        .arg(subcommand)
        .args(&arguments)
        .current_dir(&directory);
    let output = std::env::var_os("FASTER_OUTPUT_DIR")
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| workspace.target.join("faster"), PathBuf::from);
    command.env("FASTER_OUTPUT_DIR", &output);
    if let Some(partition) = partition {
        command.env(PARTITION_VARIABLE, partition.to_string());
    }
    match toolchain::layout_linker(&version) {
        Some((variable, linker)) => {
            let target = shared_target(&workspace);
            link_through(&mut command, &variable, &linker);
            command.env("CARGO_TARGET_DIR", &target);
            command.env("RUSTC", rustc);
            if let Some(wrapper) = wrapper::for_tests(&workspace.target.join("faster"), &directory)?
            {
                command.env(wrapper::VARIABLE, wrapper);
            }
            eprintln!(
                "cargo faster: cargo {subcommand}, linked through faster-link in {}",
                shown(&target, &directory)
            );
        }
        None if cfg!(target_os = "linux") => {
            return Err(format!(
                "faster-link is not installed beside cargo-faster ({}): `cargo install \
                 cargo-faster` installs both",
                std::env::current_exe().unwrap_or_default().display()
            ));
        }
        // Layouts vary on Linux only: elsewhere this is cargo's command as
        // it is, and every report says its verdict holds for this build.
        None => {}
    }
    let started = SystemTime::now();
    let status = command
        .status()
        .map_err(|error| format!("could not run cargo: {error}"))?;
    let code = status
        .code()
        .and_then(|code| u8::try_from(code).ok())
        .unwrap_or(COULD_NOT_RUN);
    let run = TestRun {
        output: &output,
        started,
        shard: partition,
        toolchain: &version,
        passed: code == 0,
    };
    match run.write() {
        Ok(path) if partition.is_some() => {
            eprintln!(
                "cargo faster: shard {}: {}",
                run.shard_name(),
                shown(&path, &directory)
            );
            Ok(code)
        }
        Ok(_) => Ok(code),
        // A shard whose document is missing would read as missing: fail.
        Err(error) => {
            eprintln!("cargo faster: {error}");
            Ok(code.max(COULD_NOT_RUN))
        }
    }
}

/// `--partition K/N` (or `=K/N`) taken out of cargo's arguments, before
/// `--`, by the runtime's parser, for the test binaries (through
/// `FASTER_PARTITION`); else the variable's, where set.
fn take_partition(arguments: &[String]) -> Result<(Vec<String>, Option<Partition>), String> {
    let beside = Beside {
        own: Own::Everything,
        takes: |known| matches!(known, Known::Flag(flag) if flag.action == Action::Partition),
    };
    let (cli, kept) = Cli::parse_beside(arguments, beside)?;
    let partition = match cli.partition {
        Some(partition) => Some(partition),
        None => partition_from_env(|name| std::env::var(name).ok())?,
    };
    Ok((kept, partition))
}

/// Sets `faster-link` as the host's linker; a linker the environment had
/// already set is the one `faster-link` runs, unless one is named already.
fn link_through(command: &mut Command, variable: &str, linker: &Path) {
    let already = std::env::var_os(variable)
        .filter(|set| Path::new(set).file_stem() != Some("faster-link".as_ref()))
        .filter(|_| std::env::var_os(LINKER_VARIABLE).is_none());
    if let Some(already) = already {
        command.env(LINKER_VARIABLE, already);
    }
    command.env(variable, linker);
}

/// `--manifest-path PATH` (or `=PATH`) among cargo's arguments, before `--`.
fn manifest_path(arguments: &[String]) -> Option<PathBuf> {
    let own = arguments.iter().take_while(|argument| *argument != "--");
    let mut own = own.peekable();
    while let Some(argument) = own.next() {
        if argument == "--manifest-path" {
            return own.peek().map(PathBuf::from);
        }
        if let Some(path) = argument.strip_prefix("--manifest-path=") {
            return Some(PathBuf::from(path));
        }
    }
    None
}

/// `path` relative to `directory` where it is inside it.
fn shown(path: &Path, directory: &Path) -> String {
    path.strip_prefix(directory)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(arguments: &[&str]) -> Vec<String> {
        arguments.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_manifest_path_is_read_from_cargos_arguments_only() {
        let read = |arguments: &[&str]| manifest_path(&strings(arguments));
        assert_eq!(
            read(&["--release", "--manifest-path", "a/Cargo.toml"]),
            Some(PathBuf::from("a/Cargo.toml"))
        );
        assert_eq!(
            read(&["--manifest-path=b/Cargo.toml"]),
            Some(PathBuf::from("b/Cargo.toml"))
        );
        assert_eq!(read(&["--release", "--", "--manifest-path", "c"]), None);
        assert_eq!(read(&["--release"]), None);
    }

    #[test]
    fn the_partition_is_taken_out_of_cargos_arguments_only() {
        let arguments = strings(&[
            "--release",
            "--partition=slice:1/3",
            "--",
            "--partition",
            "hash:2/2",
        ]);
        let (kept, partition) = take_partition(&arguments).unwrap();
        assert_eq!(
            kept,
            strings(&["--release", "--", "--partition", "hash:2/2"])
        );
        assert_eq!(partition, Some(Partition::parse("slice:1/3").unwrap()));
        let error = take_partition(&strings(&["--partition", "hash:3/2"])).unwrap_err();
        assert!(
            error.starts_with("--partition: shard 3 of 2 does not exist"),
            "{error}"
        );
    }
}
