//! Replication across processes: measure the same comparison in N fresh
//! processes and judge the spread between them.
//!
//! Within one process, paired rounds cancel drift, but some effects are
//! fixed for a process's lifetime: where code and data landed in memory, which
//! core it runs on. An interval built inside one process shrinks below that
//! variation. With `processes = N`, the comparison re-executes its own test
//! binary (one child at a time); each child measures once and hands back its
//! report as a `faster/report/v1` document on one marked line of its output,
//! and says nothing else: no files, no summary, no report of its own. The
//! children run first: user code that kills its process (a stack overflow
//! aborts it) then kills a child, which the parent reports as this
//! comparison's failure, instead of the parent and every comparison after
//! it. The parent measures last, as process 1, and combines all of them
//! ([`combine`]): the interval comes from the spread between the processes
//! (see [`stats::across_processes`]), and every round of every process is
//! kept, so the counts in every output agree with the data.

use crate::config::Config;
use crate::error::Error;
use crate::report::{Document, ProcessSummary, Report};
use crate::stats::samples::{CONFIDENCE, Stop};
use crate::stats::verdict::Verdict;
use crate::stats::{self, Interval};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Set in a child's environment to the test name of the comparison it must
/// run.
pub const CHILD_VARIABLE: &str = "FASTER_CHILD";

/// Starts the line that carries a child's report on its standard output.
const MARKER: &str = "faster-child-report: ";

/// Measures with `measure_once` as `config` says: once here, or — with
/// `config.processes` above one — in `config.processes − 1` children
/// started with `child_arguments` (the command line that makes this binary
/// run exactly this comparison again), then here, combined.
pub fn measure(
    test: &str,
    config: &Config,
    measure_once: impl Fn(&Config) -> Result<Report, Error>,
    child_arguments: impl FnOnce() -> Vec<String>,
) -> Result<Report, Error> {
    if config.processes <= 1 {
        return measure_once(config);
    }
    let started = Instant::now();
    let children = run_children(
        test,
        &child_arguments(),
        config.processes - 1,
        child_timeout(config.max_time),
    )?;
    let children_elapsed = started.elapsed();
    let mut combined = combine(measure_once(config)?, children);
    combined.elapsed += children_elapsed;
    Ok(combined)
}

/// `parent`'s report combined with its children's: the speedup and
/// interval over the processes' own estimates ([`stats::across_processes`]),
/// the verdict judged again, per-call times and the best-of figure the
/// fastest of any process (the best of all their rounds), every process's
/// rounds appended in order, and the children's observations (other load,
/// a timer that fell back) where the parent did not make the same one.
pub fn combine(mut parent: Report, children: Vec<Report>) -> Report {
    let all: Vec<&Report> = std::iter::once(&parent).chain(&children).collect();
    let geometric_mean = |values: &mut dyn Iterator<Item = f64>| {
        stats::mean(&values.map(f64::ln).collect::<Vec<_>>()).exp()
    };
    let processes: Vec<ProcessSummary> = all
        .iter()
        .map(|report| ProcessSummary {
            speedup: report.speedup,
            ci: report.ci,
            rounds: report.rounds,
        })
        .collect();
    let uncorrected_speedup = geometric_mean(&mut all.iter().map(|r| r.uncorrected_speedup));
    let input_speedups: Vec<f64> = (0..parent.inputs.len())
        .map(|input| {
            geometric_mean(
                &mut all
                    .iter()
                    .filter_map(|report| report.inputs.get(input).map(|i| i.speedup)),
            )
        })
        .collect();
    let (speedup, ci) = match interval_over(&processes) {
        Some(interval) => (interval.center.exp(), interval.exp_bounds()),
        None => (
            geometric_mean(&mut processes.iter().map(|p| p.speedup)),
            (0.0, f64::INFINITY),
        ),
    };

    for child in children {
        append(&mut parent, child);
    }
    for (input, speedup) in parent.inputs.iter_mut().zip(input_speedups) {
        input.speedup = speedup;
    }
    parent.speedup = speedup;
    parent.ci = ci;
    parent.verdict = Verdict::from_interval(ci, parent.noise_floor);
    parent.uncorrected_speedup = uncorrected_speedup;
    parent.best_speedup = parent.original_ns / parent.candidate_ns;
    parent.processes = processes;
    parent
}

/// The interval over the processes' own estimates and half-widths.
/// `None` where a process has no interval of its own (too few rounds).
fn interval_over(processes: &[ProcessSummary]) -> Option<Interval> {
    let estimates: Vec<(f64, f64)> = processes
        .iter()
        .map(|p| (p.speedup.ln(), (p.ci.1.ln() - p.ci.0.ln()) / 2.0))
        .collect();
    stats::across_processes(&estimates, CONFIDENCE).ok()
}

/// `child`'s rounds, best times and observations added to `parent`'s.
fn append(parent: &mut Report, child: Report) {
    parent.original_ns = parent.original_ns.min(child.original_ns);
    parent.candidate_ns = parent.candidate_ns.min(child.candidate_ns);
    parent.rounds += child.rounds;
    parent.warm_up_rounds += child.warm_up_rounds;
    parent.round_log_ratios.extend(child.round_log_ratios);
    parent
        .round_original_first
        .extend(child.round_original_first);
    if child.stop == Stop::Budget {
        parent.stop = Stop::Budget;
    }
    parent.load = match (parent.load, child.load) {
        (Some(ours), Some(theirs)) => Some(ours.max(theirs)),
        (ours, theirs) => ours.or(theirs),
    };
    for (input, theirs) in parent.inputs.iter_mut().zip(child.inputs) {
        input.original_ns = input.original_ns.min(theirs.original_ns);
        input.candidate_ns = input.candidate_ns.min(theirs.candidate_ns);
        input.round_ns.extend(theirs.round_ns);
    }
    for warning in child.warnings {
        if !parent.warnings.iter().any(|seen| same_kind(seen, &warning)) {
            parent.warnings.push(warning);
        }
    }
}

/// Whether two observations say the same kind of thing (their opening
/// words, numbers aside): several processes seeing the same load say it once.
fn same_kind(one: &str, other: &str) -> bool {
    let kind = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphabetic() || *c == ' ')
            .take(30)
            .collect()
    };
    kind(one) == kind(other)
}

/// The test name of the comparison this process must run as a child, if it
/// is one.
pub fn child_target() -> Option<String> {
    std::env::var(CHILD_VARIABLE)
        .ok()
        .filter(|name| !name.is_empty())
}

/// A child's part: prints its report (or its error) on the marked line,
/// past libtest's capture, for the parent to read.
pub fn emit(result: &Result<Report, Error>) {
    let line = match result {
        Ok(report) => Document::of_report(report).to_line(),
        Err(error) => serde_json::to_string(&error.to_string()).expect("a string serializes"),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "\n{MARKER}{line}");
    let _ = stdout.flush();
}

/// Finds a child's report in its standard output: `None` without a marked
/// line, `Some(Err)` with the child's error.
pub fn parse(stdout: &str) -> Option<Result<Report, String>> {
    let line = stdout.lines().find_map(|line| line.strip_prefix(MARKER))?;
    if let Ok(error) = serde_json::from_str::<String>(line) {
        return Some(Err(error));
    }
    Some(
        serde_json::from_str::<Document>(line)
            .map_err(|error| format!("its report could not be read: {error}"))
            .and_then(Document::into_report),
    )
}

/// How long a child may take: its budget twice over, plus room to start,
/// check outputs and calibrate.
pub fn child_timeout(max_time: Duration) -> Duration {
    2 * max_time + Duration::from_secs(30)
}

/// Runs `processes` children of this very binary, one at a time, each with
/// `arguments` and [`CHILD_VARIABLE`] set to `test`, and collects their
/// reports.
pub fn run_children(
    test: &str,
    arguments: &[String],
    processes: usize,
    timeout: Duration,
) -> Result<Vec<Report>, Error> {
    let executable = std::env::current_exe().map_err(|error| Error::Replication {
        process: 0,
        message: format!("cannot find this test binary to re-run it: {error}"),
    })?;
    (1..=processes)
        .map(|child| {
            // Process 1 is the parent.
            let failed = |message: String| Error::Replication {
                process: child + 1,
                message,
            };
            let (status, stdout, stderr) =
                run_child(&executable, arguments, test, timeout).map_err(failed)?;
            match parse(&stdout) {
                Some(Ok(report)) => Ok(report),
                Some(Err(message)) => Err(failed(message)),
                None => Err(failed(format!(
                    "exited with {status} without a result; its last output:\n{}",
                    tail(&format!("{stdout}{stderr}"), 12)
                ))),
            }
        })
        .collect()
}

/// One child, waited for up to `timeout`: its exit status and its output.
fn run_child(
    executable: &std::path::Path,
    arguments: &[String],
    test: &str,
    timeout: Duration,
) -> Result<(std::process::ExitStatus, String, String), String> {
    let mut child = Command::new(executable)
        .args(arguments)
        .env(CHILD_VARIABLE, test)
        .env("FASTER_PROCESSES", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("could not start {}: {error}", executable.display()))?;
    let read_all = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|error| error.to_string())? {
            break status;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("did not finish within {timeout:?} and was stopped"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok((
        status,
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    ))
}

/// The last `lines` lines of `text` that are not blank.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use crate::stats::verdict::Expect;

    fn process(speedup: f64, half_width: f64) -> Report {
        let mut report = fixtures::report(
            speedup,
            (speedup * (-half_width).exp(), speedup * half_width.exp()),
            Verdict::Faster,
            Expect::Faster,
        );
        report.original_ns = 10.0 * speedup;
        report.candidate_ns = 10.0;
        report
    }

    #[test]
    fn a_child_report_survives_the_marked_line() {
        let report = process(1.25, 0.01);
        let mut out = Vec::new();
        {
            let line = Document::of_report(&report).to_line();
            writeln!(
                out,
                "running 1 test\nfaster: ...\n{MARKER}{line}\ntest x ... ok"
            )
            .unwrap();
        }
        let stdout = String::from_utf8(out).unwrap();
        let read = parse(&stdout).unwrap().unwrap();
        assert_eq!(read.speedup, report.speedup);
        assert_eq!(read.inputs[0].round_ns, report.inputs[0].round_ns);
        assert_eq!(parse("no marker here"), None);
        let failed = format!(
            "{MARKER}{}",
            serde_json::to_string("input 1 differs").unwrap()
        );
        assert_eq!(parse(&failed), Some(Err("input 1 differs".into())));
    }

    #[test]
    fn two_processes_that_agree_on_a_large_speedup_decide_it() {
        // The case `processes = 2` failed on with a t on one degree of
        // freedom: a 4x speedup read [0.87x – 19.85x].
        let combined = combine(process(4.0, 0.01), vec![process(4.12, 0.01)]);
        assert_eq!(combined.verdict, Verdict::Faster, "{:?}", combined.ci);
        assert!(
            combined.ci.0 > 3.7 && combined.ci.1 < 4.4,
            "{:?}",
            combined.ci
        );
    }

    #[test]
    fn a_combined_report_keeps_every_round_and_counts_them_once() {
        let parent = process(1.25, 0.001);
        let children: Vec<Report> = [1.20, 1.30, 1.22, 1.28]
            .iter()
            .map(|&s| process(s, 0.001))
            .collect();
        let per_process = parent.rounds;
        let combined = combine(parent, children);
        assert_eq!(combined.processes.len(), 5);
        assert_eq!(combined.processes[0].speedup, 1.25);
        assert_eq!(combined.rounds, 5 * per_process);
        assert_eq!(combined.round_log_ratios.len(), combined.rounds);
        assert_eq!(combined.round_original_first.len(), combined.rounds);
        assert_eq!(combined.inputs[0].round_ns.len(), combined.rounds);
        // The processes disagree by ±4% where each claimed ±0.1%: the
        // interval says so, and all of it still clears a 5% floor.
        assert!(
            combined.ci.0 < 1.22 && combined.ci.1 > 1.28,
            "{:?}",
            combined.ci
        );
        assert_eq!(combined.verdict, Verdict::Faster);
        // The best-of figure is the best of every process.
        assert_eq!(combined.original_ns, 12.0);
        assert_eq!(combined.best_speedup, 1.2);
    }

    #[test]
    fn an_observation_every_process_makes_is_said_once() {
        let mut parent = process(1.25, 0.01);
        parent
            .warnings
            .push("other processes kept 50% of a core busy".into());
        let mut child = process(1.25, 0.01);
        child.warnings = vec![
            "other processes kept 70% of a core busy".into(),
            "steal was high".into(),
        ];
        let combined = combine(parent, vec![child.clone(), child]);
        assert_eq!(
            combined.warnings,
            vec!["other processes kept 50% of a core busy", "steal was high"]
        );
    }

    #[test]
    fn children_are_bounded_in_time() {
        assert_eq!(
            child_timeout(Duration::from_secs(3)),
            Duration::from_secs(36)
        );
    }
}
