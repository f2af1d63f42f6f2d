//! Reading an option's value from its text, the one way for every source:
//! the attribute (the text of its literal), a variable, a flag, a listing
//! across revisions (a switch, which the attribute writes `true` or
//! `false`, the runtime reads itself). A duration is read as an exact decimal, so `2.01s` is
//! 2 010 000 000 ns and not a float's neighbour; each error says what to
//! write instead.

use std::time::Duration;

/// The most processes a comparison may be measured in: the bound of
/// `processes = N`, `--processes` and `FASTER_PROCESSES`.
pub const MAX_PROCESSES: usize = 100;

/// What every duration error ends with.
const WRITE_A_DURATION: &str =
    "write a duration such as 500ms, 3s or 1.5s (units: ns, us, ms, s, m)";

/// The units of a duration, in nanoseconds.
const UNITS: [(&str, u128); 7] = [
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("min", 60_000_000_000),
];

/// The most decimals a duration's number may have: enough for a
/// nanosecond of a minute many times over, and few enough that the exact
/// arithmetic below fits in a `u128`.
const MOST_DECIMALS: usize = 27;

/// Reads a duration such as `500ms`, `3s`, `1.5s`, `.5s`, `750us` or `2m`
/// (a space may stand between the number and its unit), exactly: the
/// number is read as a decimal, and what is finer than a nanosecond is
/// dropped. None is no time at all, or longer than `u64::MAX` ns.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let trimmed = text.trim();
    let number_len = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(number_len);
    let unit = unit.trim_start();
    let error = |reason: String| Err(format!("{reason}; {WRITE_A_DURATION}"));
    if !number.contains(|c: char| c.is_ascii_digit()) {
        return error(format!("`{text}` does not start with a number"));
    }
    if unit.is_empty() {
        return error(format!("`{text}` has no unit"));
    }
    let Some(&(_, unit_ns)) = UNITS.iter().find(|(name, _)| *name == unit) else {
        return error(format!("`{text}` has an unknown unit, `{unit}`"));
    };
    let (whole, decimals) = number.split_once('.').unwrap_or((number, ""));
    if decimals.contains('.') {
        return error(format!("`{number}` is not a number"));
    }
    if decimals.len() > MOST_DECIMALS {
        return error(format!("`{number}` has more than {MOST_DECIMALS} decimals"));
    }
    // Digits only, at most 27 decimals: the decimals read, and their
    // product with a minute's nanoseconds fits in a `u128`.
    let decimals_value: u128 = decimals.parse().unwrap_or(0);
    let decimals_ns = decimals_value * unit_ns / 10u128.pow(decimals.len() as u32);
    let whole_ns = match whole {
        "" => Some(0),
        digits => digits
            .parse::<u128>()
            .ok()
            .and_then(|whole| whole.checked_mul(unit_ns)),
    };
    let Some(nanos) = whole_ns
        .and_then(|whole_ns| whole_ns.checked_add(decimals_ns))
        .and_then(|nanos| u64::try_from(nanos).ok())
    else {
        return error(format!("`{text}` is longer than a duration can be"));
    };
    if nanos == 0 {
        return error(format!("`{text}` is no time at all"));
    }
    Ok(Duration::from_nanos(nanos))
}

/// Reads a fraction above 0, such as the noise floor: `0.05` (5%), or
/// `1.0` (the candidate must be at least 2x faster).
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    let fraction: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number; write a fraction such as 0.05 for 5%"))?;
    if usable_fraction(fraction) {
        Ok(fraction)
    } else {
        Err(format!(
            "`{text}` is out of range; write a fraction above 0, such as 0.05 for 5% (1.0 for \
             at least 2x)"
        ))
    }
}

/// Whether `fraction` can be a noise floor: a finite fraction above 0.
/// There is no upper bound: 1.0 asks for at least 2x, 3.0 for at least 4x.
pub fn usable_fraction(fraction: f64) -> bool {
    fraction > 0.0 && fraction.is_finite()
}

/// Reads a whole number from 1 to `max`, such as a process count.
pub fn parse_count(text: &str, max: usize) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count) if (1..=max).contains(&count) => Ok(count),
        _ => Err(format!("`{text}` is not a whole number from 1 to {max}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_exactly() {
        let cases = [
            ("500ms", 500_000_000),
            ("3s", 3_000_000_000),
            ("1.5s", 1_500_000_000),
            ("1.1s", 1_100_000_000),
            ("2.01s", 2_010_000_000),
            ("8.2ms", 8_200_000),
            (".5s", 500_000_000),
            ("5.s", 5_000_000_000),
            ("750us", 750_000),
            ("750µs", 750_000),
            ("2m", 120_000_000_000),
            ("1.5min", 90_000_000_000),
            ("250 ns", 250),
            (" 0.25ms ", 250_000),
            ("1.9ns", 1),
            ("0.000000001s", 1),
        ];
        for (text, nanos) in cases {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_nanos(nanos)),
                "{text}"
            );
        }
    }

    #[test]
    fn a_bad_duration_says_why_and_what_to_write() {
        for (bad, reason) in [
            ("", "does not start with a number"),
            ("s", "does not start with a number"),
            (".s", "does not start with a number"),
            ("-1s", "does not start with a number"),
            ("3", "has no unit"),
            ("3 sec", "has an unknown unit, `sec`"),
            ("1e3ms", "has an unknown unit, `e3ms`"),
            ("1.2.3s", "`1.2.3` is not a number"),
            ("0s", "is no time at all"),
            ("0.1ns", "is no time at all"),
            ("99999999999m", "is longer than a duration can be"),
            (
                "1.0000000000000000000000000001s",
                "has more than 27 decimals",
            ),
        ] {
            let error = parse_duration(bad).unwrap_err();
            assert!(error.contains(reason), "{bad:?}: {error}");
            assert!(error.ends_with(WRITE_A_DURATION), "{bad:?}: {error}");
        }
        let longest = format!("{}ns", u64::MAX);
        assert_eq!(parse_duration(&longest), Ok(Duration::from_nanos(u64::MAX)));
        let error = parse_duration(&format!("{}ns", u128::from(u64::MAX) + 1)).unwrap_err();
        assert!(error.contains("longer than a duration can be"), "{error}");
    }

    #[test]
    fn fractions_are_above_zero_and_finite() {
        assert_eq!(parse_fraction("1.0"), Ok(1.0));
        assert_eq!(parse_fraction("2"), Ok(2.0));
        assert_eq!(parse_fraction(" 0.05 "), Ok(0.05));
        assert_eq!(parse_fraction("1.5e3"), Ok(1500.0));
        for unusable in ["0", "-0.1", "NaN", "inf", "-inf", "1e999"] {
            let error = parse_fraction(unusable).unwrap_err();
            assert!(
                error.starts_with(&format!(
                    "`{unusable}` is out of range; write a fraction above 0"
                )),
                "{error}"
            );
        }
        assert_eq!(
            parse_fraction("5%").unwrap_err(),
            "`5%` is not a number; write a fraction such as 0.05 for 5%"
        );
        for floor in [0.05, 0.1, 1.0 / 3.0, 2.5] {
            assert_eq!(parse_fraction(&floor.to_string()), Ok(floor));
        }
    }

    #[test]
    fn counts_are_whole_numbers_within_their_bound() {
        assert_eq!(parse_count("1", MAX_PROCESSES), Ok(1));
        assert_eq!(parse_count(" 100 ", MAX_PROCESSES), Ok(100));
        for bad in ["0", "101", "2.5", "-1", "many", ""] {
            assert_eq!(
                parse_count(bad, MAX_PROCESSES),
                Err(format!("`{bad}` is not a whole number from 1 to 100")),
            );
        }
    }
}
