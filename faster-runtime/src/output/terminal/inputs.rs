//! The per-input table of a report: each input's best-of times, its own
//! paired speedup, and both functions' rates where counts were given; an
//! `all` row with the overall rates. The header says which figure is which
//! (`best of N`, `paired speedup`): on one row the times and the ratio come
//! from different statistics, and may read apart. Past [`MAX_ROWS`] inputs
//! the table shows a few of them, and says which and how many it left out.

use super::columns::Columns;
use crate::output::style::{Style, Tone, wrap};
use crate::report::units::{Ratio, format_ns, format_scaled, rate_scale};
use crate::report::{InputReport, Report};
use std::fmt::Write as _;

/// Most inputs a table shows whole: a function with 2,048 inputs would
/// print 2,048 rows.
const MAX_ROWS: usize = 12;
/// Past [`MAX_ROWS`], how many of the first inputs the table shows...
const FIRST_ROWS: usize = 4;
/// ... and how many more, those with the lowest paired speedups: where the
/// candidate gains least or loses most, what a reader looks for.
const LOWEST_ROWS: usize = 4;

/// One row: a label, the best-of times `original → candidate`, the paired
/// speedup, and the rates of both functions.
struct Row {
    label: String,
    original: f64,
    candidate: f64,
    speedup: f64,
    flop_rates: Option<(f64, f64)>,
    byte_rates: Option<(f64, f64)>,
}

/// Appends the table of `report`'s inputs to `out`:
///
/// ```text
///     input         best of 315  paired speedup
///     0       3.79 µs → 1.86 µs    2.04x faster
///     1        301 µs → 26.4 µs   11.40x faster
/// ```
pub(super) fn table(report: &Report, style: Style, out: &mut String) {
    let flops = report.inputs.iter().all(|input| input.flops.is_some());
    let bytes = report.inputs.iter().all(|input| input.bytes.is_some());
    let shown = shown_inputs(&report.inputs);
    let mut rows = input_rows(&shown, report.inputs.len());
    if flops || bytes {
        rows.push(Some(Row {
            label: "all".into(),
            original: report.original_ns,
            candidate: report.candidate_ns,
            speedup: report.speedup,
            flop_rates: report.flop_rates(),
            byte_rates: report.byte_rates(),
        }));
    }

    // Each rate column shares one SI prefix, chosen by its largest value.
    let scale = |rates: &dyn Fn(&Row) -> Option<(f64, f64)>| {
        let largest = rows
            .iter()
            .flatten()
            .filter_map(rates)
            .map(|(o, c)| o.max(c))
            .fold(0.0, f64::max);
        rate_scale(largest)
    };
    let rate_cell = |rates: Option<(f64, f64)>, (divisor, _): (f64, &str)| {
        rates.map_or_else(String::new, |(o, c)| {
            format!(
                "{} → {}",
                format_scaled(o / divisor),
                format_scaled(c / divisor)
            )
        })
    };
    let flop_scale = scale(&|row: &Row| row.flop_rates);
    let byte_scale = scale(&|row: &Row| row.byte_rates);

    let mut header = vec![
        "input".to_string(),
        format!("best of {}", report.rounds),
        "paired speedup".into(),
    ];
    if flops {
        header.push(format!("{}FLOP/s", flop_scale.1));
    }
    if bytes {
        header.push(format!("{}B/s", byte_scale.1));
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let Some(row) = row else {
                return vec!["…".to_string()];
            };
            let mut cells = vec![
                row.label.clone(),
                format!("{} → {}", format_ns(row.original), format_ns(row.candidate)),
                Ratio(row.speedup, None).to_string(),
            ];
            if flops {
                cells.push(rate_cell(row.flop_rates, flop_scale));
            }
            if bytes {
                cells.push(rate_cell(row.byte_rates, byte_scale));
            }
            cells
        })
        .collect();

    // Labels give way first when the table would not fit: a longer one
    // takes a line of its own.
    let columns = Columns::fit(&header, &cells, 4, 5, true);
    let line = |cells: &[String]| columns.line(cells, |_, cell| cell);
    let _ = writeln!(out, "{}", style.paint(Tone::Dim, &line(&header)));
    for row in &cells {
        let _ = writeln!(out, "{}", line(row));
    }
    let left_out = report.inputs.len() - shown.len();
    if left_out > 0 {
        let note = format!(
            "{left_out} more inputs: the table shows the first {FIRST_ROWS} and the {} with the \
             lowest paired speedup (the JSON report has every input)",
            shown.len() - FIRST_ROWS,
        );
        for line in wrap(&note, "    … ", "      ") {
            let _ = writeln!(out, "{}", style.paint(Tone::Dim, &line));
        }
    }
}

/// The rows of the `shown` inputs of `total`, with `None` (a `…` row)
/// wherever the table skips some.
fn input_rows(shown: &[&InputReport], total: usize) -> Vec<Option<Row>> {
    let mut rows = Vec::new();
    let mut next = 0;
    for input in shown {
        if input.index > next {
            rows.push(None);
        }
        next = input.index + 1;
        rows.push(Some(Row {
            label: input.name(),
            original: input.original_ns,
            candidate: input.candidate_ns,
            speedup: input.speedup,
            flop_rates: input.flop_rates(),
            byte_rates: input.byte_rates(),
        }));
    }
    if next < total {
        rows.push(None);
    }
    rows
}

/// The inputs a table shows, in input order: all of them up to
/// [`MAX_ROWS`]; past it the first [`FIRST_ROWS`] and the [`LOWEST_ROWS`]
/// others with the lowest paired speedups.
fn shown_inputs(inputs: &[InputReport]) -> Vec<&InputReport> {
    if inputs.len() <= MAX_ROWS {
        return inputs.iter().collect();
    }
    let mut lowest: Vec<&InputReport> = inputs[FIRST_ROWS..].iter().collect();
    lowest.sort_by(|one, other| one.speedup.total_cmp(&other.speedup));
    let mut shown: Vec<&InputReport> = inputs[..FIRST_ROWS].iter().collect();
    shown.extend(lowest.into_iter().take(LOWEST_ROWS));
    shown.sort_by_key(|input| input.index);
    shown
}

#[cfg(test)]
mod tests {
    use crate::output::style::{WIDTH, display_width};
    use crate::report::fixtures::{report, three_inputs};
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn several_inputs_get_a_table_that_names_its_figures() {
        let text = three_inputs().to_string();
        let expected = "    input        best of 315  paired speedup\n\
                        \x20   0      3.79 µs → 1.86 µs    2.04x faster\n\
                        \x20   1       301 µs → 26.4 µs   11.40x faster\n\
                        \x20   2       100 µs → 15.7 µs    6.37x faster\n";
        assert!(text.ends_with(expected), "{text}");
    }

    #[test]
    fn throughput_adds_rate_columns_and_an_overall_row() {
        let report = three_inputs()
            .with_flops(&[2_000, 200_000, 60_000])
            .with_bytes(&[8_000, 800_000, 240_000])
            .with_input_labels(["small", "large", "late duplicate"]);
        let text = report.to_string();
        assert!(text.contains("GFLOP/s"), "{text}");
        assert!(text.contains("GB/s"), "{text}");
        // 2 000 FLOP in 3.79 µs and 1.86 µs.
        assert!(text.contains("0.53 → 1.08"), "{text}");
        let all = text
            .lines()
            .find(|line| line.trim_start().starts_with("all"))
            .expect("an `all` row");
        // 262 000 FLOP over 404.79 µs and 43.96 µs.
        assert!(all.contains("0.65 → 5.96"), "{all}");
        assert!(text.contains("late duplicate"), "{text}");
        for line in text.lines() {
            assert!(
                display_width(line) <= WIDTH,
                "{} columns: {line}",
                display_width(line)
            );
        }
        let (original, candidate) = report.flop_rates().unwrap();
        assert!((original - 262_000.0 / 404_790.0 * 1e9).abs() < 1e-3);
        assert!(candidate > original);
        assert_eq!(
            report.inputs[0].byte_rates().map(|(o, _)| o.round()),
            Some((8_000.0f64 / 3_790.0 * 1e9).round())
        );
    }

    #[test]
    fn thousands_of_inputs_show_the_first_and_the_slowest_and_count_the_rest() {
        use crate::report::fixtures::input;
        let mut many = report(1.5, (1.45, 1.55), Verdict::Faster, Expect::Faster);
        many.inputs = (0..2048)
            .map(|index| input(index, 3_000.0, 2_000.0, 4))
            .collect();
        // Two inputs the candidate loses on, one of them the last.
        many.inputs[700].speedup = 0.5;
        many.inputs[2047].speedup = 0.8;
        many.inputs[9].speedup = 0.9;
        let text = many.to_string();
        let labels = |text: &str| -> Vec<String> {
            text.lines()
                .skip_while(|line| !line.contains("paired speedup"))
                .skip(1)
                .take_while(|line| line.starts_with("    ") && !line.contains("more inputs"))
                .map(|row| row.split_whitespace().next().unwrap().to_string())
                .collect()
        };
        assert_eq!(
            labels(&text),
            ["0", "1", "2", "3", "4", "…", "9", "…", "700", "…", "2047"],
            "{text}"
        );
        assert!(
            text.contains(
                "\n    … 2040 more inputs: the table shows the first 4 and the 4 with the lowest\n      \
                 paired speedup (the JSON report has every input)\n"
            ),
            "{text}"
        );
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
        // The whole report, the lines about the slower inputs included.
        assert!(text.lines().count() < 40, "{text}");
        // Twelve inputs are a table of twelve rows.
        many.inputs.truncate(12);
        let text = many.to_string();
        assert!(!text.contains('…'), "{text}");
        let all: Vec<String> = (0..12).map(|index| index.to_string()).collect();
        assert_eq!(labels(&text), all, "{text}");
    }

    #[test]
    fn one_input_without_counts_has_no_table() {
        let text = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster).to_string();
        assert!(!text.contains("input"), "{text}");
    }

    #[test]
    #[should_panic(expected = "2 counts for 3 inputs")]
    fn counts_must_match_the_inputs() {
        let _ = three_inputs().with_flops(&[1, 2]);
    }
}
