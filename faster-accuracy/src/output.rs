//! How results read: the terminal table (one row per cell, engine and
//! sequential method side by side), the stop-rule table, the list of missed
//! targets, and the CSV and Markdown files.

use crate::summary::{CellResult, Outcome, Summary, Tally, Timing, shortfalls};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};

/// The terminal table's two header lines.
pub fn table_header() -> String {
    let engine = format!(
        "{:>8} {:>7} {:>7} {:>7} {:>6} {:>5} {:>5} {:>10} {:>9} {:>7} {:>6} {:>4}",
        "estimate",
        "bias",
        "err med",
        "err max",
        "±CI",
        "cover",
        "cov~",
        "F/N/S",
        "fls/rev/ms",
        "time",
        "rounds",
        "budg"
    );
    let sequential = format!(
        "{:>8} {:>7} {:>7} {:>5} {:>10} {:>9}",
        "estimate", "err med", "err max", "cover", "F/N/S", "fls/rev/ms"
    );
    format!(
        "{:<19} {:>7} {:>6} {:>5} │ {:<w_e$} │ {}\n{:<19} {:>7} {:>6} {:>5} │ {engine} │ {sequential}",
        "",
        "",
        "",
        "",
        "engine",
        "sequential (same time: A, then B)",
        "cell",
        "truth",
        "±ref",
        "runs",
        w_e = engine.chars().count(),
    )
}

/// One cell's row of the terminal table.
pub fn table_row(result: &CellResult, summary: &Summary) -> String {
    let engine = &summary.engine;
    let timing = &summary.timing;
    let mut row = format!(
        "{:<19} {:>7.4} {:>6} {:>5} │ {:>7.4}x {:>7} {:>7} {:>7} {:>6} {:>5} {:>5} {:>10} {:>9} {:>7} {:>6} {:>4}",
        result.cell.key(),
        result.truth.ratio,
        percent(result.truth.uncertainty, 2),
        engine.runs,
        engine.median_speedup,
        signed_percent(engine.median_bias),
        percent(engine.median_error, 2),
        percent(engine.worst_error, 2),
        percent(engine.median_half_width, 2),
        percent(engine.coverage(), 0),
        percent(engine.loose_coverage(), 0),
        verdicts(engine),
        wrong(engine),
        seconds(timing.median_seconds),
        timing.median_rounds,
        timing.budget_stops,
    );
    if let Some(sequential) = &summary.sequential {
        let _ = write!(
            row,
            " │ {:>7.4}x {:>7} {:>7} {:>5} {:>10} {:>9}",
            sequential.median_speedup,
            percent(sequential.median_error, 2),
            percent(sequential.worst_error, 2),
            percent(sequential.coverage(), 0),
            verdicts(sequential),
            wrong(sequential),
        );
    }
    row
}

fn verdicts(tally: &Tally) -> String {
    format!("{}/{}/{}", tally.faster, tally.within_noise, tally.slower)
}

fn wrong(tally: &Tally) -> String {
    format!(
        "{}/{}/{}",
        tally.false_verdicts, tally.reversals, tally.misses
    )
}

/// Item 3 of the issue: on identical functions, the stop rule's false
/// verdicts and coverage against the engine run for the same length with
/// no early stop.
pub fn stop_rule_table(results: &[(CellResult, Summary)]) -> Option<String> {
    let rows: Vec<String> = results
        .iter()
        .filter_map(|(result, summary)| {
            let fixed = summary.fixed.as_ref()?;
            let fixed_timing = summary.fixed_timing.as_ref()?;
            Some(format!(
                "{:<19} {:>5} │ {:>6} {:>6} {:>7} {:>7} │ {:>6} {:>6} {:>7} {:>7}",
                result.cell.key(),
                summary.engine.runs,
                summary.engine.false_verdicts,
                percent(summary.engine.coverage(), 0),
                summary.timing.median_rounds,
                seconds(summary.timing.median_seconds),
                fixed.false_verdicts,
                percent(fixed.coverage(), 0),
                fixed_timing.median_rounds,
                seconds(fixed_timing.median_seconds),
            ))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let (stopping_false, stopping_runs) =
        totals(results, |s| Some((s.engine.false_verdicts, s.engine.runs)));
    let (fixed_false, fixed_runs) =
        totals(results, |s| s.fixed.map(|f| (f.false_verdicts, f.runs)));
    Some(format!(
        "Stop rule against a fixed length (identical functions; the fixed run gets the stopping run's time and never stops early)\n\
         {:<19} {:>5} │ {:>6} {:>6} {:>7} {:>7} │ {:>6} {:>6} {:>7} {:>7}\n{}\n\
         total: stopping {stopping_false} false verdicts in {stopping_runs} runs, fixed {fixed_false} in {fixed_runs}",
        "cell",
        "runs",
        "false",
        "cover",
        "rounds",
        "time",
        "false",
        "cover",
        "rounds",
        "time",
        rows.join("\n"),
    ))
}

fn totals(
    results: &[(CellResult, Summary)],
    pick: impl Fn(&Summary) -> Option<(usize, usize)>,
) -> (usize, usize) {
    results
        .iter()
        .filter(|(_, summary)| summary.fixed.is_some())
        .filter_map(|(_, summary)| pick(summary))
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y))
}

/// Every cell that misses one of the targets, with the figures.
pub fn shortfall_list(results: &[(CellResult, Summary)]) -> String {
    let lines: Vec<String> = results
        .iter()
        .filter_map(|(result, summary)| {
            let missed = shortfalls(&result.cell, summary);
            (!missed.is_empty())
                .then(|| format!("  {:<19} {}", result.cell.key(), missed.join("; ")))
        })
        .collect();
    if lines.is_empty() {
        "Targets: every cell run meets the issue's targets.".to_string()
    } else {
        format!(
            "Targets missed ({} of {} cells):\n{}",
            lines.len(),
            results.len(),
            lines.join("\n")
        )
    }
}

/// A CSV file written row by row, flushed after each, so an interrupted
/// run keeps what it measured.
pub struct Csv {
    file: BufWriter<File>,
}

impl Csv {
    pub fn create(path: &str, header: &[&str]) -> io::Result<Csv> {
        let mut csv = Csv {
            file: BufWriter::new(File::create(path)?),
        };
        csv.row(header.iter().map(|field| field.to_string()).collect())?;
        Ok(csv)
    }

    pub fn row(&mut self, fields: Vec<String>) -> io::Result<()> {
        let quoted: Vec<String> = fields
            .into_iter()
            .map(|field| {
                if field.contains([',', '"', '\n']) {
                    format!("\"{}\"", field.replace('"', "\"\""))
                } else {
                    field
                }
            })
            .collect();
        writeln!(self.file, "{}", quoted.join(","))?;
        self.file.flush()
    }
}

/// Columns of the per-cell CSV (`--csv`).
pub const CELL_COLUMNS: &[&str] = &[
    "cell",
    "scale",
    "ratio",
    "noise",
    "construction",
    "truth",
    "truth_uncertainty",
    "truth_drift",
    "reference_pairs",
    "reference_batch_calls",
    "runs",
    "engine_median_speedup",
    "engine_median_bias",
    "engine_median_error",
    "engine_p95_error",
    "engine_worst_error",
    "engine_median_half_width",
    "engine_coverage",
    "engine_loose_coverage",
    "engine_faster",
    "engine_within_noise",
    "engine_slower",
    "engine_false_verdicts",
    "engine_reversals",
    "engine_misses",
    "engine_median_seconds",
    "engine_max_seconds",
    "engine_median_rounds",
    "engine_budget_stops",
    "engine_overruns",
    "sequential_median_speedup",
    "sequential_median_bias",
    "sequential_median_error",
    "sequential_p95_error",
    "sequential_worst_error",
    "sequential_median_half_width",
    "sequential_coverage",
    "sequential_loose_coverage",
    "sequential_faster",
    "sequential_within_noise",
    "sequential_slower",
    "sequential_false_verdicts",
    "sequential_reversals",
    "sequential_misses",
    "fixed_false_verdicts",
    "fixed_coverage",
    "fixed_median_rounds",
    "fixed_median_seconds",
    "cell_seconds",
    "targets_missed",
];

pub fn cell_fields(result: &CellResult, summary: &Summary) -> Vec<String> {
    let mut fields = vec![
        result.cell.key(),
        result.cell.scale.name.to_string(),
        format!("{:.2}", result.cell.ratio),
        result.cell.noise.to_string(),
        result.construction.clone(),
        format!("{:.6}", result.truth.ratio),
        format!("{:.6}", result.truth.uncertainty),
        format!("{:.6}", result.truth.drift),
        result.truth.pairs.to_string(),
        result.truth.calls.to_string(),
        summary.engine.runs.to_string(),
    ];
    fields.extend(tally_fields(Some(&summary.engine)));
    fields.extend(timing_fields(&summary.timing));
    fields.extend(tally_fields(summary.sequential.as_ref()));
    match (&summary.fixed, &summary.fixed_timing) {
        (Some(fixed), Some(timing)) => fields.extend([
            fixed.false_verdicts.to_string(),
            format!("{:.4}", fixed.coverage()),
            timing.median_rounds.to_string(),
            format!("{:.4}", timing.median_seconds),
        ]),
        _ => fields.extend(std::iter::repeat_n(String::new(), 4)),
    }
    fields.push(format!("{:.1}", result.seconds));
    fields.push(shortfalls(&result.cell, summary).join("; "));
    fields
}

fn tally_fields(tally: Option<&Tally>) -> Vec<String> {
    let Some(t) = tally else {
        return vec![String::new(); 14];
    };
    vec![
        format!("{:.6}", t.median_speedup),
        format!("{:.6}", t.median_bias),
        format!("{:.6}", t.median_error),
        format!("{:.6}", t.p95_error),
        format!("{:.6}", t.worst_error),
        format!("{:.6}", t.median_half_width),
        format!("{:.4}", t.coverage()),
        format!("{:.4}", t.loose_coverage()),
        t.faster.to_string(),
        t.within_noise.to_string(),
        t.slower.to_string(),
        t.false_verdicts.to_string(),
        t.reversals.to_string(),
        t.misses.to_string(),
    ]
}

fn timing_fields(timing: &Timing) -> Vec<String> {
    vec![
        format!("{:.4}", timing.median_seconds),
        format!("{:.4}", timing.max_seconds),
        timing.median_rounds.to_string(),
        timing.budget_stops.to_string(),
        timing.overruns.to_string(),
    ]
}

/// Columns of the per-run CSV (`--runs-csv`).
pub const RUN_COLUMNS: &[&str] = &[
    "cell",
    "run",
    "truth",
    "engine_speedup",
    "engine_low",
    "engine_high",
    "engine_verdict",
    "engine_seconds",
    "engine_rounds",
    "engine_budget_stop",
    "engine_batch",
    "engine_overrun_rounds",
    "sequential_speedup",
    "sequential_low",
    "sequential_high",
    "sequential_verdict",
    "fixed_speedup",
    "fixed_low",
    "fixed_high",
    "fixed_verdict",
    "fixed_seconds",
    "fixed_rounds",
];

pub fn run_rows(result: &CellResult) -> Vec<Vec<String>> {
    result
        .runs
        .iter()
        .enumerate()
        .map(|(index, run)| {
            let e = &run.engine;
            let mut fields = vec![
                result.cell.key(),
                index.to_string(),
                format!("{:.6}", result.truth.ratio),
            ];
            fields.extend(outcome_fields(&e.outcome));
            fields.extend([
                format!("{:.5}", e.seconds),
                e.rounds.to_string(),
                e.budget_stop.to_string(),
                format!("{}/{}", e.batch[0], e.batch[1]),
                format!("{:.2}", e.overrun_rounds),
            ]);
            match &run.sequential {
                Some(s) => fields.extend(outcome_fields(s)),
                None => fields.extend(std::iter::repeat_n(String::new(), 4)),
            }
            match &run.fixed {
                Some(f) => {
                    fields.extend(outcome_fields(&f.outcome));
                    fields.extend([format!("{:.5}", f.seconds), f.rounds.to_string()]);
                }
                None => fields.extend(std::iter::repeat_n(String::new(), 6)),
            }
            fields
        })
        .collect()
}

/// A run's speedup, interval and verdict, as the runs CSV writes them.
fn outcome_fields(outcome: &Outcome) -> [String; 4] {
    [
        format!("{:.6}", outcome.speedup),
        format!("{:.6}", outcome.ci.0),
        format!("{:.6}", outcome.ci.1),
        outcome.verdict.name().to_string(),
    ]
}

/// `-0.0012` → `-0.12%`, `0.0012` → `+0.12%`.
fn signed_percent(fraction: f64) -> String {
    format!("{:+.2}%", 100.0 * fraction)
}

/// `0.0123` → `1.23%`.
fn percent(fraction: f64, decimals: usize) -> String {
    format!("{:.*}%", decimals, 100.0 * fraction)
}

fn seconds(value: f64) -> String {
    format!("{value:.3}s")
}
