//! The README's tables, built from per-cell CSV rows (the `--csv` columns),
//! so a run split across invocations with `--filter` combines into one
//! table with `--combine a.csv,b.csv`.
//!
//! Two tables: per scale and noise, the engine and the sequential method
//! side by side, each figure the worst of the scale's cells; then every
//! cell.

use crate::matrix::{RATIOS, SCALES};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One cell's CSV row: column name → text.
pub type Row = BTreeMap<String, String>;

/// A row from the `--csv` columns and one cell's fields.
pub fn row(columns: &[&str], fields: Vec<String>) -> Row {
    columns
        .iter()
        .map(|column| column.to_string())
        .zip(fields)
        .collect()
}

/// Parses a CSV file written by `--csv` (quoted fields as `output::Csv`
/// writes them).
pub fn parse_csv(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines().filter(|line| !line.is_empty());
    let header = split_fields(lines.next().ok_or("an empty CSV file")?);
    lines
        .map(|line| {
            let fields = split_fields(line);
            if fields.len() == header.len() {
                Ok(header.iter().cloned().zip(fields).collect())
            } else {
                Err(format!(
                    "{} fields where the header has {}: {line}",
                    fields.len(),
                    header.len()
                ))
            }
        })
        .collect()
}

fn split_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("never empty").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("never empty").push(c),
        }
    }
    fields
}

/// Both tables.
pub fn markdown(rows: &[Row]) -> String {
    format!(
        "{}\n<details><summary>Every cell</summary>\n\n{}\n</details>\n",
        summary_table(rows),
        cell_table(rows)
    )
}

fn number(row: &Row, column: &str) -> f64 {
    row.get(column)
        .and_then(|text| text.parse().ok())
        .unwrap_or(f64::NAN)
}

fn count(row: &Row, column: &str) -> usize {
    row.get(column)
        .and_then(|text| text.parse().ok())
        .unwrap_or(0)
}

fn percent(fraction: f64) -> String {
    if fraction.is_nan() {
        "—".to_string()
    } else {
        format!("{:.2}%", 100.0 * fraction)
    }
}

/// Per scale and noise: the engine's and the sequential method's figures,
/// each the sum or the worst over the scale's cells.
pub fn summary_table(rows: &[Row]) -> String {
    let mut text = String::from(
        "| scale | noise | false verdicts on 1.00: stop rule (fixed length) | reversals | 1.25, 2.0, 0.8 decided | missed | median error, worst cell | 99% CI holds the truth, worst cell | median time, slowest cell | sequential: false verdicts on 1.00 | sequential: reversals | sequential: missed | sequential: median error, worst cell |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for noise in ["quiet", "load"] {
        for scale in SCALES {
            let cells: Vec<&Row> = rows
                .iter()
                .filter(|row| row.get("scale").map(String::as_str) == Some(scale.name))
                .filter(|row| row.get("noise").map(String::as_str) == Some(noise))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let identical: Vec<&&Row> = cells.iter().filter(|row| row["ratio"] == "1.00").collect();
            let sum = |rows: &[&&Row], column: &str| {
                rows.iter().map(|row| count(row, column)).sum::<usize>()
            };
            let all: Vec<&&Row> = cells.iter().collect();
            let decisive: Vec<&&Row> = cells
                .iter()
                .filter(|row| ["1.25", "2.00", "0.80"].contains(&row["ratio"].as_str()))
                .collect();
            let decided: usize = decisive
                .iter()
                .map(|row| {
                    if row["ratio"] == "0.80" {
                        count(row, "engine_slower")
                    } else {
                        count(row, "engine_faster")
                    }
                })
                .sum();
            let worst = |column: &str| {
                cells
                    .iter()
                    .map(|row| number(row, column))
                    .fold(f64::NAN, f64::max)
            };
            let least = |column: &str| {
                cells
                    .iter()
                    .map(|row| number(row, column))
                    .fold(f64::NAN, f64::min)
            };
            let false_verdicts = if identical.is_empty() {
                "—".to_string()
            } else {
                format!(
                    "{}/{} ({}/{})",
                    sum(&identical, "engine_false_verdicts"),
                    sum(&identical, "runs"),
                    sum(&identical, "fixed_false_verdicts"),
                    sum(&identical, "runs"),
                )
            };
            let sequential_false = if identical.is_empty() {
                "—".to_string()
            } else {
                format!(
                    "{}/{}",
                    sum(&identical, "sequential_false_verdicts"),
                    sum(&identical, "runs")
                )
            };
            let _ = writeln!(
                text,
                "| {} | {noise} | {false_verdicts} | {} | {decided}/{} | {} | {} | {:.0}% | {:.3} s | {sequential_false} | {} | {} | {} |",
                scale.name,
                sum(&all, "engine_reversals"),
                sum(&decisive, "runs"),
                sum(&all, "engine_misses"),
                percent(worst("engine_median_error")),
                100.0 * least("engine_coverage"),
                worst("engine_median_seconds"),
                sum(&all, "sequential_reversals"),
                sum(&all, "sequential_misses"),
                percent(worst("sequential_median_error")),
            );
        }
    }
    text
}

/// Every cell, in matrix order.
pub fn cell_table(rows: &[Row]) -> String {
    let mut text = String::from(
        "| cell | built as | truth | runs | estimate | error: median / worst | CI holds truth | verdicts F/N/S | false / reversed / missed | median time | sequential: error median / worst | sequential: false / reversed / missed |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let order = |row: &Row| {
        let scale = SCALES
            .iter()
            .position(|s| Some(&s.name.to_string()) == row.get("scale"));
        let ratio = RATIOS
            .iter()
            .position(|r| Some(&format!("{r:.2}")) == row.get("ratio"));
        (row.get("noise") != Some(&"quiet".to_string()), scale, ratio)
    };
    let mut sorted: Vec<&Row> = rows.iter().collect();
    sorted.sort_by_key(|row| order(row));
    for row in sorted {
        let _ = writeln!(
            text,
            "| {} | {} | {:.4} | {} | {:.4}x | {} / {} | {:.0}% | {}/{}/{} | {}/{}/{} | {:.3} s | {} / {} | {}/{}/{} |",
            row["cell"],
            row["construction"],
            number(row, "truth"),
            row["runs"],
            number(row, "engine_median_speedup"),
            percent(number(row, "engine_median_error")),
            percent(number(row, "engine_worst_error")),
            100.0 * number(row, "engine_coverage"),
            count(row, "engine_faster"),
            count(row, "engine_within_noise"),
            count(row, "engine_slower"),
            count(row, "engine_false_verdicts"),
            count(row, "engine_reversals"),
            count(row, "engine_misses"),
            number(row, "engine_median_seconds"),
            percent(number(row, "sequential_median_error")),
            percent(number(row, "sequential_worst_error")),
            count(row, "sequential_false_verdicts"),
            count(row, "sequential_reversals"),
            count(row, "sequential_misses"),
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_survive_a_round_trip() {
        let rows =
            parse_csv("cell,construction,runs\n1us/1.25/quiet,\"30/24, 2973/2378 steps\",50\n")
                .unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["construction"], "30/24, 2973/2378 steps");
        assert_eq!(rows[0]["runs"], "50");
        assert!(parse_csv("a,b\n1\n").is_err());
    }

    #[test]
    fn the_summary_adds_up_a_scale() {
        let columns = [
            "cell",
            "scale",
            "ratio",
            "noise",
            "runs",
            "engine_false_verdicts",
            "fixed_false_verdicts",
            "engine_faster",
            "engine_median_error",
            "engine_coverage",
            "engine_median_seconds",
        ];
        let rows = vec![
            row(
                &columns,
                [
                    "1us/1.00/quiet",
                    "1us",
                    "1.00",
                    "quiet",
                    "200",
                    "1",
                    "0",
                    "0",
                    "0.001",
                    "0.97",
                    "0.02",
                ]
                .map(String::from)
                .to_vec(),
            ),
            row(
                &columns,
                [
                    "1us/1.25/quiet",
                    "1us",
                    "1.25",
                    "quiet",
                    "50",
                    "0",
                    "",
                    "49",
                    "0.004",
                    "0.9",
                    "0.03",
                ]
                .map(String::from)
                .to_vec(),
            ),
        ];
        let table = summary_table(&rows);
        let line = table.lines().nth(2).unwrap();
        assert!(
            line.starts_with(
                "| 1us | quiet | 1/200 (0/200) | 0 | 49/50 | 0 | 0.40% | 90% | 0.030 s |"
            ),
            "{line}"
        );
    }
}
