//! Timing sources: the [`Clock`] trait, the built-in timers and their
//! selection ([`TimerKind`], [`Timer`]), and calibration (what a reading
//! costs, how finely it ticks).
//!
//! Public as `faster::time`: [`Clock`] is how a user supplies another
//! timing source to [`compare_fns_with_clock`](crate::compare_fns_with_clock)
//! (a cycle counter, GPU events, an instruction count), and [`SimClock`]
//! makes a test of code that measures deterministic.
//!
//! Nothing here knows about comparisons: the engine asks a clock for
//! readings, and tests swap in a [`SimClock`].

mod calibration;
mod clock;
mod timer;

pub use calibration::{Calibration, calibrate};
pub use clock::{Clock, SimClock, WallClock};
pub(crate) use timer::selected;
pub use timer::{CycleCounter, ThreadCpuClock, Timer, TimerKind, TimerReading};
