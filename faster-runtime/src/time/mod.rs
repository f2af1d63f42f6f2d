//! Timing sources: the [`Clock`] trait, the built-in timers and their
//! selection, and calibration (what a reading costs, how finely it ticks).
//!
//! Nothing here knows about comparisons: the engine asks a clock for
//! readings, and tests swap in a [`SimClock`].

mod calibration;
mod clock;
mod timer;

pub use calibration::{Calibration, calibrate};
pub use clock::{Clock, SimClock, WallClock};
pub(crate) use timer::selected;
pub use timer::{CycleCounter, ThreadCpuClock, Timer, TimerReading};
