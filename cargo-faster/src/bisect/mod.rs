//! `cargo faster bisect GOOD..BAD [FUNCTION]...`: for each tracked function
//! slower at BAD than at GOOD beyond the floor, the first commit on the path
//! where it became slower. `options` is its command line, `search` the
//! search as pure logic over a three-way oracle, `commits` that oracle for
//! real (each commit built once and cached as a base revision is, compared
//! by compiled code or measured as `cargo faster --against` measures), and
//! `report` what it tells the maintainer and the exit code it comes to.

mod commits;
mod options;
mod report;
mod search;

use crate::build::Builds;
use crate::cache::prune;
use crate::git::Repository;
use crate::options::Parsed;
use crate::{USAGE_ERROR, toolchain};
use commits::{Commit, Commits, Compared, Function, Setup};
use faster_runtime::__internal::write_atomically;
use options::Options;
use report::{FunctionBisect, Outcome};
use search::Measured;
use std::path::Path;
use std::time::Instant;

/// The subcommand's name.
pub const SUBCOMMAND: &str = "bisect";

/// The exit code of a bisect that failed: an end does not build, a child
/// could not start.
const FAILED: u8 = 101;

/// Why a bisect did not come to an outcome.
enum Failure {
    /// The command line, or a revision it names, is wrong.
    Usage(String),
    /// The run failed.
    Run(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Run(message)
    }
}

/// Runs the bisect `arguments` (after `bisect`) ask for: its exit code,
/// every failure said.
pub fn run(arguments: &[String]) -> u8 {
    let options = match options::parse(arguments) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help(help)) => {
            println!("{help}");
            return 0;
        }
        Err(message) => return said(Failure::Usage(message)),
    };
    bisect(&options).unwrap_or_else(said)
}

/// The exit code of `failure`, said.
fn said(failure: Failure) -> u8 {
    let (message, code) = match failure {
        Failure::Usage(message) => (message, USAGE_ERROR),
        Failure::Run(message) => (message, FAILED),
    };
    eprintln!("cargo faster bisect: {message}");
    code
}

/// Bisects every function `options` select: the exit code of the outcome,
/// written and printed.
fn bisect(options: &Options) -> Result<u8, Failure> {
    let started = Instant::now();
    let directory = std::env::current_dir()
        .map_err(|error| format!("cannot read the current directory: {error}"))?;
    let (rustc, version) = toolchain::toolchain(&directory)?;
    let cargo = options.build.cargo(toolchain::layout_linker(&version));
    let workspace = cargo.workspace(&directory)?;
    let repository = Repository::of(&directory).map_err(Failure::Usage)?;
    let path = path(&repository, options.good(), options.bad())?;
    let builds = Builds {
        repository: &repository,
        workspace: &workspace,
        rustc: &rustc,
        version: &version,
    };
    let setup = Setup {
        builds,
        cargo: &cargo,
        directory: &directory,
        accept_changes: options.accept_changes,
        harness: options.harness(),
    };
    let mut commits = Commits::new(setup, path);
    let functions = every_function(&mut commits)?;
    let faster = workspace.target.join("faster");
    let outcome = Outcome {
        path: &commits.path,
        functions,
        built: commits.built(),
        disk_bytes: prune::disk_usage(&[&faster]).iter().sum(),
        elapsed: started.elapsed(),
    };
    let markdown = outcome.markdown();
    write(&faster.join(SUBCOMMAND), &outcome, &markdown)?;
    println!("\n{markdown}");
    Ok(outcome.exit_code())
}

/// The commits from `good` to `bad`, each with its subject and date.
fn path(repository: &Repository, good: &str, bad: &str) -> Result<Vec<Commit>, Failure> {
    let good = repository.commit(good).map_err(Failure::Usage)?;
    let bad = repository.commit(bad).map_err(Failure::Usage)?;
    let hashes = repository.path(&good, &bad).map_err(Failure::Usage)?;
    hashes
        .into_iter()
        .map(|hash| {
            let (subject, date) = repository.subject_and_date(&hash)?;
            Ok(Commit {
                hash,
                subject,
                date,
            })
        })
        .collect()
}

/// Every function faster's filters select measured at the bad end against
/// the good one, and those slower there bisected, one after the other (the
/// builds and measurements of one serve the next).
fn every_function(commits: &mut Commits) -> Result<Vec<FunctionBisect>, Failure> {
    let last = commits.path.len() - 1;
    let names: Vec<String> = match commits.measure_all((0, last), 1, None)? {
        Compared::Documents(documents) => documents
            .iter()
            .map(|document| document.name().to_string())
            .collect(),
        Compared::DoesNotBuild(why) => {
            return Err(Failure::Run(format!("the bad end does not build: {why}")));
        }
    };
    if names.is_empty() {
        return Err(Failure::Usage(
            "no function tracked with #[faster::track] is selected at both ends: check the \
             function names given, and that GOOD and BAD track them"
                .into(),
        ));
    }
    let mut functions = Vec::with_capacity(names.len());
    for name in names {
        let started = Instant::now();
        let mut oracle = Function {
            commits,
            name: &name,
        };
        let total = search::measured(0, last, &mut oracle)?;
        let bisect = match total {
            Measured::Slower(_) => Some(search::bisect(last, &mut oracle)?),
            _ => None,
        };
        functions.push(FunctionBisect {
            name,
            total,
            bisect,
            elapsed: started.elapsed(),
        });
    }
    Ok(functions)
}

/// Writes `bisect.json` and `bisect.md` into `folder`, each whole or not
/// at all.
fn write(folder: &Path, outcome: &Outcome, markdown: &str) -> Result<(), String> {
    std::fs::create_dir_all(folder)
        .map_err(|error| format!("cannot create {}: {error}", folder.display()))?;
    let json = serde_json::to_string_pretty(&outcome.json())
        .map_err(|error| format!("cannot write the bisect's document: {error}"))?;
    for (name, text) in [("bisect.json", json.as_str()), ("bisect.md", markdown)] {
        let file = folder.join(name);
        write_atomically(&file, |out| out.write_all(text.as_bytes()))
            .map_err(|error| format!("cannot write {}: {error}", file.display()))?;
    }
    Ok(())
}
