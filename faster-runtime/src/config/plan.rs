//! How the engine measures a comparison beyond what a user sets: the
//! rounds before stopping, fixed cycles for a slice, the orders' turns, the
//! precision to stop at, the warm-up, the systematic allowance and where the
//! measuring loop takes several placements. These are the engine's, tuned by
//! the accuracy suite; [`Config`](super::Config) carries them to the engine
//! and across processes, but they are no part of the public API, so they can
//! change in any release.

use crate::error::Error;
use std::time::Duration;

/// The engine's knobs for one comparison or one slice of it (see the module
/// documentation). Reached through `faster::__internal::Plan` by this
/// workspace's accuracy suite and tests, never by users.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Plan {
    /// Measure at least this many rounds before stopping on convergence.
    pub min_rounds: usize,
    /// Measure exactly this many cycles of rounds (every batch size in both
    /// orders, in every placement of the measuring loop) and stop, instead
    /// of stopping on convergence: how each slice of a replicated
    /// comparison is measured, whose precision comes from the interval over
    /// the slices rather than from inside one. `None` (the default): until
    /// convergence.
    pub cycles: Option<usize>,
    /// Whether the rounds take their orders swapped: the original second
    /// wherever it would be first. Slices of a replicated comparison in
    /// one binary take turns (see `engine::replicate::slice_config`), so a
    /// cost that falls on whichever side a round of the cycle times first
    /// falls on each side as often; across revisions they do not.
    pub swap_orders: bool,
    /// Stop once the 99% interval of the speedup is this narrow: its
    /// half-width relative to the estimate (0.01 = ±1%).
    pub target_precision: f64,
    /// The longest warm-up; it ends earlier once per-call times settle.
    pub max_warm_up: Duration,
    /// A half-width added in quadrature to every interval (0.005 = ±0.5%),
    /// for what no measurement inside one process can see: where code and
    /// data landed in memory, how long the timed batches were. Measured by
    /// the accuracy suite, whose reference measurements of the same pair
    /// differ from the engine's by up to about that much at every scale,
    /// while the statistical part alone shrinks to ±0.01%. More rounds do not
    /// shrink it; `processes = N` measures that variation directly.
    pub systematic_allowance: f64,
    /// Where the shorter function's call (summed over inputs) is under this
    /// time, the rounds take turns in several placements of the measuring
    /// loop, and the interval covers what another placement would measure;
    /// at and above it, one loop, as for every longer call. At a few
    /// nanoseconds a ratio belongs to the loop as much as to the functions:
    /// measured on this project's 2-core VM (`accuracy --placement
    /// --spread`, every run in all eight placements), the placements of a
    /// ≈ 1.3 ns call read about 20% apart (median of 60 runs), those of
    /// 4 to 100 ns calls 0.1–0.3%, no more than the statistical noise of
    /// one placement's own figure. Zero turns placements off.
    pub placement_threshold: Duration,
}

/// The default [`Plan::placement_threshold`]: twice the shortest call at
/// which the placements measured here agreed (≈ 4–5 ns), three times the
/// ≈ 3 ns call whose ratio issue 15 saw a placement move, and five times
/// under the 50 ns from which nothing may change (see the guide's
/// "Nanosecond functions: where the measuring loop lands",
/// `guide/measuring.md`).
const PLACEMENT_THRESHOLD: Duration = Duration::from_nanos(10);

/// The default [`Plan::systematic_allowance`]: 0.5%.
pub(crate) const SYSTEMATIC_ALLOWANCE: f64 = 0.005;

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            min_rounds: 5,
            cycles: None,
            swap_orders: false,
            target_precision: 0.01,
            max_warm_up: Duration::from_millis(50),
            systematic_allowance: SYSTEMATIC_ALLOWANCE,
            placement_threshold: PLACEMENT_THRESHOLD,
        }
    }
}

impl Plan {
    /// Checks that every knob is in range: a plan the accuracy suite or a
    /// test wrote by hand can be out of it.
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |reason: String| Err(Error::InvalidConfig(reason));
        if !(self.target_precision > 0.0 && self.target_precision.is_finite()) {
            return invalid(format!(
                "target_precision is {}, but must be a positive fraction",
                self.target_precision
            ));
        }
        if !(self.systematic_allowance >= 0.0 && self.systematic_allowance < 1.0) {
            return invalid(format!(
                "systematic_allowance is {}, but must be a fraction from 0 to 1",
                self.systematic_allowance
            ));
        }
        if self.min_rounds < 2 {
            return invalid("min_rounds must be at least 2 (one round of each order)".into());
        }
        Ok(())
    }
}
