//! `cargo faster merge DIR…`: the run documents the shards of a CI matrix
//! wrote (`+run.json`, see `report::run`), found under the folders given,
//! checked to be every shard of one run once (`shards`), and their
//! comparisons handed to the same outputs as a run's — the terminal's
//! table, JUnit, GitHub's job summary, and the same Markdown as a
//! pull-request comment — with one merged run document beside them. Ends
//! in the exit codes of a run: 101 when a shard or a comparison failed.

mod shards;

use super::{FAILED, exit_code};
use crate::options::Undecided;
use crate::output::github::{STEP_SUMMARY_VARIABLE, StepSummary};
use crate::output::junit::{Destination, Junit, NoStream};
use crate::output::style::ColorChoice;
use crate::output::terminal::{Detail, Harness, Terminal};
use crate::output::{Outputs, Run, Summary};
use crate::report::{Outcome, RUN_FILE, RunDocument};
use shards::{Read, Shards};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The exit code of a merge that could not read its shards, or found one
/// missing or twice.
pub const COULD_NOT_MERGE: u8 = 1;

/// What to merge, and where the merged result goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    /// Folders holding the shards' run documents, at any depth (as CI
    /// artifacts download).
    pub directories: Vec<PathBuf>,
    /// Where the comment, JUnit and merged document are written.
    pub out: PathBuf,
    /// What an undecided verdict does, where given: else each shard's
    /// choice.
    pub if_undecided: Option<Undecided>,
    /// Whether to colour the terminal's table.
    pub color: ColorChoice,
}

/// The merged result's files in [`Merge::out`].
pub const COMMENT_FILE: &str = "comment.md";
/// The JUnit report of every shard's comparisons.
pub const JUNIT_FILE: &str = "junit.xml";
/// The merged run document.
pub const MERGED_FILE: &str = "merged.json";

/// Merges the shards `merge` names and returns the exit code: 0 when every
/// shard and comparison passed, 101 when one failed, 1 when the shards
/// could not be read, one is there twice or a document contradicts itself
/// (each named, and nothing written), or one is missing (named first, and
/// what the others measured written all the same, so the pull request is
/// told).
pub fn run_merge(merge: &Merge) -> u8 {
    merge_into(merge, Box::new(std::io::stdout()))
}

/// [`run_merge`], its table written to `stdout`.
fn merge_into(merge: &Merge, stdout: Box<dyn Write + '_>) -> u8 {
    let checked = find(&merge.directories).and_then(shards::check);
    let shards = match checked {
        Ok(shards) => shards,
        Err(error) => {
            eprintln!("cargo faster merge: {error}");
            return COULD_NOT_MERGE;
        }
    };
    for missing in &shards.missing {
        eprintln!("cargo faster merge: {missing}");
    }
    for difference in &shards.differences {
        eprintln!("cargo faster merge: warning: {difference}");
    }
    let outcomes = outcomes(&shards.runs, merge.if_undecided);
    let merged = merged_document(&shards, &outcomes);
    let mut outputs = outputs_of(merge, &shards, stdout);
    let first = &shards.runs[0].1;
    let binary = if first.command == "test" {
        "cargo faster test"
    } else {
        "cargo faster"
    };
    let tests: Vec<&str> = outcomes
        .iter()
        .map(|outcome| outcome.test.as_str())
        .collect();
    outputs.begin(&Run {
        tests: &tests,
        environment: &first.environment,
        debug_build: outcomes.iter().any(|outcome| !outcome.enforced),
    });
    for outcome in &outcomes {
        outputs.comparison(outcome);
    }
    let summary = Summary {
        binary,
        against: first.against.as_deref(),
        outcomes: &outcomes,
        filtered_out: merged.filtered_out,
        elapsed: Duration::try_from_secs_f64(merged.elapsed_s).unwrap_or_default(),
        whole_run: None,
        load: None,
    };
    outputs.end(&summary);
    eprintln!(
        "cargo faster merge: {}",
        merged_line(&shards, outcomes.len())
    );
    let mut unwritten = outputs.unwritten().to_vec();
    let path = merge.out.join(MERGED_FILE);
    if let Err(error) = crate::output::files::write_json(&path, &merged) {
        unwritten.push(crate::output::files::not_written(&path, &error));
    }
    if !shards.missing.is_empty() {
        eprintln!(
            "cargo faster merge: failed: {} of {} shards missing (named above): what the others \
             measured is written, and is not the whole run",
            shards.missing.len(),
            shards.missing.len() + shards.runs.len(),
        );
        return COULD_NOT_MERGE;
    }
    let code = exit_code(&summary, &unwritten);
    let failed_shards: Vec<String> = shards
        .runs
        .iter()
        .filter(|(_, run)| !run.passed)
        .map(|(path, run)| shard_name(path, run))
        .collect();
    if failed_shards.is_empty() {
        code
    } else {
        eprintln!(
            "cargo faster merge: failed: {} (see {})",
            failed_shards.join(", "),
            if failed_shards.len() == 1 {
                "its log"
            } else {
                "their logs"
            }
        );
        FAILED
    }
}

/// What the merge merged, said after its table: "merged 3 shards
/// (hash:K/3): 12 comparisons", or, for one whole run, "merged one run
/// (not sharded): 4 comparisons".
fn merged_line(shards: &Shards, comparisons: usize) -> String {
    let merged = match shards.runs[0].1.shard {
        Some(first) => format!(
            "merged {} shards ({})",
            shards.runs.len(),
            first.with_index(0).to_string().replace(":0/", ":K/")
        ),
        None => "merged one run (not sharded)".to_string(),
    };
    let plural = if comparisons == 1 { "" } else { "s" };
    format!("{merged}: {comparisons} comparison{plural}")
}

/// How a shard is named: `hash:2/4`, or its file when it is no shard.
fn shard_name(path: &Path, run: &RunDocument) -> String {
    run.shard
        .map_or_else(|| path.display().to_string(), |shard| shard.to_string())
}

/// Every run document under `directories`: an error for a folder that
/// cannot be read, or that holds none.
fn find(directories: &[PathBuf]) -> Result<Vec<Read>, String> {
    if directories.is_empty() {
        return Err(format!(
            "name the folders holding the shards' {RUN_FILE}: `cargo faster merge shards/`"
        ));
    }
    let mut read = Vec::new();
    for directory in directories {
        let mut found = Vec::new();
        walk(directory, &mut found)
            .map_err(|error| format!("cannot read {}: {error}", directory.display()))?;
        if found.is_empty() {
            return Err(format!(
                "{} holds no {RUN_FILE}: every `cargo faster --against` run writes one in \
                 target/faster/against/ (and `cargo faster test --partition` in \
                 target/faster/): upload that file from each shard",
                directory.display()
            ));
        }
        found.sort();
        for path in found {
            let run = RunDocument::read(&path)?;
            read.push((path, run));
        }
    }
    Ok(read)
}

/// Adds the run documents under `directory`, at any depth, to `found`.
fn walk(directory: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(directory)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), found)?;
        } else if entry.file_name() == RUN_FILE {
            found.push(entry.path());
        }
    }
    Ok(())
}

/// Every shard's comparisons, in shard order, as the outputs render them;
/// an undecided verdict does what `if_undecided` says, where given.
fn outcomes(runs: &[Read], if_undecided: Option<Undecided>) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = runs
        .iter()
        .flat_map(|(_, run)| run.comparisons.iter().map(|document| document.to_outcome()))
        .collect();
    if let Some(if_undecided) = if_undecided {
        for outcome in &mut outcomes {
            if let Ok(report) = &mut outcome.result {
                report.if_undecided = if_undecided;
            }
        }
    }
    outcomes
}

/// One run document of every shard's comparisons (their documents as the
/// shards wrote them, each with its own machine), a line per shard, and
/// whether it passed as a whole.
fn merged_document(shards: &Shards, outcomes: &[Outcome]) -> RunDocument {
    let first = &shards.runs[0].1;
    let mut merged = RunDocument::new(&first.command, Vec::new());
    merged.against = first.against.clone();
    merged.toolchain = first.toolchain.clone();
    for (path, run) in &shards.runs {
        merged.comparisons.extend(run.comparisons.iter().cloned());
        // The matrix's wall time: its slowest shard.
        merged.elapsed_s = merged.elapsed_s.max(run.elapsed_s);
        if let Some(shard) = run.shard {
            merged.shards.push(run.shard_line(shard, path));
        }
    }
    // Every shard saw every function: what one did not measure, the
    // others did, unless the filters left it out.
    let seen = first.filtered_out + first.comparisons.len();
    merged.filtered_out = seen.saturating_sub(merged.comparisons.len());
    merged.passed = shards.missing.is_empty()
        && shards.runs.iter().all(|(_, run)| run.passed)
        && outcomes.iter().all(Outcome::passed);
    merged
}

/// The merge's outputs: the terminal's table on stdout, JUnit and the
/// pull-request comment in `merge.out`, GitHub's job summary where
/// `$GITHUB_STEP_SUMMARY` is set.
fn outputs_of<'a>(merge: &Merge, shards: &Shards, stdout: Box<dyn Write + 'a>) -> Outputs<'a> {
    let notes = notes_of(shards);
    let mut outputs = Outputs::new();
    outputs.add(Terminal::new(
        stdout,
        merge.color.for_stdout(),
        Detail::Terse,
        Harness::Faster,
    ));
    outputs.add(Junit::<NoStream>::new(Destination::File(
        merge.out.join(JUNIT_FILE),
    )));
    outputs.add(StepSummary::comment(merge.out.join(COMMENT_FILE)).with_notes(notes.clone()));
    if let Some(path) = std::env::var_os(STEP_SUMMARY_VARIABLE).filter(|path| !path.is_empty()) {
        outputs.add(StepSummary::whole_run(PathBuf::from(path)).with_notes(notes));
    }
    outputs
}

/// What the comment and the job summary say of the shards: which machines
/// measured, and what differs between them.
fn notes_of(shards: &Shards) -> Vec<String> {
    // First: what the comment does not show is said before what it does.
    let mut notes: Vec<String> = (shards.missing.iter())
        .map(|missing| format!("❌ {missing}: its comparisons are not in this comment"))
        .collect();
    if let Some(first) = shards.runs[0].1.shard {
        let hosts: Vec<String> = shards
            .runs
            .iter()
            .map(|(_, run)| {
                let shard = run.shard.map(|shard| shard.index).unwrap_or_default();
                let host = run.environment.host.as_deref().unwrap_or("a machine");
                format!("{shard} on {host}")
            })
            .collect();
        notes.push(format!(
            "ℹ️ measured in {} shards ({}), each comparing both revisions on its own \
             machine: {}",
            first.count,
            first.with_index(0).to_string().replace(":0/", ":K/"),
            hosts.join(", ")
        ));
    }
    notes.extend(
        shards
            .differences
            .iter()
            .map(|difference| format!("⚠️ {difference}")),
    );
    notes
}

#[cfg(test)]
mod tests;
