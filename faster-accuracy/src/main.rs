//! How often is the verdict right? The accuracy suite of `faster` (issue 3):
//! known ratios at every scale from nanoseconds to milliseconds, quiet and
//! under a time-varying load, each cell judged against a long reference
//! measurement, with the traditional sequential method measured in the same
//! run for contrast.
//!
//! ```text
//! cargo run --release -p faster-accuracy -- [--runs N] [--filter 1us/1.25/quiet] [--csv PATH] [--quick]
//! ```
//!
//! Modules: `matrix` (the cells), `workloads` (the functions), `reference`
//! (the truth), `sequential` (the traditional method), `load` (the
//! background load), `runner` (one cell), `summary` (tallies and targets),
//! `output` (terminal tables, CSV), `markdown` (the README's tables, also
//! from earlier runs' CSV files), `machine` (the header), `options`; the
//! other modes: `environment_checks` (issue 7), `parallel` (a suite under
//! cargo test and nextest), `revisions` (`cargo faster --against` on a
//! fixture repository, issue 17), `placement` (nanosecond intervals across
//! fresh processes, issue 15), `layouts` (real functions across builds that
//! differ in code layout), `suite_cost` (what a suite of comparisons costs
//! under `cargo test`, with layouts, without, in one process), `coverage`
//! (how often `cargo faster --against`'s 99% interval holds 1.00 for
//! tracked functions of real work that commits did not touch: `accuracy
//! --coverage [--runs N] [--floors 0.02,0.05] [--commits NAME,...] [--csv
//! PATH] [--keep]`), `looks` (the stop rule's looks at the interval, on
//! simulated comparisons: `accuracy --looks [--runs N]`); `repository`
//! holds the fixture repositories of `revisions` and `coverage`, `scratch`
//! the temporary folders of every mode's fixture.

mod coverage;
mod defaults;
mod environment_checks;
mod layouts;
mod load;
mod looks;
mod machine;
mod markdown;
mod matrix;
mod options;
mod output;
mod parallel;
mod placement;
mod reference;
mod repository;
mod revisions;
mod runner;
mod scratch;
mod sequential;
mod suite_cost;
mod summary;
mod timing;
mod workloads;

use clap::Parser as _;
use faster::Config;
use faster::report::format_ns;
use faster_runtime::__internal::last_level_cache_bytes;
use matrix::{Noise, Workload};
use options::Mode;
use output::Csv;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use summary::{CellResult, Summary};

/// Each walk buffer and the load's buffer are twice the last-level cache,
/// within these bounds.
const MIN_BUFFER: usize = 64 << 20;
const MAX_BUFFER: usize = 1 << 30;
/// When the last-level cache cannot be read.
const ASSUMED_LLC: usize = 32 << 20;

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing to a closed pipe (`accuracy | head`)
    // panics; a table printer should end quietly instead, as `cat` does.
    #[cfg(unix)]
    // SAFETY: restores the default disposition of one signal at start-up,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The issue-7 checks (and the children they start) have their own modes.
    if let Some(faster_runtime::__internal::Role::Once(key)) = faster_runtime::__internal::role() {
        if placement::is_child(&key) {
            return placement::child(&key);
        }
        return environment_checks::child(&key);
    }
    let options = match options::Options::try_parse() {
        Ok(options) => options,
        Err(error) => error.exit(),
    };
    match options.mode() {
        Mode::Matrix => {}
        Mode::Replication => return environment_checks::replication(&options),
        Mode::Placement => return placement::placement(&options),
        Mode::ProbeCheck => return environment_checks::probe_check(&options),
        Mode::StackCheck => return environment_checks::stack_check(&options),
        Mode::Parallel => return parallel::parallel(&options),
        Mode::Revisions => return revisions::revisions(&options),
        Mode::SuiteCost => return suite_cost::suite_cost(&options),
        Mode::Layouts => return layouts::layouts(&options),
        Mode::Looks => return looks::looks(&options),
        Mode::Coverage => return coverage::coverage(&options),
    }
    let options = match options.matrix() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("accuracy: {message}");
            return ExitCode::from(2);
        }
    };
    if !options.combine.is_empty() {
        return match combine(&options) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("accuracy: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let cells = matrix::cells(&options.filters);
    if options.list {
        for cell in &cells {
            println!("{}", cell.key());
        }
        return ExitCode::SUCCESS;
    }
    if cells.is_empty() {
        eprintln!(
            "accuracy: no cell matches {:?}; see --list",
            options.filters
        );
        return ExitCode::from(2);
    }
    match run(&options, &cells) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("accuracy: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &options::Matrix, cells: &[matrix::Cell]) -> std::io::Result<()> {
    let started = Instant::now();
    let config = Config::default();
    let llc = last_level_cache_bytes();
    let buffer_bytes = load::buffer_bytes();
    let settings = runner::Settings {
        runs: options.runs,
        identical_runs: options.identical_runs(),
        reference: options.reference,
        reference_batch: options.reference_batch,
        sequential: options.sequential,
        fixed: options.fixed,
        config: config.clone(),
    };

    print_header(options, &settings, llc);

    let mut machine = measure_machine(cells, buffer_bytes);
    println!(
        "columns: bias = median of estimate / truth − 1; err = |estimate / truth − 1|; ±CI = median half-width of the 99% interval; \
         cover = the interval holds the truth; cov~ = it meets the truth ± ±ref; F/N/S = faster / within noise / slower; \
         fls/rev/ms = false verdicts (identical functions) / reversals / misses (within noise at ≥ 2× the floor); \
         time and rounds are medians; budg = runs ended by the budget; ±ref = the truth's own 99% uncertainty"
    );
    println!();
    println!("{}", output::table_header());

    let mut cell_csv = options
        .csv
        .as_deref()
        .map(|path| Csv::create(path, output::CELL_COLUMNS))
        .transpose()?;
    let mut run_csv = options
        .runs_csv
        .as_deref()
        .map(|path| Csv::create(path, output::RUN_COLUMNS))
        .transpose()?;
    let interactive = std::io::stderr().is_terminal();
    let mut load: Option<load::BackgroundLoad> = None;
    let mut results = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        if cell.noise == Noise::Load && load.is_none() {
            load = Some(load::BackgroundLoad::start(buffer_bytes));
            // Let the load write its buffer and reach its stride.
            std::thread::sleep(Duration::from_secs(1));
        }
        let key = cell.key();
        let progress = |what: &str| {
            if interactive {
                eprint!("\r\x1b[K[{}/{}] {key}: {what}", index + 1, cells.len());
                let _ = std::io::stderr().flush();
            }
        };
        let outcome = runner::run(cell, &mut machine, &settings, &progress);
        if interactive {
            eprint!("\r\x1b[K");
        }
        match outcome {
            Ok(result) => {
                let summary = Summary::of(&result, config.noise_floor);
                println!("{}", output::table_row(&result, &summary));
                if let Some(csv) = cell_csv.as_mut() {
                    csv.row(output::cell_fields(&result, &summary))?;
                }
                if let Some(csv) = run_csv.as_mut() {
                    for row in output::run_rows(&result) {
                        csv.row(row)?;
                    }
                }
                results.push((result, summary));
            }
            Err(reason) => println!("{key:<19} skipped: {reason}"),
        }
    }
    drop(load);

    println!();
    if let Some(table) = output::stop_rule_table(&results) {
        println!("{table}\n");
    }
    println!("{}", output::shortfall_list(&results));
    println!(
        "\nfinished in {:.0} s; load average {} at the end",
        started.elapsed().as_secs_f64(),
        machine::load_average()
    );
    if let Some(path) = &options.markdown {
        write_markdown(path, &results)?;
    }
    Ok(())
}

/// `--markdown`: the README's tables of this run's cells.
fn write_markdown(path: &str, results: &[(CellResult, Summary)]) -> std::io::Result<()> {
    let rows: Vec<markdown::Row> = results
        .iter()
        .map(|(result, summary)| {
            markdown::row(output::CELL_COLUMNS, output::cell_fields(result, summary))
        })
        .collect();
    std::fs::write(path, markdown::markdown(&rows))
}

/// The header's first lines: when, the machine, the engine's settings and
/// the runs asked for.
fn print_header(options: &options::Matrix, settings: &runner::Settings, llc: Option<u64>) {
    println!("faster accuracy suite, {}", machine::now_utc());
    println!(
        "machine: {}, {} cores, last-level cache {}; load average {} at the start",
        machine::cpu_model(),
        machine::cores(),
        llc.map_or("unknown".to_string(), |bytes| format!(
            "{} MiB",
            bytes >> 20
        )),
        machine::load_average(),
    );
    println!(
        "engine: Config::default() (noise floor {}%, budget {:?}, target ±{}%, at least {} rounds); timer reading {:.1} ns",
        100.0 * settings.config.noise_floor,
        settings.config.max_time,
        100.0 * settings.config.plan().target_precision,
        settings.config.plan().min_rounds,
        faster::time::calibrate(&faster::time::WallClock).reading_cost_ns,
    );
    println!(
        "runs: {} per cell, {} per identical-function cell; reference {:?} per cell in batches of {:?} per side; filter: {}",
        settings.runs,
        settings.identical_runs,
        settings.reference,
        settings.reference_batch,
        if options.filters.is_empty() {
            "none".to_string()
        } else {
            options.filters.join(", ")
        },
    );
}

/// Measures the workloads' costs on this machine, and says them.
fn measure_machine(cells: &[matrix::Cell], buffer_bytes: usize) -> runner::Machine {
    let needs_walk = cells
        .iter()
        .any(|cell| matches!(cell.scale.workload, Workload::Memory { .. }));
    let machine = runner::Machine::measure(buffer_bytes, needs_walk);
    println!(
        "workloads: a chain step {:.3} ns; walk {} per load over {} MiB{}",
        machine.step_ns,
        if needs_walk {
            format_ns(machine.walk_load_ns())
        } else {
            "(not run)".to_string()
        },
        buffer_bytes >> 20,
        if cells.iter().any(|cell| cell.noise == Noise::Load) {
            format!(
                "; load: one thread, busy fraction 0–100% over a {:?} sine, streaming {} MiB",
                load::PERIOD,
                buffer_bytes >> 20
            )
        } else {
            String::new()
        },
    );
    machine
}

/// `--combine`: the Markdown tables and the missed targets of earlier runs'
/// `--csv` files, to stdout or to `--markdown`.
fn combine(options: &options::Matrix) -> Result<(), String> {
    let mut rows = Vec::new();
    for path in &options.combine {
        let text = std::fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))?;
        rows.extend(markdown::parse_csv(&text).map_err(|error| format!("{path}: {error}"))?);
    }
    let tables = markdown::markdown(&rows);
    match &options.markdown {
        Some(path) => std::fs::write(path, &tables).map_err(|error| format!("{path}: {error}"))?,
        None => println!("{tables}"),
    }
    let missed: Vec<String> = rows
        .iter()
        .filter(|row| {
            row.get("targets_missed")
                .is_some_and(|text| !text.is_empty())
        })
        .map(|row| format!("  {:<19} {}", row["cell"], row["targets_missed"]))
        .collect();
    eprintln!(
        "Targets missed ({} of {} cells):\n{}",
        missed.len(),
        rows.len(),
        missed.join("\n")
    );
    Ok(())
}
