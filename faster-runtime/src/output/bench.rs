//! `--format bench`: libtest's bench lines, which benchmark-tracking tools
//! ingest (github-action-benchmark's `cargo` tool, bencher's `rust_bench`
//! adapter), two per comparison, and libtest's result line. A verdict that
//! did not decide its expectation adds a line of its own after them, which
//! those tools pass over as they pass over `... ok` lines: the bench lines
//! stay exactly as they parse them.

use super::style::{Style, Tone};
use super::terminal;
use super::{Note, Output, Run, Summary, undecided};
use crate::report::{Outcome, Report, Status};
use crate::stats;
use std::fmt::Write as _;
use std::io::Write;

/// Writes each comparison's two bench lines, and the result line at the end.
pub struct BenchLines<W: Write> {
    out: W,
    style: Style,
    width: usize,
}

impl<W: Write> BenchLines<W> {
    /// Bench lines into `out`.
    pub fn new(out: W, style: Style) -> Self {
        BenchLines {
            out,
            style,
            width: 0,
        }
    }
}

impl<W: Write> Output for BenchLines<W> {
    fn begin(&mut self, run: &Run<'_>) {
        self.width = bench_width(run.tests.iter().copied());
        let _ = writeln!(self.out, "{}", terminal::running_line(run.selected()));
    }

    fn comparison(&mut self, outcome: &Outcome, _notes: &mut Vec<Note>) {
        let text = match &outcome.result {
            Ok(report) if !report.decided() => {
                let mark = if outcome.passed() { "?" } else { "✗" };
                format!(
                    "{}test {} ... {mark} {}\n",
                    bench_lines(&outcome.test, report, self.width),
                    outcome.test,
                    undecided(report)
                )
            }
            Ok(report) => bench_lines(&outcome.test, report, self.width),
            Err(_) if outcome.status() == Status::Skipped => format!(
                "test {} ... {}\n",
                outcome.test,
                terminal::result_word(outcome, self.style, true)
            ),
            Err(error) => {
                eprintln!("faster: {}: {error}", outcome.test);
                format!(
                    "test {} ... {}\n",
                    outcome.test,
                    self.style.paint(Tone::Bad, "FAILED")
                )
            }
        };
        let _ = self.out.write_all(text.as_bytes());
    }

    fn end(&mut self, summary: &Summary<'_>, _notes: &mut Vec<Note>) {
        let _ = write!(
            self.out,
            "\n{}",
            terminal::closing(summary, self.style, true)
        );
    }
}

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
fn bench_lines(name: &str, report: &Report, width: usize) -> String {
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
            let median = stats::percentile(&per_round, 50.0);
            (
                median,
                stats::percentile(&per_round, 95.0) - stats::percentile(&per_round, 5.0),
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
fn bench_width<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names
        .into_iter()
        .map(|name| name.chars().count() + "/candidate".len())
        .max()
        .unwrap_or(0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::three_inputs;

    #[test]
    fn numbers_print_as_libtest_prints_them() {
        assert_eq!(thousands(0.356), "0.36");
        assert_eq!(thousands(6_634.04), "6,634.04");
        assert_eq!(thousands(1_234_567.891), "1,234,567.89");
        assert_eq!(thousands(999.999), "1,000.00");
        assert_eq!(thousands(100.0), "100.00");
    }

    #[test]
    fn every_round_of_a_report_counts_and_none_reads_zero() {
        let report = three_inputs();
        let name = "dup::faster_has_duplicate_sorted";
        let lines = bench_lines(name, &report, bench_width([name]));
        let mut lines = lines.lines();
        let original = lines.next().unwrap();
        assert!(
            original.starts_with("test dup::faster_has_duplicate_sorted/original  ... bench: "),
            "{original}"
        );
        // The fixture's rounds drift from 1.00 to 4.14 times the minimum;
        // their median is the middle round's.
        let median = report.original_ns * (1.0 + 0.01 * 157.0);
        assert!(
            original.contains(&thousands(median)),
            "{original} vs {median}"
        );
        assert!(!original.contains(" 0.00 ns/iter"), "{original}");
    }
}
