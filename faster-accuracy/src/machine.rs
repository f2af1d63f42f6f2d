//! What the figures were measured on and when: CPU model, cores, load
//! average and the date, read from Linux's `/proc` (each falls back to
//! "unknown" elsewhere); the last-level cache is the runtime's
//! [`last_level_cache_bytes`](faster_runtime::__internal::last_level_cache_bytes).

use std::fs;

/// The CPU's model name.
pub fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// Hardware threads this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The 1-, 5- and 15-minute load averages, as the kernel prints them.
pub fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The machine line of a mode's header: the CPU, its cores and the load
/// average as the mode starts.
pub fn at_start() -> String {
    format!(
        "machine: {}, {} cores; load average {} at the start",
        cpu_model(),
        cores(),
        load_average()
    )
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`, from the runtime's RFC
/// 3339 timestamp (`2026-11-22T00:15:37Z`).
pub fn now_utc() -> String {
    let stamp = faster_runtime::__internal::utc_now();
    format!("{} {} UTC", &stamp[..10], &stamp[11..16])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_date_is_the_runtime_timestamp_reshaped() {
        let now = now_utc();
        assert_eq!(now.len(), "2026-11-22 00:15 UTC".len(), "{now}");
        assert!(
            now.ends_with(" UTC") && now.as_bytes()[4] == b'-' && now.as_bytes()[13] == b':',
            "{now}"
        );
    }
}
