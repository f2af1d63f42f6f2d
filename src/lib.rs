//! # faster
//!
//! Prove, inside `cargo test`, that an optimized function is really faster
//! than the function it replaces, and keep proving it on every run.
//!
//! Annotate the new function with the one it replaces and the inputs to try:
//!
//! ```
//! fn sum_naive(v: &[u64]) -> u64 {
//!     v.iter().fold(0, |acc, x| std::hint::black_box(acc + x))
//! }
//!
//! #[cfg_attr(test, faster::compare(original = sum_naive, inputs = sum_inputs))]
//! fn sum_fast(v: &[u64]) -> u64 {
//!     v.iter().sum()
//! }
//!
//! #[cfg(test)]
//! fn sum_inputs() -> Vec<Vec<u64>> {
//!     vec![(0..1_000).collect(), (0..100_000).collect()]
//! }
//! # fn main() {}
//! ```
//!
//! `cargo test --release` then checks both return the same result on every
//! input, times them interleaved, and fails the generated test
//! `faster_sum_fast` unless the candidate is faster beyond the noise floor.
//!
//! The same engine is available without the attribute: [`compare_fns`].
//! A `harness = false` target runs every registered comparison with [`main`].

pub use faster_macros::compare;
pub use faster_runtime::{
    Calibration, Clock, Comparison, Config, CycleCounter, Error, Expect, InputReport, LinearFit,
    OutputCheck, Phase, Report, Settings, SimClock, ThreadCpuClock, Timer, TimerKind, Verdict,
    WallClock, calibrate, compare_fns, compare_fns_with_clock, comparisons, format_ns, main,
};
// Reports and output: the JSON schema's name, where reports go, the
// environment they record, colour and rate formatting.
pub use faster_runtime::{CiRun, ColorChoice, Environment, REPORT_SCHEMA, format_rate, output_dir};
// The output checks: `check = approx(...)` and its trait for user types.
pub use faster_runtime::{Approx, ApproxEq, Difference, EqComparable};

/// Items the attribute's expansion names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use faster_runtime::__private::*;
}
