//! The built-in timing sources — the monotonic clock, the x86-64 cycle
//! counter, the thread's CPU time — behind one [`Timer`] type chosen at run
//! time, and [`selected`]: the timer a configuration names, calibrated once
//! per process.

use super::calibration::{Calibration, calibrate};
use super::clock::{Clock, WallClock, wall_nanos};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use crate::options::TimerKind;

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
    use std::arch::x86_64::{__cpuid, CpuidResult};
    // SAFETY: CPUID exists on every x86-64 CPU. (`__cpuid` is a safe
    // function from Rust 1.87 on, where the block is needless.)
    #[allow(unused_unsafe)]
    let cpuid = |leaf: u32| -> CpuidResult { unsafe { __cpuid(leaf) } };
    let highest_extended_leaf = cpuid(0x8000_0000).eax;
    highest_extended_leaf >= 0x8000_0007 && (cpuid(0x8000_0007).edx >> 8) & 1 == 1
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

/// The timer `kind` names, calibrated once per process, and why it fell back
/// to the wall clock if it did.
pub(crate) fn selected(kind: TimerKind) -> (Timer, Calibration, Option<String>) {
    static CALIBRATIONS: [OnceLock<Calibration>; 3] = [const { OnceLock::new() }; 3];
    let (timer, fallback) = Timer::select(kind);
    let slot = match timer.kind() {
        TimerKind::Wall => 0,
        TimerKind::Cycles => 1,
        TimerKind::ThreadCpu => 2,
    };
    let calibration = *CALIBRATIONS[slot].get_or_init(|| calibrate(&timer));
    (timer, calibration, fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
