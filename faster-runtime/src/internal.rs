//! What the workspace's tools reach in this crate besides its public API:
//! `cargo-faster` (and its `faster-link`), the accuracy suite
//! (`faster-accuracy`), and this workspace's own tests and examples. The
//! list below is the whole contract between them and the runtime: each
//! item is here because one of them names it, and nothing else outside
//! the crate reaches its modules (they are private).
//!
//! Not a public API: reached through `faster_runtime::__internal`, and free
//! to change in any release together with the crates that use it. What the
//! attributes' expansions name is `__private`'s, not this.
//!
//! # `cargo-faster`
//!
//! It drives the same runs as `faster::main()`, so it shares the harness's
//! command line and its pieces rather than restating them:
//!
//! - running against a revision and merging shards: [`Against`],
//!   [`Revision`], [`run_against`], [`Merge`], [`run_merge`]; the compiled
//!   code of two revisions' functions, nothing measured, for a bisect:
//!   [`compiled_code_against`];
//!   [`COULD_NOT_RUN`] (its exit code), [`AGAINST_REPORTS`] (its reports'
//!   folder), [`say_when_interrupted`];
//! - the command line: faster's flags, described ([`Known`], a setting's
//!   [`OptionSpec`] or a [`Flag`]) and parsed ([`Cli`], beside its own:
//!   [`Beside`], [`Own`]) by the runtime alone, so the two cannot drift;
//!   what its tests check they do and `cargo faster test` picks out:
//!   [`Action`], [`Format`], [`QUICK_MAX_TIME`]; a shard from the
//!   environment: [`partition_from_env`]; the merge's colour:
//!   [`ColorChoice`];
//! - the lock the harness takes on the output folder, so a clean or a
//!   prune never removes what a run is writing: [`lock`], [`lock_shared`],
//!   [`try_lock`], and [`Held`], which releases one;
//! - the files a run leaves, which it reads and writes: [`Document`],
//!   [`RunDocument`], [`RUN_FILE`], [`toolchain_name`], [`write_atomically`],
//!   [`format_bytes`];
//! - the layouts of a binary `faster-link` keeps and the runs relink:
//!   [`Layouts`], [`Unavailable`], [`own_dir`], [`LINKER_VARIABLE`],
//!   [`Material`], [`Identity`], [`link_tree`], and what was made from
//!   them, which it removes from builds it did not measure: [`made_from`];
//! - a CI shard's slice of the suite: [`Partition`], [`PARTITION_VARIABLE`];
//! - the machine code of a tracked function and the servers it lists:
//!   [`FunctionCode`], [`from_entry`], [`ServerCommand`], [`SERVE_VARIABLE`];
//! - a test binary's `--list`, run as faster runs every child (its
//!   environment, its process group, a time limit): [`command`],
//!   [`child_output`]; cargo, started so that it ends with `cargo faster`
//!   however that ends: [`group`].
//!
//! # The accuracy suite
//!
//! It measures the engine's own pieces against known truths, so it calls
//! them one by one rather than through a whole comparison:
//!
//! - the statistics its tables are made of: [`median`], [`variance`],
//!   [`Interval`], [`across_processes`], [`Placed`], [`by_offsets`],
//!   [`CONFIDENCE`];
//! - replication, as the harness plans and combines slices:
//!   [`Replication`], [`measure_fns`], [`interval_over_layouts`],
//!   [`looks_at`], [`settled`], [`slot_of`], [`child_timeout`];
//! - the engine's knobs a `Config` carries, which it sets where it
//!   measures the engine itself: [`Plan`] (with `Config::plan` and
//!   `Config::plan_mut`);
//! - the noise probe: [`noise_probe_config`], [`measure_noise`];
//! - the measuring loop's placements: [`CACHE_LINE`],
//!   [`LAYOUTS_TO_STRATIFY`];
//! - a measurement in a child process of its own: [`Measured`],
//!   [`run_once`], [`say`], [`role`], [`Role`], [`CHILD_VARIABLE`], and
//!   the placement child's command, frames and time limit: [`command`],
//!   [`wire`], [`child_output`];
//! - reading its reports and stamping its results: [`Document`],
//!   [`utc_now`], [`last_level_cache_bytes`], [`parse_duration`].
//!
//! # This workspace's tests and examples
//!
//! Beyond the above: the registry the attributes fill ([`comparisons`],
//! [`tracked`], [`Comparison`], [`Tracked`], [`DigestedInput`]); the
//! sampler, driven with a simulated subject ([`Subject`], [`sample`],
//! [`Side`]); the bounds the documentation states ([`MAX_PROCESSES`],
//! [`MOST_LAYOUTS`]) and the settings and variables it lists ([`SETTINGS`],
//! [`VARIABLES`]); how old a temporary report file is
//! before it counts as abandoned ([`STALE_AFTER`]); and [`stats`] whole,
//! whose every public function `tests/stats.rs` checks over its domain.

// `cargo-faster`.
pub use crate::harness::cli::flags::{Action, Flag, Format};
pub use crate::harness::cli::{Beside, Cli, Known, Own, QUICK_MAX_TIME, partition_from_env};
pub use crate::harness::lock::{Held, lock, lock_shared, try_lock};
pub use crate::harness::{
    AGAINST_REPORTS, Against, COULD_NOT_RUN, Merge, Revision, compiled_code_against, run_against,
    run_merge, say_when_interrupted,
};
pub use crate::layout::material::{Identity, Material, link_tree};
pub use crate::layout::{LINKER_VARIABLE, Layouts, Unavailable, made_from, own_dir};
pub use crate::options::OptionSpec;
pub use crate::output::files::write_atomically;
pub use crate::output::style::ColorChoice;
pub use crate::partition::{PARTITION_VARIABLE, Partition};
pub use crate::process::{SERVE_VARIABLE, group, output as child_output};
pub use crate::report::run::{RUN_FILE, RunDocument, toolchain_name};
pub use crate::report::units::format_bytes;
pub use crate::revision::child::ServerCommand;
pub use crate::revision::machine_code::{FunctionCode, from_entry};

// Both.
pub use crate::report::document::Document;

// The accuracy suite.
pub use crate::config::Plan;
pub use crate::engine::compare::measure_fns;
pub use crate::engine::offsets::{CACHE_LINE, LAYOUTS_TO_STRATIFY};
pub use crate::engine::probe::{config as noise_probe_config, measure as measure_noise};
pub use crate::engine::replicate::{
    Replication, child_timeout, interval_over_layouts, looks_at, settled, slot_of,
};
pub use crate::harness::{Measured, run_once};
pub use crate::options::parse_duration;
pub use crate::process::{CHILD_VARIABLE, Role, command, role, say, wire};
pub use crate::report::environment::{last_level_cache_bytes, utc_now};
pub use crate::stats::samples::CONFIDENCE;
pub use crate::stats::{Interval, Placed, across_processes, by_offsets, median, variance};

// This workspace's tests and examples.
pub use crate::config::{MAX_PROCESSES, SETTINGS};
pub use crate::engine::replicate::MOST_LAYOUTS;
pub use crate::engine::sampler::{Subject, sample};
pub use crate::engine::tracked::DigestedInput;
pub use crate::harness::cli::flags::VARIABLES;
pub use crate::output::files::STALE_AFTER;
pub use crate::registry::{Comparison, Tracked, comparisons, tracked};
pub use crate::stats::samples::Side;

/// The statistics whole, for `tests/stats.rs`, which checks every public
/// function of them over its domain.
pub mod stats {
    pub use crate::stats::*;
}
