//! The plot's two upper panels: the drift of each function's per-call time
//! from round to round, and both functions' time distributions.

use super::bands::{EVERY_ROUND_UP_TO, GROUPS, bands, outline};
use super::scale::{
    Ticked, count_ticks, decimals_for, histogram, histogram_range, linear_ticks, median, off_scale,
    robust_range, rounds_axis, ticks,
};
use super::{Area, CANDIDATE, DrawResult, FONT, GRID, ORIGINAL};
use crate::report::Report;
use crate::report::units::format_ns;
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
            times
                .iter()
                .enumerate()
                .map(|(round, &t)| (round as f64, (t / median - 1.0) * 100.0))
                .collect()
        })
        .collect();
    let all: Vec<f64> = relative.iter().flatten().map(|&(_, y)| y).collect();
    let (low, high) = robust_range(&all, 1.0);
    // No time is less than nothing: the axis stops at -100%.
    let low = low.max(-100.0);
    let last = (totals[0].len().max(2) - 1) as f64;

    let y_ticks = linear_ticks(low, high, 8);
    let decimals = decimals_for(&y_ticks);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 15))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(
            Ticked::new(0.0..last, count_ticks(last, 6)),
            Ticked::new(low..high, y_ticks),
        )?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .x_desc(rounds_axis(off_scale(&all, (low, high))))
        .y_desc("% from median")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:+.decimals$}%"))
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .draw()?;
    let clamp = |y: f64| y.clamp(low, high);
    for (points, color) in [(&relative[0], ORIGINAL), (&relative[1], CANDIDATE)] {
        if points.len() <= EVERY_ROUND_UP_TO {
            chart.draw_series(LineSeries::new(
                points.iter().map(|&(x, y)| (x, clamp(y))),
                color.stroke_width(1),
            ))?;
            continue;
        }
        // Thousands of rounds: each side's median and middle 80% per group
        // of rounds, so the two sides' drift still reads as two lines.
        let groups = bands(points, GROUPS);
        chart.draw_series(std::iter::once(Polygon::new(
            outline(&groups, (low, high)),
            color.mix(0.2).filled(),
        )))?;
        chart.draw_series(LineSeries::new(
            groups.iter().map(|band| (band.x, clamp(band.middle))),
            color.stroke_width(2),
        ))?;
    }
    Ok(())
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
    // Five labels at most: a time label is wide ("300 ns").
    let ticks: Vec<f64> = ticks(low, high, 5).into_iter().map(f64::log10).collect();
    let top = tallest * 1.1;

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
        .build_cartesian_2d(
            Ticked::new(log_low..log_high, ticks),
            Ticked::new(0.0..top, count_ticks(top, 6)),
        )?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
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
    for (counts, color) in [(&counts[0], ORIGINAL), (&counts[1], CANDIDATE)] {
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
        chart.draw_series(bars)?;
    }
    Ok(())
}
