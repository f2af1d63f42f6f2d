//! The runtime of [`faster-test`](https://docs.rs/faster-test): the registry
//! of comparisons, the paired measurement engine, its statistics, the
//! verdict, the report and the test harness.
//!
//! Users depend on the `faster-test` package, whose library `faster`
//! re-exports everything public here next to the `#[faster::compare]`
//! attribute.
//!
//! Its modules are not public API (`cargo-faster` and the accuracy suite
//! reach into some of them, hidden); each imports only those below it:
//!
//! - `harness` — `faster::main()` and the generated tests' `run_test`: the
//!   command line, the one run path, the lock between processes;
//! - `output` — one file per way results leave the process: terminal, JSON
//!   lines, bench lines, JUnit, GitHub's job summary, report files, plot;
//! - `revision` — comparisons across git revisions: the protocol between
//!   `cargo faster` and the processes serving each revision's tracked
//!   functions, both sides of it, one function matched, checked and
//!   measured;
//! - `gpu` (feature `gpu`) — two wgpu compute kernels as the engine's
//!   subject, timed on the GPU's timestamps;
//! - `engine` — one comparison: calling and timing the functions, sampling,
//!   diagnostics, the disturbance guard, the noise probe, replication;
//! - `registry` — what the attributes register;
//! - `report` — the result as data: the report, the outcome, the versioned
//!   document, the environment, the units figures are written in;
//! - `check` — comparing the outputs of the two functions;
//! - `stats` — pure statistics: samples, estimates, intervals, the verdict;
//! - `config`, `time`, `error` — settings and their precedence, timing
//!   sources and calibration, errors;
//! - `options` — every option of the attributes and every setting, declared
//!   once for this crate and the attributes' macro, and the parsers of
//!   their values: it imports nothing, not even of this crate.

#![warn(missing_docs)]

// The API is what the crate root re-exports below (and `gpu`). The modules
// are the implementation: private where nothing outside the crate reaches
// in, and hidden where `cargo-faster`, the accuracy suite, the examples or
// the tests do — neither is public API, and either may change in any
// release.
mod check;
#[doc(hidden)]
pub mod config;
#[doc(hidden)]
pub mod engine;
mod error;
#[cfg(feature = "gpu")]
pub mod gpu;
#[doc(hidden)]
pub mod harness;
#[doc(hidden)]
pub mod layout;
#[doc(hidden)]
pub mod options;
#[doc(hidden)]
pub mod output;
#[doc(hidden)]
pub mod partition;
#[doc(hidden)]
pub mod process;
mod registry;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod revision;
#[doc(hidden)]
pub mod stats;
mod time;

mod inputs;
mod signature;

/// What the attribute's expansion names. Not a public API: it may change in
/// any release.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use check::{Approx, ApproxEq, Difference, Eq, EqComparable, OutputCheck, Skip};
pub use config::{CI_NOISE_FLOOR, Config, SETTINGS, Settings};
pub use engine::compare::{compare_fns, compare_fns_with_clock};
pub use engine::sampler::{Subject, sample};
pub use engine::tracked::{Probe, Served};
pub use error::{Error, OnlyIn, Phase};
pub use harness::{main, run};
pub use options::{Expect, TimerKind, Undecided, parse_duration};
pub use output::files::output_dir;
pub use output::style::ColorChoice;
pub use registry::{Comparison, Tracked, comparisons, tracked};
pub use report::document::SCHEMA as REPORT_SCHEMA;
pub use report::environment::{CiRun, Environment};
pub use report::units::{format_ns, format_rate};
pub use report::{
    BestOfApart, Callee, CompiledCode, GpuInfo, InputReport, InputsAgainstHeadline, Load,
    Placement, ProcessSummary, Report, Scope,
};
pub use signature::PerCall;
pub use stats::samples::{BatchLimit, Round, Samples, Side, Stop};
pub use stats::verdict::Verdict;
pub use stats::{Interval, LinearFit, StatsError, batch_means_interval, linear_fit};
pub use time::{
    Calibration, Clock, CycleCounter, SimClock, ThreadCpuClock, Timer, TimerReading, WallClock,
    calibrate,
};
