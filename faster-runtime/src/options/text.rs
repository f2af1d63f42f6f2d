//! A setting's value as the variables, the flags and the usage write it:
//! a switch read from `on` or `off` (the attribute writes `true` or
//! `false`, which its macro reads), a run's budget read as a duration or
//! `auto`, a switch or a duration written back as the text it is read from, and what a kind of value looks like in a line
//! of usage.

use faster_options::Kind;
use std::time::Duration;

/// `duration` as the shortest text [`parse_duration`] reads back: `3s`,
/// `1500ms`, `1234567ns`.
///
/// [`parse_duration`]: faster_options::parse_duration
pub fn duration_text(duration: Duration) -> String {
    let nanos = duration.as_nanos();
    let unit = [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us")]
        .into_iter()
        .find(|(per_unit, _)| nanos > 0 && nanos % per_unit == 0);
    match unit {
        Some((per_unit, unit)) => format!("{}{unit}", nanos / per_unit),
        None => format!("{nanos}ns"),
    }
}

/// What [`parse_run_time`] reads as a run's budget left to its
/// comparisons': the sum of their own.
pub const RUN_TIME_AUTO: &str = "auto";

/// Reads a run's budget: a duration, or `auto` (`None`: the sum of its
/// comparisons' own budgets).
pub fn parse_run_time(text: &str) -> Result<Option<Duration>, String> {
    if text.trim() == RUN_TIME_AUTO {
        return Ok(None);
    }
    faster_options::parse_duration(text)
        .map(Some)
        .map_err(|reason| format!("{reason}, or `{RUN_TIME_AUTO}`"))
}

/// Reads a switch, the one way every switch is read: `on`, `1`, `true` or
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

/// `switch` as the text [`parse_switch`] reads back: `on` or `off`.
pub fn switch_text(switch: bool) -> &'static str {
    if switch { "on" } else { "off" }
}

/// What a kind of value looks like in a line of usage; only the runtime
/// writes a usage, so the table's crate leaves it out.
pub trait ValueName {
    /// `FRACTION`, `on|off`, `faster|not_slower|report`.
    fn value_name(self) -> &'static str;
}

impl ValueName for Kind {
    fn value_name(self) -> &'static str {
        match self {
            Kind::Function => "PATH",
            Kind::Keyword(choices) => choices.joined,
            Kind::Fraction => "FRACTION",
            Kind::Duration => "DURATION",
            Kind::Count { .. } => "N",
            Kind::Text => "TEXT",
            Kind::Switch => "on|off",
            Kind::Check => "CHECK",
            Kind::Types => "TYPES",
            Kind::Crate => "PATH",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_options::parse_duration;

    #[test]
    fn durations_written_as_text_read_back() {
        for duration in [
            Duration::from_secs(3),
            Duration::from_millis(1500),
            Duration::from_micros(750),
            Duration::from_nanos(1_234_567),
            Duration::from_nanos(2_010_000_000),
        ] {
            assert_eq!(parse_duration(&duration_text(duration)), Ok(duration));
        }
        assert_eq!(duration_text(Duration::from_millis(500)), "500ms");
        assert_eq!(duration_text(Duration::from_nanos(2_010_000_000)), "2010ms");
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
        for switch in [true, false] {
            assert_eq!(parse_switch(switch_text(switch)), Ok(switch));
        }
    }
}
