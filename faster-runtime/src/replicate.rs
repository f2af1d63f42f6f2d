//! Replication across processes: measure the same comparison in N fresh
//! processes and judge the spread between them.
//!
//! Within one process, paired rounds cancel drift, but some effects are
//! fixed for a process's lifetime: where code and data landed in memory, which
//! core it runs on. An interval built inside one process shrinks below that
//! variation. With `processes = N`, the comparison re-executes its own test
//! binary (one child at a time), each child measures once and prints its
//! figures on one marked line, and the parent's interval is a t-interval over
//! the per-process log ratios, so it includes the between-process variance.
//! The parent measures too, as process 1 — it is a process like the others,
//! and its full report (every round) is what the combined one is built on —
//! so N processes cost N − 1 re-executions.

use crate::config::Config;
use crate::error::Error;
use crate::registry::Comparison;
use crate::report::Report;
use crate::samples::{CONFIDENCE, Stop};
use crate::stats;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Set in a child's environment to the name of the comparison it must run.
pub const CHILD_VARIABLE: &str = "FASTER_CHILD";

/// Starts the line that carries a child's result on its standard output.
const MARKER: &str = "faster-child-result: ";

/// What one child hands back: its figures, or why it failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChildOutcome {
    /// The comparison ran.
    Measured(ProcessFigures),
    /// It failed before a verdict (a mismatch, a panic), as the error reads.
    Failed(String),
}

/// One process's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessFigures {
    /// The paired speedup.
    pub speedup: f64,
    /// Its 99% interval.
    pub ci: (f64, f64),
    /// The paired speedup before clearing per-sample overhead.
    pub uncorrected_speedup: f64,
    /// Σ per-call times of the original and the candidate.
    pub original_ns: f64,
    /// See `original_ns`.
    pub candidate_ns: f64,
    /// Rounds measured.
    pub rounds: usize,
    /// Whether it stopped on its budget rather than on convergence.
    pub budget_stop: bool,
    /// Per input: `[original_ns, candidate_ns, speedup]`.
    pub inputs: Vec<[f64; 3]>,
    /// The child's warnings.
    pub warnings: Vec<String>,
}

impl ProcessFigures {
    /// The figures of a child's report.
    pub fn of(report: &Report) -> ProcessFigures {
        ProcessFigures {
            speedup: report.speedup,
            ci: report.ci,
            uncorrected_speedup: report.uncorrected_speedup,
            original_ns: report.original_ns,
            candidate_ns: report.candidate_ns,
            rounds: report.rounds,
            budget_stop: report.stop == Stop::Budget,
            inputs: report
                .inputs
                .iter()
                .map(|input| [input.original_ns, input.candidate_ns, input.speedup])
                .collect(),
            warnings: report.warnings.clone(),
        }
    }
}

/// Measures `comparison` as `config` says: once here, or — with
/// `config.processes` above one and this process not itself a child — here
/// and in `config.processes − 1` children started with `child_arguments`
/// (the command line that makes this binary run exactly this comparison),
/// combined. In a child, measures once and emits the outcome for the parent.
pub fn measure(
    comparison: &Comparison,
    config: &Config,
    child_arguments: impl FnOnce() -> Vec<String>,
) -> Result<Report, Error> {
    if child_target().is_some() {
        let result = (comparison.run)(&Config {
            processes: 1,
            ..config.clone()
        });
        emit(&match &result {
            Ok(report) => ChildOutcome::Measured(ProcessFigures::of(report)),
            Err(error) => ChildOutcome::Failed(error.to_string()),
        });
        return result;
    }
    let report = (comparison.run)(config)?;
    if config.processes <= 1 {
        return Ok(report);
    }
    let started = Instant::now();
    let children = run_children(
        comparison.display_name(),
        &child_arguments(),
        config.processes - 1,
        child_timeout(config.max_time),
    )?;
    let mut combined = replicated(report, &children);
    combined.elapsed += started.elapsed();
    Ok(combined)
}

/// `parent`'s report with its figures replaced by the combination of its own
/// and the children's: the speedup and interval from [`combine`], the verdict
/// judged again, the per-call times and "best of" figure from the fastest
/// process, rounds summed, every process's speedup listed.
pub fn replicated(mut parent: Report, children: &[ProcessFigures]) -> Report {
    let mut all = vec![ProcessFigures::of(&parent)];
    all.extend(children.iter().cloned());
    let (speedup, ci) = combine(&all, CONFIDENCE);
    let minimum =
        |pick: fn(&ProcessFigures) -> f64| all.iter().map(pick).fold(f64::INFINITY, f64::min);
    parent.speedup = speedup;
    parent.ci = ci;
    parent.verdict = Verdict::from_interval(ci, parent.noise_floor);
    parent.uncorrected_speedup = stats::mean(
        &all.iter()
            .map(|p| p.uncorrected_speedup.ln())
            .collect::<Vec<_>>(),
    )
    .exp();
    parent.original_ns = minimum(|p| p.original_ns);
    parent.candidate_ns = minimum(|p| p.candidate_ns);
    parent.best_speedup = parent.original_ns / parent.candidate_ns;
    parent.rounds = all.iter().map(|p| p.rounds).sum();
    for (index, input) in parent.inputs.iter_mut().enumerate() {
        let figures: Vec<[f64; 3]> = all
            .iter()
            .filter_map(|p| p.inputs.get(index).copied())
            .collect();
        input.original_ns = figures.iter().map(|f| f[0]).fold(f64::INFINITY, f64::min);
        input.candidate_ns = figures.iter().map(|f| f[1]).fold(f64::INFINITY, f64::min);
        input.speedup = stats::mean(&figures.iter().map(|f| f[2].ln()).collect::<Vec<_>>()).exp();
    }
    if children.iter().any(|child| child.budget_stop) {
        parent.stop = Stop::Budget;
    }
    // A child's warning joins the report only when it says something new:
    // the same kind of warning (the same opening words, numbers aside) from
    // several processes would drown the report.
    let kind = |warning: &str| -> String {
        let body = warning
            .split_once(": ")
            .filter(|(head, _)| head.starts_with("process "))
            .map_or(warning, |(_, body)| body);
        body.chars()
            .filter(|c| c.is_alphabetic() || *c == ' ')
            .take(30)
            .collect()
    };
    for (process, child) in children.iter().enumerate() {
        for warning in &child.warnings {
            if !parent
                .warnings
                .iter()
                .any(|seen| kind(seen) == kind(warning))
            {
                parent
                    .warnings
                    .push(format!("process {}: {warning}", process + 2));
            }
        }
    }
    parent.processes = all.iter().map(|p| p.speedup).collect();
    parent
}

/// The name of the comparison this process must run as a child, if it is one.
pub fn child_target() -> Option<String> {
    std::env::var(CHILD_VARIABLE)
        .ok()
        .filter(|name| !name.is_empty())
}

/// Prints a child's outcome on its marked line, past libtest's capture.
pub fn emit(outcome: &ChildOutcome) {
    let line = serde_json::to_string(outcome).expect("plain numbers and strings serialize");
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "\n{MARKER}{line}");
    let _ = stdout.flush();
}

/// Finds a child's outcome in its standard output.
pub fn parse(stdout: &str) -> Option<ChildOutcome> {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(MARKER))
        .and_then(|json| serde_json::from_str(json).ok())
}

/// How long a child may take: its budget twice over, plus room to start,
/// check outputs and calibrate.
pub fn child_timeout(max_time: Duration) -> Duration {
    2 * max_time + Duration::from_secs(30)
}

/// Runs `processes` children of this very binary, one at a time, each with
/// `arguments` and [`CHILD_VARIABLE`] set to `name`, and collects their figures.
pub fn run_children(
    name: &str,
    arguments: &[String],
    processes: usize,
    timeout: Duration,
) -> Result<Vec<ProcessFigures>, Error> {
    let executable = std::env::current_exe().map_err(|error| Error::Replication {
        process: 0,
        message: format!("cannot find this test binary to re-run it: {error}"),
    })?;
    (1..=processes)
        .map(|process| {
            let failed = |message: String| Error::Replication { process, message };
            let mut child = Command::new(&executable)
                .args(arguments)
                .env(CHILD_VARIABLE, name)
                .env("FASTER_PROCESSES", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|error| {
                    failed(format!("could not start {}: {error}", executable.display()))
                })?;
            let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
            let read_all = |pipe: Option<Box<dyn Read + Send>>| {
                std::thread::spawn(move || {
                    let mut text = String::new();
                    if let Some(mut pipe) = pipe {
                        let _ = pipe.read_to_string(&mut text);
                    }
                    text
                })
            };
            let stdout = read_all(stdout.map(|pipe| Box::new(pipe) as Box<dyn Read + Send>));
            let stderr = read_all(stderr.map(|pipe| Box::new(pipe) as Box<dyn Read + Send>));
            let started = Instant::now();
            let status = loop {
                if let Some(status) = child
                    .try_wait()
                    .map_err(|error| failed(error.to_string()))?
                {
                    break status;
                }
                if started.elapsed() > timeout {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(failed(format!(
                        "did not finish within {timeout:?} and was stopped"
                    )));
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            let (stdout, stderr) = (
                stdout.join().unwrap_or_default(),
                stderr.join().unwrap_or_default(),
            );
            match parse(&stdout) {
                Some(ChildOutcome::Measured(figures)) => Ok(figures),
                Some(ChildOutcome::Failed(message)) => Err(failed(message)),
                None => Err(failed(format!(
                    "exited with {status} without a result; its last output:\n{}",
                    tail(&format!("{stdout}{stderr}"), 12)
                ))),
            }
        })
        .collect()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// The combined estimate over processes: the geometric mean of the
/// per-process speedups, and a `confidence` t-interval over their logs on
/// N − 1 degrees of freedom — never narrower than the processes' own
/// intervals pooled, which checks it when N is small and the processes
/// happen to agree.
pub fn combine(figures: &[ProcessFigures], confidence: f64) -> (f64, (f64, f64)) {
    let logs: Vec<f64> = figures.iter().map(|process| process.speedup.ln()).collect();
    let center = stats::mean(&logs);
    let count = logs.len() as f64;
    if logs.len() < 2 {
        return (
            center.exp(),
            figures.first().map_or((0.0, f64::INFINITY), |only| only.ci),
        );
    }
    let between = stats::student_t_quantile(0.5 + confidence / 2.0, count - 1.0)
        * (stats::variance(&logs) / count).sqrt();
    let within_squares: Vec<f64> = figures
        .iter()
        .map(|process| ((process.ci.1.ln() - process.ci.0.ln()) / 2.0).powi(2))
        .collect();
    let pooled_within = (stats::mean(&within_squares) / count).sqrt();
    let half_width = between.max(pooled_within);
    (
        center.exp(),
        ((center - half_width).exp(), (center + half_width).exp()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(speedup: f64, half_width: f64) -> ProcessFigures {
        ProcessFigures {
            speedup,
            ci: (speedup * (-half_width).exp(), speedup * half_width.exp()),
            uncorrected_speedup: speedup,
            original_ns: 10.0 * speedup,
            candidate_ns: 10.0,
            rounds: 100,
            budget_stop: false,
            inputs: vec![[10.0 * speedup, 10.0, speedup]],
            warnings: vec![],
        }
    }

    #[test]
    fn a_child_outcome_survives_the_marked_line() {
        let outcome = ChildOutcome::Measured(figures(1.25, 0.01));
        let line = serde_json::to_string(&outcome).unwrap();
        let stdout = format!("running 1 test\nfaster: ...\n{MARKER}{line}\ntest x ... ok\n");
        assert_eq!(parse(&stdout), Some(outcome));
        assert_eq!(parse("no marker here"), None);
    }

    #[test]
    fn the_combined_interval_includes_the_spread_between_processes() {
        // Five processes whose own intervals are ±0.1% but which disagree by
        // ±1%: the combined interval is as wide as the disagreement says.
        let processes: Vec<ProcessFigures> = [1.24, 1.25, 1.26, 1.245, 1.255]
            .iter()
            .map(|&s| figures(s, 0.001))
            .collect();
        let (speedup, (low, high)) = combine(&processes, 0.99);
        let logs: Vec<f64> = processes.iter().map(|p| p.speedup.ln()).collect();
        let expected =
            stats::student_t_quantile(0.995, 4.0) * (stats::variance(&logs) / 5.0).sqrt();
        assert!((speedup.ln() - stats::mean(&logs)).abs() < 1e-12);
        assert!(((high.ln() - low.ln()) / 2.0 - expected).abs() < 1e-12);
        assert!(low < 1.24 && high > 1.26, "({low}, {high})");
    }

    #[test]
    fn agreeing_processes_keep_their_own_uncertainty() {
        let processes = vec![figures(1.0, 0.02); 3];
        let (_, (low, high)) = combine(&processes, 0.99);
        let half_width = (high.ln() - low.ln()) / 2.0;
        assert!(
            (half_width - 0.02 / 3f64.sqrt()).abs() < 1e-12,
            "{half_width}"
        );
    }

    #[test]
    fn a_replicated_report_rests_on_every_process() {
        let parent = crate::report::fixtures::report(
            1.25,
            (1.249, 1.251),
            Verdict::Faster,
            crate::config::Expect::Faster,
        );
        let children: Vec<ProcessFigures> = [1.20, 1.30, 1.22, 1.28]
            .iter()
            .map(|&s| figures(s, 0.001))
            .collect();
        let combined = replicated(parent, &children);
        assert_eq!(combined.processes.len(), 5);
        assert_eq!(combined.processes[0], 1.25);
        // The processes disagree by ±4% where each claimed ±0.1%: the
        // interval says so (t on 4 degrees of freedom: about 1.17 to 1.34),
        // and all of it still clears a 5% floor.
        assert!(
            combined.ci.0 < 1.18 && combined.ci.1 > 1.32,
            "{:?}",
            combined.ci
        );
        assert_eq!(combined.verdict, Verdict::Faster);
        assert_eq!(combined.rounds, 315 + 4 * 100);
    }

    #[test]
    fn a_warning_every_process_raises_is_said_once() {
        let parent = crate::report::fixtures::report(
            1.25,
            (1.24, 1.26),
            Verdict::Faster,
            crate::config::Expect::Faster,
        );
        let mut parent = parent;
        parent
            .warnings
            .push("other processes kept 50% of a core busy".into());
        let mut child = figures(1.25, 0.01);
        child.warnings = vec![
            "other processes kept 70% of a core busy".into(),
            "steal was high".into(),
        ];
        let combined = replicated(parent, &[child.clone(), child]);
        assert_eq!(
            combined.warnings,
            vec![
                "other processes kept 50% of a core busy",
                "process 2: steal was high"
            ]
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
