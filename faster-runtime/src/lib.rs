//! The runtime of [`faster`](https://docs.rs/faster): the registry of
//! comparisons, the paired measurement engine, its statistics, the verdict,
//! the report and the test harness.
//!
//! Users depend on the `faster` crate, which re-exports everything public
//! here next to the `#[faster::compare]` attribute.
//!
//! Modules import one way, down these floors: `harness` → `compare`/`report`
//! → `sampler`/`estimate`/`verdict`/`check`/`registry` →
//! `clock`/`stats`/`config`/`error`.

#![warn(missing_docs)]

mod check;
mod clock;
mod compare;
mod config;
mod error;
mod estimate;
mod harness;
mod registry;
mod report;
mod sampler;
mod stats;
mod verdict;

pub use check::{Eq, OutputCheck, Skip};
pub use clock::{Calibration, Clock, SimClock, WallClock, calibrate};
pub use compare::{compare_fns, compare_fns_with_clock};
pub use config::{CI_NOISE_FLOOR, Config, Expect, parse_duration, parse_noise_floor};
pub use error::{Error, Phase};
pub use harness::main;
pub use registry::{Comparison, Settings, comparisons};
pub use report::{InputReport, Report, format_ns};
pub use sampler::{Round, Samples, Side, Stop, Subject, sample};
pub use stats::{Interval, batch_means_interval};
pub use verdict::Verdict;

/// What the attribute's expansion names. Not a public API: it may change in
/// any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::check::{Eq, Skip};
    pub use crate::compare::{collect_inputs, compare_by_ref, compare_by_value};
    pub use crate::config::{Config, Expect};
    pub use crate::error::Error;
    pub use crate::harness::run_test;
    pub use crate::registry::{Comparison, Settings};
    pub use crate::report::Report;
    pub use inventory;
}
