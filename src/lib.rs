//! # faster
//!
//! Prove, inside `cargo test`, that an optimized function is really faster
//! than the function it replaces, and keep proving it on every run.
//!
//! Annotate the new function with the one it replaces and the inputs to try
//! (what exists only for the comparison is `#[cfg(test)]`: the README's
//! rule, which keeps the normal build free of it and of warnings):
//!
//! ```
//! /// Whether any value appears twice: sorts a copy, then compares neighbours.
//! #[cfg_attr(test, faster::compare(original = has_duplicate_naive, inputs = duplicate_inputs))]
//! pub fn has_duplicate(values: &[u32]) -> bool {
//!     let mut sorted = values.to_vec();
//!     sorted.sort_unstable();
//!     sorted.windows(2).any(|pair| pair[0] == pair[1])
//! }
//!
//! /// The version it replaced, kept for the comparison: checks every pair.
//! #[cfg(test)]
//! fn has_duplicate_naive(values: &[u32]) -> bool {
//!     values.iter().enumerate().any(|(i, value)| values[i + 1..].contains(value))
//! }
//!
//! /// Distinct values (nothing to find: the slowest case) and one late duplicate.
//! #[cfg(test)]
//! fn duplicate_inputs() -> Vec<Vec<u32>> {
//!     let distinct = |n: u32| (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect::<Vec<_>>();
//!     let mut late_duplicate = distinct(2_000);
//!     late_duplicate.push(late_duplicate[1_000]);
//!     vec![distinct(300), distinct(3_000), late_duplicate]
//! }
//! ```
//!
//! `cargo test --release` then checks both return the same result on every
//! input, times them interleaved, and fails the generated test
//! `faster_has_duplicate` unless the candidate is faster beyond the noise
//! floor.
//!
//! The same engine is available without the attribute: [`compare_fns`].
//! The types a [`Report`]'s fields hold are in [`report`]; the timing
//! sources, and the [`Clock`](time::Clock) trait for another, in [`time`].
//! A `harness = false` target runs every registered comparison with [`main`].
//! [`cargo faster`](https://crates.io/crates/cargo-faster) compares
//! [`track`]ed functions with themselves at another git revision.
//!
//! The [guide] has the depth: [writing comparisons](guide::writing),
//! [running them](guide::running), [reports](guide::reports), [how it
//! measures](guide::measuring), [how accurate it is](guide::accuracy)
//! (measured), and more.

#[cfg(feature = "gpu")]
pub use faster_macros::compare_gpu;
pub use faster_macros::{compare, methods, track};
// What a user writes: the entry points beside the attributes, the
// settings, the result, the errors, and the output checks (`check =
// approx(...)` and the traits a user's output type meets).
pub use faster_runtime::{
    Approx, ApproxEq, Config, Difference, EqComparable, Error, Expect, OnlyIn, OutputCheck,
    PerCall, Phase, Report, Settings, Undecided, Verdict, compare_fns, compare_fns_with_clock,
    output_dir,
};
// A report's field types and its units; the timing sources.
pub use faster_runtime::{report, time};

/// Two wgpu compute kernels compared on the GPU's own timestamps (the `gpu`
/// feature): [`compare_kernels`](gpu::compare_kernels) and the types its
/// cases and options are made of. See the guide's [GPU kernels](crate::guide::gpu).
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
/// `--processes N`, `--layouts on|off`, `--format
/// pretty|terse|json|bench|junit`, `--junit PATH`, `--color
/// auto|always|never`, `-q`, `--help`; the flags cargo, libtest and
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

/// The README's Rust examples, compiled and run as doctests, as the guide's
/// are. `tests/docs/` builds both in a library of its own, as a user would,
/// and runs their comparisons.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

/// Where the guide's links between chapters point in rustdoc. Each chapter
/// ends with the same labels pointing to its sibling Markdown file, which
/// GitHub follows; these come first in each module's documentation, and the
/// first definition of a label is the one Markdown uses. (`tests/docs/`
/// checks that the two lists agree.)
macro_rules! guide_links {
    () => {
        "
[writing]: crate::guide::writing
[running]: crate::guide::running
[reports]: crate::guide::reports
[measuring]: crate::guide::measuring
[environment]: crate::guide::environment
[hostile]: crate::guide::hostile
[accuracy]: crate::guide::accuracy
[revisions]: crate::guide::revisions
[bisect]: crate::guide::bisect
[gpu]: crate::guide::gpu
[layouts]: crate::guide::layouts
[repository]: crate::guide::repository
[files]: crate::guide::reports#report-files
[formats]: crate::guide::reports#output-formats
[reading a report]: crate::guide::reports#reading-a-report
[nextest]: crate::guide::running#nextest-and-cargo-bench
[placements]: crate::guide::measuring#nanosecond-functions-where-the-measuring-loop-lands
[timing sources]: crate::guide::measuring#timing-sources
[nanosecond verdicts in every process]: crate::guide::accuracy#nanosecond-verdicts-in-every-process
[sharding]: crate::guide::revisions#sharding-a-suite-across-ci-machines
[revisions: sharding]: crate::guide::revisions#sharding-a-suite-across-ci-machines

"
    };
}

// The guide's examples are a user's library code, whose `#[test]`s run where
// `tests/docs/` builds them; as doctests they only compile.
#[allow(clippy::test_attr_in_doctest)]
#[doc = guide_links!()]
#[doc = include_str!("../guide/README.md")]
pub mod guide {
    #[doc = guide_links!()]
    #[doc = include_str!("../guide/writing.md")]
    pub mod writing {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/running.md")]
    pub mod running {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/reports.md")]
    pub mod reports {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/measuring.md")]
    pub mod measuring {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/environment.md")]
    pub mod environment {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/hostile.md")]
    pub mod hostile {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/accuracy.md")]
    pub mod accuracy {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/revisions.md")]
    pub mod revisions {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/bisect.md")]
    pub mod bisect {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/gpu.md")]
    pub mod gpu {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/layouts.md")]
    pub mod layouts {}

    #[doc = guide_links!()]
    #[doc = include_str!("../guide/repository.md")]
    pub mod repository {}
}
