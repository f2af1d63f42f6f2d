//! `cargo faster --against REV`: every function registered with
//! `#[faster::track]` in the current code, compared with the function of
//! the same name at revision `REV`, paired in time across pairs of
//! processes, each pair in a layout of both binaries of its own (see
//! `faster-runtime/src/revision/` and `faster-runtime/src/layout/`).
//!
//! Modules: `options` (the command line), `git` (the base commit and its
//! worktree), `sources` (the base's worktree and the path dependencies
//! outside the repository beside it), `manifests` (the base's manifests
//! pointed at those dependencies where the current build reaches them),
//! `toolchain` (the compiler and
//! `faster-link`, which every build uses), `cargo` (running cargo: metadata
//! and test builds), `build` (both revisions' test binaries, in one target
//! directory, the base's cached by commit), `wrapper` (the rustc wrapper
//! that keeps the base's own crates apart there), `cache` (the base builds'
//! record, its key, the pruning of older ones, and of layouts no run needs
//! kept), `build_failure` (what
//! to say when one does not build), `discover` (which binaries serve
//! tracked functions), `bisect` (`cargo faster bisect`: the first commit
//! where a function became slower), `machine_code` (a function's timed loop and what it
//! calls, in a binary), `edited` (the crates whose sources the revisions
//! differ in), `relink` (test binaries a fault left unable to
//! be relinked in layouts, linked again), `linked` (`cargo faster test`: cargo's own command,
//! linked through `faster-link`), `merge` (`cargo faster merge`: the shards
//! of a CI matrix in one result), `clean` (`cargo faster clean`: what it
//! keeps, removed). The comparison itself, and every output, is the
//! runtime's (`faster_runtime::__internal::run_against`).

mod bisect;
mod build;
mod build_failure;
mod cache;
mod cargo;
mod clean;
mod discover;
mod edited;
mod executable;
mod git;
mod linked;
mod machine_code;
mod manifests;
mod merge;
mod options;
mod relink;
mod sources;
mod test_run;
mod toolchain;
mod wrapper;

use build::{Builds, TestBinaries};
use cargo::Workspace;
use faster_runtime::__internal::{
    AGAINST_REPORTS, Against, COULD_NOT_RUN, Revision, run_against, say_when_interrupted,
};
use options::{Options, Parsed};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// What an interrupted run says (Ctrl-C, SIGTERM): what it leaves behind
/// (`guide/revisions.md`, "Interrupted, killed, or run twice at once").
const INTERRUPTED: &str = "cargo faster: interrupted: the comparisons not reported yet have no \
                           verdict; every file it wrote is whole, the processes it started end \
                           with it, and the next run builds again what was left half-built\n";

/// The exit code of a bad command line.
pub(crate) const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    if let Some(code) = wrapper::run_if_wrapping() {
        return code;
    }
    say_when_interrupted(INTERRUPTED);
    let mut arguments: Vec<String> = std::env::args().skip(1).collect();
    // Run as `cargo faster ...`, cargo passes the subcommand's name first.
    if arguments.first().map(String::as_str) == Some("faster") {
        arguments.remove(0);
    }
    if arguments.first().map(String::as_str) == Some(bisect::SUBCOMMAND) {
        return ExitCode::from(bisect::run(&arguments[1..]));
    }
    if arguments.first().map(String::as_str) == Some(merge::SUBCOMMAND) {
        return ExitCode::from(merge::run(&arguments[1..]));
    }
    if let Some(subcommand) = arguments
        .first()
        .filter(|first| linked::SUBCOMMANDS.contains(&first.as_str()))
    {
        return exit_code(linked::run(subcommand, &arguments[1..]));
    }
    if arguments.first().map(String::as_str) == Some("clean") {
        return exit_code(clean::run(&arguments[1..]));
    }
    let options = match options::parse(&arguments) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help(help)) => {
            println!("{help}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("cargo faster: {message}");
            return ExitCode::from(USAGE_ERROR);
        }
    };
    exit_code(run(&options))
}

/// A run's exit code, or why it could not run, said.
fn exit_code(run: Result<u8, String>) -> ExitCode {
    match run {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("cargo faster: {message}");
            ExitCode::from(COULD_NOT_RUN)
        }
    }
}

/// Builds both revisions and compares them; the exit code, or why it could
/// not.
fn run(options: &Options) -> Result<u8, String> {
    let began = Instant::now();
    let directory = std::env::current_dir()
        .map_err(|error| format!("cannot read the current directory: {error}"))?;
    let (rustc, version) = toolchain::toolchain(&directory)?;
    let cargo = options.build.cargo(toolchain::layout_linker(&version));
    let workspace = cargo.workspace(&directory)?;
    let repository = git::Repository::of(&directory)?;
    let commit = repository.commit(options.against())?;
    let base_name = git::name(options.against(), &commit);

    // Both revisions are linked through faster-link, in a target directory
    // of ours (shared with `cargo faster test`): linked another way, the project's own target directory would
    // be rebuilt whole on the next `cargo test`, since cargo rebuilds
    // everything it links when the linker changes. Held until the
    // comparison is over: no other run prunes the base's binaries while
    // they run.
    let builds = Builds {
        repository: &repository,
        workspace: &workspace,
        rustc: &rustc,
        version: &version,
    };
    let (binaries, in_use) = builds.base(&commit, &base_name).both(&cargo, &directory)?;

    let base = (base_name, edited::edited_crates(&repository, &commit, None));
    let compared = compare(
        &binaries, base, began, options, &version, &workspace, &directory,
    );
    // What the next run does not need goes once this one has measured: the
    // layouts of binaries cargo superseded, and of the bases it did not
    // measure (their material kept).
    let removed = build::kept::remove_unneeded_layouts(&workspace, &repository, in_use.folder());
    if binaries.built || binaries.kept.removed > 0 || removed.any() {
        eprintln!(
            "cargo faster: {}",
            build::kept::what_is_kept(&workspace, &binaries.kept, removed)
        );
    }
    compared
}

/// Compares the tracked functions `binaries` serve against the base
/// revision (its name, and the crates edited since), in the run that
/// `began` then; the exit code, or why it could not.
fn compare(
    binaries: &TestBinaries,
    (base_name, edited_crates): (String, Vec<String>),
    began: Instant,
    options: &Options,
    version: &str,
    workspace: &Workspace,
    directory: &Path,
) -> Result<u8, String> {
    let against = Against {
        base: Revision {
            name: base_name,
            servers: discover::servers(&binaries.base)?,
        },
        current: Revision {
            name: "the current code".into(),
            servers: discover::servers(&binaries.current)?,
        },
        accept_changes: options.accept_changes,
        output: workspace.target.join("faster"),
        reports: AGAINST_REPORTS,
        effort: 1,
        read_code: Some(machine_code::timed_code),
        edited_crates,
        toolchain: Some(version.to_string()),
        began: Some(began),
    };
    if against.current.servers.is_empty() && against.base.servers.is_empty() {
        return Err(nothing_tracked(directory));
    }
    Ok(run_against(&against, options.harness()))
}

fn nothing_tracked(directory: &Path) -> String {
    format!(
        "no test binary built in {} has a function tracked with #[faster::track] in either \
         revision: annotate the functions to guard, such as\n  \
         #[cfg_attr(test, faster::track(inputs = parse_inputs))]\n  pub fn parse(line: &str) -> \
         Vec<u32> {{ ... }}",
        directory.display()
    )
}
