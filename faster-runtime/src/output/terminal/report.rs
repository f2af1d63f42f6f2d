//! One comparison's report as text: the heading, the runtime line, the
//! speedup with its interval and the verdict, the per-process figures, the
//! placements of the measuring loop and what a nanosecond figure means, a
//! per-input table with rates, a line for each input slower beyond the
//! floor, the words for figures that read apart, and the warnings, within
//! 80 columns. Also `Display` for [`Report`], which prints exactly this
//! without colour.

use super::apart::{apart_notes, slower_inputs};
use super::inputs;
use super::scope::{Reason, scope_note};
use crate::output::style::{Style, Tone, WIDTH, display_width, wrap};
use crate::output::{reads_within_floor, verdict_words};
use crate::report::units::{Ratio, format_bytes, format_ns, format_percent, format_speeds};
use crate::report::{CompiledCode, Report};
use crate::stats::verdict::{Expect, Verdict};
use std::fmt;
use std::fmt::Write as _;

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&render(self, Style::PLAIN))
    }
}

/// The report of one comparison, on its own: the reason a verdict holds
/// for this build only given in full (a run may give it once instead):
///
/// ```text
/// faster: has_duplicate_sorted vs has_duplicate_naive
///   ⏱️ Runtime: 405 µs → 44.0 µs (best of 68 runs)
///   8.95x faster [99% CI 8.78x – 9.11x]  ✓ faster (noise floor 5%)
///   4 layouts of the binary ... read 8.90x to 8.95x ...
///   8 placements of the measuring loop ...    (for calls under 10 ns)
///     input         best of 68  paired speedup
///     0      3.79 µs → 1.86 µs    2.04x faster
///     ...
///   ⚠ input 2 reads 1.97x slower ...          (under a verdict not `slower`)
///   Best-of times against paired speedups: ...   (where they read apart)
///   ⚠ warnings, wrapped at 80 columns
/// ```
pub fn render(report: &Report, style: Style) -> String {
    render_in_run(report, style, Reason::InFull)
}

/// The report of one comparison in a run that gives the reason its verdict
/// holds for this build only where `reason` says.
pub(super) fn render_in_run(report: &Report, style: Style, reason: Reason) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "faster: {}", style.paint(Tone::Bold, &report.name));
    let _ = writeln!(
        out,
        "  ⏱️ Runtime: {} → {} (best of {} runs)",
        format_ns(report.original_ns),
        format_ns(report.candidate_ns),
        report.rounds,
    );

    let (ratio, judged) = verdict_parts(report);
    let ratio_tone = match report.verdict {
        Verdict::Faster => Tone::Good,
        Verdict::Slower => Tone::Bad,
        Verdict::WithinNoise => Tone::Bold,
    };
    let judged_tone = match (report.passed(), report.decided()) {
        (true, true) => Tone::Good,
        (true, false) => Tone::Warn,
        (false, _) => Tone::Bad,
    };
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
        for line in wrap(&judged, "    ", "      ") {
            let _ = writeln!(out, "{}", style.paint(judged_tone, &line));
        }
    }

    // Beside the verdict: where it may come from code generation.
    if let Some(note) = report.compiled_code.as_ref().and_then(CompiledCode::note) {
        for line in wrap(&note, "  ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(note) = scope_note(report, reason) {
        for line in wrap(&note, "  ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }

    if let Some(line) = gpu_line(report) {
        for line in wrap(&line, "  GPU: ", "       ") {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(note) = placement_note(report) {
        for line in wrap(&note, "  ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }

    let throughput = report
        .inputs
        .iter()
        .any(|input| input.flops.is_some() || input.bytes.is_some());
    if report.inputs.len() > 1 || throughput {
        inputs::table(report, style, &mut out);
    }
    for line in slower_inputs(report) {
        for line in wrap(&line, "  ⚠ ", "    ") {
            let _ = writeln!(out, "{}", style.paint(Tone::Warn, &line));
        }
    }
    for note in apart_notes(report) {
        for line in wrap(&note, "  ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(would_take) = report.would_take() {
        for line in wrap(&would_take.to_string(), "  ↳ ", "    ") {
            let _ = writeln!(out, "{line}");
        }
    }
    for warning in &report.warnings {
        for line in wrap(warning, "  ⚠ ", "    ") {
            let _ = writeln!(out, "{}", style.paint(Tone::Warn, &line));
        }
    }
    out
}

/// Where two kernels ran and how they were timed: `llvmpipe (LLVM 15.0.6,
/// 256 bits), Vulkan, CPU; timed by GPU timestamps, caches flushed (64.0
/// MiB) before each sample`.
fn gpu_line(report: &Report) -> Option<String> {
    let gpu = report.gpu.as_ref()?;
    let flush = match gpu.cache_flush_bytes {
        Some(bytes) => format!(
            "caches flushed ({}) before each sample",
            format_bytes(bytes)
        ),
        None => "caches not flushed".into(),
    };
    Some(format!(
        "{}, {}, {}; timed by {}, {flush}",
        gpu.adapter, gpu.backend, gpu.device_type, report.timer
    ))
}

/// Where the rounds took turns in several placements of the measuring loop:
/// how far apart the placements read, that the interval includes it, and
/// what a figure for calls this short is a figure of.
fn placement_note(report: &Report) -> Option<String> {
    let placement = &report.placement;
    if placement.count < 2 {
        return None;
    }
    let read = match placement.range() {
        None => "too few rounds to compare them".to_string(),
        Some((low, high)) => {
            // Ascending in the headline's direction.
            let (first, last) = if report.speedup < 1.0 {
                (high, low)
            } else {
                (low, high)
            };
            let spread = placement.spread();
            format!(
                "they read {} (a spread of {}), and the interval includes that",
                format_speeds(first, last, " to ", 2),
                if spread < 0.001 {
                    "under 0.1%".to_string()
                } else {
                    format!("{:.1}%", 100.0 * spread)
                },
            )
        }
    };
    Some(format!(
        "{} placements of the measuring loop (calls under {}): {read}. At {} a call, \
         the figure is the cost of a call in a measuring loop; inlined into a caller, \
         a function this short may cost more or less",
        placement.count,
        format_ns(placement.threshold_ns),
        format_ns(placement.shorter_call_ns),
    ))
}

/// The speedup with its interval, and the verdict judged against the
/// expectation: `1.25x slower [99% CI 1.22x – 1.28x]` and
/// `✗ slower (expected faster; noise floor 5%)`. A verdict that did not
/// decide the expectation says how large a change could be judged instead,
/// marked `?` where that passes: `? undecided: only a change beyond 24%
/// could be judged (noise floor 5%)`.
fn verdict_parts(report: &Report) -> (String, String) {
    let ratio = Ratio(report.speedup, Some(report.ci)).judged(report.floor());
    let (passed, decided) = (report.passed(), report.decided());
    let mark = match (passed, decided) {
        (true, true) => '✓',
        (true, false) => '?',
        (false, _) => '✗',
    };
    let verdict = verdict_words(report);
    let why = match report.expect {
        _ if passed => None,
        Expect::Faster => Some("expected faster".to_string()),
        // Not slower beyond the floor, yet failed: undecided verdicts fail.
        Expect::NotSlower if report.verdict != Verdict::Slower => Some("undecided = fail".into()),
        Expect::NotSlower => Some("expected not slower".into()),
        Expect::Report => None,
    };
    // Said once: `within the 5% floor` names it already.
    let floor = (!reads_within_floor(report))
        .then(|| format!("noise floor {}", format_percent(report.noise_floor)));
    let said: Vec<String> = why.into_iter().chain(floor).collect();
    let said = if said.is_empty() {
        String::new()
    } else {
        format!(" ({})", said.join("; "))
    };
    (ratio, format!("{mark} {verdict}{said}"))
}

/// The verdict line without colour, on one line: what a failure says first.
pub fn verdict_line(report: &Report) -> String {
    let (ratio, judged) = verdict_parts(report);
    format!("{ratio}  {judged}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{report, three_inputs};

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
    fn short_calls_say_where_the_loop_ran_and_what_the_figure_means() {
        let mut short = report(0.2609, (0.2231, 0.3050), Verdict::Slower, Expect::Report);
        short.placement.count = 8;
        short.placement.shorter_call_ns = 1.27;
        short.placement.speedups = vec![
            0.2502, 0.2503, 0.3101, 0.2502, 0.2502, 0.2503, 0.2502, 0.2502,
        ];
        let text = short.to_string();
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains(
                "8 placements of the measuring loop (calls under 10.0 ns): they read 3.22x \
                 to 4.00x slower (a spread of 23.9%), and the interval includes that. \
                 At 1.27 ns a call, the figure is the cost of a call in a measuring loop; \
                 inlined into a caller, a function this short may cost more or less"
            ),
            "{text}"
        );
        assert!(
            text.lines().all(|line| display_width(line) <= WIDTH),
            "{text}"
        );
        // One loop: nothing to say.
        let long = report(1.1236, (1.1012, 1.1441), Verdict::Faster, Expect::Faster);
        assert!(!long.to_string().contains("placements"));
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
            text.contains("1.000x [99% CI 1.002x slower – 1.003x faster]  ✓ within the 5% floor"),
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
            text.contains("  1.031x slower [99% CI 1.020x – 1.042x]\n    ✗ within the 5% floor (expected faster)\n"),
            "{text}"
        );
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
    }

    #[test]
    fn an_undecided_guard_says_what_it_could_judge_and_is_marked_apart() {
        use crate::report::fixtures::undecided_guard;
        use crate::stats::verdict::Undecided;
        let text = undecided_guard().to_string();
        assert!(
            text.contains(
                "  1.03x slower [99% CI 1.15x faster – 1.22x slower]\n    ? undecided: only a \
                 change beyond 24% could be judged (noise floor 5%)\n"
            ),
            "{text}"
        );
        let mut strict = undecided_guard();
        strict.if_undecided = Undecided::Fail;
        let text = strict.to_string();
        assert!(
            text.contains(
                "    ✗ undecided: only a change beyond 24% could be judged (undecided = fail;\n      \
                 noise floor 5%)\n"
            ),
            "{text}"
        );
        // A `faster` expectation that could not see the floor says so, and
        // that it was expected faster.
        let unsure = report(1.06, (1.02, 1.10), Verdict::WithinNoise, Expect::Faster);
        let joined = unsure
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            joined.contains(
                "1.06x faster [99% CI 1.02x – 1.10x] ✗ undecided: only a change beyond 9% \
                 could be judged (expected faster; noise floor 5%)"
            ),
            "{joined}"
        );
        // Settled within noise stays a plain ✓.
        let settled = report(1.0, (0.97, 1.03), Verdict::WithinNoise, Expect::NotSlower);
        assert!(
            settled.to_string().contains("✓ within the 5% floor\n"),
            "{settled}"
        );
        for report in [undecided_guard(), strict, unsure] {
            for line in report.to_string().lines() {
                assert!(display_width(line) <= WIDTH, "{line}");
            }
        }
        // An open interval judges nothing, and says why.
        let open = report(
            1.0,
            (0.0, f64::INFINITY),
            Verdict::WithinNoise,
            Expect::NotSlower,
        );
        assert!(
            open.to_string().contains(
                "? undecided: too few rounds for an interval, so no change could be judged"
            ),
            "{open}"
        );
    }

    #[test]
    fn a_guard_that_could_be_faster_says_it_is_not_slower() {
        // The issue's guard: clear of the floor on the slower side, not on
        // the faster one, printed `✓ within noise`.
        let guard = report(1.4, (1.04, 1.9), Verdict::WithinNoise, Expect::NotSlower);
        assert!(
            guard
                .to_string()
                .contains("  1.40x faster [99% CI 1.04x – 1.90x]  ✓ not slower (noise floor 5%)\n"),
            "{guard}"
        );
        // Between the thresholds it is within noise, as it says; asked
        // only to report, the same interval is undecided.
        let settled = report(1.0, (0.97, 1.03), Verdict::WithinNoise, Expect::NotSlower);
        assert!(settled.to_string().contains("✓ within the 5% floor\n"));
        let reported = report(1.4, (1.04, 1.9), Verdict::WithinNoise, Expect::Report);
        assert!(reported.to_string().contains("? undecided"), "{reported}");
    }

    #[test]
    fn a_gpu_comparison_names_its_adapter_and_timer() {
        let mut report = report(2.0, (1.9, 2.1), Verdict::Faster, Expect::Faster);
        report.timer = "GPU timestamps".into();
        report.gpu = Some(crate::report::GpuInfo {
            adapter: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            backend: "Vulkan".into(),
            device_type: "CPU".into(),
            driver: "llvmpipe".into(),
            cache_flush_bytes: Some(64 << 20),
        });
        let text = report.to_string();
        assert!(
            text.contains(
                "\n  GPU: llvmpipe (LLVM 15.0.6, 256 bits), Vulkan, CPU; timed by GPU timestamps,\n       caches flushed (64.0 MiB) before each sample\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn compiled_code_that_changed_alone_is_said_beside_the_verdict() {
        let mut report = report(0.67, (0.48, 0.93), Verdict::Slower, Expect::NotSlower);
        report.compiled_code = Some(CompiledCode {
            source_unchanged: true,
            timed_loop_bytes: [456, 546],
            timed_loop_differs: true,
            callees_differing: vec![],
            not_followed: vec![],
        });
        let text = report.to_string();
        assert!(
            text.contains(
                "(expected not slower; noise floor 5%)\n  Its source is unchanged, but its compiled \
                 code is not: the timed loop that\n    inlines it is 456 bytes at the base revision, \
                 546 now."
            ),
            "{text}"
        );
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
    }

    #[test]
    fn warnings_wrap_at_80_columns() {
        let mut report = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster);
        report.warnings.push(
            "the interval is wider than the noise floor (5%) on both sides: too noisy to decide \
             within max_time = 3s; raise max_time or run on a quieter machine"
                .into(),
        );
        let text = report.to_string();
        assert!(text.contains("\n  ⚠ the interval is wider"), "{text}");
        for line in text.lines() {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
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
