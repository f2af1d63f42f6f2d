//! Throughput: per-input operation and byte counts (`flops = path`,
//! `bytes = path` on the attribute, or [`Report::with_flops`] and
//! [`Report::with_bytes`]) turned into GFLOP/s and GB/s for both functions,
//! per input and over all inputs, as Tensara reports them (seed `004_*`).
//!
//! Rates use the same per-call times the report prints (see
//! [`InputReport::original_ns`]), so a rate and the time beside it always
//! agree: `count / time`.

use super::{InputReport, Report};

impl Report {
    /// Attaches the floating-point operations one call performs on each
    /// input (in input order), so the report shows GFLOP/s for both
    /// functions.
    ///
    /// ```
    /// use faster::{compare_fns, Config};
    /// use std::time::Duration;
    ///
    /// fn dot_naive(v: &Vec<f64>) -> f64 { v.iter().map(|x| x * x).sum() }
    /// fn dot_chunked(v: &Vec<f64>) -> f64 {
    ///     v.chunks(4).map(|c| c.iter().map(|x| x * x).sum::<f64>()).sum()
    /// }
    ///
    /// let inputs = vec![vec![1.0; 1_000], vec![1.0; 4_000]];
    /// let mut config = Config::default();
    /// config.max_time = Duration::from_millis(100);
    /// let report = compare_fns("dot", &inputs, dot_naive, dot_chunked, &config)?
    ///     .with_flops(&inputs.iter().map(|v| 2 * v.len() as u64).collect::<Vec<_>>());
    /// let (original, candidate) = report.flop_rates().unwrap();
    /// assert!(original > 0.0 && candidate > 0.0);
    /// # Ok::<(), faster::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// When `flops` does not have one count per input.
    pub fn with_flops(mut self, flops: &[u64]) -> Report {
        attach(&mut self.inputs, flops, Count::Flops);
        self
    }

    /// Attaches the bytes one call reads and writes on each input (in input
    /// order), so the report shows GB/s for both functions.
    ///
    /// # Panics
    ///
    /// When `bytes` does not have one count per input.
    pub fn with_bytes(mut self, bytes: &[u64]) -> Report {
        attach(&mut self.inputs, bytes, Count::Bytes);
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
        overall_rates(&self.inputs, |input| input.flops)
    }

    /// Over all inputs, `(original, candidate)` in bytes per second. `None`
    /// unless every input has a count.
    pub fn byte_rates(&self) -> Option<(f64, f64)> {
        overall_rates(&self.inputs, |input| input.bytes)
    }
}

/// Over all `inputs`, `(original, candidate)` per second of what `count`
/// counts: the summed counts over the summed per-call times. `None`
/// unless every input has a count.
pub(crate) fn overall_rates(
    inputs: &[InputReport],
    count: impl Fn(&InputReport) -> Option<u64>,
) -> Option<(f64, f64)> {
    if inputs.is_empty() {
        return None;
    }
    let total: u64 = inputs.iter().map(&count).sum::<Option<u64>>()?;
    let original: f64 = inputs.iter().map(|input| input.original_ns).sum();
    let candidate: f64 = inputs.iter().map(|input| input.candidate_ns).sum();
    Some((per_second(total, original), per_second(total, candidate)))
}

/// What a count per call counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Count {
    /// Floating-point operations (`flops = path`).
    Flops,
    /// Bytes read and written (`bytes = path`).
    Bytes,
}

/// Attaches one count per input, in input order, to `inputs`: a report's,
/// or a measurement's before it is judged (the attribute's counts).
///
/// # Panics
///
/// When there is not one count per input.
pub(crate) fn attach(inputs: &mut [InputReport], counts: &[u64], what: Count) {
    let method = match what {
        Count::Flops => "with_flops",
        Count::Bytes => "with_bytes",
    };
    assert_eq!(
        counts.len(),
        inputs.len(),
        "{method}: {} counts for {} inputs; give one count per input, in input order",
        counts.len(),
        inputs.len()
    );
    for (input, &count) in inputs.iter_mut().zip(counts) {
        match what {
            Count::Flops => input.flops = Some(count),
            Count::Bytes => input.bytes = Some(count),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_per_nanosecond_is_a_giga_rate() {
        // 2 000 FLOP in 1 µs is 2 GFLOP/s.
        assert_eq!(per_second(2_000, 1_000.0), 2e9);
    }
}
