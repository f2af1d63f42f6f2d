//! The runtime of [`faster-test`](https://docs.rs/faster-test): the registry
//! of comparisons, the paired measurement engine, its statistics, the
//! verdict, the report and the test harness.
//!
//! Users depend on the `faster-test` package, whose library `faster`
//! re-exports everything public here next to the `#[faster::compare]`
//! attribute.
//!
//! Modules import one way, down these floors:
//!
//! - `harness` (`faster::main`, `run_test`, formats, files);
//! - `replicate` (`processes = N`) and `probe` (the machine-noise probe);
//! - `compare` (one comparison) and `expansion` (what the attribute calls),
//!   beside `report` and its renderers `terminal`, `json`, `plot`, `ci`,
//!   `throughput`;
//! - `sampler`, `estimate`, `verdict`, `check`, `registry`;
//! - `samples` (rounds and Paoloni's regression);
//! - `clock`, `stats`, `config`, `error`, `guard`, `style`, `environment`.

#![warn(missing_docs)]

mod check;
mod ci;
mod clock;
mod compare;
mod config;
mod environment;
mod error;
mod estimate;
mod expansion;
mod guard;
mod harness;
mod json;
#[cfg(feature = "plots")]
mod plot;
mod probe;
mod registry;
mod replicate;
mod report;
mod sampler;
mod samples;
mod signature;
mod stats;
mod style;
mod terminal;
mod throughput;
mod verdict;

pub use check::{Approx, ApproxEq, Difference, Eq, EqComparable, OutputCheck, Skip};
pub use clock::{
    Calibration, Clock, CycleCounter, SimClock, ThreadCpuClock, Timer, TimerKind, TimerReading,
    WallClock, calibrate,
};
pub use compare::{compare_fns, compare_fns_with_clock};
pub use config::{CI_NOISE_FLOOR, Config, Expect, parse_duration, parse_noise_floor};
pub use environment::{CiRun, Environment};
pub use error::{Error, Phase};
pub use harness::main;
pub use json::{SCHEMA as REPORT_SCHEMA, output_dir};
pub use registry::{Comparison, Settings, comparisons};
pub use report::{InputReport, Report, format_ns};
pub use sampler::{Subject, sample};
pub use samples::{Round, Samples, Side, Stop};
pub use stats::{Interval, LinearFit, batch_means_interval, linear_fit};
pub use style::ColorChoice;
pub use throughput::format_rate;
pub use verdict::Verdict;

/// What the attribute's expansion names. Not a public API: it may change in
/// any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::check::{Approx, Eq, ShowAny, ShowDebug, Shown, Skip};
    pub use crate::compare::collect_inputs;
    pub use crate::config::{Config, Expect};
    pub use crate::error::Error;
    pub use crate::expansion::{by_ref, by_ref_with, by_value, by_value_with, show_input};
    pub use crate::harness::run_test;
    pub use crate::json::utc_now;
    pub use crate::probe::{
        NoiseProbe, PROBE_TIME, SAFE_MULTIPLE, config as probe_config, measure as measure_noise,
    };
    pub use crate::registry::{Comparison, Settings};
    pub use crate::replicate::{
        ChildOutcome, ProcessFigures, child_target, child_timeout, combine, emit, run_children,
    };
    pub use crate::report::Report;
    pub use crate::signature::{
        Arguments, ByMut, ByRef, ByValue, Callee, Fit, FitMatching, FitOther, FitPlain, Function,
        Matches, Plain, SameOutput, SameParameters, String, Vec, arguments, arguments_ref, callee,
    };
    pub use crate::throughput::with_throughput;
    pub use inventory;
}
