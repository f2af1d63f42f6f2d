//! The run's document (`faster/run/v1`, see `report::run`): every
//! comparison's document gathered as it ends, written whole when the run
//! ends, with the shard it was and the machine and toolchain that measured,
//! for `cargo faster merge` to read.

use super::files::{not_written, write_json};
use super::{Note, Output, Summary};
use crate::partition::Partition;
use crate::report::{Document, Outcome, RunDocument};
use std::path::PathBuf;

/// Writes a run's document to a file when the run ends.
#[derive(Debug)]
pub struct RunFile {
    path: PathBuf,
    document: RunDocument,
}

impl RunFile {
    /// The document of a run of `command` (`against`, `test`), to be written
    /// to `path`, of `shard` where it is one, measuring code built by
    /// `toolchain`.
    pub fn new(
        path: PathBuf,
        command: &str,
        shard: Option<Partition>,
        toolchain: Option<String>,
    ) -> RunFile {
        let mut document = RunDocument::new(command, Vec::new());
        document.shard = shard;
        document.toolchain = toolchain;
        RunFile { path, document }
    }
}

impl Output for RunFile {
    fn comparison(&mut self, outcome: &Outcome, _notes: &mut Vec<Note>) {
        self.document.comparisons.push(Document::of(outcome));
    }

    fn end(&mut self, summary: &Summary<'_>, notes: &mut Vec<Note>) {
        let document = &mut self.document;
        document.against = summary.against.map(str::to_string);
        document.time = crate::report::environment::utc_now();
        document.elapsed_s = summary.elapsed.as_secs_f64();
        document.passed = summary.failed() == 0;
        document.filtered_out = summary.filtered_out;
        let written = write_json(&self.path, document);
        notes.push(match written {
            Ok(()) => Note::Written {
                what: "run",
                path: self.path.clone(),
            },
            Err(error) => Note::Problem(not_written(&self.path, &error)),
        });
    }
}
