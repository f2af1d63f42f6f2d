//! The plot's scales: which range of the data an axis shows (robust to a
//! lone outlier), round tick values on log axes, histogram bins, and
//! thinning a long series to what the eye can see.

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

/// Tick values for a positive axis drawn in log space, `low..high`: powers
/// of ten with 1-2-5 (or 1-9) steps when the range spans enough of a decade
/// to hold three, else evenly spaced round values (a 7x–10x range gets
/// 7, 8, 9, 10).
pub(super) fn ticks(low: f64, high: f64) -> Vec<f64> {
    if !(low > 0.0 && high > low && high.is_finite()) {
        return Vec::new();
    }
    let within = |value: &f64| *value >= low && *value <= high;
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
        if (3..=9).contains(&found.len()) {
            return found;
        }
    }
    // A narrow range: evenly spaced round values, the finest 1-2-5 step
    // that gives at most seven.
    let magnitude = 10f64.powf((high - low).log10().floor()) / 10.0;
    let on_step = |step: f64| -> Vec<f64> {
        let start = (low / step).ceil() as i64;
        let end = (high / step).floor() as i64;
        (start..=end)
            .map(|k| k as f64 * step)
            .filter(|value| *value > 0.0)
            .collect()
    };
    [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]
        .into_iter()
        .map(|m| on_step(m * magnitude))
        .find(|found| found.len() <= 7)
        .unwrap_or_default()
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
    let sorted = sorted_finite(values);
    let Some((low, high)) = within_fences(&sorted) else {
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

fn sorted_finite(values: &[f64]) -> Vec<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// The smallest and largest of the sorted values that lie within three
/// interquartile ranges of the quartiles, widened to hold at least the
/// middle 95% (when most rounds agree closely, the fences alone would hide
/// a heavy tail that is part of the story).
fn within_fences(sorted: &[f64]) -> Option<(f64, f64)> {
    if sorted.is_empty() {
        return None;
    }
    // Nearest rank, not interpolation: among a few rounds, interpolating
    // towards a lone outlier would stretch the range to it.
    let at = |fraction: f64| sorted[((sorted.len() - 1) as f64 * fraction).round() as usize];
    let (first, third) = (at(0.25), at(0.75));
    let reach = 3.0 * (third - first);
    let low = sorted.iter().copied().find(|&v| v >= first - reach)?;
    let high = sorted.iter().copied().rev().find(|&v| v <= third + reach)?;
    Some((low.min(at(0.025)), high.max(at(0.975))))
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

/// At most about `max` points: beyond it, consecutive points are grouped
/// and each group keeps its lowest and highest, in order, so spikes stay
/// visible.
pub(super) fn decimate(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
    if points.len() <= max {
        return points.to_vec();
    }
    let group = points.len().div_ceil(max / 2);
    points
        .chunks(group)
        .flat_map(|chunk| {
            let lowest = chunk
                .iter()
                .copied()
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .expect("chunks are not empty");
            let highest = chunk
                .iter()
                .copied()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .expect("chunks are not empty");
            if lowest.0 <= highest.0 {
                [lowest, highest]
            } else {
                [highest, lowest]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers_in_every_range() {
        assert_eq!(ticks(0.3, 3.2), vec![0.5, 1.0, 2.0]);
        assert_eq!(ticks(5.5, 10.5), vec![6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(ticks(13.3, 39.0), vec![15.0, 20.0, 25.0, 30.0, 35.0]);
        assert_eq!(decimals_for(&[15.0, 20.0]), 0);
        assert_eq!(decimals_for(&[0.5, 1.0, 2.0]), 1);
        assert_eq!(decimals_for(&[0.99, 1.0, 1.01]), 2);
        assert_eq!(ticks(9e3, 2e5), vec![1e4, 2e4, 5e4, 1e5, 2e5]);
        let narrow = ticks(0.985, 1.032);
        assert!(
            narrow.len() >= 3 && narrow.iter().all(|t| (0.985..=1.032).contains(t)),
            "{narrow:?}"
        );
        assert!(ticks(0.0, 1.0).is_empty());
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
    fn decimation_keeps_extremes_in_order() {
        let points: Vec<(f64, f64)> = (0..10_000)
            .map(|i| (i as f64, if i == 5_000 { 9.0 } else { 1.0 }))
            .collect();
        let kept = decimate(&points, 1_000);
        assert!(kept.len() <= 1_002, "{}", kept.len());
        assert!(kept.iter().any(|&(_, y)| y == 9.0));
        assert!(kept.windows(2).all(|pair| pair[0].0 <= pair[1].0));
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
}
