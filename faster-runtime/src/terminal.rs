//! The human report: one comparison as a few lines and a per-input table,
//! and the summary table at the end of `faster::main()`. Laid out for 80
//! columns; coloured only through a [`Style`] that allows it.

use crate::config::Expect;
use crate::report::{Report, format_ns, format_percent};
use crate::style::{Style, Tone, WIDTH, display_width, pad, truncate_start, wrap};
use crate::throughput::{format_scaled, rate_scale};
use crate::verdict::Verdict;
use std::fmt;
use std::fmt::Write as _;

/// The report of one comparison:
///
/// ```text
/// faster: has_duplicate_sorted vs has_duplicate_naive
///   ⏱️ Runtime: 405 µs → 44.0 µs (best of 68 runs)
///   8.95x faster [99% CI 8.78x – 9.11x]  ✓ faster (noise floor 5%)
///   5 processes: 8.951x 8.902x ...            (with `processes = N`)
///     input  original  candidate        speedup
///     0       3.79 µs    1.86 µs   2.04x faster
///     ...
///   ⚠ warnings, wrapped at 80 columns
/// ```
pub(crate) fn render(report: &Report, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "faster: {}", style.paint(Tone::Bold, &report.name));
    let _ = writeln!(
        out,
        "  ⏱️ Runtime: {} → {} (best of {} runs)",
        format_ns(report.original_ns),
        format_ns(report.candidate_ns),
        report.rounds,
    );

    let ratio = Ratio(report.speedup, Some(report.ci)).to_string();
    let passed = report.passed();
    let mark = if passed { '✓' } else { '✗' };
    let floor = format_percent(report.noise_floor);
    let judged = match report.expect {
        Expect::Faster if !passed => format!(
            "{mark} {} (expected faster; noise floor {floor})",
            report.verdict
        ),
        Expect::NotSlower if !passed => {
            format!(
                "{mark} {} (expected not slower; noise floor {floor})",
                report.verdict
            )
        }
        _ => format!("{mark} {} (noise floor {floor})", report.verdict),
    };
    let ratio_tone = match report.verdict {
        Verdict::Faster => Tone::Good,
        Verdict::Slower => Tone::Bad,
        Verdict::WithinNoise => Tone::Bold,
    };
    let judged_tone = if passed { Tone::Good } else { Tone::Bad };
    let line = format!("  {ratio}  {judged}");
    if display_width(&line) <= WIDTH {
        let _ = writeln!(
            out,
            "  {}  {}",
            style.paint(ratio_tone, &ratio),
            style.paint(judged_tone, &judged)
        );
    } else {
        let _ = writeln!(out, "  {}", style.paint(ratio_tone, &ratio));
        let _ = writeln!(out, "    {}", style.paint(judged_tone, &judged));
    }

    if report.processes.len() > 1 {
        let ratios: Vec<String> = report
            .processes
            .iter()
            .map(|speedup| format!("{speedup:.3}x"))
            .collect();
        let heading = format!("  {} processes: ", report.processes.len());
        for line in wrap(
            &ratios.join(" "),
            &heading,
            &" ".repeat(heading.chars().count()),
        ) {
            let _ = writeln!(out, "{line}");
        }
    }

    let throughput = report
        .inputs
        .iter()
        .any(|input| input.flops.is_some() || input.bytes.is_some());
    if report.inputs.len() > 1 || throughput {
        input_table(report, style, &mut out);
    }
    for warning in &report.warnings {
        for line in wrap(warning, "  ⚠ ", "    ") {
            let _ = writeln!(out, "{}", style.paint(Tone::Warn, &line));
        }
    }
    out
}

/// The per-input table: label, both times, the input's own speedup, and
/// both functions' rates where counts were given; an `all` row with the
/// overall rates.
fn input_table(report: &Report, style: Style, out: &mut String) {
    let flops = report.inputs.iter().all(|input| input.flops.is_some());
    let bytes = report.inputs.iter().all(|input| input.bytes.is_some());

    struct Row {
        label: String,
        original: f64,
        candidate: f64,
        speedup: f64,
        flop_rates: Option<(f64, f64)>,
        byte_rates: Option<(f64, f64)>,
    }
    let mut rows: Vec<Row> = report
        .inputs
        .iter()
        .map(|input| Row {
            label: input
                .label
                .clone()
                .unwrap_or_else(|| input.index.to_string()),
            original: input.original_ns,
            candidate: input.candidate_ns,
            speedup: input.speedup,
            flop_rates: input.flop_rates(),
            byte_rates: input.byte_rates(),
        })
        .collect();
    if flops || bytes {
        rows.push(Row {
            label: "all".into(),
            original: report.original_ns,
            candidate: report.candidate_ns,
            speedup: report.speedup,
            flop_rates: report.flop_rates(),
            byte_rates: report.byte_rates(),
        });
    }

    // Each rate column shares one SI prefix, chosen by its largest value.
    let scale = |rates: &dyn Fn(&Row) -> Option<(f64, f64)>| {
        let largest = rows
            .iter()
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
        "original".into(),
        "candidate".into(),
        "speedup".into(),
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
            let mut cells = vec![
                row.label.clone(),
                format_ns(row.original),
                format_ns(row.candidate),
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

    let mut widths: Vec<usize> = header.iter().map(|cell| display_width(cell)).collect();
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(display_width(cell));
        }
    }
    // Labels give way first when the table would not fit.
    const INDENT: usize = 4;
    let others: usize = widths[1..].iter().map(|width| width + 2).sum();
    widths[0] = widths[0].min(WIDTH.saturating_sub(INDENT + others).max(5));

    let line = |cells: &[String]| -> String {
        let mut line = " ".repeat(INDENT);
        for (column, (cell, &width)) in cells.iter().zip(&widths).enumerate() {
            if column == 0 {
                line.push_str(&pad(&truncate_start(cell, width), width, false));
            } else {
                line.push_str("  ");
                line.push_str(&pad(cell, width, true));
            }
        }
        line.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", style.paint(Tone::Dim, &line(&header)));
    for row in &cells {
        let _ = writeln!(out, "{}", line(row));
    }
}

/// One line of the summary table at the end of `faster::main()`.
#[derive(Debug)]
pub(crate) struct SummaryRow<'a> {
    /// The comparison's display name.
    pub name: &'a str,
    /// Its report, or the error that stopped it.
    pub result: Result<&'a Report, String>,
    /// Whether the comparison passed (a missed verdict in a debug build
    /// passes: it is not enforced).
    pub passed: bool,
}

/// The summary of a run:
///
/// ```text
/// faster: 3 comparisons: 2 passed, 1 failed
///   comparison            runtime              speedup       verdict
///   has_duplicate_sorted  405 µs → 44.0 µs     8.95x faster  ✓ faster
///   sum_unrolled          ✗ error: the candidate returns a different result…
/// ```
pub(crate) fn summary(rows: &[SummaryRow<'_>], style: Style) -> String {
    let failed = rows.iter().filter(|row| !row.passed).count();
    let mut out = String::new();
    let noun = if rows.len() == 1 {
        "comparison"
    } else {
        "comparisons"
    };
    let counts = if failed == 0 {
        style.paint(Tone::Good, &format!("{} passed", rows.len()))
    } else {
        format!(
            "{} passed, {}",
            rows.len() - failed,
            style.paint(Tone::Bad, &format!("{failed} failed"))
        )
    };
    let _ = writeln!(out, "faster: {} {noun}: {counts}", rows.len());

    let cells: Vec<Option<[String; 3]>> = rows
        .iter()
        .map(|row| {
            row.result.as_ref().ok().map(|report| {
                [
                    format!(
                        "{} → {}",
                        format_ns(report.original_ns),
                        format_ns(report.candidate_ns)
                    ),
                    Ratio(report.speedup, None).to_string(),
                    verdict_cell(report, row.passed),
                ]
            })
        })
        .collect();
    let header = ["comparison", "runtime", "speedup", "verdict"];
    let mut widths = header.map(display_width);
    for cell in cells.iter().flatten() {
        for (width, text) in widths[1..].iter_mut().zip(cell) {
            *width = (*width).max(display_width(text));
        }
    }
    let longest_name = rows
        .iter()
        .map(|row| display_width(row.name))
        .max()
        .unwrap_or(0);
    let rest: usize = widths[1..].iter().map(|width| width + 2).sum();
    widths[0] = widths[0]
        .max(longest_name)
        .min(WIDTH.saturating_sub(2 + rest).max(12));

    let header_line = format!(
        "  {}  {}  {}  {}",
        pad(header[0], widths[0], false),
        pad(header[1], widths[1], false),
        pad(header[2], widths[2], false),
        header[3]
    );
    let _ = writeln!(out, "{}", style.paint(Tone::Dim, header_line.trim_end()));
    let mut unenforced = false;
    for (row, cells) in rows.iter().zip(&cells) {
        let name = pad(&truncate_start(row.name, widths[0]), widths[0], false);
        match (cells, &row.result) {
            (Some([runtime, speedup, verdict]), Ok(report)) => {
                unenforced |= row.passed && !report.passed();
                let tone = if report.passed() {
                    Tone::Good
                } else if row.passed {
                    Tone::Warn
                } else {
                    Tone::Bad
                };
                let _ = writeln!(
                    out,
                    "  {name}  {}  {}  {}",
                    pad(runtime, widths[1], false),
                    pad(speedup, widths[2], false),
                    style.paint(tone, verdict)
                );
            }
            (_, Err(error)) => {
                let first_line = error.lines().next().unwrap_or("");
                let room = WIDTH.saturating_sub(4 + widths[0]);
                let text = shorten_end(&format!("✗ error: {first_line}"), room);
                let _ = writeln!(out, "  {name}  {}", style.paint(Tone::Bad, &text));
            }
            (None, Ok(_)) => unreachable!("cells exist for every report"),
        }
    }
    if unenforced {
        let _ = writeln!(
            out,
            "{}",
            style.paint(
                Tone::Warn,
                "  * debug build: timing verdicts are reported, not enforced"
            )
        );
    }
    out
}

/// `✓ faster`, `✗ slower`, or `✗ slower*` when a debug build does not
/// enforce the miss.
fn verdict_cell(report: &Report, passed: bool) -> String {
    let mark = if report.passed() { '✓' } else { '✗' };
    let note = if passed && !report.passed() { "*" } else { "" };
    format!("{mark} {}{note}", report.verdict)
}

/// `text` cut to `width` columns with a trailing `…`.
fn shorten_end(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut short: String = text.chars().take(width.saturating_sub(1)).collect();
    short.push('…');
    short
}

/// A speedup as people say it: `1.25x faster`, `1.25x slower`, with the
/// interval in the same direction; three decimals when the interval is too
/// narrow for two, and no direction for a ratio that rounds to one.
pub(crate) struct Ratio(pub f64, pub Option<(f64, f64)>);

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ratio(speedup, ci) = *self;
        let slower = speedup < 1.0;
        let turn = |ratio: f64| if slower { 1.0 / ratio } else { ratio };
        let interval = ci.map(|(low, high)| {
            if slower {
                (turn(high), turn(low))
            } else {
                (low, high)
            }
        });
        let decimals = match interval {
            Some((from, to)) if to.is_finite() && to - from < 0.03 => 3,
            _ => 2,
        };
        let figure = turn(speedup);
        write!(f, "{figure:.decimals$}x")?;
        if format!("{figure:.decimals$}") != format!("{:.decimals$}", 1.0) {
            f.write_str(if slower { " slower" } else { " faster" })?;
        }
        match interval {
            Some((from, to)) if to.is_finite() => {
                write!(f, " [99% CI {from:.decimals$}x – {to:.decimals$}x]")
            }
            Some(_) => f.write_str(" [99% CI: too few rounds]"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{report, three_inputs};

    #[test]
    fn the_summary_fits_80_columns_whatever_the_names() {
        let fast = three_inputs();
        let slow = report(0.8, (0.78, 0.82), Verdict::Slower, Expect::Faster);
        let long = "a_crate::with::a_deeply::nested::module::path::to_the_candidate_function_name";
        let rows = [
            SummaryRow {
                name: "dup::has_duplicate_sorted",
                result: Ok(&fast),
                passed: true,
            },
            SummaryRow {
                name: long,
                result: Ok(&slow),
                passed: true,
            },
            SummaryRow {
                name: "sum::sum_wrong",
                result: Err(
                    "the candidate returns a different result for input 1 and a long explanation"
                        .into(),
                ),
                passed: false,
            },
        ];
        let text = summary(&rows, Style::PLAIN);
        for line in text.lines() {
            assert!(
                display_width(line) <= WIDTH,
                "{} columns: {line}",
                display_width(line)
            );
        }
        assert!(
            text.starts_with("faster: 3 comparisons: 2 passed, 1 failed\n"),
            "{text}"
        );
        // The end of a long name survives, behind an ellipsis.
        assert!(
            text.lines()
                .any(|line| line.starts_with("  …")
                    && line.contains("to_the_candidate_function_name")),
            "{text}"
        );
        assert!(text.contains("✗ error: the candidate returns"), "{text}");
        // A miss a debug build does not enforce is marked and explained.
        assert!(text.contains("✗ slower*"), "{text}");
        assert!(
            text.contains("* debug build: timing verdicts are reported, not enforced"),
            "{text}"
        );
        assert!(
            text.contains("405 µs → 44.0 µs   8.95x faster  ✓ faster"),
            "{text}"
        );
    }

    #[test]
    fn colours_mark_the_verdict_and_nothing_else_changes() {
        let report = three_inputs();
        let plain = render(&report, Style::PLAIN);
        let coloured = render(&report, Style { color: true });
        assert!(
            coloured.contains("\x1b[32m✓ faster (noise floor 5%)\x1b[0m"),
            "{coloured}"
        );
        let stripped: String = {
            let mut out = String::new();
            let mut chars = coloured.chars();
            while let Some(c) = chars.next() {
                if c == '\x1b' {
                    chars.by_ref().find(|&c| c == 'm');
                } else {
                    out.push(c);
                }
            }
            out
        };
        assert_eq!(stripped, plain);
    }
}
