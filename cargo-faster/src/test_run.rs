//! The run document of `cargo faster test` (`+run.json` in the output
//! directory): the comparisons' documents its test binaries wrote while it
//! ran, gathered once cargo is done, with the shard it was, the toolchain,
//! and cargo's exit code — what `cargo faster merge` reads. Each libtest
//! `#[test]` runs on its own, with no end of the run to write it at, so
//! `cargo faster`, which started them all, writes it.

use faster_runtime::__internal::Partition;
use faster_runtime::__internal::toolchain_name;
use faster_runtime::__internal::{Document, RUN_FILE, RunDocument};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What a `cargo faster test` run was, to write its document.
pub struct TestRun<'a> {
    /// The output directory the test binaries wrote their reports to.
    pub output: &'a Path,
    /// When cargo started: documents written since are this run's.
    pub started: SystemTime,
    /// The shard, where the run was one.
    pub shard: Option<Partition>,
    /// `rustc -vV` of the toolchain that built the tests.
    pub toolchain: &'a str,
    /// Whether cargo's tests passed.
    pub passed: bool,
}

impl TestRun<'_> {
    /// How the run is named among shards: `hash:2/4`, or `whole`.
    pub fn shard_name(&self) -> String {
        self.shard
            .map_or_else(|| "whole".to_string(), |shard| shard.to_string())
    }

    /// Writes the run's document: where, or why it could not.
    pub fn write(&self) -> Result<PathBuf, String> {
        let mut documents = Vec::new();
        for folder in report_folders(self.output) {
            documents.extend(self.written_since(&folder));
        }
        documents.sort_by(|a, b| a.name().cmp(b.name()));
        let mut run = RunDocument::new("test", documents);
        run.shard = self.shard;
        run.toolchain = toolchain_name(self.toolchain);
        run.passed = self.passed;
        run.elapsed_s = self
            .started
            .elapsed()
            .unwrap_or(Duration::ZERO)
            .as_secs_f64();
        let path = self.output.join(RUN_FILE);
        std::fs::create_dir_all(self.output)
            .and_then(|()| std::fs::write(&path, run.to_pretty()))
            .map_err(|error| format!("could not write {}: {error}", path.display()))?;
        Ok(path)
    }

    /// The comparisons' documents in `folder` written since the run
    /// started (the files of earlier runs stay beside them).
    fn written_since(&self, folder: &Path) -> Vec<Document> {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Vec::new();
        };
        entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.extension()
                    .is_some_and(|extension| extension == "json")
            })
            .filter(|path| {
                std::fs::metadata(path)
                    .and_then(|metadata| metadata.modified())
                    .is_ok_and(|modified| modified >= self.started)
            })
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .filter_map(|text| serde_json::from_str::<Document>(&text).ok())
            .collect()
    }
}

/// The folders of `output` the test binaries write their reports to: one
/// per test target, and the same under `debug/`; not the folders of
/// `cargo faster --against` (`against/`), of a bisect (`bisect/`) and
/// their builds.
fn report_folders(output: &Path) -> Vec<PathBuf> {
    const NOT_REPORTS: [&str; 5] = ["against", "bisect", "build", "base", "merged"];
    let folders = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .filter(|entry| {
                let name = entry.file_name();
                !NOT_REPORTS.iter().any(|not| name == *not)
            })
            .map(|entry| entry.path())
            .collect()
    };
    let mut all = folders(output);
    all.extend(folders(&output.join("debug")));
    all
}
