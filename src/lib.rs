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

#[cfg(feature = "gpu")]
pub use faster_macros::compare_gpu;
pub use faster_macros::{compare, track};
pub use faster_runtime::{
    Calibration, Clock, Comparison, Config, CycleCounter, Error, Expect, InputReport, LinearFit,
    OutputCheck, Phase, Placement, ProcessSummary, Report, Settings, SimClock, ThreadCpuClock,
    Timer, TimerKind, Verdict, WallClock, calibrate, compare_fns, compare_fns_with_clock,
    comparisons, format_ns,
};
// Reports and output: the JSON schema's name, where reports go, the
// environment they record, colour and rate formatting.
pub use faster_runtime::{CiRun, ColorChoice, Environment, REPORT_SCHEMA, format_rate, output_dir};
// Functions tracked across revisions (`#[faster::track]`, `cargo faster`).
pub use faster_runtime::{Probe, Served, Tracked, tracked};
// The output checks: `check = approx(...)` and its trait for user types.
pub use faster_runtime::{Approx, ApproxEq, Difference, EqComparable};
// Why a run stopped measuring (a field of `Report`).
pub use faster_runtime::Stop;
// Where a GPU comparison ran (a field of `Report`).
pub use faster_runtime::GpuInfo;

/// Two wgpu compute kernels compared on the GPU's own timestamps (the `gpu`
/// feature): [`compare_kernels`](gpu::compare_kernels) and the types its
/// cases and options are made of. See the README's "GPU kernels".
#[cfg(feature = "gpu")]
pub mod gpu {
    pub use faster_runtime::gpu::*;
}

/// Runs every comparison registered in this binary — the entry point of a
/// `harness = false` test or bench target.
///
/// Prints each report and a summary and, when any comparison fails, ends
/// the process with exit code 101 (2 for a bad command line), as libtest's
/// own harness does; it returns only when every comparison passed. So
/// `fn main() { faster::main() }` is the one form, and a trailing semicolon
/// cannot turn a failure into success.
///
/// ```no_run
/// // tests/speed.rs, with `[[test]] name = "speed"` and `harness = false`
/// use my_crate as _; // link the library, so its comparisons register
///
/// fn main() {
///     faster::main()
/// }
/// # mod my_crate {}
/// ```
///
/// The command line is libtest's, with faster's own flags: `FILTER...`,
/// `--exact`, `--skip FILTER`, `--list`, `--quick`, `--max-time DURATION`,
/// `--noise-floor FRACTION`, `--timer wall|cycles|thread-cpu`,
/// `--processes N`, `--format pretty|terse|json|bench|junit`, `--junit PATH`,
/// `--color auto|always|never`, `-q`, `--help`; the flags cargo, libtest and
/// nextest pass (`--bench`, `--nocapture`, `--test-threads N`, ...) are
/// accepted and ignored. `--help` prints them all.
#[track_caller]
pub fn main() {
    faster_runtime::main()
}

/// [`main`] without ending the process: returns the exit code for a `main`
/// that does more after the comparisons.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     let code = faster::run();
///     println!("comparisons done");
///     code
/// }
/// ```
#[must_use = "the exit code says whether a comparison failed: return it from `main`"]
#[track_caller]
pub fn run() -> std::process::ExitCode {
    faster_runtime::run()
}

/// Items the attribute's expansion names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use faster_runtime::__private::*;
}

/// The README's Rust examples, compiled and run as doctests so they stay
/// true to the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
