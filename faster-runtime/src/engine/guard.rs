//! What disturbs timing, observed around a measurement: other processes'
//! CPU use, the hypervisor's steal, busy threads of this very process, and
//! functions that spend the measurement waiting rather than computing. (What
//! holds for the whole machine — the governor, boost, a debugger — is the
//! environment's, see `report::environment`.)
//!
//! Read from `/proc` on Linux; elsewhere, or where a file is not readable,
//! nothing is observed. The finding is a [`Load`] on the report, figures
//! only: what is worth saying about it, and how often, is the outputs'
//! business. A guard never blocks a run, since a CI runner or a container
//! must still get a verdict.

use crate::report::{Load, Notice};
use std::time::{Duration, Instant};

/// CPU accounting at one instant, in clock ticks (`/proc/stat` and friends).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CpuSnapshot {
    /// Ticks every CPU spent busy (user, nice, system, irq, softirq).
    pub busy: u64,
    /// Ticks every CPU spent idle (idle, iowait).
    pub idle: u64,
    /// Ticks the hypervisor ran something else on our virtual CPUs.
    pub steal: u64,
    /// Ticks this process used, all threads.
    pub process: u64,
    /// Ticks its children used that it has waited for (the processes of a
    /// replicated comparison): its own work, not another's load.
    pub children: u64,
    /// Ticks the measuring thread used.
    pub thread: u64,
}

/// A snapshot taken when a measurement starts or ends.
#[derive(Debug, Clone, Copy)]
pub struct Snapshot {
    at: Instant,
    cpu: Option<CpuSnapshot>,
    scheduled: Option<Scheduled>,
}

/// Reads the CPU accounting now (on the measuring thread).
pub fn snapshot() -> Snapshot {
    Snapshot {
        at: Instant::now(),
        cpu: read_cpu_snapshot(),
        scheduled: std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|text| Scheduled::parse(&text)),
    }
}

/// The measuring thread's time on a CPU and queued for one, in nanoseconds
/// (`/proc/thread-self/schedstat`): the rest of the wall time it slept or
/// waited of its own accord.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scheduled {
    /// Nanoseconds it ran.
    pub running_ns: u64,
    /// Nanoseconds it was ready to run but waited for a CPU.
    pub queued_ns: u64,
}

impl Scheduled {
    /// Parses `schedstat`'s first two fields.
    pub fn parse(text: &str) -> Option<Scheduled> {
        let mut fields = text.split_whitespace().map(str::parse::<u64>);
        Some(Scheduled {
            running_ns: fields.next()?.ok()?,
            queued_ns: fields.next()?.ok()?,
        })
    }
}

/// The warning for a measurement of `elapsed_ns` in which the measuring
/// thread ran for `running_ns` and was queued for `queued_ns`, if it slept
/// through most of the rest: the functions sleep or wait, which the wall
/// clock counts and CPU timers do not (load from other processes is queued
/// time, and not this).
pub fn waiting(elapsed_ns: f64, running_ns: f64, queued_ns: f64) -> Option<Notice> {
    let share = (elapsed_ns - running_ns - queued_ns).max(0.0) / elapsed_ns;
    (elapsed_ns > 0.0 && share > WAITING_SHARE).then_some(Notice::Asleep { share })
}

impl Snapshot {
    /// The same snapshot with every thread of this process counted as
    /// measuring: where what is measured runs on threads of its own (a
    /// software GPU such as lavapipe), their work is no disturbance.
    pub fn whole_process(self) -> Snapshot {
        Snapshot {
            cpu: self.cpu.map(|cpu| CpuSnapshot {
                thread: cpu.process,
                ..cpu
            }),
            ..self
        }
    }
}

/// Below this, tick-based accounting (10 ms ticks) says too little.
const MIN_OBSERVED: Duration = Duration::from_millis(200);
/// The measuring thread asleep (neither running nor queued to run) for more
/// than this share of the measurement: the functions wait rather than
/// compute.
const WAITING_SHARE: f64 = 0.5;

/// The other work the machine did between two snapshots, when it can be
/// told.
pub fn load_between(before: &Snapshot, after: &Snapshot) -> Option<Load> {
    let elapsed = after.at.duration_since(before.at);
    match (before.cpu, after.cpu) {
        (Some(start), Some(end)) if elapsed >= MIN_OBSERVED => load(&start, &end, cores()),
        _ => None,
    }
}

/// The notice for functions that slept or waited through most of the time
/// between two snapshots, when the scheduler's figures say so.
pub fn waiting_between(before: &Snapshot, after: &Snapshot) -> Option<Notice> {
    let (start, end) = (before.scheduled?, after.scheduled?);
    let delta = |pick: fn(&Scheduled) -> u64| pick(&end).saturating_sub(pick(&start)) as f64;
    waiting(
        after.at.duration_since(before.at).as_nanos() as f64,
        delta(|s| s.running_ns),
        delta(|s| s.queued_ns),
    )
}

/// The load two CPU snapshots show, separate from reading them so it can be
/// tested.
pub fn load(start: &CpuSnapshot, end: &CpuSnapshot, cores: usize) -> Option<Load> {
    let delta = |pick: fn(&CpuSnapshot) -> u64| pick(end).saturating_sub(pick(start)) as f64;
    let total = delta(|s| s.busy) + delta(|s| s.idle) + delta(|s| s.steal);
    if total <= 0.0 {
        return None;
    }
    let one_core = total / cores.max(1) as f64;
    Some(Load {
        other_processes: (delta(|s| s.busy) - delta(|s| s.process) - delta(|s| s.children))
            .max(0.0)
            / one_core,
        other_threads: (delta(|s| s.process) - delta(|s| s.thread)).max(0.0) / one_core,
        steal: delta(|s| s.steal) / total,
    })
}

pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn read_cpu_snapshot() -> Option<CpuSnapshot> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let process = std::fs::read_to_string("/proc/self/stat").ok()?;
    let thread = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    parse_snapshot(&stat, &process, &thread)
}

/// Parses the machine's `cpu` line of `/proc/stat`, the `utime + stime`
/// of a process's and a thread's `stat` files, and the process's
/// `cutime + cstime`.
pub fn parse_snapshot(stat: &str, process_stat: &str, thread_stat: &str) -> Option<CpuSnapshot> {
    let fields: Vec<u64> = stat
        .lines()
        .find_map(|line| line.strip_prefix("cpu "))?
        .split_whitespace()
        .map(|field| field.parse().ok())
        .collect::<Option<_>>()?;
    let field = |index: usize| fields.get(index).copied().unwrap_or(0);
    // user nice system idle iowait irq softirq steal (guest time is in user).
    Some(CpuSnapshot {
        busy: field(0) + field(1) + field(2) + field(5) + field(6),
        idle: field(3) + field(4),
        steal: field(7),
        process: cpu_ticks(process_stat, 11)?,
        children: cpu_ticks(process_stat, 13)?,
        thread: cpu_ticks(thread_stat, 11)?,
    })
}

/// Two consecutive tick counts of a `/proc/<pid>/stat` line, summed, from
/// `first` counted after the command name: 11 for `utime + stime`, 13 for
/// `cutime + cstime`. The name in parentheses may contain spaces, so fields
/// are counted after its `)`.
fn cpu_ticks(stat: &str, first: usize) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // After the name: state is field 3 of the line, utime 14 ... cstime 17.
    let ticks = |index: usize| fields.get(index)?.parse::<u64>().ok();
    Some(ticks(first)? + ticks(first + 1)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  95457 0 6563 192597 513 0 107 84 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n";
    const PROCESS: &str =
        "26466 (cargo test (x)) R 26463 26463 960 0 -1 4194304 123 0 0 0 70 30 0 0 20 0 1";

    #[test]
    fn parses_proc_files() {
        let snapshot = parse_snapshot(STAT, PROCESS, PROCESS).unwrap();
        assert_eq!(snapshot.busy, 95_457 + 6_563 + 107);
        assert_eq!(snapshot.idle, 192_597 + 513);
        assert_eq!(snapshot.steal, 84);
        assert_eq!(snapshot.process, 100);
        assert_eq!(snapshot.children, 0);
    }

    fn snapshot(busy: u64, idle: u64, steal: u64, process: u64, thread: u64) -> CpuSnapshot {
        CpuSnapshot {
            busy,
            idle,
            steal,
            process,
            children: 0,
            thread,
        }
    }

    #[test]
    fn a_quiet_machine_shows_no_other_load() {
        // 2 cores, 100 ticks each: our thread used one core, nothing else ran.
        let start = snapshot(0, 0, 0, 0, 0);
        let end = snapshot(100, 100, 0, 100, 100);
        let load = load(&start, &end, 2).unwrap();
        assert_eq!(
            (load.other_processes, load.other_threads, load.steal),
            (0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn busy_neighbours_sibling_threads_and_steal_are_each_measured() {
        let start = snapshot(0, 0, 0, 0, 0);
        // 200 ticks on 2 cores: 100 per core. Others: 180 − 130 = 50 ticks;
        // sibling threads: 130 − 100 = 30; steal: 20 of 200.
        let end = snapshot(180, 0, 20, 130, 100);
        let load = load(&start, &end, 2).unwrap();
        assert_eq!(load.other_processes, 0.5);
        assert_eq!(load.other_threads, 0.3);
        assert_eq!(load.steal, 0.1);
        assert_eq!(super::load(&start, &start, 2), None);
    }

    #[test]
    fn the_processes_of_a_replicated_comparison_are_not_another_load() {
        // A child measured on one core for the whole window, then was
        // waited for: its ticks are this run's own work.
        let start = snapshot(0, 100, 0, 0, 0);
        let end = CpuSnapshot {
            children: 100,
            ..snapshot(110, 190, 0, 10, 10)
        };
        assert_eq!(load(&start, &end, 2).unwrap().other_processes, 0.0);
    }

    #[test]
    fn functions_that_sleep_are_told_from_a_busy_machine() {
        // 100 ms: ran 20, queued 10, asleep 70.
        let notice = waiting(100e6, 20e6, 10e6).expect("asleep 70%");
        assert!(
            matches!(notice, Notice::Asleep { share } if (share - 0.7).abs() < 1e-9),
            "{notice:?}"
        );
        // Ran 20, queued 70 behind other processes: not the functions' doing.
        assert_eq!(waiting(100e6, 20e6, 70e6), None);
        assert_eq!(waiting(100e6, 100e6, 0.0), None);
        assert_eq!(waiting(0.0, 0.0, 0.0), None);
        assert_eq!(
            Scheduled::parse("123 456 7\n"),
            Some(Scheduled {
                running_ns: 123,
                queued_ns: 456
            })
        );
    }

    #[test]
    fn live_snapshots_read_on_linux() {
        if cfg!(target_os = "linux") {
            let snapshot = read_cpu_snapshot().expect("/proc is readable");
            assert!(snapshot.busy + snapshot.idle > 0);
            assert!(snapshot.thread <= snapshot.process);
        }
    }
}
