//! Throughput: per-input operation and byte counts (`flops = path`,
//! `bytes = path` on the attribute, or [`Report::with_flops`] and
//! [`Report::with_bytes`]) turned into GFLOP/s and GB/s for both functions,
//! per input and over all inputs, as Tensara reports them (seed `004_*`).
//!
//! Rates use the same per-call times the report prints (see
//! [`InputReport::original_ns`]), so a rate and the time beside it always
//! agree: `count / time`.

use crate::compare::panic_message;
use crate::error::{Error, Phase};
use crate::report::{InputReport, Report};
use std::panic::{AssertUnwindSafe, catch_unwind};

impl Report {
    /// Attaches the floating-point operations one call performs on each
    /// input (in input order), so the report shows GFLOP/s for both
    /// functions.
    ///
    /// ```
    /// use faster_runtime::{compare_fns, Config};
    /// use std::time::Duration;
    ///
    /// fn dot_naive(v: &Vec<f64>) -> f64 { v.iter().map(|x| x * x).sum() }
    /// fn dot_chunked(v: &Vec<f64>) -> f64 {
    ///     v.chunks(4).map(|c| c.iter().map(|x| x * x).sum::<f64>()).sum()
    /// }
    ///
    /// let inputs = vec![vec![1.0; 1_000], vec![1.0; 4_000]];
    /// let config = Config { max_time: Duration::from_millis(100), ..Config::default() };
    /// let report = compare_fns("dot", &inputs, dot_naive, dot_chunked, &config)?
    ///     .with_flops(&inputs.iter().map(|v| 2 * v.len() as u64).collect::<Vec<_>>());
    /// let (original, candidate) = report.flop_rates().unwrap();
    /// assert!(original > 0.0 && candidate > 0.0);
    /// # Ok::<(), faster_runtime::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// When `flops` does not have one count per input.
    pub fn with_flops(mut self, flops: &[u64]) -> Report {
        assert_eq!(
            flops.len(),
            self.inputs.len(),
            "with_flops: {} counts for {} inputs; give one count per input, in input order",
            flops.len(),
            self.inputs.len()
        );
        for (input, &count) in self.inputs.iter_mut().zip(flops) {
            input.flops = Some(count);
        }
        self
    }

    /// Attaches the bytes one call reads and writes on each input (in input
    /// order), so the report shows GB/s for both functions.
    ///
    /// # Panics
    ///
    /// When `bytes` does not have one count per input.
    pub fn with_bytes(mut self, bytes: &[u64]) -> Report {
        assert_eq!(
            bytes.len(),
            self.inputs.len(),
            "with_bytes: {} counts for {} inputs; give one count per input, in input order",
            bytes.len(),
            self.inputs.len()
        );
        for (input, &count) in self.inputs.iter_mut().zip(bytes) {
            input.bytes = Some(count);
        }
        self
    }

    /// Names the inputs in the per-input table and the JSON report (`1k`,
    /// `sorted`, ...) instead of their positions.
    ///
    /// # Panics
    ///
    /// When there is not one label per input.
    pub fn with_input_labels<S: Into<String>>(
        mut self,
        labels: impl IntoIterator<Item = S>,
    ) -> Report {
        let labels: Vec<String> = labels.into_iter().map(Into::into).collect();
        assert_eq!(
            labels.len(),
            self.inputs.len(),
            "with_input_labels: {} labels for {} inputs",
            labels.len(),
            self.inputs.len()
        );
        for (input, label) in self.inputs.iter_mut().zip(labels) {
            input.label = Some(label);
        }
        self
    }

    /// Over all inputs, `(original, candidate)` in FLOP per second: the
    /// summed counts over the summed per-call times. `None` unless every
    /// input has a count.
    pub fn flop_rates(&self) -> Option<(f64, f64)> {
        self.overall_rates(|input| input.flops)
    }

    /// Over all inputs, `(original, candidate)` in bytes per second. `None`
    /// unless every input has a count.
    pub fn byte_rates(&self) -> Option<(f64, f64)> {
        self.overall_rates(|input| input.bytes)
    }

    fn overall_rates(&self, count: impl Fn(&InputReport) -> Option<u64>) -> Option<(f64, f64)> {
        if self.inputs.is_empty() {
            return None;
        }
        let total: u64 = self.inputs.iter().map(&count).sum::<Option<u64>>()?;
        let original: f64 = self.inputs.iter().map(|input| input.original_ns).sum();
        let candidate: f64 = self.inputs.iter().map(|input| input.candidate_ns).sum();
        Some((per_second(total, original), per_second(total, candidate)))
    }
}

impl InputReport {
    /// `(original, candidate)` in FLOP per second on this input, when its
    /// count is known.
    pub fn flop_rates(&self) -> Option<(f64, f64)> {
        let flops = self.flops?;
        Some((
            per_second(flops, self.original_ns),
            per_second(flops, self.candidate_ns),
        ))
    }

    /// `(original, candidate)` in bytes per second on this input, when its
    /// count is known.
    pub fn byte_rates(&self) -> Option<(f64, f64)> {
        let bytes = self.bytes?;
        Some((
            per_second(bytes, self.original_ns),
            per_second(bytes, self.candidate_ns),
        ))
    }
}

/// `count` per call at `nanos` per call, per second.
fn per_second(count: u64, nanos: f64) -> f64 {
    count as f64 / nanos * 1e9
}

/// A count function for throughput, as the attribute's `flops = path` and
/// `bytes = path` name it: the count for one call on one input.
pub type CountFn<T> = fn(&T) -> u64;

/// The attribute's hook: runs the `flops` and `bytes` count functions over
/// the inputs and attaches the counts to the report. A panic in a count
/// function is caught and becomes the comparison's error, naming the input.
#[doc(hidden)]
pub fn with_throughput<T>(
    result: Result<Report, Error>,
    inputs: &[T],
    flops: Option<CountFn<T>>,
    bytes: Option<CountFn<T>>,
) -> Result<Report, Error> {
    let mut report = result?;
    if let Some(count) = flops {
        report = report.with_flops(&counts(inputs, count, "flops")?);
    }
    if let Some(count) = bytes {
        report = report.with_bytes(&counts(inputs, count, "bytes")?);
    }
    Ok(report)
}

fn counts<T>(inputs: &[T], count: CountFn<T>, option: &str) -> Result<Vec<u64>, Error> {
    inputs
        .iter()
        .enumerate()
        .map(|(index, input)| {
            catch_unwind(AssertUnwindSafe(|| count(input))).map_err(|payload| Error::Panicked {
                during: Phase::Inputs,
                input: Some(index),
                message: format!(
                    "in the `{option} = ...` count function: {}",
                    panic_message(payload)
                ),
            })
        })
        .collect()
}

/// A rate in the SI prefix that keeps the column's largest value under a
/// thousand: returns the divisor and the prefix (`1e9`, `"G"`).
pub(crate) fn rate_scale(largest_per_second: f64) -> (f64, &'static str) {
    const PREFIXES: [&str; 6] = ["", "k", "M", "G", "T", "P"];
    let mut divisor = 1.0;
    for (step, prefix) in PREFIXES.iter().enumerate() {
        if largest_per_second / divisor < 999.5 || step == PREFIXES.len() - 1 {
            return (divisor, prefix);
        }
        divisor *= 1e3;
    }
    unreachable!("the last prefix always returns")
}

/// A scaled rate with three significant digits: `2.15`, `21.5`, `215`.
pub(crate) fn format_scaled(value: f64) -> String {
    let decimals = if value < 9.995 {
        2
    } else if value < 99.95 {
        1
    } else {
        0
    };
    format!("{value:.decimals$}")
}

/// A rate with its unit, scaled on its own: `2.15 GFLOP/s`, `812 MB/s`.
pub fn format_rate(per_second: f64, unit: &str) -> String {
    let (divisor, prefix) = rate_scale(per_second);
    format!("{} {prefix}{unit}", format_scaled(per_second / divisor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_scale_to_three_significant_digits() {
        assert_eq!(format_rate(2.154e9, "FLOP/s"), "2.15 GFLOP/s");
        assert_eq!(format_rate(812e6, "B/s"), "812 MB/s");
        assert_eq!(format_rate(999.7e6, "B/s"), "1.00 GB/s");
        assert_eq!(format_rate(12.0, "B/s"), "12.0 B/s");
        assert_eq!(format_rate(3.2e18, "FLOP/s"), "3200 PFLOP/s");
        assert_eq!(rate_scale(45e9), (1e9, "G"));
    }

    #[test]
    fn a_count_per_nanosecond_is_a_giga_rate() {
        // 2 000 FLOP in 1 µs is 2 GFLOP/s.
        assert_eq!(per_second(2_000, 1_000.0), 2e9);
    }
}
