//! The machine-readable report: the versioned JSON document of one
//! comparison (schema `faster/report/v1`, specified in
//! `faster-runtime/schema/report-v1.schema.json`), where its files go
//! (`target/faster/`), and writing them atomically.
//!
//! A file is written to a temporary file in the same directory and renamed
//! over the old one, so a reader (or a run killed mid-write) never sees a
//! truncated document: it sees the old file or the new one.

use crate::environment::Environment;
use crate::report::Report;
use crate::samples::{CONFIDENCE, Stop};
use crate::stats::LinearFit;
use crate::verdict::Verdict;
use serde::Serialize;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The schema identifier every document carries. A change that removes or
/// retypes a field gets a new version; new optional fields do not.
pub const SCHEMA: &str = "faster/report/v1";

/// How a comparison ended, as the JSON document's `status` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The verdict meets the expectation.
    Passed,
    /// The verdict misses the expectation, and that fails the run.
    Failed,
    /// The verdict misses the expectation in a debug build, where timing is
    /// reported but not enforced.
    NotEnforced,
    /// No verdict: outputs differed, user code panicked, or a setting was
    /// invalid (see `error`).
    Error,
}

/// Where a comparison comes from, when it was registered by the attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The candidate's name as filters match it (`sum::sum_fast`).
    pub name: String,
    /// The original as written in the attribute (`sum_naive`).
    pub original: String,
    /// The file holding the attribute.
    pub file: String,
    /// The attribute's line.
    pub line: u32,
    /// Whether the crate holding the attribute was built with
    /// `debug_assertions`.
    pub debug_assertions: bool,
}

/// The JSON document of one comparison (schema [`SCHEMA`]).
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    schema: &'static str,
    name: &'a str,
    label: &'a str,
    source: Option<&'a Source>,
    time: String,
    status: Status,
    error: Option<String>,
    result: Option<ResultDoc<'a>>,
    environment: &'a Environment,
}

#[derive(Debug, Serialize)]
struct ResultDoc<'a> {
    verdict: &'static str,
    expect: &'static str,
    passed: bool,
    noise_floor: f64,
    speedup: f64,
    ci: Interval,
    best_speedup: f64,
    uncorrected_speedup: f64,
    original_ns: f64,
    candidate_ns: f64,
    rounds: usize,
    warm_up_rounds: usize,
    stop: &'static str,
    elapsed_s: f64,
    outputs_checked: bool,
    throughput: Throughput,
    timer: Timer<'a>,
    inputs: Vec<InputDoc<'a>>,
    round_log_ratios: &'a [f64],
    round_original_first: &'a [bool],
    warnings: &'a [String],
}

#[derive(Debug, Serialize)]
struct Interval {
    confidence: f64,
    low: f64,
    /// `null` when there were too few rounds for an interval (JSON has no ∞).
    high: Option<f64>,
}

#[derive(Debug, Serialize)]
struct Throughput {
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
}

#[derive(Debug, Serialize)]
struct Rates {
    flop_per_s: Option<f64>,
    bytes_per_s: Option<f64>,
}

#[derive(Debug, Serialize)]
struct Timer<'a> {
    name: &'a str,
    reading_cost_ns: f64,
    resolution_ns: f64,
    empty_call_ns: f64,
}

#[derive(Debug, Serialize)]
struct Fits {
    original: Option<Fit>,
    candidate: Option<Fit>,
}

#[derive(Debug, Serialize)]
struct Fit {
    intercept_ns: f64,
    slope_ns: f64,
    r_squared: f64,
}

impl From<&LinearFit> for Fit {
    fn from(fit: &LinearFit) -> Fit {
        Fit {
            intercept_ns: fit.intercept,
            slope_ns: fit.slope,
            r_squared: fit.r_squared,
        }
    }
}

#[derive(Debug, Serialize)]
struct InputDoc<'a> {
    index: usize,
    label: Option<&'a str>,
    batch_sizes: [u64; 2],
    original_ns: f64,
    candidate_ns: f64,
    speedup: f64,
    overhead_ns: f64,
    fits: Fits,
    flops: Option<u64>,
    bytes: Option<u64>,
    original: Rates,
    candidate: Rates,
    rounds_ns: &'a [[f64; 2]],
}

impl<'a> Document<'a> {
    /// The document of a comparison that produced a report.
    ///
    /// `enforced` is whether a missed expectation fails the run (not in a
    /// debug build); `source` is where the attribute is, when there is one.
    pub fn new(report: &'a Report, source: Option<&'a Source>, enforced: bool) -> Document<'a> {
        let status = if report.passed() {
            Status::Passed
        } else if enforced {
            Status::Failed
        } else {
            Status::NotEnforced
        };
        let sum = |count: fn(&crate::report::InputReport) -> Option<u64>| -> Option<u64> {
            report.inputs.iter().map(count).sum()
        };
        let (flop_rates, byte_rates) = (report.flop_rates(), report.byte_rates());
        let rates = |pick: fn((f64, f64)) -> f64| Rates {
            flop_per_s: flop_rates.map(pick),
            bytes_per_s: byte_rates.map(pick),
        };
        let result = ResultDoc {
            verdict: verdict_name(report.verdict),
            expect: report.expect.as_str(),
            passed: report.passed(),
            noise_floor: report.noise_floor,
            speedup: report.speedup,
            ci: Interval {
                confidence: CONFIDENCE,
                low: report.ci.0,
                high: report.ci.1.is_finite().then_some(report.ci.1),
            },
            best_speedup: report.best_speedup,
            uncorrected_speedup: report.uncorrected_speedup,
            original_ns: report.original_ns,
            candidate_ns: report.candidate_ns,
            rounds: report.rounds,
            warm_up_rounds: report.warm_up_rounds,
            stop: match report.stop {
                Stop::Converged => "converged",
                Stop::Budget => "budget",
            },
            elapsed_s: report.elapsed.as_secs_f64(),
            outputs_checked: report.outputs_checked,
            throughput: Throughput {
                flops: sum(|input| input.flops),
                bytes: sum(|input| input.bytes),
                original: rates(|(original, _)| original),
                candidate: rates(|(_, candidate)| candidate),
            },
            timer: Timer {
                name: report.timer,
                reading_cost_ns: report.calibration.reading_cost_ns,
                resolution_ns: report.calibration.resolution_ns,
                empty_call_ns: report.calibration.empty_call_ns,
            },
            inputs: report
                .inputs
                .iter()
                .map(|input| {
                    let (flops, bytes) = (input.flop_rates(), input.byte_rates());
                    let rates = |pick: fn((f64, f64)) -> f64| Rates {
                        flop_per_s: flops.map(pick),
                        bytes_per_s: bytes.map(pick),
                    };
                    InputDoc {
                        index: input.index,
                        label: input.label.as_deref(),
                        batch_sizes: input.batch_sizes,
                        original_ns: input.original_ns,
                        candidate_ns: input.candidate_ns,
                        speedup: input.speedup,
                        overhead_ns: input.overhead_ns,
                        fits: Fits {
                            original: input.fits[0].as_ref().map(Fit::from),
                            candidate: input.fits[1].as_ref().map(Fit::from),
                        },
                        flops: input.flops,
                        bytes: input.bytes,
                        original: rates(|(original, _)| original),
                        candidate: rates(|(_, candidate)| candidate),
                        rounds_ns: &input.round_ns,
                    }
                })
                .collect(),
            round_log_ratios: &report.round_log_ratios,
            round_original_first: &report.round_original_first,
            warnings: &report.warnings,
        };
        Document {
            schema: SCHEMA,
            name: source.map_or(report.name.as_str(), |source| source.name.as_str()),
            label: &report.name,
            source,
            time: utc_now(),
            status,
            error: None,
            result: Some(result),
            environment: Environment::current(),
        }
    }

    /// The document of a comparison that ended in an error (outputs differ,
    /// a panic, an invalid setting) before any verdict.
    pub fn error(
        name: &'a str,
        label: &'a str,
        source: Option<&'a Source>,
        error: String,
    ) -> Document<'a> {
        Document {
            schema: SCHEMA,
            name,
            label,
            source,
            time: utc_now(),
            status: Status::Error,
            error: Some(error),
            result: None,
            environment: Environment::current(),
        }
    }

    /// The document on one line (JSON Lines, for `--format json`).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a document of plain data always serializes")
    }

    /// The document, indented for people (for the file).
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a document of plain data always serializes")
    }
}

impl Report {
    /// This report as a `faster/report/v1` JSON document (see the README's
    /// "Reports and output formats" and
    /// `faster-runtime/schema/report-v1.schema.json`), without source
    /// location: what [`compare_fns`](crate::compare_fns) users store or
    /// send on.
    pub fn to_json(&self) -> String {
        Document::new(self, None, true).to_pretty()
    }

    /// Writes [`Report::to_json`] to `path` atomically (a temporary file in
    /// the same directory, renamed over `path`), creating the directory:
    /// a reader never sees a half-written file, even if this process is
    /// killed midway. [`output_dir`] is where the harness writes its own.
    ///
    /// ```no_run
    /// # fn run(report: faster_runtime::Report) -> std::io::Result<()> {
    /// report.write_json(faster_runtime::output_dir().join("formula_vs_loop.json"))?;
    /// # Ok(()) }
    /// ```
    pub fn write_json(&self, path: impl AsRef<Path>) -> io::Result<()> {
        write_json(path.as_ref(), &Document::new(self, None, true))
    }
}

fn verdict_name(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Faster => "faster",
        Verdict::Slower => "slower",
        Verdict::WithinNoise => "within_noise",
    }
}

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
        std::env::var_os("FASTER_OUTPUT_DIR").map(PathBuf::from),
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
/// directory, which is flushed to disk and renamed over `path`. If `write`
/// fails (or the process dies) midway, `path` keeps its old content; a
/// failed write removes its temporary file, and a temporary file left by a
/// killed process is removed by the next successful write of the same
/// path.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
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
    let temp = dir.join(format!(
        "{temp_prefix}{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));

    let result = (|| {
        let mut file = io::BufWriter::new(fs::File::create_new(&temp)?);
        write(&mut file)?;
        let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
        return result;
    }
    // Leftovers of killed writers of this same file.
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&temp_prefix) && name.ends_with(".tmp") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    Ok(())
}

/// Serializes `value` straight into `path`, atomically.
pub fn write_json(path: &Path, value: &impl Serialize) -> io::Result<()> {
    write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
        out.write_all(b"\n")
    })
}

/// The current time as RFC 3339 in UTC, to the second
/// (`2026-11-21T22:48:05Z`).
pub fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    rfc3339(seconds)
}

/// Seconds since the Unix epoch as an RFC 3339 UTC timestamp (Howard
/// Hinnant's `civil_from_days`).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3_600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_301_285), "2026-11-21T22:48:05Z");
    }

    /// A value whose serialization fails after half of it is written.
    struct FailsMidway;

    impl Serialize for FailsMidway {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{Error, SerializeMap};
            let mut map = serializer.serialize_map(None)?;
            map.serialize_entry("schema", SCHEMA)?;
            map.serialize_entry("padding", &"x".repeat(64 * 1024))?;
            Err(S::Error::custom("the disk is full"))
        }
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("faster-json-midway-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("report.json");
        write_json(
            &path,
            &serde_json::json!({ "schema": SCHEMA, "whole": true }),
        )
        .unwrap();
        let before = fs::read_to_string(&path).unwrap();

        let error = write_json(&path, &FailsMidway).unwrap_err();
        assert!(error.to_string().contains("the disk is full"), "{error}");
        assert_eq!(fs::read_to_string(&path).unwrap(), before);
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["report.json".to_string()]);

        // Without an old file, a failed write leaves none.
        let fresh = dir.join("fresh.json");
        assert!(write_json(&fresh, &FailsMidway).is_err());
        assert!(!fresh.exists());
        fs::remove_dir_all(&dir).unwrap();
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
        let root = std::env::temp_dir().join(format!("faster-outdir-{}", std::process::id()));
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
        fs::remove_dir_all(&root).unwrap();
    }
}
