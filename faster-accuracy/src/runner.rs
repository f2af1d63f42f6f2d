//! Runs one cell: builds its two functions, measures the truth, then per run
//! the engine, the sequential method for the same time, and (on identical
//! functions) the engine again for a fixed length of the same time.

use crate::matrix::{Cell, Workload};
use crate::reference::{self, Truth};
use crate::sequential;
use crate::summary::{CellResult, EngineRun, Outcome, Run};
use crate::workloads::{
    Cursor, carried_chain, carried_chain_of_input, carried_walk, chain_call_ns, construct,
    walk_buffer, walk_call_ns,
};
use faster::{Config, Report, compare_fns, format_ns};
use faster_runtime::Stop;
use std::collections::HashMap;
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
/// machine is quiet, and the buffers they share.
pub struct Machine {
    /// Nanoseconds per chain step in a long chain.
    pub step_ns: f64,
    /// Per-call nanoseconds of short chains, by step count.
    short_chains: HashMap<u64, f64>,
    /// The walk's buffer (allocated on first use).
    walk_buffer: Option<&'static [u64]>,
    /// Per-load nanoseconds of the walk.
    walk_line_ns: f64,
    /// Bytes of the walk's buffer: twice the last-level cache.
    pub walk_bytes: usize,
}

/// Chains shorter than this are measured per step count; longer ones cost
/// `steps × step_ns` (measured here: 1.69, 1.68, 1.68 ns per step at 8, 16
/// and 32 steps, against 1.35 ns for the call with no step at all).
const SHORT_CHAIN: u64 = 8;

impl Machine {
    /// Measures the chain (and, with `walk`, allocates the walk's buffers
    /// and measures it); call it while the machine is quiet.
    pub fn probe(walk_bytes: usize, walk: bool) -> Machine {
        let mut machine = Machine {
            step_ns: crate::workloads::ns_per_step(),
            short_chains: HashMap::new(),
            walk_buffer: None,
            walk_line_ns: f64::NAN,
            walk_bytes,
        };
        for steps in 0..SHORT_CHAIN {
            machine.chain_cost(steps);
        }
        if walk {
            machine.walk_buffer();
        }
        machine
    }

    /// Per-load nanoseconds of the walk (`NaN` before its buffers exist).
    pub fn walk_line_ns(&self) -> f64 {
        self.walk_line_ns
    }

    /// Per-call nanoseconds of chains of 0, 1, 2, ... steps, as measured.
    pub fn short_chain_ns(&self) -> Vec<f64> {
        (0..SHORT_CHAIN)
            .map(|steps| self.short_chains[&steps])
            .collect()
    }

    fn chain_cost(&mut self, steps: u64) -> f64 {
        if steps >= SHORT_CHAIN {
            return steps as f64 * self.step_ns;
        }
        *self
            .short_chains
            .entry(steps)
            .or_insert_with(|| chain_call_ns(steps))
    }

    fn walk_buffer(&mut self) -> &'static [u64] {
        if let Some(buffer) = self.walk_buffer {
            return buffer;
        }
        let buffer = walk_buffer(self.walk_bytes);
        let lines = 1_000;
        self.walk_line_ns = walk_call_ns(buffer, lines) / lines as f64;
        self.walk_buffer = Some(buffer);
        buffer
    }

    /// Loads the walk makes in `ns` per call.
    fn walk_lines(&mut self, ns: f64) -> u64 {
        self.walk_buffer();
        (ns / self.walk_line_ns).round().max(1.0) as u64
    }
}

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
            let description = format!(
                "{original} vs {candidate} steps (≈ {} vs {})",
                format_ns(machine.chain_cost(original)),
                format_ns(machine.chain_cost(candidate))
            );
            let make = |side: usize| carried_chain([original, candidate][side]);
            let (truth, records) = measure_cell(cell, &[()], make, runs, settings, progress);
            (description, truth, records)
        }
        Workload::Memory { ns } => {
            let target = machine.walk_lines(ns);
            let buffer = machine.walk_buffer();
            let step = machine.walk_line_ns;
            let (original, candidate) =
                construct(target, cell.ratio, &mut |lines| lines as f64 * step)
                    .ok_or_else(|| unbuildable("load counts"))?;
            let description = format!("{original} vs {candidate} loads");
            // One cursor for the cell, shared by both sides of every measurement.
            let cursor = Cursor::default();
            let make =
                |side: usize| carried_walk(buffer, Rc::clone(&cursor), [original, candidate][side]);
            let (truth, records) = measure_cell(cell, &[()], make, runs, settings, progress);
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
            );
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

/// The truth, then `runs` runs of every method, on functions made by `make`
/// (0: original, 1: candidate; fresh functions for every measurement, so no
/// carried state is shared between methods).
fn measure_cell<I, F: FnMut(&I)>(
    cell: &Cell,
    inputs: &[I],
    make: impl Fn(usize) -> F,
    runs: usize,
    settings: &Settings,
    progress: &dyn Fn(&str),
) -> (Truth, Vec<Run>) {
    let truth = if cell.identical() {
        Truth::exact_one()
    } else {
        progress("reference");
        reference::measure(
            inputs,
            make(0),
            make(1),
            settings.reference,
            settings.reference_batch,
        )
    };
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
            let fixed_config = Config {
                target_precision: 1e-12,
                max_time: report.elapsed,
                ..config.clone()
            };
            let report = compare_fns(&cell.key(), inputs, make(0), make(1), &fixed_config)
                .expect("unit outputs always agree");
            engine_run(&report, &fixed_config)
        });
        records.push(Run {
            engine,
            sequential,
            fixed,
        });
    }
    (truth, records)
}

fn engine_run(report: &Report, config: &Config) -> EngineRun {
    // A round is one batch of each side per input; the minimum per-call times
    // make this the shortest round, so the overrun is not understated.
    let round_ns: f64 = report
        .inputs
        .iter()
        .map(|input| {
            let [original_batch, candidate_batch] = input.batch_sizes;
            original_batch as f64 * input.original_ns + candidate_batch as f64 * input.candidate_ns
        })
        .sum();
    let over_ns = report.elapsed.as_nanos() as f64 - config.max_time.as_nanos() as f64;
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
            .map_or(0, |input| input.batch_sizes[1]),
        overrun_rounds: (over_ns / round_ns).max(0.0),
    }
}
