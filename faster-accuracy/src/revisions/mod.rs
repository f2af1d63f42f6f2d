//! The figures of issue 17: `cargo faster --against` on a fixture git
//! repository whose commits are known.
//!
//! ```text
//! accuracy --revisions [--runs 20] [--keep]
//! ```
//!
//! The fixture, made in a temporary directory with its own target
//! directory (so the first build is a cold one), is a library with three
//! tracked functions: `slowed` and `unchanged`, each a dependent chain of
//! 2 000 and 20 000 steps on its two inputs (whose speed does not hang on
//! where the linker puts them), and `parse_sum`, a split-and-parse of 500
//! numbers (whose speed does). Its commits: the base; a comment added
//! (nothing measured changes); five commits that each add 8·k unrelated
//! helper functions in a module of their own, before or after the tracked
//! ones (everything else moves, nothing measured changes); `slowed` running
//! 1.1·n steps (the extra tenth continues the chain from its result, which
//! it still returns, so its outputs stay the same). The real
//! `cargo-faster` binary compares the comment commit and each unrelated
//! commit against the base, and the slowdown against the last unrelated
//! commit, `--runs` times per phase (the unrelated commits share them)
//! after one run per commit that builds, in a quiet machine and under the
//! suite's time-varying background load.
//!
//! Targets: against the comment and the unrelated commits, no failure and
//! no `faster` or `slower` verdict; against the slowdown, `slowed` fails
//! every time with a speedup within 1% of 1/1.1 and the others never fail.

mod fixture;
mod tally;

use crate::load::{self, BackgroundLoad};
use crate::machine;
use crate::options::Options;
use crate::repository::build_cargo_faster;
use faster_runtime::__internal::median;
use fixture::Fixture;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tally::Tally;

/// What the command line asked for.
struct Settings {
    runs: usize,
    keep: bool,
}

impl Settings {
    /// The options' runs (default 20) and whether to keep the fixture.
    fn of(options: &Options) -> Settings {
        Settings {
            runs: options.runs.unwrap_or(20),
            keep: options.keep,
        }
    }
}

/// `accuracy --revisions`.
pub fn revisions(options: &Options) -> ExitCode {
    match run(&Settings::of(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("accuracy: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(settings: &Settings) -> Result<(), String> {
    let started = Instant::now();
    let cargo_faster = build_cargo_faster()?;
    let fixture = Fixture::create(settings.keep)?;
    println!(
        "faster accuracy suite: comparisons across revisions, {}",
        machine::now_utc()
    );
    println!("{}", machine::at_start());
    println!(
        "fixture: {} (target {}); {} runs per phase after one that builds; cargo faster \
         --against REV --format json, defaults otherwise",
        fixture.repository.root.display(),
        fixture.repository.target.display(),
        settings.runs
    );

    let commits = &fixture.commits;
    let unrelated = &commits[2..2 + fixture::UNRELATED_COMMITS];
    let phases = [
        Phase {
            name: "comment",
            pairs: vec![(&commits[1], &commits[0])],
            slowed_truth: 1.0,
        },
        Phase {
            name: "unrelated",
            pairs: unrelated
                .iter()
                .map(|commit| (commit, &commits[0]))
                .collect(),
            slowed_truth: 1.0,
        },
        Phase {
            name: "slowdown",
            pairs: vec![(&commits[commits.len() - 1], &commits[commits.len() - 2])],
            slowed_truth: 1.0 / 1.1,
        },
    ];
    for phase in &phases {
        for (checkout, against) in &phase.pairs {
            fixture.repository.git(&["checkout", "--quiet", checkout])?;
            let built = fixture
                .repository
                .cargo_faster(&cargo_faster, against, &[])?;
            println!(
                "{} ({}): the run that builds took {:.1} s ({})",
                phase.name,
                &checkout[..7],
                built.wall.as_secs_f64(),
                built.base_build.as_deref().unwrap_or("the base was cached"),
            );
        }
    }

    println!();
    println!("{}", Tally::HEADER);
    let mut missed = Vec::new();
    for noise in ["quiet", "load"] {
        let load = (noise == "load").then(|| {
            let load = BackgroundLoad::start(load::buffer_bytes());
            std::thread::sleep(Duration::from_secs(1));
            load
        });
        for phase in &phases {
            missed.extend(measure(
                &fixture,
                &cargo_faster,
                phase,
                noise,
                settings.runs,
            )?);
        }
        drop(load);
    }
    println!();
    if missed.is_empty() {
        println!("every target met");
    } else {
        println!("targets missed:\n  {}", missed.join("\n  "));
    }
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    Ok(())
}

/// `runs` runs of `phase`, every base cached: prints a row per function and
/// returns the targets missed.
fn measure(
    fixture: &Fixture,
    cargo_faster: &Path,
    phase: &Phase,
    noise: &str,
    runs: usize,
) -> Result<Vec<String>, String> {
    let mut tallies = [
        Tally::new("fixture::slowed"),
        Tally::new("fixture::unchanged"),
        Tally::new("fixture::parse_sum"),
    ];
    let mut walls = Vec::new();
    let mut exits = 0;
    for run in 0..runs {
        // The pairs take turns: each gets its share of the runs.
        let (checkout, against) = phase.pairs[run % phase.pairs.len()];
        fixture.repository.git(&["checkout", "--quiet", checkout])?;
        let ran = fixture
            .repository
            .cargo_faster(cargo_faster, against, &[])?;
        if ran.base_build.is_some() {
            return Err(format!("{}: the base was built again", phase.name));
        }
        walls.push(ran.wall.as_secs_f64());
        exits += usize::from(ran.code != Some(0));
        for tally in &mut tallies {
            tally.add(&ran.functions);
        }
    }
    let mut missed = Vec::new();
    for tally in &tallies {
        let truth = if tally.name.ends_with("slowed") {
            phase.slowed_truth
        } else {
            1.0
        };
        let row = tally.row(phase.name, noise, truth, exits, median(&walls));
        println!("{row}");
        missed.extend(tally.misses(phase.name, noise, truth));
    }
    Ok(missed)
}

/// What the issue judges: check each pair's first commit out, compare it
/// against its second.
struct Phase<'a> {
    name: &'static str,
    pairs: Vec<(&'a String, &'a String)>,
    /// The true speedup of `slowed` (base time / current time).
    slowed_truth: f64,
}
