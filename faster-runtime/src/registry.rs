//! The registry: every `#[faster::compare]` in the binary submits one static
//! [`Comparison`] through `inventory`, and the harness reads them back here.

use crate::config::{Config, Expect};
use crate::error::Error;
use crate::report::Report;
use std::time::Duration;

/// A comparison as the attribute registers it.
///
/// Built by the macro's expansion as a `const`; not meant to be written by
/// hand (use [`compare_fns`](crate::compare_fns) for a programmatic comparison).
#[derive(Debug)]
pub struct Comparison {
    /// `module_path!()::candidate` as expanded, or the attribute's `name`
    /// (then `named` is set); [`Comparison::display_name`] is what users see.
    pub name: &'static str,
    /// Whether `name` came from the attribute's `name` option.
    pub named: bool,
    /// The original, as written in the attribute (`sum_naive`).
    pub original: &'static str,
    /// Where the attribute is.
    pub file: &'static str,
    /// The attribute's line.
    pub line: u32,
    /// The attribute's own settings; `None` means "the run's default".
    pub settings: Settings,
    /// Whether the crate holding the attribute was built with
    /// `debug_assertions`: then timing is reported but not enforced.
    pub debug_build: bool,
    /// Checks and measures the pair with the given configuration.
    pub run: fn(&Config) -> Result<Report, Error>,
}

/// Per-comparison settings from the attribute, stronger than run-wide ones.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Settings {
    /// `expect = ...`
    pub expect: Option<Expect>,
    /// `noise_floor = ...`
    pub noise_floor: Option<f64>,
    /// `max_time = "..."`
    pub max_time: Option<Duration>,
    /// `processes = N`
    pub processes: Option<usize>,
}

impl Settings {
    /// No setting of its own: every one comes from the run. The expansion
    /// fills the options it does not set from here, so a new setting does not
    /// break code expanded by an older macro.
    pub const NONE: Settings = Settings {
        expect: None,
        noise_floor: None,
        max_time: None,
        processes: None,
    };

    /// `base` with these settings applied on top.
    pub fn apply(&self, base: &Config) -> Config {
        let mut config = base.clone();
        if let Some(expect) = self.expect {
            config.expect = expect;
        }
        if let Some(noise_floor) = self.noise_floor {
            config.noise_floor = noise_floor;
        }
        if let Some(max_time) = self.max_time {
            config.max_time = max_time;
        }
        if let Some(processes) = self.processes {
            config.processes = processes;
        }
        config
    }
}

impl Comparison {
    /// The name filters match and reports show: the attribute's `name`, or
    /// the candidate's path inside its crate (`sum::sum_fast`), like the
    /// test names libtest prints.
    pub fn display_name(&self) -> &'static str {
        if self.named {
            return self.name;
        }
        match self.name.split_once("::") {
            Some((_crate_name, inside)) => inside,
            None => self.name,
        }
    }
}

inventory::collect!(Comparison);

/// Every registered comparison, sorted by name (ties by place, so the order
/// is stable from run to run).
pub fn comparisons() -> Vec<&'static Comparison> {
    let mut all: Vec<&'static Comparison> = inventory::iter::<Comparison>.into_iter().collect();
    all.sort_by_key(|comparison| (comparison.display_name(), comparison.file, comparison.line));
    all
}
