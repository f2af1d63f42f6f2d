//! The result of one comparison and how it reads on a terminal.

use crate::config::Expect;
use crate::sampler::Stop;
use crate::verdict::Verdict;
use std::fmt;
use std::time::Duration;

/// The outcome of one comparison: the verdict, the figures behind it, and
/// anything the reader should know about how they were obtained.
///
/// `Display` prints the heading, the codeflash-style runtime line, one line
/// per input when there are several, and warnings.
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
    /// The original's minimum per-call time, summed over inputs.
    pub original_ns: f64,
    /// The candidate's minimum per-call time, summed over inputs.
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
    /// Things the reader should know: a noisy machine, a short budget, ...
    pub warnings: Vec<String>,
}

/// One input's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct InputReport {
    /// The input's position in the input set.
    pub index: usize,
    /// Calls per timed sample.
    pub batch_size: u64,
    /// The original's minimum per-call time.
    pub original_ns: f64,
    /// The candidate's minimum per-call time.
    pub candidate_ns: f64,
    /// This input's paired speedup (geometric mean of its per-round ratios).
    pub speedup: f64,
}

impl Report {
    /// Whether the verdict meets the expectation (`expect = ...`).
    pub fn passed(&self) -> bool {
        self.verdict.meets(self.expect)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "faster: {}", self.name)?;
        let mark = if self.passed() { '✓' } else { '✗' };
        write!(
            f,
            "  ⏱️ Runtime: {} → {} (best of {} runs)  {}  {mark} {}",
            format_ns(self.original_ns),
            format_ns(self.candidate_ns),
            self.rounds,
            Ratio(self.speedup, Some(self.ci)),
            self.verdict,
        )?;
        let floor = format_percent(self.noise_floor);
        match self.expect {
            Expect::Faster if !self.passed() => writeln!(f, " (expected faster; noise floor {floor})")?,
            Expect::NotSlower if !self.passed() => {
                writeln!(f, " (expected not slower; noise floor {floor})")?
            }
            _ => writeln!(f, " (noise floor {floor})")?,
        }
        if self.inputs.len() > 1 {
            for input in &self.inputs {
                writeln!(
                    f,
                    "    input {}: {} → {}  {}",
                    input.index,
                    format_ns(input.original_ns),
                    format_ns(input.candidate_ns),
                    Ratio(input.speedup, None),
                )?;
            }
        }
        for warning in &self.warnings {
            writeln!(f, "  ⚠ {warning}")?;
        }
        Ok(())
    }
}

/// A speedup as people say it: `1.25x faster`, `1.25x slower`, with the
/// interval in the same direction; three decimals when the interval is too
/// narrow for two, and no direction for a ratio that rounds to one.
struct Ratio(f64, Option<(f64, f64)>);

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ratio(speedup, ci) = *self;
        let slower = speedup < 1.0;
        let turn = |ratio: f64| if slower { 1.0 / ratio } else { ratio };
        let interval = ci.map(|(low, high)| if slower { (turn(high), turn(low)) } else { (low, high) });
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
            Some((from, to)) if to.is_finite() => write!(f, " [99% CI {from:.decimals$}x – {to:.decimals$}x]"),
            Some(_) => f.write_str(" [99% CI: too few rounds]"),
            None => Ok(()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn report(speedup: f64, ci: (f64, f64), verdict: Verdict, expect: Expect) -> Report {
        Report {
            name: "sum_fast vs sum_naive".into(),
            verdict,
            speedup,
            ci,
            best_speedup: speedup,
            original_ns: 32_812.0,
            candidate_ns: 29_204.0,
            rounds: 315,
            elapsed: Duration::from_millis(120),
            noise_floor: 0.05,
            expect,
            inputs: vec![],
            outputs_checked: true,
            stop: Stop::Converged,
            timer: "monotonic clock",
            warnings: vec![],
        }
    }

    #[test]
    fn the_runtime_line_reads_like_the_design() {
        let text = report(1.1236, (1.1012, 1.1441), Verdict::Faster, Expect::Faster).to_string();
        assert_eq!(
            text,
            "faster: sum_fast vs sum_naive\n  ⏱️ Runtime: 32.8 µs → 29.2 µs (best of 315 runs)  \
             1.12x faster [99% CI 1.10x – 1.14x]  ✓ faster (noise floor 5%)\n"
        );
    }

    #[test]
    fn a_slower_candidate_reads_as_slower_with_the_interval_turned_round() {
        let text = report(0.8, (0.78, 0.82), Verdict::Slower, Expect::Faster).to_string();
        assert!(
            text.contains("1.25x slower [99% CI 1.22x – 1.28x]  ✗ slower (expected faster; noise floor 5%)"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_interval_is_said_plainly() {
        let text = report(1.0, (0.0, f64::INFINITY), Verdict::WithinNoise, Expect::Report).to_string();
        assert!(text.contains("1.00x [99% CI: too few rounds]"), "{text}");
    }

    #[test]
    fn a_narrow_interval_gets_three_decimals_and_no_direction_at_one() {
        let text = report(1.0004, (0.9981, 1.0027), Verdict::WithinNoise, Expect::NotSlower).to_string();
        assert!(text.contains("1.000x [99% CI 0.998x – 1.003x]  ✓ within noise"), "{text}");
        let text = report(0.97, (0.96, 0.98), Verdict::WithinNoise, Expect::Report).to_string();
        assert!(text.contains("1.031x slower [99% CI 1.020x – 1.042x]"), "{text}");
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
