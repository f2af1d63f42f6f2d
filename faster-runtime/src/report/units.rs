//! The units figures are written in, the same in every output: durations
//! (`32.8 µs`), percentages, rates (`2.15 GFLOP/s`), speedups with their
//! direction (`1.25x faster`, `2.06x slower`), also two in one sentence
//! (`1.09x faster to 1.14x slower`). Lists of inputs are `indexes`'s.

use crate::stats::verdict::NoiseFloor;
use std::fmt;

/// A duration in nanoseconds in the unit that keeps 3 significant digits
/// readable: `0.81 ns`, `32.8 µs`, `1.20 s`.
pub fn format_ns(nanos: f64) -> String {
    format_ns_with(nanos, 0)
}

/// Two durations as [`format_ns`] writes them, with up to two more
/// decimals where they would otherwise read the same: beside a ratio that
/// says they differ, `28.6 ns → 28.6 ns` reads `28.62 ns → 28.64 ns`.
/// Durations that are the same to 5 significant digits stay alike.
pub fn format_ns_apart(one: f64, other: f64) -> [String; 2] {
    (0..=2)
        .map(|more| [format_ns_with(one, more), format_ns_with(other, more)])
        .find(|[one, other]| one != other)
        .unwrap_or_else(|| [format_ns(one), format_ns(other)])
}

/// A duration as [`format_ns`] writes it, with `more` decimals.
fn format_ns_with(nanos: f64, more: usize) -> String {
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
    } + more;
    format!("{value:.decimals$} {unit}")
}

/// A fraction as a percentage to one decimal, without a needless one:
/// `5%`, `2.5%`, `100%` (0.996 too: `.0` is dropped after rounding); under
/// 0.1%, to its first significant digit: `0.01%`.
pub fn format_percent(fraction: f64) -> String {
    let percent = fraction * 100.0;
    // A floor of 0.01% must not read as 0%: under a tenth of a percent,
    // as many decimals as its first significant digit needs.
    let decimals = if percent != 0.0 && percent.abs() < 0.1 {
        (-percent.abs().log10()).ceil() as usize
    } else {
        1
    };
    let percent = format!("{percent:.decimals$}");
    format!("{}%", percent.trim_end_matches('0').trim_end_matches('.'))
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

/// A speedup's figure and direction at `decimals`, as people say it: the
/// larger of the two times over the smaller (`1.25`) and `faster` or
/// `slower`, or no direction where the figure rounds to one.
fn speed_parts(speedup: f64, decimals: usize) -> (String, Option<&'static str>) {
    let slower = speedup < 1.0;
    let figure = if slower { 1.0 / speedup } else { speedup };
    let shown = format!("{figure:.decimals$}");
    let direction = if shown == format!("{:.decimals$}", 1.0) {
        None
    } else if slower {
        Some("slower")
    } else {
        Some("faster")
    };
    (shown, direction)
}

/// The fewest decimals (two to four) at which two speedups read apart, so
/// that two figures on either side of a threshold never print alike
/// (`1.01x against 1.01x slower` were 0.990 and 0.994 across 1/1.01).
pub fn decimals_apart(one: f64, other: f64) -> usize {
    (2..4)
        .find(|&decimals| speed_parts(one, decimals) != speed_parts(other, decimals))
        .unwrap_or(4)
}

/// Two speedups in one sentence, in one unit (`x`) and each in the
/// direction it reads, joined by `joiner` (` to `, ` against `): `1.02x to
/// 1.27x faster` where they share a direction, `1.09x faster to 1.14x
/// slower` where they do not. So a range never reads `0.92x to 1.14x
/// slower`, whose first figure means faster.
pub fn format_speeds(first: f64, second: f64, joiner: &str, decimals: usize) -> String {
    let (first, first_direction) = speed_parts(first, decimals);
    let (second, second_direction) = speed_parts(second, decimals);
    match (first_direction, second_direction) {
        (Some(one), Some(other)) if one != other => {
            format!("{first}x {one}{joiner}{second}x {other}")
        }
        (one, other) => {
            let direction = one.or(other).map_or_else(String::new, |d| format!(" {d}"));
            format!("{first}x{joiner}{second}x{direction}")
        }
    }
}

/// A speedup as people say it: `1.25x faster`, `1.25x slower`, with the
/// interval in the same direction, or, where it reaches across 1.00, each
/// bound in its own (`1.01x slower [99% CI 1.09x faster – 1.12x slower]`);
/// three decimals when the interval is too narrow for two, and no direction
/// for a ratio that rounds to one.
pub struct Ratio(pub f64, pub Option<(f64, f64)>);

impl Ratio {
    /// Its text where its interval is judged against `noise_floor`: three
    /// decimals also where two would show a bound at a threshold's figure
    /// (`1.05x`, or `0.95x` for 1/1.05), so two verdicts on either side of
    /// it never read the same interval (`[0.95x – 1.05x]` was printed both
    /// `✓ within noise` and `? undecided`; now `[1.048x slower – 1.048x
    /// faster]` and `[1.053x slower – 1.048x faster]`).
    pub fn judged(&self, noise_floor: NoiseFloor) -> String {
        let mut text = String::new();
        let _ = self.write(&mut text, Some(noise_floor));
        text
    }

    fn write(&self, f: &mut impl fmt::Write, noise_floor: Option<NoiseFloor>) -> fmt::Result {
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
        let at_threshold = |(from, to): (f64, f64)| {
            let Some(floor) = noise_floor else {
                return false;
            };
            let shown = |value: f64| format!("{value:.2}");
            // A bound across 1.00 is shown turned round (`1.048x slower`).
            [from, to, 1.0 / from, 1.0 / to].into_iter().any(|bound| {
                [floor.faster_from(), floor.slower_from()]
                    .into_iter()
                    .any(|threshold| shown(bound) == shown(threshold))
            })
        };
        let decimals = match interval {
            Some((from, to)) if to.is_finite() && to - from < 0.03 => 3,
            Some(bounds) if bounds.1.is_finite() && at_threshold(bounds) => 3,
            _ => 2,
        };
        let (figure, direction) = speed_parts(speedup, decimals);
        write!(f, "{figure}x")?;
        if let Some(direction) = direction {
            write!(f, " {direction}")?;
        }
        // A bound on the other side of 1.00 reads in its own direction:
        // `1.01x slower [0.92x – 1.12x]` had its 0.92x mean 1.09x faster.
        let across = |(from, _): (f64, f64)| {
            from < 1.0
                && speed_parts(turn(from), decimals)
                    .1
                    .is_some_and(|bound| Some(bound) != direction)
        };
        match interval {
            Some(bounds) if bounds.1.is_finite() && across(bounds) => {
                let (from, to) = bounds;
                write!(
                    f,
                    " [99% CI {}]",
                    format_speeds(turn(from), turn(to), " – ", decimals)
                )
            }
            Some((from, to)) if to.is_finite() => {
                write!(f, " [99% CI {from:.decimals$}x – {to:.decimals$}x]")
            }
            Some(_) => f.write_str(" [99% CI: too few rounds]"),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, None)
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
        assert_eq!(format_percent(0.0001), "0.01%");
        assert_eq!(format_percent(0.000_99), "0.1%");
        assert_eq!(format_percent(0.0), "0%");
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
    fn a_bound_at_a_thresholds_figure_gets_a_third_decimal() {
        // The two runs hex's encode read: one decided within noise, one not.
        let within = Ratio(1.0, Some((0.9542, 1.0480))).judged(NoiseFloor::new(0.05));
        let undecided = Ratio(1.0, Some((0.9499, 1.0480))).judged(NoiseFloor::new(0.05));
        assert_eq!(within, "1.000x [99% CI 1.048x slower – 1.048x faster]");
        assert_eq!(undecided, "1.000x [99% CI 1.053x slower – 1.048x faster]");
        // Away from the thresholds, two decimals as before.
        assert_eq!(
            Ratio(1.0, Some((0.96, 1.04))).judged(NoiseFloor::new(0.05)),
            "1.00x [99% CI 1.04x slower – 1.04x faster]"
        );
        assert_eq!(
            Ratio(1.0, Some((0.9542, 1.0480))).to_string(),
            "1.00x [99% CI 1.05x slower – 1.05x faster]"
        );
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
            "1.000x [99% CI 1.002x slower – 1.003x faster]"
        );
        assert_eq!(
            Ratio(1.0, Some((0.0, f64::INFINITY))).to_string(),
            "1.00x [99% CI: too few rounds]"
        );
    }

    #[test]
    fn an_interval_across_one_gives_each_bound_its_direction() {
        // The issue's `1.01x slower [99% CI 0.92x – 1.12x]`: its first bound
        // meant 1.09x faster.
        assert_eq!(
            Ratio(0.99, Some((1.0 / 1.12, 1.0 / 0.92))).to_string(),
            "1.01x slower [99% CI 1.09x faster – 1.12x slower]"
        );
        assert_eq!(
            Ratio(1.4, Some((0.96, 1.9))).to_string(),
            "1.40x faster [99% CI 1.04x slower – 1.90x faster]"
        );
        // A bound that rounds to one has no other side to read on.
        assert_eq!(
            Ratio(0.95, Some((0.893, 0.998))).to_string(),
            "1.05x slower [99% CI 1.00x – 1.12x]"
        );
    }

    #[test]
    fn two_speeds_read_in_one_unit_each_in_its_own_direction() {
        assert_eq!(
            format_speeds(1.02, 1.27, " to ", 2),
            "1.02x to 1.27x faster"
        );
        // Layouts that once read `0.92x to 1.14x slower`: the first of them
        // was faster, and says so.
        assert_eq!(
            format_speeds(1.0 / 0.92, 1.0 / 1.14, " to ", 2),
            "1.09x faster to 1.14x slower"
        );
        assert_eq!(
            format_speeds(1.0 / 2.03, 1.0 / 1.89, " against ", 2),
            "2.03x against 1.89x slower"
        );
        // A figure that rounds to one has no direction of its own.
        assert_eq!(
            format_speeds(1.0004, 1.0012, " to ", 3),
            "1.000x to 1.001x faster"
        );
        assert_eq!(format_speeds(1.001, 0.999, " to ", 2), "1.00x to 1.00x");
        // Two figures alike at two decimals get as many more as they need.
        assert_eq!(decimals_apart(0.990, 0.994), 3);
        assert_eq!(decimals_apart(1.5, 2.0), 2);
        assert_eq!(decimals_apart(1.0001, 1.0002), 4);
    }

    #[test]
    fn two_times_beside_a_ratio_read_apart_where_they_differ() {
        assert_eq!(format_ns_apart(28.62, 28.64), ["28.62 ns", "28.64 ns"]);
        assert_eq!(format_ns_apart(3.5, 6.51), ["3.50 ns", "6.51 ns"]);
        assert_eq!(format_ns_apart(28_600.1, 28_600.2), ["28.6 µs", "28.6 µs"]);
    }
}
