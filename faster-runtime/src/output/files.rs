//! The report files: each comparison's `faster/report/v1` JSON document and
//! SVG plot under `target/faster/<target>/` (`target/faster/debug/<target>/`
//! for a build with `debug_assertions`), where the files go, and writing
//! them atomically.
//!
//! A file is written to a temporary file in the same directory (made by
//! `tempfile`) and renamed over the old one, so a reader (or a run killed
//! mid-write) never sees a truncated document: it sees the old file or the
//! new one.

use super::{Note, Output};
use crate::report::{Document, Outcome, Report};
use serde::Serialize;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Writes each comparison's JSON document (also for an error, so CI tools
/// see every comparison) and, with the `plots` feature, its SVG plot into
/// one folder of the output directory: a build with `debug_assertions`
/// into the same folder under `debug/`, so a plain `cargo test` never
/// overwrites the files of a `--release` run.
#[derive(Debug)]
pub struct ReportFiles {
    root: PathBuf,
    folder: String,
}

/// The folder of the output directory that holds the files of builds with
/// `debug_assertions`.
pub const DEBUG_FOLDER: &str = "debug";

impl ReportFiles {
    /// Files under `root/folder` (created when the first one is written),
    /// or `root/debug/folder` for a comparison built with
    /// `debug_assertions`.
    pub fn new(root: PathBuf, folder: impl Into<String>) -> ReportFiles {
        ReportFiles {
            root,
            folder: folder.into(),
        }
    }

    /// The folder a comparison's files go to, by whether it was built with
    /// `debug_assertions`.
    fn dir_of(&self, debug_build: bool) -> PathBuf {
        if debug_build {
            self.root.join(DEBUG_FOLDER).join(&self.folder)
        } else {
            self.root.join(&self.folder)
        }
    }
}

impl Output for ReportFiles {
    fn comparison(&mut self, outcome: &Outcome, notes: &mut Vec<Note>) {
        let debug_build = outcome
            .source
            .as_ref()
            .is_some_and(|source| source.debug_assertions);
        let dir = self.dir_of(debug_build);
        let stem = file_stem(
            outcome
                .source
                .as_ref()
                .map_or(&outcome.test, |source| &source.path),
        );
        let mut note = |what: &'static str, path: PathBuf, written: io::Result<()>| {
            notes.push(match written {
                Ok(()) => Note::Written { what, path },
                Err(error) => Note::Problem(not_written(&path, &error)),
            });
        };
        #[cfg(feature = "plots")]
        if let Ok(report) = &outcome.result {
            let path = dir.join(format!("{stem}.svg"));
            let written = write_svg(&path, report, debug_build);
            note("plot", path, written);
        }
        let path = dir.join(format!("{stem}.json"));
        let written = write_json(&path, &Document::of(outcome));
        note("data", path, written);
    }
}

/// What is said of a report file that could not be written at `path`,
/// once the file an earlier run wrote there is removed: left in its
/// place, it would read as this run's.
pub fn not_written(path: &Path, error: &io::Error) -> String {
    format!(
        "could not write {}: {error}{}",
        path.display(),
        match fs::remove_file(path) {
            Ok(()) => "; the file an earlier run wrote there is removed",
            Err(_) => "",
        }
    )
}

/// The folder of `target/faster/` that a test target's files go to, named
/// after the source file it is built from: `tests/speed.rs` → `tests-speed`,
/// `benches/speed.rs` → `benches-speed`, a library's unit tests (any file
/// under `src/`) → `src`; in a workspace member, the member's folder comes
/// first (`crates/parse/tests/speed.rs` → `parse-tests-speed`). So a test
/// and a bench target of the same name, or two crates of one workspace,
/// keep separate files.
pub fn target_folder(source_file: &str) -> String {
    let parts: Vec<&str> = source_file
        .split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    let Some(kind) = parts
        .iter()
        .rposition(|part| matches!(*part, "src" | "tests" | "benches" | "examples"))
    else {
        return "unknown".into();
    };
    let mut name: Vec<&str> = Vec::new();
    if kind > 0 {
        name.push(parts[kind - 1]);
    }
    name.push(parts[kind]);
    if parts[kind] != "src" {
        if let Some(target) = parts.get(kind + 1) {
            name.push(target.strip_suffix(".rs").unwrap_or(target));
        }
    }
    file_stem(&name.join("-"))
}

impl Report {
    /// This report as a `faster/report/v1` JSON document (see the guide's
    /// "Reports and output formats", `guide/reports.md`, and
    /// `faster-runtime/schema/report-v1.schema.json`), without source
    /// location: what [`compare_fns`](crate::compare_fns) users store or
    /// send on.
    pub fn to_json(&self) -> String {
        Document::of_report(self).to_pretty()
    }

    /// Writes [`Report::to_json`] to `path` atomically (a temporary file in
    /// the same directory, renamed over `path`), creating the directory:
    /// a reader never sees a half-written file, even if this process is
    /// killed midway. [`output_dir`] is where the harness writes its own.
    ///
    /// ```no_run
    /// # fn run(report: faster::Report) -> std::io::Result<()> {
    /// report.write_json(faster::output_dir().join("formula_vs_loop.json"))?;
    /// # Ok(()) }
    /// ```
    pub fn write_json(&self, path: impl AsRef<Path>) -> io::Result<()> {
        write_json(path.as_ref(), &Document::of_report(self))
    }

    /// Writes [`Report::to_svg`] to `path` atomically, as
    /// [`Report::write_json`] writes the JSON, creating the directory.
    #[cfg(feature = "plots")]
    pub fn write_svg(&self, path: impl AsRef<Path>) -> io::Result<()> {
        write_svg(path.as_ref(), self, false)
    }
}

/// Writes the plot of `report` to `path` atomically; a `debug_build`'s
/// plot says it is one.
#[cfg(feature = "plots")]
fn write_svg(path: &Path, report: &Report, debug_build: bool) -> io::Result<()> {
    let svg = super::plot::svg(report, debug_build).map_err(io::Error::other)?;
    write_atomically(path, |out| out.write_all(svg.as_bytes()))
}

/// The variable naming the directory reports are written to (see
/// [`output_dir`]).
pub const OUTPUT_DIR_VARIABLE: &str = "FASTER_OUTPUT_DIR";

/// The directory reports are written to: `<target dir>/faster`.
///
/// The target directory is, in order: `FASTER_OUTPUT_DIR` when set (used
/// as is, without `faster/` appended); an absolute `CARGO_TARGET_DIR`; the
/// nearest ancestor of the running executable that holds cargo's
/// `CACHEDIR.TAG` (cargo writes one at the root of every target directory,
/// whatever it is called); the nearest ancestor named `target`; and
/// finally `target` under the current directory.
pub fn output_dir() -> PathBuf {
    output_dir_from(
        std::env::var_os(OUTPUT_DIR_VARIABLE).map(PathBuf::from),
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from),
        std::env::current_exe().ok(),
    )
}

fn output_dir_from(
    explicit: Option<PathBuf>,
    cargo_target: Option<PathBuf>,
    exe: Option<PathBuf>,
) -> PathBuf {
    if let Some(dir) = explicit.filter(|dir| !dir.as_os_str().is_empty()) {
        return dir;
    }
    if let Some(dir) = cargo_target.filter(|dir| dir.is_absolute()) {
        return dir.join("faster");
    }
    if let Some(exe) = exe {
        let ancestors = || exe.ancestors().skip(1);
        if let Some(dir) = ancestors().find(|dir| dir.join("CACHEDIR.TAG").is_file()) {
            return dir.join("faster");
        }
        if let Some(dir) =
            ancestors().find(|dir| dir.file_name().is_some_and(|name| name == "target"))
        {
            return dir.join("faster");
        }
    }
    PathBuf::from("target").join("faster")
}

/// A file name for a comparison: `::` becomes `.`, anything but ASCII
/// letters, digits, `_`, `-` and `.` becomes `_`, so the name is valid on
/// every file system (`demo::sum_fast` → `demo.sum_fast`).
pub fn file_stem(name: &str) -> String {
    let dotted = name.replace("::", ".");
    let mut stem: String = dotted
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    // No hidden files, no `..`, no names that are too long to create.
    stem = stem.trim_start_matches('.').replace("..", "._");
    stem.truncate(150);
    if stem.is_empty() {
        "comparison".into()
    } else {
        stem
    }
}

/// Writes `path` atomically: `write` fills a temporary file in the same
/// directory (`.NAME.XXXXXX.tmp`, made by `tempfile`, which never reuses a
/// name another writer holds), which is flushed to disk and renamed over
/// `path`. If `write` fails midway, `path` keeps its old content and the
/// temporary file is removed; one left by a killed process is removed by a
/// later write of the same path once it is [`STALE_AFTER`] old, never while
/// another process may still be writing it.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?
        .to_string_lossy()
        .into_owned();
    fs::create_dir_all(dir)?;
    let temp_prefix = format!(".{file_name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&temp_prefix).suffix(TEMP_SUFFIX);
    // tempfile makes its files readable by their owner only (0600), which
    // a renamed file keeps: a report, a JUnit file or a CI artifact is
    // written as any other file is, readable by all as the umask allows
    // (0644), as `std::fs::write` makes it.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let temp = builder.tempfile_in(dir)?;
    let mut out = io::BufWriter::new(temp);
    write(&mut out)?;
    let temp = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|error| error.error)?;
    remove_stale(dir, &temp_prefix);
    Ok(())
}

/// How a temporary file's name ends.
const TEMP_SUFFIX: &str = ".tmp";

/// How long a temporary file goes unwritten before it counts as a killed
/// writer's leftover: a writer that is alive writes its file within
/// seconds (the largest report, tens of megabytes, in well under one).
pub const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// Removes the temporary files in `dir` whose names start with `prefix`
/// and that nobody wrote for [`STALE_AFTER`]: killed writers' leftovers.
fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = entry
            .metadata()
            .and_then(|metadata| metadata.modified())
            .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age >= STALE_AFTER));
        if name.starts_with(prefix) && name.ends_with(TEMP_SUFFIX) && stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Serializes `value` straight into `path`, atomically.
pub fn write_json(path: &Path, value: &impl Serialize) -> io::Result<()> {
    write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
        out.write_all(b"\n")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value whose serialization fails after half of it is written.
    struct FailsMidway;

    impl Serialize for FailsMidway {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{Error, SerializeMap};
            let mut map = serializer.serialize_map(None)?;
            map.serialize_entry("schema", "faster/report/v1")?;
            map.serialize_entry("padding", &"x".repeat(64 * 1024))?;
            Err(S::Error::custom("the disk is full"))
        }
    }

    /// The names of the files in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("reports");
        let path = dir.join("report.json");
        write_json(
            &path,
            &serde_json::json!({ "schema": "faster/report/v1", "whole": true }),
        )
        .unwrap();
        let before = fs::read_to_string(&path).unwrap();

        let error = write_json(&path, &FailsMidway).unwrap_err();
        assert!(error.to_string().contains("the disk is full"), "{error}");
        assert_eq!(fs::read_to_string(&path).unwrap(), before);
        assert_eq!(names(&dir), ["report.json"]);

        // Without an old file, a failed write leaves none.
        let fresh = dir.join("fresh.json");
        assert!(write_json(&fresh, &FailsMidway).is_err());
        assert!(!fresh.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_written_whole_is_as_readable_as_any_file_written() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let plain = temp.path().join("comment.md");
        fs::write(&plain, "written as any file is").unwrap();
        let whole = temp.path().join("junit.xml");
        write_atomically(&whole, |out| out.write_all(b"<testsuites/>")).unwrap();
        // Under a umask of 022, 0644 both; tempfile's own would be 0600.
        assert_eq!(mode(&whole), mode(&plain), "not tempfile's 0600");
        // Written again over itself, the same.
        write_json(&whole, &"again").unwrap();
        assert_eq!(mode(&whole), mode(&plain));
    }

    #[test]
    fn another_writers_temporary_file_is_left_alone_until_it_is_stale() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("report.json");
        // Another process writing the same report, or killed doing it.
        let theirs = temp.path().join(".report.json.a1b2c3.tmp");
        fs::write(&theirs, "{\"schema\": ").unwrap();
        let other_report = temp.path().join(".other.json.d4e5f6.tmp");
        fs::write(&other_report, "{").unwrap();

        write_json(&path, &serde_json::json!({ "run": 1 })).unwrap();
        assert!(
            theirs.exists(),
            "a file another writer may hold was removed"
        );

        let long_ago = std::time::SystemTime::now() - STALE_AFTER - Duration::from_secs(1);
        for leftover in [&theirs, &other_report] {
            let file = fs::File::options().write(true).open(leftover).unwrap();
            file.set_modified(long_ago).unwrap();
        }
        write_json(&path, &serde_json::json!({ "run": 2 })).unwrap();
        // Only this report's stale leftover goes; the file holds run 2.
        assert_eq!(
            names(temp.path()),
            [".other.json.d4e5f6.tmp", "report.json"]
        );
        assert!(fs::read_to_string(&path).unwrap().contains("\"run\": 2"));
    }

    #[test]
    fn a_debug_build_writes_beside_the_release_files_never_over_them() {
        use crate::report::{Source, fixtures};
        use crate::stats::verdict::{Expect, Verdict};
        let temp = tempfile::tempdir().unwrap();
        let mut files = ReportFiles::new(temp.path().to_path_buf(), "tests-speed");
        let outcome = |debug_assertions| Outcome {
            test: "sum::faster_sum_fast".into(),
            label: "sum_fast vs sum_naive".into(),
            source: Some(Source {
                path: "demo::sum::faster_sum_fast".into(),
                original: "sum_naive".into(),
                file: "tests/speed.rs".into(),
                line: 3,
                debug_assertions,
            }),
            result: Ok(fixtures::report(
                1.25,
                (1.2, 1.3),
                Verdict::Faster,
                Expect::Faster,
            )),
            enforced: !debug_assertions,
        };
        let mut written = |debug| {
            let mut notes = Vec::new();
            files.comparison(&outcome(debug), &mut notes);
            let data = notes.iter().find_map(|note| match note {
                Note::Written { what: "data", path } => Some(path.clone()),
                _ => None,
            });
            data.expect("the JSON was written")
        };
        let release = written(false);
        let debug = written(true);
        assert_eq!(
            release,
            temp.path()
                .join("tests-speed/demo.sum.faster_sum_fast.json")
        );
        assert_eq!(
            debug,
            temp.path()
                .join("debug/tests-speed/demo.sum.faster_sum_fast.json")
        );
        let status = |path: &Path| {
            let document: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
            document["source"]["debug_assertions"].clone()
        };
        assert_eq!(status(&release), false);
        assert_eq!(status(&debug), true);
    }

    #[test]
    fn each_target_gets_its_own_folder() {
        assert_eq!(target_folder("tests/speed.rs"), "tests-speed");
        assert_eq!(target_folder("benches/speed.rs"), "benches-speed");
        assert_eq!(target_folder("src/sum/fast.rs"), "src");
        assert_eq!(
            target_folder("crates/parse/tests/speed.rs"),
            "parse-tests-speed"
        );
        assert_eq!(target_folder("crates/parse/src/lib.rs"), "parse-src");
        assert_eq!(target_folder("tests/speed/main.rs"), "tests-speed");
        assert_eq!(
            target_folder("/home/me/proj/benches/speed.rs"),
            "proj-benches-speed"
        );
        assert_eq!(
            target_folder("C:\\proj\\tests\\speed.rs"),
            "proj-tests-speed"
        );
        assert_eq!(target_folder("build.rs"), "unknown");
    }

    #[test]
    fn file_stems_are_safe_everywhere() {
        assert_eq!(file_stem("demo::sum_fast"), "demo.sum_fast");
        assert_eq!(file_stem("formula vs loop"), "formula_vs_loop");
        assert_eq!(file_stem("../../etc/passwd"), "_.__etc_passwd");
        assert_eq!(file_stem(""), "comparison");
        assert_eq!(file_stem("a/b\\c:d"), "a_b_c_d");
    }

    #[test]
    fn the_output_dir_is_found_from_the_executable() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let deps = root.join("custom-target/release/deps");
        fs::create_dir_all(&deps).unwrap();
        fs::write(
            root.join("custom-target/CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55",
        )
        .unwrap();
        let exe = deps.join("speed-0123abcd");
        assert_eq!(
            output_dir_from(None, None, Some(exe.clone())),
            root.join("custom-target/faster")
        );
        // An absolute CARGO_TARGET_DIR wins; a relative one (relative to
        // where cargo ran, which the test process does not know) does not.
        assert_eq!(
            output_dir_from(None, Some(PathBuf::from("/elsewhere")), Some(exe.clone())),
            PathBuf::from("/elsewhere/faster")
        );
        assert_eq!(
            output_dir_from(None, Some(PathBuf::from("rel")), Some(exe.clone())),
            root.join("custom-target/faster")
        );
        assert_eq!(
            output_dir_from(Some(root.join("mine")), None, Some(exe)),
            root.join("mine")
        );
        // Without the tag, the nearest `target` directory.
        let plain = root.join("target/debug/deps/t-1");
        assert_eq!(
            output_dir_from(None, None, Some(plain)),
            root.join("target/faster")
        );
    }
}
