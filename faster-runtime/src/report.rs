//! The result of one comparison: [`Report`], its per-input figures, and the
//! units it is printed in. How it is laid out lives in `terminal` (text),
//! `json` (the versioned document) and `plot` (the SVG).

use crate::clock::Calibration;
use crate::config::Expect;
use crate::samples::Stop;
use crate::stats::LinearFit;
use crate::verdict::Verdict;
use std::fmt;
use std::time::Duration;

/// The outcome of one comparison: the verdict, the figures behind it, and
/// anything the reader should know about how they were obtained.
///
/// `Display` prints the heading, the codeflash-style runtime line, the
/// speedup with its interval and the verdict, a per-input table when there
/// are several inputs (or throughput), and warnings — within 80 columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The heading, e.g. `sum_fast vs sum_naive`.
    pub name: String,
    /// What the interval shows against the noise floor.
    pub verdict: Verdict,
    /// Paired estimate of original time / candidate time (> 1: candidate
    /// faster): the geometric mean of the per-round ratios.
    pub speedup: f64,
    /// The 99% interval of `speedup`.
    pub ci: (f64, f64),
    /// Σ min(original) / Σ min(candidate): the "best of N" figure.
    pub best_speedup: f64,
    /// The paired estimate from plain per-call times (batch time / batch
    /// size), before the per-sample overhead was cleared: what Paoloni's
    /// regression corrected. Equal to `speedup` where batches did not vary.
    pub uncorrected_speedup: f64,
    /// The original's per-call time, summed over inputs: its minimum, or the
    /// regression slope where the batch size varied.
    pub original_ns: f64,
    /// The candidate's per-call time, summed over inputs, likewise.
    pub candidate_ns: f64,
    /// Measured rounds ("best of N runs"), warm-up excluded.
    pub rounds: usize,
    /// Wall time of the whole comparison, checks included.
    pub elapsed: Duration,
    /// The floor the verdict was judged against.
    pub noise_floor: f64,
    /// What the comparison had to show.
    pub expect: Expect,
    /// Per input figures, in input order.
    pub inputs: Vec<InputReport>,
    /// Whether outputs were compared before timing (`false` for `check = skip`).
    pub outputs_checked: bool,
    /// Why measuring stopped.
    pub stop: Stop,
    /// The timing source's name.
    pub timer: &'static str,
    /// The timing source's measured reading cost and resolution.
    pub calibration: Calibration,
    /// Things the reader should know: a noisy machine, a short budget, ...
    pub warnings: Vec<String>,
    /// With `processes = N`: each process's speedup, this one first (empty
    /// for a comparison measured in one process).
    pub processes: Vec<f64>,
    /// Each measured round's `ln(original / candidate)`, in time order: the
    /// data the estimate and its interval are computed from (overhead
    /// cleared where the batch size varied).
    pub round_log_ratios: Vec<f64>,
    /// Whether the original ran first in each measured round, in time order.
    pub round_original_first: Vec<bool>,
    /// Rounds spent warming up before measuring (not in `rounds`).
    pub warm_up_rounds: usize,
}

/// One input's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct InputReport {
    /// The input's position in the input set.
    pub index: usize,
    /// Calls per timed sample of `[original, candidate]` (the smallest, where
    /// the size varied): each side's own, so both samples last about as long.
    pub batch_sizes: [u64; 2],
    /// The original's per-call time: its minimum, or the regression slope.
    pub original_ns: f64,
    /// The candidate's per-call time, likewise.
    pub candidate_ns: f64,
    /// This input's paired speedup (geometric mean of its per-round ratios).
    pub speedup: f64,
    /// The per-sample overhead cleared before taking ratios.
    pub overhead_ns: f64,
    /// Paoloni's regression of minimum batch time on batch size for
    /// `[original, candidate]`, where the batch size varied.
    pub fits: [Option<LinearFit>; 2],
    /// A name for the input in tables and the JSON report
    /// ([`Report::with_input_labels`]); its index when `None`.
    pub label: Option<String>,
    /// Floating-point operations per call on this input (`flops = ...`,
    /// [`Report::with_flops`]), for GFLOP/s.
    pub flops: Option<u64>,
    /// Bytes read and written per call on this input (`bytes = ...`,
    /// [`Report::with_bytes`]), for GB/s.
    pub bytes: Option<u64>,
    /// Per measured round, `[original, candidate]` per-call time in
    /// nanoseconds (batch time / batch size), in time order: what the plot
    /// shows.
    pub round_ns: Vec<[f64; 2]>,
}

impl Report {
    /// Whether the verdict meets the expectation (`expect = ...`).
    pub fn passed(&self) -> bool {
        self.verdict.meets(self.expect)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::terminal::render(self, crate::style::Style::PLAIN))
    }
}

/// A duration in nanoseconds in the unit that keeps 3 significant digits
/// readable: `0.81 ns`, `32.8 µs`, `1.20 s`.
pub fn format_ns(nanos: f64) -> String {
    let (value, unit) = if nanos < 1e3 {
        (nanos, "ns")
    } else if nanos < 1e6 {
        (nanos / 1e3, "µs")
    } else if nanos < 1e9 {
        (nanos / 1e6, "ms")
    } else {
        (nanos / 1e9, "s")
    };
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {unit}")
}

/// A fraction as a percentage without needless decimals: `5%`, `2.5%`.
pub fn format_percent(fraction: f64) -> String {
    let percent = fraction * 100.0;
    if (percent - percent.round()).abs() < 1e-9 {
        format!("{percent:.0}%")
    } else {
        format!("{percent:.1}%")
    }
}

/// Reports made by hand, for the tests of everything that renders one.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A report of the design's example: one input, 32.8 µs → 29.2 µs.
    pub(crate) fn report(speedup: f64, ci: (f64, f64), verdict: Verdict, expect: Expect) -> Report {
        let rounds = 8;
        Report {
            name: "sum_fast vs sum_naive".into(),
            verdict,
            speedup,
            ci,
            best_speedup: speedup,
            uncorrected_speedup: speedup,
            original_ns: 32_812.0,
            candidate_ns: 29_204.0,
            rounds: 315,
            elapsed: Duration::from_millis(120),
            noise_floor: 0.05,
            expect,
            inputs: vec![input(0, 32_812.0, 29_204.0, rounds)],
            outputs_checked: true,
            stop: Stop::Converged,
            timer: "monotonic clock",
            calibration: Calibration {
                reading_cost_ns: 25.0,
                resolution_ns: 1.0,
                empty_call_ns: 0.3,
            },
            warnings: vec![],
            processes: vec![],
            round_log_ratios: (0..rounds)
                .map(|round| speedup.ln() + 0.001 * (round % 3) as f64)
                .collect(),
            round_original_first: (0..rounds).map(|round| round % 2 == 0).collect(),
            warm_up_rounds: 6,
        }
    }

    /// One input whose rounds drift upwards together on both sides.
    pub(crate) fn input(
        index: usize,
        original_ns: f64,
        candidate_ns: f64,
        rounds: usize,
    ) -> InputReport {
        InputReport {
            index,
            batch_sizes: [64, 64],
            original_ns,
            candidate_ns,
            speedup: original_ns / candidate_ns,
            overhead_ns: 0.0,
            fits: [None, None],
            label: None,
            flops: None,
            bytes: None,
            round_ns: (0..rounds)
                .map(|round| {
                    let drift = 1.0 + 0.01 * round as f64;
                    [original_ns * drift, candidate_ns * drift]
                })
                .collect(),
        }
    }

    /// Three inputs, as the quickstart's duplicate finder has.
    pub(crate) fn three_inputs() -> Report {
        let mut report = report(8.95, (8.78, 9.11), Verdict::Faster, Expect::Faster);
        report.name = "has_duplicate_sorted vs has_duplicate_naive".into();
        report.inputs = vec![
            input(0, 3_790.0, 1_860.0, 8),
            input(1, 301_000.0, 26_400.0, 8),
            input(2, 100_000.0, 15_700.0, 8),
        ];
        report.original_ns = report.inputs.iter().map(|input| input.original_ns).sum();
        report.candidate_ns = report.inputs.iter().map(|input| input.candidate_ns).sum();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{report, three_inputs};
    use super::*;
    use crate::style::{WIDTH, display_width};

    #[test]
    fn the_runtime_lines_read_like_the_design_within_80_columns() {
        let text = report(1.1236, (1.1012, 1.1441), Verdict::Faster, Expect::Faster).to_string();
        assert_eq!(
            text,
            "faster: sum_fast vs sum_naive\n  ⏱️ Runtime: 32.8 µs → 29.2 µs (best of 315 runs)\n  \
             1.12x faster [99% CI 1.10x – 1.14x]  ✓ faster (noise floor 5%)\n"
        );
    }

    #[test]
    fn a_slower_candidate_reads_as_slower_with_the_interval_turned_round() {
        let text = report(0.8, (0.78, 0.82), Verdict::Slower, Expect::Faster).to_string();
        assert!(
            text.contains("1.25x slower [99% CI 1.22x – 1.28x]"),
            "{text}"
        );
        assert!(
            text.contains("✗ slower (expected faster; noise floor 5%)"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_interval_is_said_plainly() {
        let text = report(
            1.0,
            (0.0, f64::INFINITY),
            Verdict::WithinNoise,
            Expect::Report,
        )
        .to_string();
        assert!(text.contains("1.00x [99% CI: too few rounds]"), "{text}");
    }

    #[test]
    fn a_narrow_interval_gets_three_decimals_and_no_direction_at_one() {
        let text = report(
            1.0004,
            (0.9981, 1.0027),
            Verdict::WithinNoise,
            Expect::NotSlower,
        )
        .to_string();
        assert!(
            text.contains("1.000x [99% CI 0.998x – 1.003x]  ✓ within noise"),
            "{text}"
        );
        let text = report(0.97, (0.96, 0.98), Verdict::WithinNoise, Expect::Report).to_string();
        assert!(
            text.contains("1.031x slower [99% CI 1.020x – 1.042x]"),
            "{text}"
        );
    }

    #[test]
    fn a_long_verdict_moves_to_its_own_line_rather_than_pass_80_columns() {
        let text = report(0.97, (0.96, 0.98), Verdict::WithinNoise, Expect::Faster).to_string();
        assert!(
            text.contains("  1.031x slower [99% CI 1.020x – 1.042x]\n    ✗ within noise (expected faster; noise floor 5%)\n"),
            "{text}"
        );
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
    }

    #[test]
    fn several_inputs_get_a_table() {
        let text = three_inputs().to_string();
        let expected = "    input  original  candidate        speedup\n\
                        \x20   0       3.79 µs    1.86 µs   2.04x faster\n\
                        \x20   1        301 µs    26.4 µs  11.40x faster\n\
                        \x20   2        100 µs    15.7 µs   6.37x faster\n";
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
    fn one_input_without_counts_has_no_table() {
        let text = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster).to_string();
        assert!(!text.contains("input"), "{text}");
    }

    #[test]
    #[should_panic(expected = "2 counts for 3 inputs")]
    fn counts_must_match_the_inputs() {
        let _ = three_inputs().with_flops(&[1, 2]);
    }

    #[test]
    fn warnings_wrap_at_80_columns() {
        let mut report = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster);
        report.warnings.push(
            "the best-of-315 figure (1.20x) and the paired estimate (1.50x) disagree by more than half \
             the noise floor: timings vary from call to call (a noisy machine, or work that varies, \
             such as allocation); the verdict rests on the paired estimate"
                .into(),
        );
        let text = report.to_string();
        assert!(text.contains("\n  ⚠ the best-of-315"), "{text}");
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
    }

    #[test]
    fn units() {
        assert_eq!(format_ns(0.812), "0.81 ns");
        assert_eq!(format_ns(12.34), "12.3 ns");
        assert_eq!(format_ns(999.0), "999 ns");
        assert_eq!(format_ns(32_812.0), "32.8 µs");
        assert_eq!(format_ns(1.5e6), "1.50 ms");
        assert_eq!(format_ns(2.25e9), "2.25 s");
        assert_eq!(format_percent(0.05), "5%");
        assert_eq!(format_percent(0.025), "2.5%");
    }
}
