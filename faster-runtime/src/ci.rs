//! CI integrations: the libtest bench line format that benchmark-tracking
//! tools ingest (`--format bench`), and the markdown table appended to
//! GitHub Actions' job summary (`$GITHUB_STEP_SUMMARY`).

use crate::report::{Report, format_ns};
use crate::terminal::{Ratio, SummaryRow};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// The two libtest bench lines of a comparison, one per function:
///
/// ```text
/// test sum::sum_fast/original  ... bench:      32,812.40 ns/iter (+/- 1,204.11)
/// test sum::sum_fast/candidate ... bench:      29,204.00 ns/iter (+/- 950.20)
/// ```
///
/// As libtest does, the figure is the median over the measured rounds (of
/// the per-call time summed over inputs) and the `+/-` is the spread
/// between the 5th and 95th percentiles. `width` pads names so a run's
/// lines align, as libtest pads to its longest test name.
pub(crate) fn bench_lines(name: &str, report: &Report, width: usize) -> String {
    let mut out = String::new();
    for (side, suffix) in [(0, "original"), (1, "candidate")] {
        let mut per_round: Vec<f64> = (0..report.rounds)
            .map(|round| {
                report
                    .inputs
                    .iter()
                    .filter_map(|input| input.round_ns.get(round))
                    .map(|ns| ns[side])
                    .sum()
            })
            .collect();
        per_round.retain(|ns: &f64| ns.is_finite());
        per_round.sort_by(f64::total_cmp);
        let summed_minimum = if side == 0 {
            report.original_ns
        } else {
            report.candidate_ns
        };
        let (median, spread) = if per_round.is_empty() {
            (summed_minimum, 0.0)
        } else {
            let median = percentile(&per_round, 50.0);
            (
                median,
                percentile(&per_round, 95.0) - percentile(&per_round, 5.0),
            )
        };
        let label = format!("{name}/{suffix}");
        let _ = writeln!(
            out,
            "test {label:<width$} ... bench: {:>14} ns/iter (+/- {})",
            thousands(median),
            thousands(spread),
        );
    }
    out
}

/// The longest bench label among `names`, for [`bench_lines`]' `width`.
pub(crate) fn bench_width<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names
        .into_iter()
        .map(|name| name.chars().count() + "/candidate".len())
        .max()
        .unwrap_or(0)
}

/// Linear interpolation between closest ranks, as libtest's `percentile`.
fn percentile(sorted: &[f64], percent: f64) -> f64 {
    if sorted.len() == 1 {
        return sorted[0];
    }
    let rank = percent / 100.0 * (sorted.len() - 1) as f64;
    let low = rank.floor();
    let index = low as usize;
    let next = sorted[(index + 1).min(sorted.len() - 1)];
    sorted[index] + (next - sorted[index]) * (rank - low)
}

/// `1234567.891` → `1,234,567.89`, as libtest prints nanoseconds.
fn thousands(value: f64) -> String {
    let text = format!("{:.2}", value.max(0.0));
    let (integer, fraction) = text.split_once('.').unwrap_or((&text, "00"));
    let mut grouped = String::new();
    for (position, digit) in integer.chars().enumerate() {
        if position > 0 && (integer.len() - position) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{grouped}.{fraction}")
}

/// The markdown block for GitHub's job summary: a heading naming the test
/// binary, then one table row per comparison.
pub(crate) fn step_summary(binary: &str, rows: &[SummaryRow<'_>]) -> String {
    let failed = rows.iter().filter(|row| !row.passed).count();
    let mut out = format!(
        "\n### faster: `{}` — {} comparison{}, {}\n\n",
        code(binary),
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        if failed == 0 {
            format!("{} passed", rows.len())
        } else {
            format!("{failed} failed")
        },
    );
    out.push_str(STEP_SUMMARY_HEADER);
    for row in rows {
        out.push_str(&step_summary_row(row));
    }
    out
}

/// The header of the job summary's table.
pub(crate) const STEP_SUMMARY_HEADER: &str = "| comparison | original | candidate | speedup [99% CI] | verdict |\n\
     | :-- | --: | --: | :-- | :-- |\n";

/// One row of the job summary's table.
pub(crate) fn step_summary_row(row: &SummaryRow<'_>) -> String {
    let name = format!("`{}`", code(row.name));
    match &row.result {
        Ok(report) => {
            let mark = if report.passed() {
                "✅"
            } else if row.passed {
                "⚠️"
            } else {
                "❌"
            };
            let note = if row.passed && !report.passed() {
                " (debug build: not enforced)"
            } else {
                ""
            };
            format!(
                "| {name} | {} | {} | {} | {mark} {}{note} |\n",
                format_ns(report.original_ns),
                format_ns(report.candidate_ns),
                Ratio(report.speedup, Some(report.ci))
                    .to_string()
                    .replacen(" [99% CI ", " [", 1),
                report.verdict,
            )
        }
        Err(error) => format!(
            "| {name} | | | | ❌ error: {} |\n",
            cell(error.lines().next().unwrap_or_default())
        ),
    }
}

/// Text for inside a markdown table cell: no line breaks, pipes escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Text for inside backticks in a table cell.
fn code(text: &str) -> String {
    cell(&text.replace('`', "'"))
}

/// Appends `text` to the job summary file (one write, so concurrent
/// appenders do not interleave within it).
pub(crate) fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())
}

/// The test binary's name without cargo's hash (`speed-1a2b3c4d` → `speed`).
pub(crate) fn binary_name() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(Path::file_stem)
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tests".into());
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_libtest_prints_them() {
        assert_eq!(thousands(0.356), "0.36");
        assert_eq!(thousands(6_634.04), "6,634.04");
        assert_eq!(thousands(1_234_567.891), "1,234,567.89");
        assert_eq!(thousands(999.999), "1,000.00");
        assert_eq!(thousands(100.0), "100.00");
    }

    #[test]
    fn percentiles_interpolate_between_ranks() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&sorted, 50.0), 3.0);
        assert_eq!(percentile(&sorted, 5.0), 1.2);
        assert!((percentile(&sorted, 95.0) - 4.8).abs() < 1e-12);
        assert_eq!(percentile(&[7.0], 95.0), 7.0);
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(code("x`y"), "x'y");
    }
}
