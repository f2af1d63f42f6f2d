//! The one path a registered comparison runs through, whichever harness
//! started it: its configuration resolved, measured (in several processes
//! if asked), reviewed, judged against the machine's noise, and handed to
//! the outputs as an [`Outcome`]; and a whole run's ([`run_all`]), whose
//! time left over goes to the comparisons their own budgets left undecided
//! (`engine::budget`).

use super::lock::lock_across_processes;
use super::servers::servers;
use crate::config::{Config, Settings, resolve};
use crate::engine::budget::{RunBudget, spend_on_undecided};
use crate::engine::replicate::{self, Replication};
use crate::engine::{compare, probe};
use crate::error::Error;
use crate::judge::{self, Context};
use crate::layout::Binaries;
use crate::output::files::output_dir;
use crate::output::{Note, Outputs};
use crate::registry::Comparison;
use crate::report::{Measurement, Outcome, Scope, Source};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The run-wide settings: the environment's, and the command line's over
/// them (none under libtest).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunWide {
    /// `FASTER_*` and the CI floor.
    pub environment: Settings,
    /// `faster::main()`'s flags.
    pub command_line: Settings,
}

impl RunWide {
    /// `comparison`'s configuration: these settings under its attribute's.
    pub fn config(&self, comparison: &Comparison) -> Config {
        self.config_with(comparison.settings)
    }

    /// The configuration of these settings under an attribute's.
    pub fn config_with(&self, attribute: Settings) -> Config {
        resolve(self.environment, self.command_line, attribute)
    }

    /// Whether a verdict of `comparison` that misses its expectation fails
    /// the run (see [`RunWide::enforces_in`]).
    pub fn enforces(&self, comparison: &Comparison) -> bool {
        self.enforces_in(comparison.debug_build, comparison.settings)
    }

    /// Whether a missed expectation of code built with `debug_build`, under
    /// an attribute's settings `attribute`, fails the run: not in a build
    /// with `debug_assertions`, unless enforced there too.
    pub fn enforces_in(&self, debug_build: bool, attribute: Settings) -> bool {
        !debug_build || self.config_with(attribute).enforce_in_debug
    }
}

/// The run's budget in a process whose comparisons come one at a time
/// (libtest's tests, [`run_comparison`]): each adds its own budget as it
/// runs (where `max_run_time` sets none), and one its own budget left
/// unsettled may have what those before it left over (there is no end of
/// the run to wait for).
static SO_FAR: Mutex<RunBudget> = Mutex::new(RunBudget::new(Duration::ZERO));

/// Runs `comparison` and hands its outcome to `outputs`, taking turns with
/// other processes on the target directory's lock; where its own budget
/// left it unsettled, on what the comparisons before it in this process
/// left over ([`SO_FAR`]). Returns the outcome and what the outputs noted
/// about it.
pub fn run_comparison(
    comparison: &Comparison,
    run_wide: &RunWide,
    outputs: &mut Outputs<'_>,
) -> (Outcome, Vec<Note>) {
    let config = run_wide.config(comparison);
    let enforced = run_wide.enforces(comparison);
    let turn = own_turn(comparison, &config, enforced, outputs)
        .and_then(|turn| with_what_is_left(comparison, &config, turn));
    let outcome = outcome(comparison, &config, enforced, turn.map(Turn::whole));
    let notes = outputs.comparison(&outcome);
    (outcome, notes)
}

/// Runs every comparison of `selected` in turn, each on its own budget,
/// then spends what the run's budget (`max_run_time`, by default the sum
/// of theirs) has left on those
/// more of it could settle ([`spend_on_undecided`]), and hands each
/// outcome to `outputs` once it is final: those done on their own turn at
/// once, the others after. Returns the outcomes in `selected`'s order.
pub fn run_all(
    selected: &[&Comparison],
    run_wide: &RunWide,
    outputs: &mut Outputs<'_>,
) -> Vec<Outcome> {
    let configs: Vec<Config> = selected.iter().map(|c| run_wide.config(c)).collect();
    let mut budget = RunBudget::for_run(
        run_wide.config_with(Settings::NONE).max_run_time,
        configs.iter().map(|config| config.max_time),
    );
    let mut outcomes: Vec<Option<Outcome>> = selected.iter().map(|_| None).collect();
    let mut held = Vec::new();
    let mut slices = Vec::new();
    for (index, (comparison, config)) in selected.iter().zip(&configs).enumerate() {
        let enforced = run_wide.enforces(comparison);
        let turn = own_turn(comparison, config, enforced, outputs);
        budget.spend(turn.as_ref().map_or(Duration::ZERO, Turn::spent));
        match turn {
            Ok(Turn::Slices(replication, binaries)) if replication.could_use_the_runs_time() => {
                held.push((index, binaries));
                slices.push(Ok(replication));
            }
            turn => {
                let outcome = outcome(comparison, config, enforced, turn.map(Turn::whole));
                outputs.comparison(&outcome);
                outcomes[index] = Some(outcome);
            }
        }
    }
    more_on_the_runs_time(&mut budget, selected, &held, &mut slices);
    for ((index, binaries), replication) in held.into_iter().zip(slices) {
        let (comparison, config) = (selected[index], &configs[index]);
        let turn = replication.map(|replication| Turn::Slices(replication, binaries).whole());
        let outcome = outcome(comparison, config, run_wide.enforces(comparison), turn);
        outputs.comparison(&outcome);
        outcomes[index] = Some(outcome);
    }
    outcomes
        .into_iter()
        .map(|outcome| outcome.expect("every comparison has its outcome"))
        .collect()
}

/// `turn` of `comparison`, measured further on what the comparisons
/// before it in this process left over where more could settle it.
fn with_what_is_left(comparison: &Comparison, config: &Config, turn: Turn) -> Result<Turn, Error> {
    let mut budget = SO_FAR
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    budget.add(config.max_run_time, config.max_time);
    budget.spend(turn.spent());
    let Turn::Slices(replication, binaries) = turn else {
        return Ok(turn);
    };
    let held = [(0, binaries)];
    let mut slices = [Ok(replication)];
    more_on_the_runs_time(&mut budget, &[comparison], &held, &mut slices);
    let ([(_, binaries)], [slices]) = (held, slices);
    slices.map(|replication| Turn::Slices(replication, binaries))
}

/// What a comparison's own turn measured: the whole measurement and how
/// far its verdict reaches, or its slices so far and the binaries they ran
/// in, which the run's time may add to.
enum Turn {
    Whole(Measurement, Option<Scope>),
    Slices(Replication, Binaries),
}

impl Turn {
    /// The measuring time its budget counted.
    fn spent(&self) -> Duration {
        match self {
            Turn::Whole(measurement, _) => measurement.elapsed,
            Turn::Slices(replication, _) => replication.spent(),
        }
    }

    /// Its measurement, slices combined, and how far its verdict reaches.
    fn whole(self) -> (Measurement, Option<Scope>) {
        match self {
            Turn::Whole(measurement, scope) => (measurement, scope),
            Turn::Slices(replication, binaries) => {
                let mut measurement = replication.combined();
                for process in &mut measurement.processes {
                    process.layout = binaries.layout(process.slot);
                }
                (measurement, Some(binaries.scope()))
            }
        }
    }
}

/// `comparison`'s own turn on its budget, taking turns with other
/// processes on the target directory's lock.
fn own_turn(
    comparison: &Comparison,
    config: &Config,
    enforced: bool,
    outputs: &mut Outputs<'_>,
) -> Result<Turn, Error> {
    outputs.measuring(comparison.test_name(), config.max_time);
    let _turn = lock_across_processes(&output_dir());
    config
        .validate()
        .and_then(|()| measure(comparison, config, enforced))
}

/// Judges what `comparison` measured with `config` into its outcome.
fn outcome(
    comparison: &Comparison,
    config: &Config,
    enforced: bool,
    measured: Result<(Measurement, Option<Scope>), Error>,
) -> Outcome {
    let result = measured.map(|(measurement, scope)| {
        let context = Context {
            scope,
            compiled_code: None,
            // Unoptimized code says nothing about this machine's noise: the
            // run says once that a debug build is not enforced.
            probe: (!comparison.debug_build).then(probe::probe),
        };
        judge::judge(measurement, config, context)
    });
    Outcome {
        test: comparison.test_name().to_string(),
        label: comparison.label.to_string(),
        source: Some(Source {
            path: comparison.test.to_string(),
            original: comparison.original.to_string(),
            file: comparison.file.to_string(),
            line: comparison.line,
            debug_assertions: comparison.debug_build,
        }),
        result,
        enforced,
    }
}

/// Measures `comparison` on its own budget: in slices in this run's
/// servers, each in a layout of its own where it was linked through
/// `faster-link` (see `crate::layout`), or, in a debug build whose timing
/// is not enforced, here only.
fn measure(comparison: &Comparison, config: &Config, enforced: bool) -> Result<Turn, Error> {
    if !enforced || config.processes <= 1 {
        let measurement = (comparison.run)(&Config {
            processes: 1,
            ..config.clone()
        })?;
        // A kernel's time is the GPU's: where the CPU code landed is no
        // part of it.
        let scope = (enforced && measurement.gpu.is_none())
            .then(|| Scope::ThisBuild("measured in this process only (processes = 1)".into()));
        return Ok(Turn::Whole(measurement, scope));
    }
    let executable = std::env::current_exe().map_err(|error| Error::Replication {
        process: 0,
        message: format!("cannot find this test binary to run it again: {error}"),
    })?;
    let binaries = Binaries::of(executable, config.layouts, None);
    // The processes time for this one: no other thread here may meanwhile.
    let _turn = compare::timing_turn();
    let mut replication = Replication::new(config);
    replicate::measure_slices(
        &mut replication,
        |slot| binary(&binaries, slot).map(drop),
        |slice| measure_slice(comparison, &binaries, slice).0,
    )?;
    Ok(Turn::Slices(replication, binaries))
}

/// More slices of the `held` comparisons of `selected` (index, binaries),
/// whose `slices` more of the run's time could settle, while `budget`
/// lasts.
fn more_on_the_runs_time(
    budget: &mut RunBudget,
    selected: &[&Comparison],
    held: &[(usize, Binaries)],
    slices: &mut [Result<Replication, Error>],
) {
    // In the order a comparison's own turn takes them: another thread's
    // turn holds the lock while it waits for the timing turn.
    let _lock = lock_across_processes(&output_dir());
    let _turn = compare::timing_turn();
    spend_on_undecided(budget, slices, |at, slice| {
        let (index, binaries) = &held[at];
        measure_slice(selected[*index], binaries, slice)
    });
}

/// One slice of `comparison` in its slot's server of `binaries`, and the
/// time it took (its binary readied first, which no budget counts).
fn measure_slice(
    comparison: &Comparison,
    binaries: &Binaries,
    slice: replicate::SliceToMeasure,
) -> (Result<Measurement, Error>, Duration) {
    let binary = match binary(binaries, slice.slot) {
        Ok(binary) => binary,
        Err(error) => return (Err(error), Duration::ZERO),
    };
    let started = Instant::now();
    let measured = servers().measure(
        (&binary, slice.slot),
        comparison.test_name(),
        &slice.config,
        slice.timeout,
    );
    (measured, started.elapsed())
}

/// The binary of slot `slot`, made where it is not yet.
fn binary(binaries: &Binaries, slot: u32) -> Result<std::path::PathBuf, Error> {
    binaries.binary(slot).map_err(|why| Error::Replication {
        process: slot as usize,
        message: why.to_string(),
    })
}
