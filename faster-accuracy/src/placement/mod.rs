//! `--placement` (issue 15): does a nanosecond interval hold in every
//! process, or only in the one it was measured in?
//!
//! ```text
//! accuracy --placement [--spread] [--processes 30] [--runs 2] [--load]
//! ```
//!
//! At a few nanoseconds per call a ratio belongs to the measuring loop as
//! much as to the functions: where the loop (and the call's target) landed
//! in memory moves it by tens of percent. So this mode starts `--processes`
//! fresh processes of this binary, one at a time; each compares dependent
//! chains with the engine, `--runs` times per case, and measures each case's
//! reference in the same process with the suite's own loop
//! (`reference.rs`), half before the engine's runs and half after.
//!
//! By default the cases are the issue's: ≈ 2, 5, 10 and 20 ns per call
//! (identical functions, 2x, 4x and 0.25x), with `Config::default()`. Per
//! case it prints how often the engine's 99% interval held that process's
//! reference, how far the reference itself moved from process to process,
//! false verdicts on identical functions, reversals, the spread between the
//! engine's placements, and time per comparison.
//!
//! `--spread` measures what the placement threshold is chosen by: 4x and
//! 2x pairs at ≈ 2, 5, 10, 20, 50 and 100 ns per call, every run in all the
//! engine's placements whatever its length, and how far apart they read.

mod table;

use crate::environment_checks::Settings;
use crate::load::{self, BackgroundLoad};
use crate::options::Options;
use crate::reference::{self, Reference};
use crate::workloads::{carried_chain, ns_per_step};
use faster::{Config, Report, Verdict, compare_fns};
use faster_runtime::__internal::{Role, child_output, child_timeout, command, say, wire};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Which cases, measured how.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// The issue's cases with the engine's defaults.
    Judged,
    /// Every run in every placement, over a wider range of scales.
    Spread,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Judged => "judged",
            Mode::Spread => "spread",
        }
    }

    /// The scales, in nanoseconds per call of the shorter side.
    fn scales_ns(self) -> &'static [u64] {
        match self {
            Mode::Judged => &[2, 5, 10, 20],
            Mode::Spread => &[2, 5, 10, 20, 50, 100],
        }
    }

    /// The ratios built at each scale, as multiples of the shorter side's
    /// steps: `[original, candidate]`.
    fn ratios(self) -> &'static [(&'static str, [u64; 2])] {
        match self {
            Mode::Judged => &[
                ("1.00", [1, 1]),
                ("2.00", [2, 1]),
                ("4.00", [4, 1]),
                ("0.25", [1, 4]),
            ],
            Mode::Spread => &[("2.00", [2, 1]), ("0.25", [1, 4])],
        }
    }

    /// The engine's settings: the defaults, or every placement always.
    fn config(self) -> Config {
        match self {
            Mode::Judged => Config::default(),
            Mode::Spread => {
                let mut config = Config::default();
                config.plan_mut().placement_threshold = Duration::MAX;
                config
            }
        }
    }

    /// Every case, from the shorter side's steps at each scale (see
    /// [`Mode::base_steps`]).
    fn cases(self, base_steps: &[u64]) -> Vec<Case> {
        self.scales_ns()
            .iter()
            .zip(base_steps)
            .flat_map(|(scale, &base)| {
                self.ratios()
                    .iter()
                    .map(move |(ratio, [original, candidate])| Case {
                        name: format!("{scale}ns/{ratio}"),
                        original: original * base,
                        candidate: candidate * base,
                    })
            })
            .collect()
    }

    /// The steps of the shorter side at each scale: a call of the chain
    /// costs about its steps times a step's time (the call itself adds
    /// little to a dependent chain), rounded down, so the smallest scale is
    /// the one-step chain, the shortest call there is and the one placement
    /// moves most.
    fn base_steps(self, step_ns: f64) -> Vec<u64> {
        self.scales_ns()
            .iter()
            .map(|&scale| ((scale as f64 / step_ns) as u64).max(1))
            .collect()
    }
}

/// One case: its name (`5ns/4.00`) and the chains' steps.
#[derive(Debug, Clone, PartialEq)]
struct Case {
    name: String,
    original: u64,
    candidate: u64,
}

/// The reference of each case in each process: long enough that its median
/// is known within about 0.1% at 2 ns per call.
const REFERENCE_TIME: Duration = Duration::from_millis(600);

/// The child's key: `placement/MODE/RUNS/STEPS...`, the shorter side's
/// steps at each scale.
const KEY_PREFIX: &str = "placement/";

/// Whether `key` (a child's [`Role::Once`]) asks for this mode's child.
pub fn is_child(key: &str) -> bool {
    key.starts_with(KEY_PREFIX)
}

/// One engine run of one case in one process, with that process's
/// reference.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    case: usize,
    process: usize,
    reference: f64,
    speedup: f64,
    ci: (f64, f64),
    verdict: Verdict,
    seconds: f64,
    budget_stop: bool,
    /// The engine's per-call times of `[original, candidate]`.
    per_call_ns: [f64; 2],
    /// How many placements the engine took turns in, and the lowest and
    /// highest speedup among them.
    placements: usize,
    range: (f64, f64),
}

impl Run {
    fn holds_reference(&self) -> bool {
        self.ci.0 <= self.reference && self.reference <= self.ci.1
    }

    /// Whether the reference read outside every placement's own figure: a
    /// state of the loop none of the engine's copies was in.
    fn reference_beyond_placements(&self) -> bool {
        self.reference < self.range.0 || self.reference > self.range.1
    }

    /// How far apart the placements read ([`faster::report::Placement::spread`]).
    fn spread(&self) -> f64 {
        self.range.1 / self.range.0 - 1.0
    }

    /// The run as the message of one frame: its fields, tab-separated
    /// (as text, a figure that is not a number still crosses).
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.case,
            self.reference,
            self.speedup,
            self.ci.0,
            self.ci.1,
            self.verdict.name(),
            self.seconds,
            self.budget_stop,
            self.per_call_ns[0],
            self.per_call_ns[1],
            self.placements,
            self.range.0,
            self.range.1,
        )
    }

    /// A run of process `process`, as [`Run::line`] wrote it.
    fn parse(line: &str, process: usize) -> Option<Run> {
        let fields: Vec<&str> = line.split('\t').collect();
        let number = |index: usize| fields.get(index)?.parse::<f64>().ok();
        let verdict_name = *fields.get(5)?;
        Some(Run {
            case: fields.first()?.parse().ok()?,
            process,
            reference: number(1)?,
            speedup: number(2)?,
            ci: (number(3)?, number(4)?),
            verdict: [Verdict::Faster, Verdict::Slower, Verdict::WithinNoise]
                .into_iter()
                .find(|verdict| verdict.name() == verdict_name)?,
            seconds: number(6)?,
            budget_stop: *fields.get(7)? == "true",
            per_call_ns: [number(8)?, number(9)?],
            placements: fields.get(10)?.parse().ok()?,
            range: (number(11)?, number(12)?),
        })
    }
}

/// The child's part: every case, each engine run said in a frame of its
/// own (`faster_runtime::__internal::say`), past whatever else reaches
/// standard output.
pub fn child(key: &str) -> ExitCode {
    let mut parts = key.strip_prefix(KEY_PREFIX).unwrap_or_default().split('/');
    let mode = match parts.next() {
        Some("judged") => Mode::Judged,
        Some("spread") => Mode::Spread,
        _ => {
            eprintln!("accuracy: `{key}` names no placement mode");
            return ExitCode::from(2);
        }
    };
    let numbers: Vec<u64> = parts.filter_map(|part| part.parse().ok()).collect();
    let [runs, ref base @ ..] = numbers[..] else {
        eprintln!("accuracy: a placement child needs a key like `placement/judged/2/1/3/7/15`");
        return ExitCode::from(2);
    };
    if base.len() != mode.scales_ns().len() {
        eprintln!("accuracy: `{key}` needs steps for each scale");
        return ExitCode::from(2);
    }
    let config = mode.config();
    for (
        case,
        Case {
            name,
            original,
            candidate,
        },
    ) in mode.cases(base).into_iter().enumerate()
    {
        let mut reference = Reference::new(
            &[()],
            carried_chain(original),
            carried_chain(candidate),
            reference::BATCH,
        );
        reference.extend(REFERENCE_TIME / 2);
        let reports: Vec<Report> = (0..runs)
            .map(|_| {
                compare_fns(
                    &name,
                    &[()],
                    carried_chain(original),
                    carried_chain(candidate),
                    &config,
                )
                .expect("unit outputs agree")
            })
            .collect();
        reference.extend(REFERENCE_TIME / 2);
        let truth = reference.truth().ratio;
        for report in reports {
            let run = Run {
                case,
                process: 0,
                reference: truth,
                speedup: report.speedup,
                ci: report.ci,
                verdict: report.verdict,
                seconds: report.elapsed.as_secs_f64(),
                budget_stop: report.stop == faster::report::Stop::Budget,
                per_call_ns: [report.original_ns, report.candidate_ns],
                placements: report.placement.count,
                // Too few rounds for each placement's figure: the one figure.
                range: report
                    .placement
                    .range()
                    .unwrap_or((report.speedup, report.speedup)),
            };
            say(&run.line());
        }
    }
    ExitCode::SUCCESS
}

/// One fresh process's runs.
fn run_process(
    process: usize,
    mode: Mode,
    settings: &Settings,
    base_steps: &[u64],
) -> Result<Vec<Run>, String> {
    let executable = std::env::current_exe().map_err(|error| error.to_string())?;
    let steps: Vec<String> = base_steps.iter().map(u64::to_string).collect();
    let key = format!(
        "{KEY_PREFIX}{}/{}/{}",
        mode.name(),
        settings.runs,
        steps.join("/")
    );
    let expected = mode.scales_ns().len() * mode.ratios().len() * settings.runs;
    // Every run in the time a replicated slice of its budget may take, and
    // each case's reference besides: far more than a healthy child needs,
    // so only one that hangs reaches it.
    let cases = mode.scales_ns().len() * mode.ratios().len();
    let timeout =
        child_timeout(mode.config().max_time) * expected as u32 + REFERENCE_TIME * 2 * cases as u32;
    let child = command::child(&executable, Some(&Role::Once(key)));
    let output = child_output(&format!("process {process}"), child, timeout)?;
    let runs: Vec<Run> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(wire::decode::<String>)
        .map(|line| {
            let line = line.map_err(|why| format!("process {process}: {why}"))?;
            Run::parse(&line, process)
                .ok_or_else(|| format!("process {process} said a run that cannot be read: {line}"))
        })
        .collect::<Result<_, String>>()?;
    if !output.status.success() || runs.len() != expected {
        return Err(format!(
            "process {process} ended with {} after {} of {expected} runs: {}",
            output.status,
            runs.len(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(runs)
}

/// `--placement`.
pub fn placement(options: &Options) -> ExitCode {
    let mode = if options.spread {
        Mode::Spread
    } else {
        Mode::Judged
    };
    let settings = Settings::of(options, 2, 30);
    let _load = settings
        .load
        .then(|| BackgroundLoad::start(load::buffer_bytes()));
    let started = Instant::now();
    let step_ns = ns_per_step();
    let base_steps = mode.base_steps(step_ns);
    println!(
        "placement ({}): {} fresh processes, {} engine runs per case in each, a {:?} reference \
         per case and process, {}; {:.3} ns per chain step; {}; load average {} at the start",
        mode.name(),
        settings.processes,
        settings.runs,
        REFERENCE_TIME,
        if settings.load {
            "under the background load"
        } else {
            "quiet"
        },
        step_ns,
        match mode {
            Mode::Judged => "Config::default()".to_string(),
            Mode::Spread => "every run in every placement".to_string(),
        },
        crate::machine::load_average(),
    );
    let mut runs = Vec::new();
    for process in 1..=settings.processes {
        match run_process(process, mode, &settings, &base_steps) {
            Ok(more) => runs.extend(more),
            Err(message) => {
                eprintln!("accuracy: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{}",
        table::table(&mode.cases(&base_steps), &runs, settings.processes)
    );
    println!(
        "finished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        crate::machine::load_average()
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_survives_its_frame() {
        let run = Run {
            case: 3,
            process: 7,
            reference: 0.2502,
            speedup: 0.2611,
            ci: (0.2231, 0.3050),
            verdict: Verdict::Slower,
            seconds: 0.041,
            budget_stop: false,
            per_call_ns: [1.27, 5.05],
            placements: 8,
            range: (0.2502, 0.3101),
        };
        assert_eq!(Run::parse(&run.line(), 7), Some(run));
        let line = wire::encode(&run.line());
        let read = wire::decode::<String>(&line).unwrap().unwrap();
        assert_eq!(Run::parse(&read, 7), Some(run));
        assert_eq!(Run::parse("3\tnot a number", 7), None);
    }

    #[test]
    fn scales_start_at_the_one_step_chain() {
        assert_eq!(Mode::Judged.base_steps(1.28), vec![1, 3, 7, 15]);
        let cases = Mode::Judged.cases(&[1, 3, 7, 15]);
        assert_eq!(cases.len(), 16);
        assert_eq!(
            cases[3],
            Case {
                name: "2ns/0.25".into(),
                original: 1,
                candidate: 4
            }
        );
        assert_eq!(Mode::Spread.base_steps(1.28), vec![1, 3, 7, 15, 39, 78]);
    }
}
