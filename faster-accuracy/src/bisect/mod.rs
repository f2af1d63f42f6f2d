//! The figures of issue 47: `cargo faster bisect` on histories whose
//! regressions are known.
//!
//! ```text
//! accuracy --bisect [--runs 20] [--keep]
//! ```
//!
//! One fixture repository (`fixture`), with a target directory of its own,
//! holds a base commit and, per case, `--runs` histories branched from it,
//! each drawn from its own seed: a history of 32 or 64 commits in which half
//! the commits change the tracked function's code but not its speed, every
//! commit moves code about, and `slowed` becomes slower at a commit drawn at
//! random — 10% at the default floor, 5% at a 2% floor — and one history in
//! which two 3% steps make 6% at a 2% floor. The real `cargo-faster` binary
//! bisects each (`cargo faster bisect BASE..BRANCH slowed
//! --accept-changes`), and its `bisect.json` is read back.
//!
//! Targets: the right commit named in at least 19 of 20 histories; a wrong
//! commit never named (unsure, it reports the range); at most
//! log2(N) + 3 revisions built per bisect of one step (one search a step:
//! the several-step case's bound is shown, not held to).

mod fixture;

use crate::machine;
use crate::options::Options;
use crate::repository::build_cargo_faster;
use faster_runtime::__internal::median;
use fixture::{Histories, History};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// One case: its histories' length, the size of each step, how many
/// steps, and the noise floor (`None`: the default).
struct Case {
    length: usize,
    step: f64,
    steps: usize,
    floor: Option<&'static str>,
}

const CASES: [Case; 5] = [
    Case {
        length: 32,
        step: 0.10,
        steps: 1,
        floor: None,
    },
    Case {
        length: 64,
        step: 0.10,
        steps: 1,
        floor: None,
    },
    Case {
        length: 32,
        step: 0.05,
        steps: 1,
        floor: Some("0.02"),
    },
    Case {
        length: 64,
        step: 0.05,
        steps: 1,
        floor: Some("0.02"),
    },
    Case {
        length: 32,
        step: 0.03,
        steps: 2,
        floor: Some("0.02"),
    },
];

/// `accuracy --bisect`.
pub fn bisect(options: &Options) -> ExitCode {
    match run(options.runs.unwrap_or(20), options.keep) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("accuracy: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Bisects `runs` histories of every case (one of the several-step case);
/// whether every target was met.
fn run(runs: usize, keep: bool) -> Result<bool, String> {
    let started = Instant::now();
    let cargo_faster = build_cargo_faster()?;
    let histories = Histories::create(keep)?;
    println!(
        "faster accuracy suite: cargo faster bisect, {}",
        machine::now_utc()
    );
    println!("{}", machine::at_start());
    println!(
        "fixture: {}; {runs} histories per case, the several-step case once",
        histories.repository.root.display()
    );
    println!(
        "\n| commits | step | floor | histories | right | wrong named | ranges | builds (median, \
         most; bound) | wall per bisect (median) |\n| --- | --- | --- | --- | --- | --- | --- | --- \
         | --- |"
    );
    let mut met = true;
    for (number, case) in CASES.iter().enumerate() {
        let count = if case.steps > 1 { 1 } else { runs };
        let mut tally = Tally::default();
        for run in 0..count {
            let name = format!("case{number}-history{run}");
            let seed = (number * 1000 + run) as u64;
            let history = histories.history(&name, (case.length, case.step, case.steps), seed)?;
            let bisected = bisect_one(&cargo_faster, &histories, &history, case)?;
            tally.add(&history, &bisected);
        }
        met &= tally.print(case, count);
    }
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(met)
}

/// What one bisect said.
struct Bisected {
    /// The commits it named, in order.
    named: Vec<String>,
    /// Whether it ended with a range.
    range: bool,
    built: u64,
    wall: f64,
}

/// `cargo faster bisect BASE..BRANCH slowed` on `history`, read back.
fn bisect_one(
    cargo_faster: &Path,
    histories: &Histories,
    history: &History,
    case: &Case,
) -> Result<Bisected, String> {
    let repository = &histories.repository;
    let started = Instant::now();
    let mut command = Command::new(cargo_faster);
    command
        .args(["faster", "bisect", "--accept-changes", "--format", "terse"])
        .arg(format!("{}..{}", histories.base, history.branch))
        .arg("slowed")
        .current_dir(&repository.root)
        .env("CARGO_TARGET_DIR", &repository.target)
        .env("CARGO_NET_OFFLINE", "true")
        .stdout(std::process::Stdio::null());
    if let Some(floor) = case.floor {
        command.args(["--noise-floor", floor]);
    }
    let output = command
        .output()
        .map_err(|error| format!("could not run {}: {error}", cargo_faster.display()))?;
    let wall = started.elapsed().as_secs_f64();
    if !matches!(output.status.code(), Some(0 | 1)) {
        return Err(format!(
            "{}: cargo faster bisect failed: {}",
            history.branch,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let path = repository.target.join("faster/bisect/bisect.json");
    let text =
        std::fs::read_to_string(&path).map_err(|error| format!("{}: {error}", path.display()))?;
    let document: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| error.to_string())?;
    let function = &document["functions"][0];
    let named = function["culprits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|culprit| culprit["commit"].as_str().map(str::to_string))
        .collect();
    Ok(Bisected {
        named,
        range: !function["remaining_range"].is_null(),
        built: document["built"].as_u64().unwrap_or(0),
        wall,
    })
}

/// One case's counts.
#[derive(Default)]
struct Tally {
    right: usize,
    wrong: usize,
    ranges: usize,
    built: Vec<f64>,
    walls: Vec<f64>,
}

impl Tally {
    /// Counts what `bisected` named against `history`'s truth.
    fn add(&mut self, history: &History, bisected: &Bisected) {
        let truth: Vec<&String> = history
            .steps
            .iter()
            .map(|&at| &history.commits[at])
            .collect();
        let wrong = bisected.named.iter().any(|named| !truth.contains(&named));
        let all = truth.iter().all(|commit| bisected.named.contains(commit));
        self.wrong += usize::from(wrong);
        self.right += usize::from(all && !wrong);
        self.ranges += usize::from(bisected.range);
        self.built.push(bisected.built as f64);
        self.walls.push(bisected.wall);
    }

    /// Prints the case's row; whether its targets were met.
    fn print(&self, case: &Case, count: usize) -> bool {
        let bound = (case.length as f64).log2() + 3.0;
        let most = self.built.iter().copied().fold(0.0, f64::max);
        let steps = match case.steps {
            1 => String::new(),
            steps => format!("{steps}× "),
        };
        println!(
            "| {} | {steps}{:.0}% | {} | {count} | {} | {} | {} | {:.0}, {most:.0}; {bound:.0} | \
             {:.0} s |",
            case.length,
            case.step * 100.0,
            case.floor.unwrap_or("default"),
            self.right,
            self.wrong,
            self.ranges,
            median(&self.built),
            median(&self.walls),
        );
        // The bound is a search's: a regression of several steps takes one
        // search a step.
        let within = case.steps > 1 || most <= bound;
        let needed = (count * 19).div_ceil(20);
        self.right >= needed && self.wrong == 0 && within
    }
}
