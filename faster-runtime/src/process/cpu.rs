//! Which CPU a child measures on: the two children of a pair across
//! revisions (one slot) are held to one CPU of those this process may use,
//! slot after slot in turn. (A layout's server in one binary times both
//! sides itself, and is left to the scheduler: held to one CPU beside
//! other builds, its short slices were lost to them.)
//!
//! A pair across revisions times the original in one child and the
//! candidate in another, batch after batch. Left to the scheduler, the two
//! land on different CPUs, whose speed differs from moment to moment on a
//! shared machine (another tenant's work on the same core, a frequency
//! step): measured on ryu's float formatting, 16 inputs, two identical
//! revisions, the round ratios read 10–15% apart and the pairs' means 4–10%
//! apart, where on one CPU they read 3–5% and 0.4–0.9% apart. Each slot on
//! its own CPU, in turn, keeps the CPU one of the things that vary between
//! slots, which the interval over them covers, rather than one that varies
//! between the two sides of a pair, which nothing covers.

use std::process::Command;
use std::sync::OnceLock;

/// The CPUs this process could run on when it first asked: the set the
/// slots take turns on (empty where the system cannot say or hold a
/// process to one).
fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(imp::allowed)
}

/// The CPU of slot `slot` (from 1): the allowed CPUs in turn; `None` where
/// a process cannot be held to one.
pub fn of_slot(slot: u32) -> Option<usize> {
    let cpus = allowed();
    (!cpus.is_empty()).then(|| cpus[(slot.max(1) as usize - 1) % cpus.len()])
}

/// Starts `command`'s process held to the CPU of slot `slot`, where the
/// system can hold it; unchanged elsewhere.
pub fn hold(command: &mut Command, slot: u32) {
    if let Some(cpu) = of_slot(slot) {
        imp::hold(command, cpu);
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    pub fn allowed() -> Vec<usize> {
        // SAFETY: a zeroed `cpu_set_t` is an empty set, and
        // `sched_getaffinity` writes at most its size into it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let read = unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) };
        if read != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            // SAFETY: `cpu` is below the set's size.
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
            .collect()
    }

    pub fn hold(command: &mut Command, cpu: usize) {
        // SAFETY: as above; `cpu` is one `allowed` read, below the size.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        // SAFETY: runs in the child between fork and exec, where it only
        // makes one system call (async-signal-safe) on a set it owns. A
        // CPU it cannot be held to (taken away since) leaves it free, as
        // elsewhere: the measurement goes on.
        unsafe {
            command.pre_exec(move || {
                libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set);
                Ok(())
            });
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::process::Command;

    pub fn allowed() -> Vec<usize> {
        Vec::new()
    }

    pub fn hold(_: &mut Command, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_take_turns_on_the_allowed_cpus() {
        let cpus = allowed();
        if cpus.is_empty() {
            assert_eq!(of_slot(1), None);
            return;
        }
        let turns: Vec<usize> = (1..=2 * cpus.len() as u32)
            .map(|slot| of_slot(slot).unwrap())
            .collect();
        assert_eq!(turns, [cpus, cpus].concat());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_held_to_a_cpu_runs_on_it_alone() {
        let mut command = Command::new("grep");
        command.args(["Cpus_allowed_list", "/proc/self/status"]);
        hold(&mut command, 2);
        let output = command.output().unwrap();
        let line = String::from_utf8(output.stdout).unwrap();
        let cpu = of_slot(2).unwrap();
        assert_eq!(
            line.split_whitespace().last(),
            Some(cpu.to_string().as_str())
        );
    }
}
