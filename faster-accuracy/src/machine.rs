//! What the figures were measured on and when: CPU model, cores, last-level
//! cache, load average and the date, read from Linux's `/proc` and `/sys`
//! (each falls back to "unknown" elsewhere).

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

/// The last-level cache's size in bytes, from cpu0's deepest cache level.
pub fn last_level_cache_bytes() -> Option<usize> {
    let mut deepest: Option<(u32, usize)> = None;
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let Ok(level) = fs::read_to_string(format!("{dir}/level")) else {
            continue;
        };
        let Ok(size) = fs::read_to_string(format!("{dir}/size")) else {
            continue;
        };
        let (Ok(level), Some(bytes)) = (level.trim().parse::<u32>(), parse_size(size.trim()))
        else {
            continue;
        };
        if deepest.is_none_or(|(deepest_level, _)| level > deepest_level) {
            deepest = Some((level, bytes));
        }
    }
    deepest.map(|(_, bytes)| bytes)
}

/// `"307200K"` → bytes.
fn parse_size(text: &str) -> Option<usize> {
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let multiplier = match unit {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => return None,
    };
    number.parse::<usize>().ok().map(|n| n * multiplier)
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

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`, from the runtime's RFC
/// 3339 timestamp (`2026-11-22T00:15:37Z`).
pub fn now_utc() -> String {
    let stamp = faster_runtime::report::environment::utc_now();
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

    #[test]
    fn cache_sizes() {
        assert_eq!(parse_size("307200K"), Some(300 << 20));
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("lots"), None);
    }
}
