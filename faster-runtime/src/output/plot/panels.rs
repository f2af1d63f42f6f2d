//! The plot's three panels: the drift of each function's per-call time,
//! both functions' time distributions, and the ratio of each round with the
//! estimate, its interval and the noise floor.

use super::scale::{
    Ticked, decimals_for, decimate, histogram, histogram_range, median, off_scale, robust_range,
    rounds_axis, ticks,
};
use super::{
    Area, BAND, CANDIDATE, DrawResult, FLOOR, FONT, GRID, MAX_POINTS, ORIGINAL, RATIO, draw_legend,
};
use crate::report::Report;
use crate::report::units::{Ratio, format_ns};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

pub(super) fn draw_drift(report: &Report, totals: &[Vec<f64>; 2], area: &Area<'_>) -> DrawResult {
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
    draw_legend(&mut chart)
}

pub(super) fn draw_distribution(
    totals: &[Vec<f64>; 2],
    inputs: usize,
    area: &Area<'_>,
) -> DrawResult {
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
    draw_legend(&mut chart)
}

/// The ratio panel's vertical axis, in log ratio: the data, the estimate
/// and its interval, and the floor's thresholds and 1 where they are near.
struct RatioAxis {
    low: f64,
    high: f64,
    floor_lines: Vec<f64>,
    one_nearby: bool,
}

impl RatioAxis {
    fn of(report: &Report, values: &[f64]) -> RatioAxis {
        let (mut low, mut high) = robust_range(values, 0.0);
        let (ci_low, ci_high) = report.ci;
        let mut must_show = vec![report.speedup.ln()];
        if ci_high.is_finite() && ci_low > 0.0 {
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
        RatioAxis {
            low: low - pad,
            high: high + pad,
            floor_lines,
            one_nearby,
        }
    }
}

pub(super) fn draw_ratio(report: &Report, area: &Area<'_>) -> DrawResult {
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
    let RatioAxis {
        low,
        high,
        floor_lines,
        one_nearby,
    } = RatioAxis::of(report, &values);
    let (ci_low, ci_high) = report.ci;
    let interval = ci_high.is_finite() && ci_low > 0.0;
    let estimate = report.speedup.ln();
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
    draw_floor(&mut chart, &span, &floor_lines, one_nearby)?;
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
    draw_legend(&mut chart)
}

/// The noise floor's thresholds (dashed) and the line at 1, across `span`.
fn draw_floor<'a>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, Ticked>>,
    span: &std::ops::Range<f64>,
    floor_lines: &[f64],
    one_nearby: bool,
) -> DrawResult {
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
    Ok(())
}
