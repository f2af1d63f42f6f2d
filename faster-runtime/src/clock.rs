//! Timing sources and their calibration.
//!
//! The sampler never reads `std::time` itself: it asks a [`Clock`] for readings
//! and for the nanoseconds between two of them. That keeps the engine testable
//! with a [`SimClock`] (virtual time advanced by modelled workloads) and lets a
//! user plug in another source (a cycle counter, GPU events, instruction counts).

use std::cell::Cell;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A source of timestamps the sampler measures with.
///
/// A reading is taken just before and just after a batch of calls; the
/// difference, in nanoseconds, is the batch's time. The same clock also keeps
/// the time budget, so a simulated clock makes the whole run virtual.
///
/// # Example
///
/// A clock counting in microseconds from `Instant` (coarser than the default,
/// only to show the shape):
///
/// ```
/// use faster_runtime::Clock;
/// use std::time::Instant;
///
/// struct Coarse(Instant);
///
/// impl Clock for Coarse {
///     type Reading = u128;
///     fn now(&self) -> u128 {
///         self.0.elapsed().as_micros()
///     }
///     fn nanos_between(&self, start: u128, end: u128) -> f64 {
///         (end - start) as f64 * 1_000.0
///     }
///     fn name(&self) -> &'static str {
///         "coarse"
///     }
/// }
///
/// let clock = Coarse(Instant::now());
/// let start = clock.now();
/// assert!(clock.nanos_between(start, clock.now()) >= 0.0);
/// ```
pub trait Clock {
    /// One timestamp, as cheap to take and copy as possible.
    type Reading: Copy;

    /// Takes a timestamp.
    fn now(&self) -> Self::Reading;

    /// The amount measured from `start` to `end`, in [`Clock::unit`]:
    /// nanoseconds for every source that measures time (never negative for
    /// ordered readings).
    fn nanos_between(&self, start: Self::Reading, end: Self::Reading) -> f64;

    /// A short name shown in reports.
    fn name(&self) -> &'static str;

    /// What [`Clock::nanos_between`] counts: `"ns"` for time. A source that
    /// counts something else (instructions, say) names it here, and reports
    /// show its figures in that unit.
    fn unit(&self) -> &'static str {
        "ns"
    }

    /// Nanoseconds of real time since a fixed origin, for keeping the time
    /// budget: the monotonic clock, whatever this source measures (thread CPU
    /// time or instruction counts would stretch a budget under load). Only a
    /// simulated clock has reason to answer otherwise.
    fn budget_now_ns(&self) -> f64 {
        wall_nanos() as f64
    }
}

/// The operating system's monotonic clock (`std::time::Instant`).
#[derive(Debug, Clone, Copy, Default)]
pub struct WallClock;

impl Clock for WallClock {
    type Reading = Instant;

    #[inline(always)]
    fn now(&self) -> Instant {
        Instant::now()
    }

    #[inline(always)]
    fn nanos_between(&self, start: Instant, end: Instant) -> f64 {
        end.saturating_duration_since(start).as_nanos() as f64
    }

    fn name(&self) -> &'static str {
        "monotonic clock"
    }
}

/// Which timing source measures: chosen by [`Config::timer`](crate::Config),
/// `FASTER_TIMER`, or `--timer` on `faster::main()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimerKind {
    /// The operating system's monotonic clock.
    #[default]
    Wall,
    /// The CPU's cycle counter (x86-64 TSC), converted to nanoseconds; falls
    /// back to the wall clock with a warning where it is not trustworthy.
    Cycles,
    /// CPU time of the measuring thread: time the thread spent descheduled
    /// does not count, so other processes disturb it less.
    ThreadCpu,
}

impl TimerKind {
    /// Parses `wall`, `cycles` or `thread-cpu`.
    pub fn parse(text: &str) -> Result<TimerKind, String> {
        match text.trim() {
            "wall" => Ok(TimerKind::Wall),
            "cycles" => Ok(TimerKind::Cycles),
            "thread-cpu" => Ok(TimerKind::ThreadCpu),
            other => Err(format!(
                "unknown timer `{other}`; use wall, cycles or thread-cpu"
            )),
        }
    }
}

/// The timing source the engine uses: one of the built-in sources, chosen at
/// run time. A single type, so a comparison's measuring loop is compiled
/// once whatever the choice.
#[derive(Debug, Clone, Copy)]
pub enum Timer {
    /// See [`WallClock`].
    Wall(WallClock),
    /// See [`CycleCounter`].
    Cycles(CycleCounter),
    /// See [`ThreadCpuClock`].
    ThreadCpu(ThreadCpuClock),
}

impl Timer {
    /// The source for `kind`, with the reason when it fell back to the wall
    /// clock. The cycle counter is calibrated once per process.
    pub fn select(kind: TimerKind) -> (Timer, Option<String>) {
        match kind {
            TimerKind::Wall => (Timer::Wall(WallClock), None),
            TimerKind::Cycles => match CycleCounter::shared() {
                Ok(counter) => (Timer::Cycles(counter), None),
                Err(reason) => (
                    Timer::Wall(WallClock),
                    Some(format!(
                        "the cycle counter is not usable here ({reason}); measured with the monotonic clock"
                    )),
                ),
            },
            TimerKind::ThreadCpu => match ThreadCpuClock::new() {
                Ok(clock) => (Timer::ThreadCpu(clock), None),
                Err(reason) => (
                    Timer::Wall(WallClock),
                    Some(format!(
                        "thread CPU time is not available here ({reason}); measured with the monotonic clock"
                    )),
                ),
            },
        }
    }

    /// The kind of source this is.
    pub fn kind(&self) -> TimerKind {
        match self {
            Timer::Wall(_) => TimerKind::Wall,
            Timer::Cycles(_) => TimerKind::Cycles,
            Timer::ThreadCpu(_) => TimerKind::ThreadCpu,
        }
    }
}

/// A [`Timer`] reading: wall-clock time since the process's first reading,
/// cycle-counter ticks, or thread CPU nanoseconds.
#[derive(Debug, Clone, Copy)]
pub struct TimerReading(u64);

impl Clock for Timer {
    type Reading = TimerReading;

    #[inline(always)]
    fn now(&self) -> TimerReading {
        TimerReading(match self {
            Timer::Wall(_) => wall_nanos(),
            Timer::Cycles(counter) => counter.ticks(),
            Timer::ThreadCpu(clock) => clock.nanos(),
        })
    }

    #[inline(always)]
    fn nanos_between(&self, start: TimerReading, end: TimerReading) -> f64 {
        let delta = end.0.saturating_sub(start.0) as f64;
        match self {
            Timer::Cycles(counter) => delta * counter.ns_per_tick,
            Timer::Wall(_) | Timer::ThreadCpu(_) => delta,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Timer::Wall(clock) => clock.name(),
            Timer::Cycles(counter) => counter.name(),
            Timer::ThreadCpu(clock) => clock.name(),
        }
    }
}

/// Monotonic nanoseconds since this process first asked.
#[inline(always)]
fn wall_nanos() -> u64 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// The CPU's time-stamp counter on x86-64, read with fences so the reading
/// neither starts before earlier instructions finish nor lets later ones
/// start early, converted to nanoseconds at a rate calibrated against the
/// monotonic clock.
#[derive(Debug, Clone, Copy)]
pub struct CycleCounter {
    ns_per_tick: f64,
}

impl CycleCounter {
    /// The process's counter, calibrated on first use (≈ 20 ms), or why it
    /// cannot be trusted: not x86-64, or a CPU that does not promise an
    /// invariant rate (CPUID leaf 0x8000_0007, EDX bit 8).
    pub fn shared() -> Result<CycleCounter, String> {
        static SHARED: OnceLock<Result<CycleCounter, String>> = OnceLock::new();
        SHARED.get_or_init(CycleCounter::calibrated).clone()
    }

    /// Nanoseconds per tick (the inverse of the counter's frequency).
    pub fn ns_per_tick(&self) -> f64 {
        self.ns_per_tick
    }

    fn calibrated() -> Result<CycleCounter, String> {
        if !invariant_tsc() {
            return Err("the CPU does not report an invariant time-stamp counter".into());
        }
        // Two 10 ms spans must agree: a rate that moves is not a clock.
        let span = |length: Duration| {
            let (start_instant, start_ticks) = (Instant::now(), read_tsc());
            while start_instant.elapsed() < length {
                std::hint::spin_loop();
            }
            let (ticks, elapsed) = (
                read_tsc().wrapping_sub(start_ticks),
                start_instant.elapsed(),
            );
            elapsed.as_nanos() as f64 / ticks as f64
        };
        let (first, second) = (
            span(Duration::from_millis(10)),
            span(Duration::from_millis(10)),
        );
        if !(first.is_finite() && first > 0.0) || (first / second - 1.0).abs() > 0.01 {
            return Err(format!(
                "its rate against the monotonic clock was unstable ({:.4} vs {:.4} ns per tick)",
                first, second
            ));
        }
        Ok(CycleCounter {
            ns_per_tick: (first + second) / 2.0,
        })
    }

    #[inline(always)]
    fn ticks(&self) -> u64 {
        read_tsc()
    }
}

impl Clock for CycleCounter {
    type Reading = u64;

    #[inline(always)]
    fn now(&self) -> u64 {
        self.ticks()
    }

    #[inline(always)]
    fn nanos_between(&self, start: u64, end: u64) -> f64 {
        end.saturating_sub(start) as f64 * self.ns_per_tick
    }

    fn name(&self) -> &'static str {
        "cycle counter"
    }
}

#[cfg(target_arch = "x86_64")]
fn invariant_tsc() -> bool {
    use std::arch::x86_64::__cpuid;
    let highest_extended_leaf = __cpuid(0x8000_0000).eax;
    highest_extended_leaf >= 0x8000_0007 && (__cpuid(0x8000_0007).edx >> 8) & 1 == 1
}

#[cfg(not(target_arch = "x86_64"))]
fn invariant_tsc() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn read_tsc() -> u64 {
    use std::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: LFENCE (SSE2) and RDTSC exist on every x86-64 CPU.
    unsafe {
        _mm_lfence();
        let ticks = _rdtsc();
        _mm_lfence();
        ticks
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn read_tsc() -> u64 {
    unreachable!("CycleCounter is only constructed on x86-64")
}

/// CPU time consumed by the calling thread (`CLOCK_THREAD_CPUTIME_ID`).
///
/// Time the thread spends descheduled — another process running on its core
/// — does not count, which makes it steadier under load than the wall clock;
/// time spent in interrupts and cache misses still does.
#[derive(Debug, Clone, Copy)]
pub struct ThreadCpuClock {
    _private: (),
}

impl ThreadCpuClock {
    /// The thread CPU clock, where the operating system has one.
    pub fn new() -> Result<ThreadCpuClock, String> {
        if cfg!(unix) {
            Ok(ThreadCpuClock { _private: () })
        } else {
            Err("not a Unix system".into())
        }
    }

    #[inline(always)]
    fn nanos(&self) -> u64 {
        thread_cpu_nanos()
    }
}

impl Clock for ThreadCpuClock {
    type Reading = u64;

    #[inline(always)]
    fn now(&self) -> u64 {
        self.nanos()
    }

    #[inline(always)]
    fn nanos_between(&self, start: u64, end: u64) -> f64 {
        end.saturating_sub(start) as f64
    }

    fn name(&self) -> &'static str {
        "thread CPU time"
    }
}

#[cfg(unix)]
#[inline(always)]
fn thread_cpu_nanos() -> u64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec; the clock id is a constant
    // every supported Unix defines.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    debug_assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64
}

#[cfg(not(unix))]
fn thread_cpu_nanos() -> u64 {
    unreachable!("ThreadCpuClock is only constructed on Unix")
}

/// A virtual clock for deterministic tests of the engine.
///
/// Time only moves when something calls [`SimClock::advance`] (a simulated
/// workload does, by its modelled latency) or when a reading is taken and a
/// reading cost was set. Clones share the same virtual time, so a workload
/// closure can hold one clone while the sampler holds another.
///
/// ```
/// use faster_runtime::{Clock, SimClock};
///
/// let clock = SimClock::new();
/// let start = clock.now();
/// clock.advance(1_500.0);
/// assert_eq!(clock.nanos_between(start, clock.now()), 1_500.0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SimClock {
    now_ns: Rc<Cell<f64>>,
    reading_cost_ns: f64,
}

impl SimClock {
    /// A virtual clock at time zero whose readings cost nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// A virtual clock whose every reading advances time by `reading_cost_ns`,
    /// modelling a timer with a fixed cost per sample.
    pub fn with_reading_cost(reading_cost_ns: f64) -> Self {
        SimClock {
            now_ns: Rc::default(),
            reading_cost_ns,
        }
    }

    /// Moves virtual time forward.
    pub fn advance(&self, nanos: f64) {
        self.now_ns.set(self.now_ns.get() + nanos);
    }

    /// The current virtual time in nanoseconds.
    pub fn elapsed_ns(&self) -> f64 {
        self.now_ns.get()
    }
}

impl Clock for SimClock {
    type Reading = f64;

    fn now(&self) -> f64 {
        // The cost lands half before and half after the reading, as a real
        // timer's does; a batch timed between two readings pays one cost.
        self.advance(self.reading_cost_ns / 2.0);
        let reading = self.now_ns.get();
        self.advance(self.reading_cost_ns / 2.0);
        reading
    }

    fn nanos_between(&self, start: f64, end: f64) -> f64 {
        (end - start).max(0.0)
    }

    fn name(&self) -> &'static str {
        "simulated clock"
    }

    fn budget_now_ns(&self) -> f64 {
        self.now_ns.get()
    }
}

/// What a timing source costs and how finely it ticks, measured once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// Mean nanoseconds between two back-to-back readings: what one sample
    /// pays for being timed.
    pub reading_cost_ns: f64,
    /// The smallest non-zero step seen between back-to-back readings.
    pub resolution_ns: f64,
    /// Per-call cost of the measuring loop around a function that does
    /// nothing: a function measured at about this much was probably
    /// optimized away.
    pub empty_call_ns: f64,
}

impl Calibration {
    /// How long a sample must last so the timer's cost and resolution are at
    /// most a thousandth of it (bounded below so a free simulated timer still
    /// gets samples of a sensible length).
    pub fn min_sample_ns(&self) -> f64 {
        (1_000.0 * self.reading_cost_ns.max(self.resolution_ns)).max(MIN_SAMPLE_NS)
    }
}

/// The floor under [`Calibration::min_sample_ns`]: even a perfect timer gets
/// samples long enough to average over a few hundred cycles of loop jitter.
const MIN_SAMPLE_NS: f64 = 1_000.0;

/// Measures a clock's reading cost and resolution.
///
/// Takes a few thousand back-to-back readings; costs well under a millisecond
/// on the wall clock.
pub fn calibrate<C: Clock>(clock: &C) -> Calibration {
    const READINGS: usize = 4_096;
    let mut smallest_step = f64::INFINITY;
    let first = clock.now();
    let mut previous = first;
    for _ in 0..READINGS {
        let reading = clock.now();
        let step = clock.nanos_between(previous, reading);
        if step > 0.0 && step < smallest_step {
            smallest_step = step;
        }
        previous = reading;
    }
    let reading_cost_ns = clock.nanos_between(first, previous) / READINGS as f64;
    Calibration {
        reading_cost_ns,
        resolution_ns: if smallest_step.is_finite() {
            smallest_step
        } else {
            0.0
        },
        empty_call_ns: empty_call_ns(clock),
    }
}

/// The per-call cost of the sampler's loop shape with nothing inside: the
/// fastest of a few batches of 100 000 empty calls.
fn empty_call_ns<C: Clock>(clock: &C) -> f64 {
    const CALLS: u64 = 100_000;
    let input = ();
    (0..5)
        .map(|_| {
            let start = clock.now();
            for _ in 0..CALLS {
                std::hint::black_box(std::hint::black_box(&input));
            }
            clock.nanos_between(start, clock.now()) / CALLS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_clock_charges_its_reading_cost_once_per_interval() {
        let clock = SimClock::with_reading_cost(20.0);
        let start = clock.now();
        clock.advance(100.0);
        let end = clock.now();
        assert_eq!(clock.nanos_between(start, end), 120.0);
    }

    #[test]
    fn calibration_recovers_a_simulated_reading_cost() {
        let calibration = calibrate(&SimClock::with_reading_cost(25.0));
        assert!((calibration.reading_cost_ns - 25.0).abs() < 1e-9);
        assert!((calibration.resolution_ns - 25.0).abs() < 1e-9);
        assert_eq!(calibration.min_sample_ns(), 25_000.0);
        // Empty calls cost no virtual time: only the reading remains.
        assert!((calibration.empty_call_ns - 25.0 / 100_000.0).abs() < 1e-12);
    }

    #[test]
    fn every_built_in_timer_measures_a_real_sleep() {
        for kind in [TimerKind::Wall, TimerKind::Cycles, TimerKind::ThreadCpu] {
            let (timer, fallback) = Timer::select(kind);
            if fallback.is_none() {
                assert_eq!(timer.kind(), kind);
            }
            // Spin (not sleep) so thread CPU time advances too.
            let start = timer.now();
            let wall = Instant::now();
            while wall.elapsed() < Duration::from_millis(5) {
                std::hint::spin_loop();
            }
            let measured = timer.nanos_between(start, timer.now());
            let actual = wall.elapsed().as_nanos() as f64;
            // No source may see more time than passed. Wall time and cycles
            // see all of it; thread CPU time loses what the scheduler gave
            // to others (any amount on a loaded machine), but the thread did
            // spin, so it saw some.
            assert!(
                measured <= actual * 1.05 + 1_000.0,
                "{kind:?}: {measured} vs {actual}"
            );
            match timer.kind() {
                TimerKind::Wall | TimerKind::Cycles => {
                    assert!(
                        measured >= actual * 0.95 - 1_000.0,
                        "{kind:?}: {measured} vs {actual}"
                    )
                }
                TimerKind::ThreadCpu => assert!(measured > 0.0, "{kind:?}: {measured}"),
            }
        }
    }

    #[test]
    fn timer_names_parse() {
        assert_eq!(TimerKind::parse("cycles"), Ok(TimerKind::Cycles));
        assert_eq!(TimerKind::parse("thread-cpu"), Ok(TimerKind::ThreadCpu));
        assert!(
            TimerKind::parse("sundial")
                .unwrap_err()
                .contains("wall, cycles or thread-cpu")
        );
    }

    #[test]
    fn wall_clock_calibration_is_plausible() {
        let calibration = calibrate(&WallClock);
        assert!(calibration.reading_cost_ns > 0.0);
        assert!(calibration.reading_cost_ns < 100_000.0);
        assert!(calibration.min_sample_ns() >= MIN_SAMPLE_NS);
    }
}
