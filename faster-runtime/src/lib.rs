//! The runtime of [`faster-test`](https://docs.rs/faster-test): the registry
//! of comparisons, the paired measurement engine, its statistics, the
//! verdict, the report and the test harness.
//!
//! Users depend on the `faster-test` package, whose library `faster`
//! re-exports the public API here next to the `#[faster::compare]`
//! attribute: at the root what a user writes (the entry points, [`Config`],
//! [`Report`], [`Verdict`], [`Error`], the output checks), the report's
//! field types under [`report`], the timing sources under [`time`].
//!
//! The other modules are private, and each imports only those below it;
//! what `cargo-faster`, the accuracy suite and the workspace's tests reach
//! besides the public API is listed in one hidden module, `__internal`:
//!
//! - `harness` — `faster::main()` and the generated tests' `run_test`: the
//!   command line, the one run path, the lock between processes;
//! - `output` — one file per way results leave the process: terminal, JSON
//!   lines, bench lines, JUnit, GitHub's job summary, report files, plot;
//! - `revision` — comparisons across git revisions: the protocol between
//!   `cargo faster` and the processes serving each revision's tracked
//!   functions, both sides of it, one function matched, checked and
//!   measured;
//! - `gpu` (feature `gpu`, public) — two wgpu compute kernels as the
//!   engine's subject, timed on the GPU's timestamps;
//! - `engine` — measuring one comparison: calling and timing the
//!   functions, sampling, the disturbance guard, the noise probe, and
//!   replication (which slot measures each slice, when there are enough);
//!   it returns a [`report::Measurement`], never a verdict;
//! - `judge` — the one place a measurement becomes a [`Report`]: the
//!   verdict against the floor, the diagnostics, the noise probe's warning
//!   and a strict run's downgrade;
//! - `registry` — what the attributes register;
//! - `report` (public) — the result as data: the measurement and its typed
//!   notices, the report, the outcome, the versioned document, the
//!   environment, the units figures are written in;
//! - `check` — comparing the outputs of the two functions;
//! - `stats` — pure statistics: samples, estimates, intervals, the verdict;
//! - `config`, `time` (public), `error` — settings and their precedence,
//!   timing sources and calibration, errors;
//! - `options` — every option of the attributes and every setting, and the
//!   parsers of their values, from `faster-options` (which declares them
//!   once for this crate and the attributes' macro), and what only the
//!   runtime does with them: it imports nothing of this crate.

#![warn(missing_docs)]

// The API is what the crate root re-exports below, `report`, `time` and
// `gpu`. The other modules are the implementation, private: what reaches
// them from outside goes through `__internal`, which lists it.
mod check;
mod config;
mod engine;
mod error;
#[cfg(feature = "gpu")]
pub mod gpu;
mod harness;
mod indexes;
mod judge;
mod layout;
mod options;
mod output;
mod partition;
mod process;
mod registry;
pub mod report;
mod revision;
mod stats;
pub mod time;

mod inputs;
mod signature;

/// What the attribute's expansion names. Not a public API: it may change in
/// any release.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// What `cargo-faster`, the accuracy suite and this workspace's tests reach
// besides the public API, each item with why (its own documentation).
#[doc(hidden)]
#[path = "internal.rs"]
pub mod __internal;

pub use check::{Approx, ApproxEq, Difference, EqComparable, OutputCheck};
pub use config::{Config, Settings};
pub use engine::compare::{compare_fns, compare_fns_with_clock};
pub use error::{Error, OnlyIn, Phase};
pub use harness::{main, run};
pub use options::{Expect, Undecided};
pub use output::files::output_dir;
pub use report::Report;
pub use signature::PerCall;
pub use stats::verdict::Verdict;
