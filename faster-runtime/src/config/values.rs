//! A setting's value as text, both ways: the parsers every source shares
//! (a variable, a flag, a listing across revisions), each error saying what
//! to write, and [`AsText`], which writes a value as its parser reads it
//! back.

use super::MAX_PROCESSES;
use crate::stats::verdict::{Expect, Undecided};
use crate::time::TimerKind;
use std::time::Duration;

/// A setting's value written as text its parser reads back.
pub trait AsText {
    /// The text, e.g. `0.05`, `3s`, `on`, `thread-cpu`.
    fn as_text(&self) -> String;
}

impl AsText for f64 {
    fn as_text(&self) -> String {
        // Rust writes the shortest text that reads back as the same f64.
        self.to_string()
    }
}

impl AsText for usize {
    fn as_text(&self) -> String {
        self.to_string()
    }
}

impl AsText for bool {
    fn as_text(&self) -> String {
        if *self { "on" } else { "off" }.to_string()
    }
}

impl AsText for Duration {
    fn as_text(&self) -> String {
        let nanos = self.as_nanos();
        let unit = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us")]
            .into_iter()
            .find(|(per_unit, _)| nanos > 0 && nanos / per_unit * per_unit == nanos);
        match unit {
            Some((per_unit, unit)) => format!("{}{unit}", nanos / per_unit),
            None => format!("{nanos}ns"),
        }
    }
}

impl AsText for Expect {
    fn as_text(&self) -> String {
        self.as_str().to_string()
    }
}

impl AsText for Undecided {
    fn as_text(&self) -> String {
        self.as_str().to_string()
    }
}

impl AsText for TimerKind {
    fn as_text(&self) -> String {
        self.as_str().to_string()
    }
}

/// Parses a noise floor given as a fraction above 0, e.g. `0.05` (5%), or
/// `1.0` (the candidate must be at least 2x faster).
pub fn parse_noise_floor(text: &str) -> Result<f64, String> {
    let floor: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number; write a fraction such as 0.05 for 5%"))?;
    if usable_noise_floor(floor) {
        Ok(floor)
    } else {
        Err(format!(
            "`{text}` is out of range; write a fraction above 0, such as 0.05 for 5% (1.0 for \
             at least 2x)"
        ))
    }
}

/// Whether `floor` can be a noise floor: a finite fraction above 0. There
/// is no upper bound: 1.0 asks for at least 2x, 3.0 for at least 4x.
pub(super) fn usable_noise_floor(floor: f64) -> bool {
    floor > 0.0 && floor.is_finite()
}

/// Parses a process count for replication: a whole number from 1 to
/// [`MAX_PROCESSES`].
pub fn parse_processes(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count @ 1..=MAX_PROCESSES) => Ok(count),
        _ => Err(format!(
            "`{text}` is not a process count; write a whole number from 1 to {MAX_PROCESSES}"
        )),
    }
}

/// Parses a switch, the one way every switch is read: `on`, `1`, `true` or
/// `yes`; `off`, `0`, `false` or `no`.
pub fn parse_switch(text: &str) -> Result<bool, String> {
    match text.trim() {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(format!(
            "`{text}` is neither on nor off; write `on` or `off` (or 1/0, true/false, yes/no)"
        )),
    }
}

/// Parses a duration such as `500ms`, `3s`, `1.5s`, `2m` or `750us`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let nanos_per_unit = match unit.trim() {
        "ns" => 1e0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" | "min" => 60e9,
        _ => {
            return Err(format!(
                "`{text}` has no known unit; write e.g. \"500ms\" or \"3s\""
            ));
        }
    };
    let amount: f64 = number.parse().map_err(|_| {
        format!("`{text}` does not start with a number; write e.g. \"500ms\" or \"3s\"")
    })?;
    let nanos = amount * nanos_per_unit;
    if nanos >= 1.0 && nanos < u64::MAX as f64 {
        Ok(Duration::from_nanos(nanos as u64))
    } else {
        Err(format!(
            "`{text}` is not a usable duration; write e.g. \"500ms\" or \"3s\""
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_every_unit() {
        assert_eq!(parse_duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("750us"), Ok(Duration::from_micros(750)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("3").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("0s").is_err());
    }

    #[test]
    fn every_switch_reads_one_way() {
        for on in ["on", "1", "true", "yes", " on "] {
            assert_eq!(parse_switch(on), Ok(true), "{on}");
        }
        for off in ["off", "0", "false", "no"] {
            assert_eq!(parse_switch(off), Ok(false), "{off}");
        }
        for neither in ["maybe", "", "2", "ON!"] {
            let error = parse_switch(neither).unwrap_err();
            assert!(error.contains("neither on nor off"), "{neither}: {error}");
        }
    }

    #[test]
    fn values_written_as_text_read_back() {
        for duration in [
            Duration::from_secs(3),
            Duration::from_millis(1500),
            Duration::from_micros(750),
            Duration::from_nanos(1_234_567),
        ] {
            assert_eq!(parse_duration(&duration.as_text()), Ok(duration));
        }
        assert_eq!(Duration::from_millis(500).as_text(), "500ms");
        for floor in [0.05, 0.1, 1.0 / 3.0, 2.5] {
            assert_eq!(parse_noise_floor(&floor.as_text()), Ok(floor));
        }
        for switch in [true, false] {
            assert_eq!(parse_switch(&switch.as_text()), Ok(switch));
        }
        for timer in [TimerKind::Wall, TimerKind::Cycles, TimerKind::ThreadCpu] {
            assert_eq!(TimerKind::parse(&timer.as_text()), Ok(timer));
        }
    }
}
