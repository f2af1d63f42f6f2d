//! The units figures are written in, the same in every output: durations
//! (`32.8 µs`), percentages, rates (`2.15 GFLOP/s`), speedups with their
//! direction (`1.25x faster`, `2.06x slower`) and, in warnings, the same
//! said as a change (`28% faster`, `6.4% slower`).

use std::fmt;

/// A duration in nanoseconds in the unit that keeps 3 significant digits
/// readable: `0.81 ns`, `32.8 µs`, `1.20 s`.
pub fn format_ns(nanos: f64) -> String {
    let (value, unit) = if nanos < 1e3 {
        (nanos, "ns")
    } else if nanos < 1e6 {
        (nanos / 1e3, "µs")
    } else if nanos < 1e9 {
        (nanos / 1e6, "ms")
    } else {
        (nanos / 1e9, "s")
    };
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.decimals$} {unit}")
}

/// A fraction as a percentage to one decimal, without a needless one:
/// `5%`, `2.5%`, `100%` (0.996 too: `.0` is dropped after rounding).
pub fn format_percent(fraction: f64) -> String {
    let percent = format!("{:.1}", fraction * 100.0);
    format!("{}%", percent.strip_suffix(".0").unwrap_or(&percent))
}

/// A rate in the SI prefix that keeps the column's largest value under a
/// thousand: returns the divisor and the prefix (`1e9`, `"G"`).
pub fn rate_scale(largest_per_second: f64) -> (f64, &'static str) {
    const PREFIXES: [&str; 6] = ["", "k", "M", "G", "T", "P"];
    let mut divisor = 1.0;
    for (step, prefix) in PREFIXES.iter().enumerate() {
        if largest_per_second / divisor < 999.5 || step == PREFIXES.len() - 1 {
            return (divisor, prefix);
        }
        divisor *= 1e3;
    }
    unreachable!("the last prefix always returns")
}

/// A scaled rate with three significant digits: `2.15`, `21.5`, `215`.
pub fn format_scaled(value: f64) -> String {
    let decimals = if value < 9.995 {
        2
    } else if value < 99.95 {
        1
    } else {
        0
    };
    format!("{value:.decimals$}")
}

/// A rate with its unit, scaled on its own: `2.15 GFLOP/s`, `812 MB/s`.
pub fn format_rate(per_second: f64, unit: &str) -> String {
    let (divisor, prefix) = rate_scale(per_second);
    format!("{} {prefix}{unit}", format_scaled(per_second / divisor))
}

/// A size in bytes in binary units with three significant digits:
/// `512 B`, `32.0 MiB`, `1.50 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{} {}", format_scaled(value), UNITS[unit])
    }
}

/// A speedup said as a change in plain words, for warnings and notes: the
/// candidate's time against the original's in percent under 2x (`28%
/// faster`, `6.4% slower`: it takes 6.4% longer), in times from 2x on
/// (`3.99x faster`, `2.10x slower`), and `no different` where it rounds to
/// no change. Each figure reads in its own direction, so two figures in
/// one sentence never contradict their words.
pub fn format_change(speedup: f64) -> String {
    let (factor, direction) = if speedup >= 1.0 {
        (speedup, "faster")
    } else {
        (1.0 / speedup, "slower")
    };
    if factor >= 2.0 {
        return format!("{factor:.2}x {direction}");
    }
    match format_percent(factor - 1.0).as_str() {
        "0%" => "no different".to_string(),
        percent => format!("{percent} {direction}"),
    }
}

/// A speedup as people say it: `1.25x faster`, `1.25x slower`, with the
/// interval in the same direction; three decimals when the interval is too
/// narrow for two, and no direction for a ratio that rounds to one.
pub struct Ratio(pub f64, pub Option<(f64, f64)>);

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Ratio(speedup, ci) = *self;
        let slower = speedup < 1.0;
        let turn = |ratio: f64| if slower { 1.0 / ratio } else { ratio };
        let interval = ci.map(|(low, high)| {
            if slower {
                (turn(high), turn(low))
            } else {
                (low, high)
            }
        });
        let decimals = match interval {
            Some((from, to)) if to.is_finite() && to - from < 0.03 => 3,
            _ => 2,
        };
        let figure = turn(speedup);
        write!(f, "{figure:.decimals$}x")?;
        if format!("{figure:.decimals$}") != format!("{:.decimals$}", 1.0) {
            f.write_str(if slower { " slower" } else { " faster" })?;
        }
        match interval {
            Some((from, to)) if to.is_finite() => {
                write!(f, " [99% CI {from:.decimals$}x – {to:.decimals$}x]")
            }
            Some(_) => f.write_str(" [99% CI: too few rounds]"),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(64 << 20), "64.0 MiB");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
    }

    #[test]
    fn durations() {
        assert_eq!(format_ns(0.812), "0.81 ns");
        assert_eq!(format_ns(12.34), "12.3 ns");
        assert_eq!(format_ns(999.0), "999 ns");
        assert_eq!(format_ns(32_812.0), "32.8 µs");
        assert_eq!(format_ns(1.5e6), "1.50 ms");
        assert_eq!(format_ns(2.25e9), "2.25 s");
        assert_eq!(format_percent(0.05), "5%");
        assert_eq!(format_percent(0.025), "2.5%");
        assert_eq!(format_percent(1.0), "100%");
        assert_eq!(format_percent(0.009_96), "1%");
        assert_eq!(format_percent(0.283_4), "28.3%");
    }

    #[test]
    fn rates_scale_to_three_significant_digits() {
        assert_eq!(format_rate(2.154e9, "FLOP/s"), "2.15 GFLOP/s");
        assert_eq!(format_rate(812e6, "B/s"), "812 MB/s");
        assert_eq!(format_rate(999.7e6, "B/s"), "1.00 GB/s");
        assert_eq!(format_rate(12.0, "B/s"), "12.0 B/s");
        assert_eq!(format_rate(3.2e18, "FLOP/s"), "3200 PFLOP/s");
        assert_eq!(rate_scale(45e9), (1e9, "G"));
    }

    #[test]
    fn ratios_read_in_one_direction() {
        assert_eq!(Ratio(1.25, None).to_string(), "1.25x faster");
        assert_eq!(
            Ratio(0.8, Some((0.78, 0.82))).to_string(),
            "1.25x slower [99% CI 1.22x – 1.28x]"
        );
        assert_eq!(
            Ratio(1.0004, Some((0.9981, 1.0027))).to_string(),
            "1.000x [99% CI 0.998x – 1.003x]"
        );
        assert_eq!(
            Ratio(1.0, Some((0.0, f64::INFINITY))).to_string(),
            "1.00x [99% CI: too few rounds]"
        );
    }

    #[test]
    fn changes_read_in_plain_words_each_in_its_own_direction() {
        assert_eq!(format_change(1.28), "28% faster");
        // 0.94 of the speed: the candidate takes 6.4% longer.
        assert_eq!(format_change(0.94), "6.4% slower");
        assert_eq!(format_change(1.0 / 1.028), "2.8% slower");
        assert_eq!(format_change(1.0 / 1.05), "5% slower");
        assert_eq!(format_change(3.99), "3.99x faster");
        assert_eq!(format_change(0.476), "2.10x slower");
        assert_eq!(format_change(2.0), "2.00x faster");
        assert_eq!(format_change(1.0002), "no different");
        assert_eq!(format_change(0.9998), "no different");
    }
}
