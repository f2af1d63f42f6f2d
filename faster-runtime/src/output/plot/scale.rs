//! The plot's scales: which range of the data an axis shows (the body of
//! the data, robust to outliers), round tick values, and histogram bins.

use crate::stats;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use std::ops::Range;

/// A linear axis with ticks chosen by [`ticks`]: the axes in log space get
/// labels at round values of the quantity itself. (plotters'
/// `with_key_points` would do, but lacks the value formatting its mesh
/// requires.)
pub(super) struct Ticked {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl Ticked {
    pub(super) fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        Ticked { range, ticks }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        if span == 0.0 {
            return (limit.0 + limit.1) / 2;
        }
        let fraction = ((value - self.range.start) / span).clamp(-1.0, 2.0);
        limit.0 + ((limit.1 - limit.0) as f64 * fraction).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// At most `most` tick values for a positive axis drawn in log space,
/// `low..high`: powers of ten with 1-2-5 (or 1-9) steps when the range
/// spans enough of a decade to hold three that reach both ends, else evenly
/// spaced round values (a 7x–10x range gets 7, 8, 9, 10).
pub(super) fn ticks(low: f64, high: f64, most: usize) -> Vec<f64> {
    if !(low > 0.0 && high > low && high.is_finite()) {
        return Vec::new();
    }
    let within = |value: &f64| *value >= low && *value <= high;
    // Each end of the axis within a third of its length of a labelled
    // value: labels from 0.6x to 1.0x leave points above 1.0x unread.
    let span = (high / low).ln();
    let reaches_both_ends = |found: &[f64]| match (found.first(), found.last()) {
        (Some(first), Some(last)) => {
            (first / low).ln() <= span / 3.0 && (high / last).ln() <= span / 3.0
        }
        _ => false,
    };
    for mantissas in [
        &[1.0][..],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ] {
        let first = low.log10().floor() as i32;
        let last = high.log10().ceil() as i32;
        let found: Vec<f64> = (first..=last)
            .flat_map(|exponent| mantissas.iter().map(move |m| m * 10f64.powi(exponent)))
            .filter(within)
            .collect();
        // Steps of one mantissa across a decade's boundary (0.9, 1, 2) are
        // uneven; evenly spaced values read better there.
        let even = mantissas.len() < 9 || within_a_decade(&found);
        if (3..=most).contains(&found.len()) && reaches_both_ends(&found) && even {
            return found;
        }
    }
    // A narrow range: evenly spaced round values, the finest 1-2-5 step
    // that gives at most `most` (each value exact: see `step_multiple`).
    let exponent = (high - low).log10().floor() as i32 - 1;
    let on_step = |m: f64, exponent: i32| -> Vec<f64> {
        let value = |k: f64| step_multiple(k, m, exponent);
        let step = value(1.0);
        let start = (low / step).ceil() as i64;
        let end = (high / step).floor() as i64;
        (start..=end)
            .map(|k| value(k as f64))
            .filter(|value| *value > 0.0)
            .collect()
    };
    (exponent..exponent + 3)
        .flat_map(|exponent| [1.0, 2.0, 5.0].map(|m| (m, exponent)))
        .map(|(m, exponent)| on_step(m, exponent))
        .find(|found| found.len() <= most)
        .unwrap_or_default()
}

/// Whether the values lie in one decade, its upper end included (6, 7,
/// 8, 9, 10).
fn within_a_decade(values: &[f64]) -> bool {
    let decade = |value: f64| (value.log10() + 1e-9).floor();
    match (values.first(), values.last()) {
        (Some(&first), Some(&last)) => {
            let upper_end = 10f64.powf(decade(first) + 1.0);
            decade(first) == decade(last) || (last - upper_end).abs() < 1e-9 * upper_end
        }
        _ => false,
    }
}

/// At most `most` ticks on a linear axis `low..=high`: the multiples of
/// the smallest 1-2-5 step that gives so few, 0 among them where it is in
/// range. Rounds and counts (from 0) get whole numbers, never a fraction a
/// count would print twice (`2, 2` for 1.5 and 2).
pub(super) fn linear_ticks(low: f64, high: f64, most: usize) -> Vec<f64> {
    if !(low.is_finite() && high.is_finite() && high > low) || most < 2 {
        return vec![low];
    }
    let mut exponent = (high - low).log10().floor() as i32 - 2;
    loop {
        for m in [1.0, 2.0, 5.0] {
            let value = |k: f64| step_multiple(k, m, exponent);
            let (first, last) = ((low / value(1.0)).ceil(), (high / value(1.0)).floor());
            if last - first < most as f64 {
                return (first as i64..=last as i64)
                    .map(|k| value(k as f64))
                    .collect();
            }
        }
        exponent += 1;
    }
}

/// The `k`th multiple of the step m·10^`exponent`, k·m divided by a power
/// of ten where the exponent is negative rather than multiplied by a
/// fraction of one: 1.2 is 1.2 and 0.3 is 0.3, not 1.2000000000000002 and
/// 0.30000000000000004.
fn step_multiple(k: f64, m: f64, exponent: i32) -> f64 {
    let scale = 10f64.powi(exponent.abs());
    if exponent < 0 {
        k * m / scale
    } else {
        k * m * scale
    }
}

/// Ticks on an axis of whole numbers from 0 to `high`: rounds, counts.
pub(super) fn count_ticks(high: f64, most: usize) -> Vec<f64> {
    let ticks = linear_ticks(0.0, high, most);
    ticks
        .into_iter()
        .filter(|tick| tick.fract() == 0.0)
        .collect()
}

/// The fewest decimals (up to 3) that print every tick exactly.
pub(super) fn decimals_for(ticks: &[f64]) -> usize {
    (0..=3)
        .find(|&decimals| {
            let scale = 10f64.powi(decimals as i32);
            ticks
                .iter()
                .all(|t| ((t * scale).round() - t * scale).abs() < 1e-6)
        })
        .unwrap_or(3)
}

/// The median of the finite values (1 when there are none, so relative
/// times stay defined).
pub(super) fn median(values: &[f64]) -> f64 {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        1.0
    } else {
        stats::median(&finite)
    }
}

/// The range a panel shows: the data within three interquartile ranges of
/// its middle half (a boxplot's fences, widened), padded by 8% and at least
/// `min_span` wide. One interrupt-hit round must not flatten the rest;
/// points beyond are drawn at the edge, and the axis says how many.
pub(super) fn robust_range(values: &[f64], min_span: f64) -> (f64, f64) {
    let Some((low, high)) = body_range(values) else {
        return (0.0, 1.0);
    };
    let pad = (high - low) * 0.08;
    let (low, high) = (low - pad, high + pad);
    if high - low < min_span {
        let middle = (low + high) / 2.0;
        (middle - min_span / 2.0, middle + min_span / 2.0)
    } else {
        (low, high)
    }
}

/// The body of the finite `values`, unpadded: see [`within_fences`].
pub(super) fn body_range(values: &[f64]) -> Option<(f64, f64)> {
    within_fences(&sorted_finite(values))
}

fn sorted_finite(values: &[f64]) -> Vec<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// The smallest and largest of the sorted values that lie within three
/// interquartile ranges of the quartiles, widened to hold at least the
/// middle 90% (a second mode of a twentieth of the rounds is part of the
/// story; interrupts that hit one round in twenty-five are not, and are
/// drawn at the edge and counted instead).
fn within_fences(sorted: &[f64]) -> Option<(f64, f64)> {
    if sorted.is_empty() {
        return None;
    }
    let last = (sorted.len() - 1) as f64;
    // Nearest rank, not interpolation: among a few rounds, interpolating
    // towards a lone outlier would stretch the range to it. The 5% ranks
    // round inwards, so that among ten rounds they are not the extremes.
    let at = |fraction: f64| sorted[(last * fraction).round() as usize];
    let (first, third) = (at(0.25), at(0.75));
    let reach = 3.0 * (third - first);
    let low = sorted.iter().copied().find(|&v| v >= first - reach)?;
    let high = sorted.iter().copied().rev().find(|&v| v <= third + reach)?;
    let (fifth, ninety_fifth) = (
        sorted[(last * 0.05).ceil() as usize],
        sorted[(last * 0.95).floor() as usize],
    );
    Some((low.min(fifth), high.max(ninety_fifth)))
}

/// How many of `values` fall outside `low..=high`.
pub(super) fn off_scale(values: &[f64], (low, high): (f64, f64)) -> usize {
    values
        .iter()
        .filter(|v| v.is_finite() && !(low..=high).contains(*v))
        .count()
}

/// `round (time order)`, with how many rounds are off the scale.
pub(super) fn rounds_axis(off: usize) -> String {
    match off {
        0 => "round (time order)".into(),
        1 => "round (time order); 1 round off the scale, drawn at its edge".into(),
        n => format!("round (time order); {n} rounds off the scale, drawn at its edge"),
    }
}

/// The histogram's time range, in log10 of nanoseconds: each side's times
/// within its fences (in log space), both sides together, padded by 4%.
pub(super) fn histogram_range(totals: &[Vec<f64>; 2]) -> Option<(f64, f64)> {
    let mut low = f64::INFINITY;
    let mut high = f64::NEG_INFINITY;
    for times in totals {
        let logs: Vec<f64> = times
            .iter()
            .filter(|t| **t > 0.0)
            .map(|t| t.log10())
            .collect();
        if let Some((side_low, side_high)) = within_fences(&sorted_finite(&logs)) {
            low = low.min(side_low);
            high = high.max(side_high);
        }
    }
    if !low.is_finite() {
        return None;
    }
    let pad = ((high - low) * 0.04).max(0.01);
    Some((low - pad, high + pad))
}

/// Counts per bin between consecutive `edges`; values outside the edges
/// are not counted (the axis says how many there are).
pub(super) fn histogram(values: &[f64], edges: &[f64]) -> Vec<usize> {
    let bins = edges.len() - 1;
    let mut counts = vec![0; bins];
    for &value in values.iter().filter(|v| v.is_finite()) {
        if value >= edges[0] && value <= edges[bins] {
            let bin = edges[1..]
                .partition_point(|&edge| edge <= value)
                .min(bins - 1);
            counts[bin] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers_in_every_range() {
        assert_eq!(ticks(0.3, 3.2, 8), vec![0.5, 1.0, 2.0]);
        assert_eq!(ticks(5.5, 10.5, 8), vec![6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(ticks(13.3, 39.0, 8), vec![15.0, 20.0, 25.0, 30.0, 35.0]);
        assert_eq!(decimals_for(&[15.0, 20.0]), 0);
        assert_eq!(decimals_for(&[0.5, 1.0, 2.0]), 1);
        assert_eq!(decimals_for(&[0.99, 1.0, 1.01]), 2);
        assert_eq!(ticks(9e3, 2e5, 8), vec![1e4, 2e4, 5e4, 1e5, 2e5]);
        let narrow = ticks(0.985, 1.032, 8);
        assert!(
            narrow.len() >= 3 && narrow.iter().all(|t| (0.985..=1.032).contains(t)),
            "{narrow:?}"
        );
        assert!(ticks(0.0, 1.0, 8).is_empty());
    }

    #[test]
    fn ticks_label_both_ends_of_the_axis() {
        // 0.6x to 1.4x: not 0.6, 0.7, 0.8, 0.9, 1.0 with nothing above.
        let around_one = ticks(0.63, 1.32, 8);
        assert_eq!(around_one, vec![0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3]);
        let twice = ticks(0.9, 2.7, 8);
        assert_eq!(twice, vec![1.0, 1.5, 2.0, 2.5]);
        // A time axis of 30 ns to 110 ns has room for five labels, not nine.
        let times = ticks(30.0, 110.0, 5);
        assert!(times.len() <= 5 && times.len() >= 3, "{times:?}");
    }

    #[test]
    fn counts_are_labelled_with_whole_numbers() {
        assert_eq!(count_ticks(4.0, 6), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(count_ticks(2.3, 6), vec![0.0, 1.0, 2.0]);
        assert_eq!(
            count_ticks(2_999.0, 6),
            vec![0.0, 500.0, 1_000.0, 1_500.0, 2_000.0, 2_500.0]
        );
        assert_eq!(count_ticks(0.0, 6), vec![0.0]);
        assert_eq!(count_ticks(0.5, 6), vec![0.0]);
        // Percentages from -45% to +30%: both sides of 0 are labelled.
        assert_eq!(
            linear_ticks(-45.0, 30.0, 8),
            vec![-40.0, -30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0]
        );
        assert_eq!(linear_ticks(-40.0, 180.0, 8), vec![0.0, 50.0, 100.0, 150.0]);
        assert_eq!(linear_ticks(-0.5, 0.5, 6), vec![-0.4, -0.2, 0.0, 0.2, 0.4]);
    }

    #[test]
    fn histograms_count_what_is_on_the_axis() {
        let edges = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(
            histogram(&[1.0, 1.5, 2.0, 3.9, 4.0, 10.0], &edges),
            vec![2, 1, 2]
        );
        assert_eq!(histogram(&[0.5], &edges), vec![0, 0, 0]);
    }

    #[test]
    fn ranges_ignore_a_lone_outlier() {
        let mut values = vec![1.0; 999];
        values.push(50.0);
        let (low, high) = robust_range(&values, 0.0);
        assert!(high < 2.0 && low <= 1.0, "{low} {high}");
        // Also among few rounds, where percentiles would keep the outlier.
        let mut few = vec![6_630.0; 31];
        few.push(500_000.0);
        let (low, high) = robust_range(&few, 1.0);
        assert!(high < 10_000.0, "{low} {high}");
        assert_eq!(off_scale(&few, (low, high)), 1);
        let (low, high) = histogram_range(&[vec![10.0, 11.0, 12.0], vec![5.0, 5.5, 6.0]]).unwrap();
        assert!(low < 5f64.log10() && high > 12f64.log10());
        let (_, high) = histogram_range(&[few.clone(), few]).unwrap();
        assert!(high < 4.0, "{high}");
    }

    #[test]
    fn ranges_hold_the_body_and_a_mode_of_a_twentieth() {
        // Interrupts in one round of 25 on each side: off the scale.
        let mut hit: Vec<f64> = (0..100).map(|i| 50.0 + (i % 10) as f64).collect();
        hit.extend([1_000.0, 2_000.0, 3_000.0, 4_000.0, 1.0, 2.0, 3.0, 4.0]);
        let (low, high) = body_range(&hit).unwrap();
        assert_eq!((low, high), (50.0, 59.0));
        assert_eq!(off_scale(&hit, (low, high)), 8);
        // A second mode of a tenth of the rounds stays on it.
        let mut modes: Vec<f64> = (0..90).map(|i| 50.0 + (i % 10) as f64 / 10.0).collect();
        modes.extend([200.0; 10]);
        assert_eq!(body_range(&modes).unwrap().1, 200.0);
        // Among ten rounds, the 5% ranks are not the extremes.
        let mut ten = vec![10.0, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7, 10.8];
        ten.push(20.0);
        assert_eq!(body_range(&ten).unwrap().1, 10.8);
    }
}
