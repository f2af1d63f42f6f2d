//! A killed run never leaves a truncated report: the test re-runs this
//! binary as a child that writes a very large report, kills it once the
//! temporary file holds part of it, and checks that the report's path still
//! holds the previous complete document, and that the partial file is
//! removed only once it is stale.

use faster_runtime::__internal::STALE_AFTER;
use faster_runtime::time::SimClock;
use faster_runtime::{Config, Report, compare_fns_with_clock};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// Set in the child: the path to write.
const CHILD_PATH: &str = "FASTER_TEST_ATOMIC_WRITE_PATH";

fn report(name: &str) -> Report {
    let clock = SimClock::with_reading_cost(25.0);
    let cost = |ns: f64| {
        let clock = clock.clone();
        move |_: &()| clock.advance(ns)
    };
    compare_fns_with_clock(
        &clock,
        name,
        &[()],
        cost(1_250.0),
        cost(1_000.0),
        &Config::default(),
    )
    .unwrap()
}

/// A report with `rounds` rounds of data: tens of megabytes of JSON.
fn huge(rounds: usize) -> Report {
    let mut report = report("huge");
    report.round_log_ratios = (0..rounds).map(|round| 0.2 + round as f64 * 1e-9).collect();
    report.round_original_first = (0..rounds).map(|round| round % 2 == 0).collect();
    report.inputs[0].round_ns = (0..rounds)
        .map(|round| [1_250.0 + round as f64, 1_000.0])
        .collect();
    report.rounds = rounds;
    report
}

/// The child's work; a no-op when this test runs as a test.
#[test]
fn child_writes_a_huge_report() {
    let Some(path) = std::env::var_os(CHILD_PATH) else {
        return;
    };
    huge(3_000_000).write_json(PathBuf::from(path)).unwrap();
}

fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .collect()
}

#[test]
fn a_killed_write_leaves_the_previous_complete_report() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().to_path_buf();
    let path = dir.join("demo.sum_fast.json");
    report("previous").write_json(&path).unwrap();
    let previous = std::fs::read_to_string(&path).unwrap();

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_writes_a_huge_report",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD_PATH, &path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once its temporary file holds a megabyte: well into a write
    // of a hundred. (The deadline only keeps a broken child from hanging
    // the test.)
    let deadline = Instant::now() + Duration::from_secs(120);
    let killed_midway = loop {
        let partial = leftovers(&dir)
            .iter()
            .any(|temp| std::fs::metadata(temp).is_ok_and(|m| m.len() > 1 << 20));
        if partial {
            child.kill().unwrap();
            break true;
        }
        if child.try_wait().unwrap().is_some() || Instant::now() > deadline {
            let _ = child.kill();
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    child.wait().unwrap();
    assert!(
        killed_midway,
        "the child finished (or never started) before it could be killed"
    );

    // The report's path holds the previous document, whole.
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after, previous);
    let parsed: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(parsed["name"], "previous");
    // The killed writer's partial file is hidden. The next write of the
    // same report leaves it while it may be another writer's still at work,
    // and removes it once it is stale.
    let partial = leftovers(&dir);
    assert_eq!(partial.len(), 1, "{partial:?}");
    report("next").write_json(&path).unwrap();
    assert_eq!(leftovers(&dir), partial);
    let long_ago = SystemTime::now() - STALE_AFTER - Duration::from_secs(1);
    let file = std::fs::File::options()
        .write(true)
        .open(&partial[0])
        .unwrap();
    file.set_modified(long_ago).unwrap();
    report("last").write_json(&path).unwrap();
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let parsed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(parsed["name"], "last");
}
