//! Runs one cell: builds its two functions, measures the truth, then per run
//! the engine, the sequential method for the same time, and (on identical
//! functions) the engine again for a fixed length of the same time.

use crate::matrix::{Cell, Workload};
use crate::reference::{Reference, Truth};
use crate::sequential;
use crate::summary::{CellResult, EngineRun, Outcome, Run};
use crate::workloads::{
    Cursor, carried_chain, carried_chain_of_input, carried_walk, construct, tolerance, walk_buffer,
    walk_call_ns,
};
use faster::report::{Stop, format_ns};
use faster::{Config, Report, compare_fns};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How a cell is run (from the command line).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Runs of a cell with a true difference.
    pub runs: usize,
    /// Runs of a cell with the same function on both sides.
    pub identical_runs: usize,
    /// Length of each cell's reference measurement.
    pub reference: Duration,
    /// Length of the reference's batches.
    pub reference_batch: Duration,
    /// Also run the sequential method.
    pub sequential: bool,
    /// Also run the fixed-length engine on identical functions.
    pub fixed: bool,
    /// The engine's settings (the defaults).
    pub config: Config,
}

/// What the workloads are built from, measured once per process while the
/// machine is quiet, and the walk's buffer.
pub struct Machine {
    /// Nanoseconds per chain step in a long chain.
    pub step_ns: f64,
    /// The walk's buffer (allocated on first use).
    walk_buffer: Option<&'static [u64]>,
    /// Per-load nanoseconds of the walk.
    walk_load_ns: f64,
    /// Bytes of the walk's buffer: twice the last-level cache.
    pub walk_bytes: usize,
}

impl Machine {
    /// Measures the chain (and, with `walk`, allocates the walk's buffer
    /// and measures the walk); call it while the machine is quiet.
    pub fn measure(walk_bytes: usize, walk: bool) -> Machine {
        let mut machine = Machine {
            step_ns: crate::workloads::ns_per_step(),
            walk_buffer: None,
            walk_load_ns: f64::NAN,
            walk_bytes,
        };
        if walk {
            machine.walk_buffer();
        }
        machine
    }

    /// Per-load nanoseconds of the walk (`NaN` before its buffer exists).
    pub fn walk_load_ns(&self) -> f64 {
        self.walk_load_ns
    }

    /// What a chain of `steps` steps costs per call (see [`construct`]).
    fn chain_cost(&self, steps: u64) -> f64 {
        steps as f64 * self.step_ns
    }

    fn walk_buffer(&mut self) -> &'static [u64] {
        if let Some(buffer) = self.walk_buffer {
            return buffer;
        }
        let buffer = walk_buffer(self.walk_bytes);
        let loads = 1_000;
        self.walk_load_ns = walk_call_ns(buffer, loads) / loads as f64;
        self.walk_buffer = Some(buffer);
        buffer
    }

    /// Loads the walk makes in `ns` per call.
    fn walk_loads(&mut self, ns: f64) -> u64 {
        self.walk_buffer();
        (ns / self.walk_load_ns).round().max(1.0) as u64
    }
}

/// How many times a chain's work is doubled when its pair does not measure
/// the ratio it was built for.
const MAX_DOUBLINGS: u32 = 3;

/// Runs `cell`, or returns `Err(reason)` when its ratio cannot be built at
/// its scale.
pub fn run(
    cell: &Cell,
    machine: &mut Machine,
    settings: &Settings,
    progress: &dyn Fn(&str),
) -> Result<CellResult, String> {
    let started = Instant::now();
    let runs = if cell.identical() {
        settings.identical_runs
    } else {
        settings.runs
    };
    let unbuildable = |what: &str| {
        format!(
            "no pair of {what} gives {:.2} within tolerance at this scale (one step is about the whole call)",
            cell.ratio
        )
    };
    let (construction, truth, records) = match cell.scale.workload {
        Workload::Chain { ns } => {
            let target = (ns / machine.step_ns).round().max(1.0) as u64;
            let (original, candidate) =
                construct(target, cell.ratio, &mut |steps| machine.chain_cost(steps))
                    .ok_or_else(|| unbuildable("step counts"))?;
            // A few steps' cost may not scale with their count (an earlier,
            // unrolled chain measured 2 vs 1 steps at 2.00 in one build and
            // 1.64 in the next): when the reference disowns the pair, double
            // both sides' work and retry.
            let mut doublings = 0;
            loop {
                let (original, candidate) = (original << doublings, candidate << doublings);
                let description = format!(
                    "{original} vs {candidate} steps (≈ {} vs {})",
                    format_ns(machine.chain_cost(original)),
                    format_ns(machine.chain_cost(candidate))
                );
                let make = |side: usize| carried_chain([original, candidate][side]);
                match measure_cell(cell, &[()], make, runs, settings, progress, true) {
                    Ok((truth, records)) => break (description, truth, records),
                    Err(_) if doublings < MAX_DOUBLINGS && original < 100 => doublings += 1,
                    Err(reason) => return Err(format!("{description}: {reason}")),
                }
            }
        }
        Workload::Memory { ns } => {
            let target = machine.walk_loads(ns);
            let buffer = machine.walk_buffer();
            let step = machine.walk_load_ns;
            let (original, candidate) =
                construct(target, cell.ratio, &mut |loads| loads as f64 * step)
                    .ok_or_else(|| unbuildable("load counts"))?;
            let description = format!("{original} vs {candidate} loads");
            // One cursor for the cell, shared by both sides of every measurement.
            let cursor = Cursor::default();
            let make =
                |side: usize| carried_walk(buffer, Rc::clone(&cursor), [original, candidate][side]);
            // A memory-bound ratio may move with the machine (under load it
            // does): the truth is what it is, not a failed construction.
            let (truth, records) =
                measure_cell(cell, &[()], make, runs, settings, progress, false)?;
            (description, truth, records)
        }
        Workload::Inputs { ns } => {
            let mut inputs = Vec::new();
            for input_ns in ns {
                let target = (input_ns / machine.step_ns).round().max(1.0) as u64;
                let (original, candidate) =
                    construct(target, cell.ratio, &mut |steps| machine.chain_cost(steps))
                        .ok_or_else(|| unbuildable("step counts"))?;
                inputs.push([original, candidate]);
            }
            let description = inputs
                .iter()
                .map(|[original, candidate]| format!("{original}/{candidate}"))
                .collect::<Vec<_>>()
                .join(", ")
                + " steps";
            let (truth, records) = measure_cell(
                cell,
                &inputs,
                carried_chain_of_input,
                runs,
                settings,
                progress,
                true,
            )?;
            (description, truth, records)
        }
    };
    Ok(CellResult {
        cell: *cell,
        construction,
        truth,
        runs: records,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `runs` runs of every method and, spread between them, the truth, on
/// functions made by `make` (0: original, 1: candidate; fresh functions for
/// every measurement, so no carried state is shared between methods).
///
/// With `check_construction`, a truth (from the reference's first quarter,
/// before any run) more than twice the construction's tolerance away from
/// the cell's ratio ends the cell with the reason: the work sizes did not
/// set the cost as assumed, and the cell's figures would be filed under the
/// wrong ratio.
fn measure_cell<I, F: FnMut(&I)>(
    cell: &Cell,
    inputs: &[I],
    make: impl Fn(usize) -> F,
    runs: usize,
    settings: &Settings,
    progress: &dyn Fn(&str),
    check_construction: bool,
) -> Result<(Truth, Vec<Run>), String> {
    // A quarter of the reference before the runs, to check the construction;
    // the rest in equal chunks after each run (see `reference`).
    let mut reference = (!cell.identical())
        .then(|| Reference::new(inputs, make(0), make(1), settings.reference_batch));
    if let Some(reference) = &mut reference {
        progress("reference");
        reference.extend(settings.reference / 4);
        let first = reference.truth();
        if check_construction && (first.ratio / cell.ratio).ln().abs() > 2.0 * tolerance(cell.ratio)
        {
            return Err(format!(
                "built for {:.2}, but the reference measured {:.4}: at this scale the work size does not set the cost",
                cell.ratio, first.ratio
            ));
        }
    }
    let chunk = (settings.reference - settings.reference / 4) / runs.max(1) as u32;
    let config = &settings.config;
    let mut records = Vec::with_capacity(runs);
    for run in 0..runs {
        if run % 10 == 0 {
            progress(&format!("run {}/{runs}", run + 1));
        }
        let report = compare_fns(&cell.key(), inputs, make(0), make(1), config)
            .expect("unit outputs always agree");
        let engine = engine_run(&report, config);
        let sequential = settings.sequential.then(|| {
            let batches: Vec<[u64; 2]> = report
                .inputs
                .iter()
                .map(|input| input.batch_sizes)
                .collect();
            let measured = sequential::measure(
                inputs,
                make(0),
                make(1),
                &batches,
                report.elapsed,
                config.noise_floor,
            );
            Outcome {
                speedup: measured.speedup,
                ci: measured.ci,
                verdict: measured.verdict,
            }
        });
        let fixed = (settings.fixed && cell.identical()).then(|| {
            // The same length as the stopping run, but never stopping early:
            // no target precision is reachable, so the budget ends it.
            let mut fixed_config = config.clone();
            fixed_config.max_time = report.elapsed;
            fixed_config.plan_mut().target_precision = 1e-12;
            let report = compare_fns(&cell.key(), inputs, make(0), make(1), &fixed_config)
                .expect("unit outputs always agree");
            engine_run(&report, &fixed_config)
        });
        records.push(Run {
            engine,
            sequential,
            fixed,
        });
        if let Some(reference) = &mut reference {
            reference.extend(chunk);
        }
    }
    let truth = reference.map_or_else(Truth::exact_one, |mut reference| reference.truth());
    Ok((truth, records))
}

fn engine_run(report: &Report, config: &Config) -> EngineRun {
    // The run's mean round (warm-up and tuning included, so a little long):
    // the engine promises never to run more than a round past its budget.
    // `elapsed` also counts the output check before the budget starts, one
    // call of each side per input (4 ms at 2 ms per call): not an overrun.
    let elapsed_ns = report.elapsed.as_nanos() as f64;
    let round_ns = elapsed_ns / report.rounds.max(1) as f64;
    let check_ns: f64 = report
        .inputs
        .iter()
        .map(|input| input.original_ns + input.candidate_ns)
        .sum();
    let over_ns = elapsed_ns - check_ns - config.max_time.as_nanos() as f64;
    EngineRun {
        outcome: Outcome {
            speedup: report.speedup,
            ci: report.ci,
            verdict: report.verdict,
        },
        seconds: report.elapsed.as_secs_f64(),
        rounds: report.rounds,
        budget_stop: report.stop == Stop::Budget,
        batch: report
            .inputs
            .first()
            .map_or([0, 0], |input| input.batch_sizes),
        overrun_rounds: (over_ns / round_ns).max(0.0),
    }
}
