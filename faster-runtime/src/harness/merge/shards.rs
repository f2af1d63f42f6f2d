//! The shards a merge was given, checked: one run document per shard of one
//! partition, none missing, none twice, no function in two, all of one
//! command against one base; and what differs between the machines and
//! toolchains that measured them, said (each shard measured both revisions
//! on its own machine, so its verdicts stand, but the shards' figures are
//! not of one machine).

use crate::judge;
use crate::partition::Partition;
use crate::report::RunDocument;
use crate::report::units::{Ratio, format_percent};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A run document and the file it was read from.
pub type Read = (PathBuf, RunDocument);

/// The shards of a merge, in shard order, and what is said of them.
#[derive(Debug)]
pub struct Shards {
    /// Each shard's document (one unsharded run alone, as it is).
    pub runs: Vec<Read>,
    /// Each shard of the partition that no folder held, said: the merge
    /// still writes what the others measured, and fails.
    pub missing: Vec<String>,
    /// What differs between the machines or toolchains that measured.
    pub differences: Vec<String>,
}

/// Checks `read` are the shards of one run, each of whose documents says
/// what its own figures say: an error naming each shard found twice, each
/// comparison whose verdict or status its interval, floor and expectation
/// do not give, or what else keeps them from being merged. A shard missing
/// is no error here ([`Shards::missing`]).
pub fn check(mut read: Vec<Read>) -> Result<Shards, String> {
    if read.is_empty() {
        return Err("no shard's run document was found".into());
    }
    one_of_each(&read, "command", |run| Some(run.command.clone()), by_file)?;
    // By commit: one CI job names the base `HEAD~1`, another `base`.
    one_of_each(
        &read,
        "base revision",
        |run| run.against.as_deref().map(base_commit),
        |path, run| {
            let name = run.against.as_deref().unwrap_or("none");
            format!("{name} in {}", path.display())
        },
    )?;
    let unsharded: Vec<String> = read
        .iter()
        .filter(|(_, run)| run.shard.is_none())
        .map(|(path, _)| path.display().to_string())
        .collect();
    if !unsharded.is_empty() && read.len() > 1 {
        return Err(format!(
            "{} measured every function, not a shard (run without --partition): merge only \
             the documents of one partitioned run",
            unsharded.join(", ")
        ));
    }
    // Grouped by partition, each file named with its own shard.
    one_of_each(
        &read,
        "partition",
        |run| run.shard.map(any_shard_of),
        |path, run| {
            let shard = run
                .shard
                .map_or_else(|| "none".into(), |shard| shard.to_string());
            format!("{shard} in {}", path.display())
        },
    )?;
    read.sort_by_key(|(_, run)| run.shard.map_or(0, |shard| shard.index));
    let missing = match read[0].1.shard {
        Some(first) => every_shard_once(&read, first)?,
        None => Vec::new(),
    };
    no_function_twice(&read)?;
    believable(&read)?;
    Ok(Shards {
        differences: differences(&read),
        missing,
        runs: read,
    })
}

/// An error naming every comparison of `read` whose document contradicts
/// itself: a verdict the judge does not give its interval and floor
/// (`judge::misjudged`), or a status its result does not have (`passed`
/// where the verdict misses the expectation, `skipped` with a result).
/// Merge renders what the documents hold; it must not render a verdict
/// they do not support.
fn believable(read: &[Read]) -> Result<(), String> {
    let mut problems = Vec::new();
    for (path, run) in read {
        for document in &run.comparisons {
            let outcome = document.to_outcome();
            let name = document.name();
            if let Ok(report) = &outcome.result {
                if let Some(judged) = judge::misjudged(report) {
                    problems.push(format!(
                        "{name} in {}: its verdict reads \"{}\" where its interval {} at a {} \
                         floor reads \"{judged}\"",
                        path.display(),
                        report.verdict,
                        Ratio(report.speedup, Some(report.ci)),
                        format_percent(report.noise_floor),
                    ));
                    continue;
                }
            }
            if outcome.status() != document.status() {
                problems.push(format!(
                    "{name} in {}: its status is \"{}\" where its result is \"{}\"",
                    path.display(),
                    document.status().name(),
                    outcome.status().name(),
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "a shard's document contradicts itself (edited, or written by another faster?), \
             so none is merged:\n{}",
            problems.join("\n")
        ))
    }
}

/// How [`one_of_each`] names a run by default: its file.
fn by_file(path: &Path, _: &RunDocument) -> String {
    path.display().to_string()
}

/// The commit of a base revision as the run named it: the short hash in
/// `HEAD~1 (12141ff)`, or the name itself where it is a hash alone
/// (`12141ff`), as `cargo faster` names a base.
fn base_commit(name: &str) -> String {
    name.strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" ("))
        .map_or(name, |(_, commit)| commit)
        .to_string()
}

/// A partition with any shard's index: `hash:K/3`.
fn any_shard_of(shard: Partition) -> String {
    shard.with_index(0).to_string().replace(":0/", ":K/")
}

/// An error when the runs say different things of `what` (`of` each),
/// each run named by `named`.
fn one_of_each(
    read: &[Read],
    what: &str,
    of: impl Fn(&RunDocument) -> Option<String>,
    named: impl Fn(&Path, &RunDocument) -> String,
) -> Result<(), String> {
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, run) in read {
        let value = of(run).unwrap_or_else(|| "none".into());
        seen.entry(value).or_default().push(named(path, run));
    }
    if seen.len() <= 1 {
        return Ok(());
    }
    let listed: Vec<String> = seen
        .iter()
        .map(|(value, paths)| format!("{value} ({})", paths.join(", ")))
        .collect();
    Err(format!(
        "the shards are not of one run: their {what} differs: {}",
        listed.join("; ")
    ))
}

/// Every shard of `first`'s partition that is missing, said; an error
/// naming every one there more than once.
fn every_shard_once(read: &[Read], first: Partition) -> Result<Vec<String>, String> {
    let (mut missing, mut problems) = (Vec::new(), Vec::new());
    for index in 1..=first.count {
        let shard = first.with_index(index);
        let found: Vec<String> = read
            .iter()
            .filter(|(_, run)| run.shard == Some(shard))
            .map(|(path, _)| path.display().to_string())
            .collect();
        match found.len() {
            0 => missing.push(format!(
                "shard {shard} is missing: no folder given holds its run document (did its job \
                 fail before measuring, or its artifact not download?)"
            )),
            1 => {}
            _ => problems.push(format!(
                "shard {shard} is there {} times: {} (give each shard's folder once)",
                found.len(),
                found.join(", ")
            )),
        }
    }
    if problems.is_empty() {
        Ok(missing)
    } else {
        Err(problems.join("\n"))
    }
}

/// An error naming a function two shards measured: shards of one
/// partition of one tree never do, so they were run on different trees.
fn no_function_twice(read: &[Read]) -> Result<(), String> {
    let mut measured_by: BTreeMap<&str, &std::path::Path> = BTreeMap::new();
    for (path, run) in read {
        for document in &run.comparisons {
            if let Some(other) = measured_by.insert(document.name(), path) {
                return Err(format!(
                    "{} was measured by two shards ({} and {}): were they run on different \
                     commits? Run every shard of one partition on the same commit",
                    document.name(),
                    other.display(),
                    path.display()
                ));
            }
        }
    }
    Ok(())
}

/// What differs between the machines and toolchains of `read`'s shards,
/// each said once with the shards on each side. Host names are not among
/// them: every machine of a CI matrix has its own.
fn differences(read: &[Read]) -> Vec<String> {
    type Field = (&'static str, fn(&RunDocument) -> Option<String>);
    let fields: [Field; 6] = [
        ("CPU", |run| run.environment.cpu.clone()),
        ("logical CPUs", |run| {
            run.environment.logical_cpus.map(|cpus| cpus.to_string())
        }),
        ("architecture", |run| Some(run.environment.arch.clone())),
        ("operating system", |run| run.environment.os_version.clone()),
        ("toolchain", |run| run.toolchain.clone()),
        ("faster version", |run| {
            Some(run.environment.faster_version.clone())
        }),
    ];
    fields
        .iter()
        .filter_map(|(what, of)| {
            let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (path, run) in read {
                let shard = run
                    .shard
                    .map_or_else(|| path.display().to_string(), |shard| shard.to_string());
                values
                    .entry(of(run).unwrap_or_else(|| "unknown".into()))
                    .or_default()
                    .push(shard);
            }
            (values.len() > 1).then(|| {
                let sides: Vec<String> = values
                    .iter()
                    .map(|(value, shards)| format!("{value} ({})", shards.join(", ")))
                    .collect();
                format!(
                    "the shards differ in {what}: {}; each compared both revisions on its own \
                     machine, so its verdicts stand, but figures of different shards are not \
                     of one machine",
                    sides.join(" vs ")
                )
            })
        })
        .collect()
}
