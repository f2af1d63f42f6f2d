//! The SVG plot of one comparison (behind the default-on `plots` feature):
//!
//! - top left, each function's per-call time per round relative to its own
//!   median, in time order: a drift of the machine moves both lines
//!   together;
//! - top right, both functions' per-call time distributions;
//! - bottom, the per-round ratio (original / candidate) with the estimate,
//!   its 99% interval and the noise floor: where the lines above drift
//!   together, the ratio stays flat — what interleaving buys.
//!
//! Drawn with plotters' SVG backend only, whose text is SVG `<text>` laid out
//! by the viewer: nothing here needs a font library.

use super::files::write_atomically;
use crate::report::Report;
use crate::report::units::{Ratio, format_ns};
use crate::stats;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use std::ops::Range;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 720;
const ORIGINAL: RGBColor = RGBColor(0x3b, 0x6e, 0xb5);
const CANDIDATE: RGBColor = RGBColor(0xe0, 0x7b, 0x1f);
const RATIO: RGBColor = RGBColor(0x2a, 0x2a, 0x2a);
const BAND: RGBColor = RGBColor(0x4c, 0xaf, 0x50);
const FLOOR: RGBColor = RGBColor(0xc6, 0x28, 0x28);
const GRID: RGBColor = RGBColor(0xe6, 0xe6, 0xe6);
const FONT: &str = "sans-serif";

/// At most this many points per line: a 3 s run of a fast pair has tens of
/// thousands of rounds, and a plot of them would be megabytes for nothing
/// the eye can see. Beyond it, each pixel column keeps its extremes.
const MAX_POINTS: usize = 1_200;

impl Report {
    /// The plot of this report as an SVG document (with the default-on
    /// `plots` feature): per-round times against their medians, both
    /// functions' time distributions, and the per-round ratio with the
    /// estimate, its interval and the noise floor.
    pub fn to_svg(&self) -> Result<String, String> {
        svg(self)
    }

    /// Writes [`Report::to_svg`] to `path` atomically, creating the
    /// directory.
    pub fn write_svg(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        let svg = svg(self).map_err(std::io::Error::other)?;
        write_atomically(path.as_ref(), |out| out.write_all(svg.as_bytes()))
    }
}

/// The plot of `report` as an SVG document, or why it could not be drawn.
pub fn svg(report: &Report) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        draw(report, &root).map_err(|error| format!("drawing the plot failed: {error}"))?;
        root.present()
            .map_err(|error| format!("writing the plot failed: {error}"))?;
    }
    Ok(out)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(report: &Report, root: &Area<'_>) -> DrawResult {
    root.fill(&WHITE)?;
    let (title, body) = root.split_vertically(64);
    title.draw_text(
        &report.name,
        &(FONT, 22).into_font().style(FontStyle::Bold).color(&BLACK),
        (16, 10),
    )?;
    let subtitle = format!(
        "{} → {} (best of {} runs)   {}   verdict: {} (noise floor {})",
        format_ns(report.original_ns),
        format_ns(report.candidate_ns),
        report.rounds,
        Ratio(report.speedup, Some(report.ci)),
        report.verdict,
        crate::report::units::format_percent(report.noise_floor),
    );
    title.draw_text(
        &subtitle,
        &(FONT, 15).into_font().color(&RGBColor(80, 80, 80)),
        (16, 38),
    )?;

    let (top, bottom) = body.split_vertically(330);
    let (drift, distribution) = top.split_horizontally(560);
    let totals = round_totals(report);
    draw_drift(report, &totals, &drift)?;
    draw_distribution(&totals, report.inputs.len(), &distribution)?;
    draw_ratio(report, &bottom)?;
    Ok(())
}

/// Per round, each function's per-call time summed over the inputs (the
/// quantities whose ratio is the round's ratio).
fn round_totals(report: &Report) -> [Vec<f64>; 2] {
    let rounds = report
        .inputs
        .iter()
        .map(|input| input.round_ns.len())
        .min()
        .unwrap_or(0);
    [0, 1].map(|side| {
        (0..rounds)
            .map(|round| {
                report
                    .inputs
                    .iter()
                    .map(|input| input.round_ns[round][side])
                    .sum()
            })
            .collect()
    })
}

fn draw_drift(report: &Report, totals: &[Vec<f64>; 2], area: &Area<'_>) -> DrawResult {
    let inputs = report.inputs.len();
    let caption = if inputs > 1 {
        format!("per-call time per round (sum of {inputs} inputs), vs its median")
    } else {
        "per-call time per round, vs its median".to_string()
    };
    let relative: Vec<Vec<(f64, f64)>> = totals
        .iter()
        .map(|times| {
            let median = median(times);
            let points: Vec<(f64, f64)> = times
                .iter()
                .enumerate()
                .map(|(round, &t)| (round as f64, (t / median - 1.0) * 100.0))
                .collect();
            decimate(&points, MAX_POINTS)
        })
        .collect();
    let all: Vec<f64> = relative.iter().flatten().map(|&(_, y)| y).collect();
    let (low, high) = robust_range(&all, 1.0);
    // No time is less than nothing: the axis stops at -100%.
    let low = low.max(-100.0);
    let rounds = totals[0].len().max(2) as f64;

    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..rounds - 1.0, low..high)?;
    let decimals = if high - low >= 10.0 { 0 } else { 1 };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .x_desc(rounds_axis(
            relative
                .iter()
                .map(|points| {
                    off_scale(&points.iter().map(|p| p.1).collect::<Vec<_>>(), (low, high))
                })
                .sum(),
        ))
        .y_desc("% from median")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.decimals$}%"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    for (points, color, name) in [
        (&relative[0], ORIGINAL, "original"),
        (&relative[1], CANDIDATE, "candidate"),
    ] {
        let clipped = points.iter().map(|&(x, y)| (x, y.clamp(low, high)));
        chart
            .draw_series(LineSeries::new(clipped, color.stroke_width(1)))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font((FONT, 12))
        .draw()?;
    Ok(())
}

fn draw_distribution(totals: &[Vec<f64>; 2], inputs: usize, area: &Area<'_>) -> DrawResult {
    let Some((log_low, log_high)) = histogram_range(totals) else {
        area.draw_text(
            "no rounds to plot",
            &(FONT, 14).into_font().color(&BLACK),
            (20, 40),
        )?;
        return Ok(());
    };
    let (low, high) = (10f64.powf(log_low), 10f64.powf(log_high));
    // Bins of equal width in log time: a 10x speedup puts the two
    // distributions far apart, and each keeps its shape.
    let bins = 36;
    let edges: Vec<f64> = (0..=bins)
        .map(|bin| 10f64.powf(log_low + (log_high - log_low) * bin as f64 / bins as f64))
        .collect();
    let counts: Vec<Vec<usize>> = totals
        .iter()
        .map(|times| histogram(times, &edges))
        .collect();
    let tallest = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64;
    let ticks: Vec<f64> = ticks(low, high).into_iter().map(f64::log10).collect();

    let mut chart = ChartBuilder::on(area)
        .caption(
            if inputs > 1 {
                format!("per-call time distribution (sum of {inputs} inputs)")
            } else {
                "per-call time distribution".into()
            },
            (FONT, 15),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(44)
        .build_cartesian_2d(Ticked::new(log_low..log_high, ticks), 0.0..tallest * 1.15)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .y_labels(5)
        .x_desc(
            match totals
                .iter()
                .map(|times| off_scale(times, (low, high)))
                .sum::<usize>()
            {
                0 => "per-call time (log scale)".to_string(),
                off => format!("per-call time (log scale); {off} off the scale, not shown"),
            },
        )
        .y_desc("rounds")
        .x_label_formatter(&|x| format_ns(10f64.powf(*x)))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    for (counts, color, name) in [
        (&counts[0], ORIGINAL, "original"),
        (&counts[1], CANDIDATE, "candidate"),
    ] {
        let bars = counts
            .iter()
            .enumerate()
            .filter(|(_, count)| **count > 0)
            .map(|(bin, &count)| {
                Rectangle::new(
                    [
                        (edges[bin].log10(), 0.0),
                        (edges[bin + 1].log10(), count as f64),
                    ],
                    color.mix(0.55).filled(),
                )
            });
        chart.draw_series(bars)?.label(name).legend(move |(x, y)| {
            Rectangle::new([(x, y - 5), (x + 18, y + 5)], color.mix(0.55).filled())
        });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font((FONT, 12))
        .draw()?;
    Ok(())
}

fn draw_ratio(report: &Report, area: &Area<'_>) -> DrawResult {
    // Ratios are drawn on a log axis: 2x faster and 2x slower lie equally
    // far from 1, and the estimate (a mean of log ratios) sits in the middle
    // of the points it averages.
    let points: Vec<(f64, f64)> = report
        .round_log_ratios
        .iter()
        .enumerate()
        .map(|(round, &log_ratio)| (round as f64, log_ratio))
        .filter(|(_, log_ratio)| log_ratio.is_finite())
        .collect();
    let values: Vec<f64> = points.iter().map(|&(_, y)| y).collect();
    let (mut low, mut high) = robust_range(&values, 0.0);
    let (ci_low, ci_high) = report.ci;
    let interval = ci_high.is_finite() && ci_low > 0.0;
    let estimate = report.speedup.ln();
    let mut must_show = vec![estimate];
    if interval {
        must_show.extend([ci_low.ln(), ci_high.ln()]);
    }
    for value in must_show.into_iter().filter(|v| v.is_finite()) {
        low = low.min(value);
        high = high.max(value);
    }
    // The floor's thresholds and 1 when they are near the data, so a 9x
    // speedup is not squashed against a line at 1.05.
    let near = |line: f64| line > low - 0.15 && line < high + 0.15;
    let floor_lines: Vec<f64> = [report.noise_floor.ln_1p(), -report.noise_floor.ln_1p()]
        .into_iter()
        .filter(|&line| near(line))
        .collect();
    let one_nearby = near(0.0);
    for &line in floor_lines.iter().chain(one_nearby.then_some(&0.0)) {
        low = low.min(line);
        high = high.max(line);
    }
    let pad = ((high - low) * 0.08).max(1e-4);
    let (low, high) = (low - pad, high + pad);
    let rounds = points.len().max(2) as f64;
    let tick_values = ticks(low.exp(), high.exp());
    let decimals = decimals_for(&tick_values);
    let ticks: Vec<f64> = tick_values.into_iter().map(f64::ln).collect();

    let mut chart = ChartBuilder::on(area)
        .caption(
            "ratio per round: original time / candidate time",
            (FONT, 15),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..rounds - 1.0, Ticked::new(low..high, ticks))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .x_desc(rounds_axis(off_scale(&values, (low, high))))
        .y_desc("ratio (> 1: candidate faster)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{:.decimals$}x", y.exp()))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    let span = 0.0..rounds - 1.0;
    if interval {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [
                    (span.start, ci_low.ln().max(low)),
                    (span.end, ci_high.ln().min(high)),
                ],
                BAND.mix(0.22).filled(),
            )))?
            .label("99% interval")
            .legend(|(x, y)| {
                Rectangle::new([(x, y - 5), (x + 18, y + 5)], BAND.mix(0.35).filled())
            });
    }
    for (index, &line) in floor_lines.iter().enumerate() {
        let series = chart.draw_series(DashedLineSeries::new(
            [(span.start, line), (span.end, line)],
            6,
            4,
            FLOOR.stroke_width(1),
        ))?;
        if index == 0 {
            series.label("noise floor").legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], FLOOR.stroke_width(1))
            });
        }
    }
    if one_nearby {
        chart.draw_series(LineSeries::new(
            [(span.start, 0.0), (span.end, 0.0)],
            RGBColor(150, 150, 150),
        ))?;
    }
    let kept = decimate(&points, MAX_POINTS);
    let clipped: Vec<(f64, f64)> = kept.iter().map(|&(x, y)| (x, y.clamp(low, high))).collect();
    chart
        .draw_series(LineSeries::new(
            clipped.iter().copied(),
            RATIO.mix(0.55).stroke_width(1),
        ))?
        .label("per round")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RATIO.stroke_width(1)));
    if clipped.len() <= 400 {
        chart.draw_series(
            clipped
                .iter()
                .map(|&point| Circle::new(point, 2, RATIO.filled())),
        )?;
    }
    chart
        .draw_series(LineSeries::new(
            [(span.start, estimate), (span.end, estimate)],
            BAND.stroke_width(2),
        ))?
        .label(format!("estimate {}", Ratio(report.speedup, None)))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BAND.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font((FONT, 12))
        .draw()?;
    Ok(())
}

/// A linear axis with ticks chosen by [`ticks`]: the axes in log space get
/// labels at round values of the quantity itself. (plotters'
/// `with_key_points` would do, but lacks the value formatting its mesh
/// requires.)
struct Ticked {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl Ticked {
    fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
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
fn ticks(low: f64, high: f64) -> Vec<f64> {
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
fn decimals_for(ticks: &[f64]) -> usize {
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
fn median(values: &[f64]) -> f64 {
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
fn robust_range(values: &[f64], min_span: f64) -> (f64, f64) {
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
fn off_scale(values: &[f64], (low, high): (f64, f64)) -> usize {
    values
        .iter()
        .filter(|v| v.is_finite() && !(low..=high).contains(*v))
        .count()
}

/// `round (time order)`, with how many rounds are off the scale.
fn rounds_axis(off: usize) -> String {
    match off {
        0 => "round (time order)".into(),
        1 => "round (time order); 1 round off the scale, drawn at its edge".into(),
        n => format!("round (time order); {n} rounds off the scale, drawn at its edge"),
    }
}

/// The histogram's time range, in log10 of nanoseconds: each side's times
/// within its fences (in log space), both sides together, padded by 4%.
fn histogram_range(totals: &[Vec<f64>; 2]) -> Option<(f64, f64)> {
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
fn histogram(values: &[f64], edges: &[f64]) -> Vec<usize> {
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
fn decimate(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
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
