//! Replication across processes, for real: this test binary re-runs itself as
//! the child. Tests named `child_*` do nothing unless `FASTER_CHILD` names
//! them, so in a normal run they pass at once.

use faster_runtime::__internal::{Measured, Role, command, measure_fns, role, run_once, say};
use faster_runtime::report::Measurement;
use faster_runtime::{Config, Error};
use std::time::{Duration, Instant};

fn as_child(name: &str) -> bool {
    role() == Some(Role::Once(name.to_string()))
}

#[test]
fn child_measures() {
    if as_child("measures") {
        let mut config = Config::default();
        config.max_time = Duration::from_millis(100);
        say(&Measured::of(&measure_fns(
            "child",
            &[200_u64],
            |n: &u64| (0..*n).sum::<u64>(),
            |n: &u64| n * (n - 1) / 2,
            &config,
        )));
    }
}

#[test]
fn child_hangs() {
    if as_child("hangs") {
        std::thread::sleep(Duration::from_secs(60));
    }
}

#[test]
fn child_crashes() {
    if as_child("crashes") {
        println!("about to fall over");
        std::process::exit(3);
    }
}

/// Process `process` of the comparison `test` (a `child_*` test), stopped
/// after `timeout`.
fn run_child(test: &str, process: usize, timeout: Duration) -> Result<Measurement, Error> {
    let executable = std::env::current_exe().unwrap();
    run_once(
        &executable,
        &command::one_test(&format!("child_{test}")),
        test,
        (process, Duration::from_millis(100)),
        timeout,
    )
}

#[test]
fn children_hand_back_their_reports() {
    for process in 1..=2 {
        let report = run_child("measures", process, Duration::from_secs(60)).unwrap();
        assert!(
            report.speedup.is_finite() && report.speedup > 0.0,
            "{report:?}"
        );
        assert!(report.rounds >= 2, "{report:?}");
        assert_eq!(report.round_log_ratios.len(), report.rounds);
        assert_eq!(report.inputs[0].round_ns.len(), report.rounds);
    }
}

#[test]
fn a_hanging_child_is_stopped_and_named() {
    let started = Instant::now();
    let error = run_child("hangs", 2, Duration::from_secs(1)).unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    match error {
        Error::Replication {
            process: 2,
            message,
        } => assert!(message.contains("did not answer within 1s"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_crashing_child_is_named_with_its_last_output() {
    let error = run_child("crashes", 2, Duration::from_secs(60)).unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with("process 2 of the replicated comparison failed"),
        "{message}"
    );
    assert!(
        message.contains("exit status: 3") && message.contains("about to fall over"),
        "{message}"
    );
}
