//! The registry: every `#[faster::compare]` in the binary submits one static
//! [`Comparison`], and every `#[faster::track]` one static [`Tracked`],
//! through `inventory`; the harness reads them back here.

use crate::config::{Config, Settings};
use crate::engine::offsets;
use crate::engine::tracked::Served;
use crate::error::Error;
use crate::report::Measurement;

/// A comparison as the attribute registers it.
///
/// Built by the macro's expansion as a `const`; not meant to be written by
/// hand (use [`compare_fns`](crate::compare_fns) for a programmatic comparison).
#[derive(Debug)]
pub struct Comparison {
    /// The generated test's path with its crate first
    /// (`demo::sum::faster_sum_fast`); [`Comparison::test_name`] is what
    /// users see and filter on.
    pub test: &'static str,
    /// The report's heading: `sum_fast vs sum_naive`, or with the
    /// attribute's `name = "..."`, that name and the original.
    pub label: &'static str,
    /// The original, as written in the attribute (`sum_naive`).
    pub original: &'static str,
    /// Where the attribute is.
    pub file: &'static str,
    /// The attribute's line.
    pub line: u32,
    /// The attribute's own settings, stronger than the run's.
    pub settings: Settings,
    /// Whether the crate holding the attribute was built with
    /// `debug_assertions`: then timing is reported but not enforced.
    pub debug_build: bool,
    /// Checks and measures the pair with the given configuration.
    pub run: fn(&Config) -> Result<Measurement, Error>,
    /// Where the original's and the candidate's code start in this
    /// process, `[original, candidate]`; `None` for kernels on a GPU.
    pub addresses: Option<fn() -> [usize; 2]>,
}

impl Comparison {
    /// The name libtest gives the generated test, and the one `faster::main()`
    /// lists, filters and reports: its path inside the crate
    /// (`sum::faster_sum_fast`; `faster_sum_fast` at the crate's root).
    pub fn test_name(&self) -> &'static str {
        without_crate(self.test)
    }

    /// Where the original's and the candidate's code start within a cache line
    /// of code in this process (see [`offsets::in_cache_line`]), where the
    /// attribute took their addresses.
    pub fn offsets(&self) -> Option<[u8; 2]> {
        self.addresses
            .map(|addresses| offsets::in_cache_line(addresses()))
    }
}

/// A function tracked across revisions, as `#[faster::track]` registers it:
/// `cargo faster --against REV` compares it with the function of the same
/// name at revision `REV`.
///
/// Built by the macro's expansion as a `const`; not meant to be written by
/// hand.
#[derive(Debug)]
pub struct Tracked {
    /// What it is matched by across revisions: its path with its crate
    /// first (`demo::parse::parse_header`), or the attribute's
    /// `name = "..."`.
    pub name: &'static str,
    /// The generated test's path with its crate first
    /// (`demo::parse::faster_track_parse_header`).
    pub test: &'static str,
    /// Where the attribute is.
    pub file: &'static str,
    /// The attribute's line.
    pub line: u32,
    /// The attribute's own settings, stronger than the run's.
    pub settings: Settings,
    /// Whether the crate holding the attribute was built with
    /// `debug_assertions`: then timing is reported but not enforced.
    pub debug_build: bool,
    /// A digest of the function's own tokens (its doc comments aside), made
    /// by the attribute: equal in two revisions where its source is, so a
    /// change in its compiled code alone can be told apart.
    pub source_digest: u64,
    /// Collects the inputs and holds them with the function, ready to be
    /// digested and timed.
    pub open: fn() -> Result<Box<dyn Served>, Error>,
}

impl Tracked {
    /// The generated test's name as libtest lists it, without the crate
    /// (`parse::faster_track_parse_header`).
    pub fn test_name(&self) -> &'static str {
        without_crate(self.test)
    }
}

/// A path inside its crate: `demo::sum::f` → `sum::f`.
fn without_crate(path: &'static str) -> &'static str {
    match path.split_once("::") {
        Some((_crate_name, inside)) => inside,
        None => path,
    }
}

inventory::collect!(Comparison);
inventory::collect!(Tracked);

/// Every registered comparison, sorted by test name (ties by place, so the
/// order is stable from run to run).
pub fn comparisons() -> Vec<&'static Comparison> {
    let mut all: Vec<&'static Comparison> = inventory::iter::<Comparison>.into_iter().collect();
    all.sort_by_key(|comparison| (comparison.test_name(), comparison.file, comparison.line));
    all
}

/// Every function registered for tracking, sorted by name (ties by place).
pub fn tracked() -> Vec<&'static Tracked> {
    let mut all: Vec<&'static Tracked> = inventory::iter::<Tracked>.into_iter().collect();
    all.sort_by_key(|tracked| (tracked.name, tracked.file, tracked.line));
    all
}
