//! The document of a whole run (schema `faster/run/v1`): which
//! shard of a CI matrix it was, which machine and toolchain measured, and
//! every comparison's `faster/report/v1` document (`+run.json`). Shards write one each;
//! `cargo faster merge` reads them and writes one of the same shape that
//! holds them all, with a line per shard it merged.

use super::document::Document;
use super::environment::{Environment, utc_now};
use crate::partition::Partition;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The schema identifier every run document carries.
pub const RUN_SCHEMA: &str = "faster/run/v1";

/// The name of a run's document in its folder of report files: a `+`,
/// which no comparison's file name holds (see `output::files::file_stem`),
/// so no function's report can be written over it.
pub const RUN_FILE: &str = "+run.json";

/// What a whole run measured, where, and how it ended.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunDocument {
    /// `RUN_SCHEMA`.
    pub schema: String,
    /// The command that ran: `against` (`cargo faster --against`) or `test`
    /// (`cargo faster test`); merged runs keep their shards'.
    pub command: String,
    /// Across revisions: how the base revision is named.
    pub against: Option<String>,
    /// The shard of the comparisons this run measured, where it was one.
    pub shard: Option<Partition>,
    /// `rustc -vV`'s `release:` of the toolchain that built the code
    /// measured (both revisions, across revisions).
    pub toolchain: Option<String>,
    /// The machine that measured.
    pub environment: Environment,
    /// When the run ended, RFC 3339 in UTC.
    pub time: String,
    /// Wall time of the run, in seconds.
    pub elapsed_s: f64,
    /// Whether the run passed: every comparison, and (`cargo faster test`)
    /// cargo's exit code.
    pub passed: bool,
    /// Comparisons the filters and the shard left out.
    pub filtered_out: usize,
    /// In a merged document, one line per shard it merged.
    #[serde(default)]
    pub shards: Vec<ShardLine>,
    /// Every comparison's document, in the order they ran.
    pub comparisons: Vec<Document>,
}

/// One shard of a merged run: which, where it was read, and what measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardLine {
    /// The shard.
    pub shard: Partition,
    /// The document it was read from.
    pub file: String,
    /// The machine's host name.
    pub host: Option<String>,
    /// The CPU's model name.
    pub cpu: Option<String>,
    /// The toolchain that built what it measured.
    pub toolchain: Option<String>,
    /// Whether it passed.
    pub passed: bool,
    /// How many comparisons it measured.
    pub comparisons: usize,
    /// Its wall time, in seconds.
    pub elapsed_s: f64,
}

impl RunDocument {
    /// The document of a run that measured `comparisons`, on this machine.
    pub fn new(command: &str, comparisons: Vec<Document>) -> RunDocument {
        RunDocument {
            schema: RUN_SCHEMA.into(),
            command: command.into(),
            against: None,
            shard: None,
            toolchain: None,
            environment: Environment::current().clone(),
            time: utc_now(),
            elapsed_s: 0.0,
            passed: true,
            filtered_out: 0,
            shards: Vec::new(),
            comparisons,
        }
    }

    /// Reads the run document at `path`: an error naming the file and what
    /// is wrong with it.
    pub fn read(path: &Path) -> Result<RunDocument, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|error| format!("{} is not JSON: {error}", path.display()))?;
        if value["schema"] != RUN_SCHEMA {
            return Err(format!(
                "{} is not a run document (its schema is {}, not {RUN_SCHEMA}): give the \
                 folders the shards wrote their `{RUN_FILE}` to",
                path.display(),
                value["schema"]
            ));
        }
        serde_json::from_value(value)
            .map_err(|error| format!("{} cannot be read: {error}", path.display()))
    }

    /// The document, indented for people.
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a document of plain data always serializes")
    }

    /// The line of a merged document for this shard's, read from `file`.
    pub fn shard_line(&self, shard: Partition, file: &Path) -> ShardLine {
        ShardLine {
            shard,
            file: file.display().to_string(),
            host: self.environment.host.clone(),
            cpu: self.environment.cpu.clone(),
            toolchain: self.toolchain.clone(),
            passed: self.passed,
            comparisons: self.comparisons.len(),
            elapsed_s: self.elapsed_s,
        }
    }
}

/// The first line of `rustc -vV` (`rustc 1.85.0 (4d91de4e4 2025-02-17)`):
/// how a run document names its toolchain.
pub fn toolchain_name(verbose_version: &str) -> Option<String> {
    verbose_version
        .lines()
        .next()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_string)
}
