//! The ratio panel: each round's ratio (original / candidate) on a log
//! axis, with the estimate, its 99% interval and the noise floor drawn over
//! it — what the verdict rests on, so the axis is chosen to show them.

use super::bands::{EVERY_ROUND_UP_TO, GROUPS, bands, outline};
use super::scale::{Ticked, body_range, count_ticks, decimals_for, off_scale, rounds_axis, ticks};
use super::{Area, BAND, DrawResult, FLOOR, FONT, GRID, RATIO};
use crate::report::{NoiseFloor, Report};
use plotters::prelude::*;

/// The ratio panel's vertical axis, in log ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RatioAxis {
    pub low: f64,
    pub high: f64,
    /// Whether the floor's thresholds and 1 are on the axis.
    pub floor_shown: bool,
}

impl RatioAxis {
    /// The axis for `log_ratios` (one a round) and the estimate `speedup`
    /// with its interval `ci`: the body of the rounds (outliers are drawn
    /// at the edge and counted), the estimate and the interval always, and
    /// the noise floor's thresholds and 1 where the rounds lie within their
    /// own spread of them (at least 25%): a 9x speedup is not squashed
    /// against a line at 1.05x, while a 2x one whose rounds spread from
    /// 1.6x to 2.6x is shown against it.
    pub(super) fn of(
        log_ratios: &[f64],
        speedup: f64,
        ci: (f64, f64),
        floor: NoiseFloor,
    ) -> RatioAxis {
        let estimate = speedup.ln();
        let (mut low, mut high) = body_range(log_ratios).unwrap_or((estimate, estimate));
        let interval = [ci.0.ln(), ci.1.ln()];
        for value in interval.into_iter().chain([estimate]) {
            if value.is_finite() {
                low = low.min(value);
                high = high.max(value);
            }
        }
        if !(low.is_finite() && high.is_finite()) {
            (low, high) = (0.0, 0.0);
        }
        let threshold = floor.log_threshold();
        let distance = if low > threshold {
            low - threshold
        } else if high < -threshold {
            -threshold - high
        } else {
            0.0
        };
        let floor_shown = distance <= (high - low).max(0.25);
        if floor_shown {
            low = low.min(-threshold);
            high = high.max(threshold);
        }
        let pad = ((high - low) * 0.06).max(1e-3);
        RatioAxis {
            low: low - pad,
            high: high + pad,
            floor_shown,
        }
    }
}

type RatioChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<Ticked, Ticked>>;

pub(super) fn draw_ratio(report: &Report, axis: RatioAxis, area: &Area<'_>) -> DrawResult {
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
    let RatioAxis { low, high, .. } = axis;
    let last = (report.round_log_ratios.len().max(2) - 1) as f64;
    let tick_values = ticks(low.exp(), high.exp(), 7);
    let decimals = decimals_for(&tick_values);
    let y_ticks: Vec<f64> = tick_values.into_iter().map(f64::ln).collect();

    let mut chart = ChartBuilder::on(area)
        .caption(
            "ratio per round: original time / candidate time",
            (FONT, 15),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(
            Ticked::new(0.0..last, count_ticks(last, 8)),
            Ticked::new(low..high, y_ticks),
        )?;
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
    let span = 0.0..last;
    if low < 0.0 && high > 0.0 {
        chart.draw_series(LineSeries::new(
            [(span.start, 0.0), (span.end, 0.0)],
            RGBColor(150, 150, 150),
        ))?;
    }
    draw_rounds(&mut chart, &points, (low, high))?;
    // What the verdict rests on goes over the rounds, never under them.
    draw_interval(&mut chart, report, &span, (low, high))?;
    if axis.floor_shown {
        let threshold = report.floor().log_threshold();
        for line in [threshold, -threshold] {
            chart.draw_series(DashedLineSeries::new(
                [(span.start, line), (span.end, line)],
                6,
                4,
                FLOOR.stroke_width(2),
            ))?;
        }
    }
    let estimate = report.speedup.ln().clamp(low, high);
    chart.draw_series(LineSeries::new(
        [(span.start, estimate), (span.end, estimate)],
        BAND.stroke_width(2),
    ))?;
    Ok(())
}

/// Every round as a point joined to the next where they are few; beyond,
/// groups of rounds as bands (see `bands`). Rounds off the scale are drawn
/// at its edge.
fn draw_rounds(
    chart: &mut RatioChart<'_, '_>,
    points: &[(f64, f64)],
    (low, high): (f64, f64),
) -> DrawResult {
    let clamp = |y: f64| y.clamp(low, high);
    if points.len() <= EVERY_ROUND_UP_TO {
        let clamped: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x, clamp(y))).collect();
        chart.draw_series(LineSeries::new(
            clamped.iter().copied(),
            RATIO.mix(0.35).stroke_width(1),
        ))?;
        chart.draw_series(
            clamped
                .iter()
                .map(|&point| Circle::new(point, 2, RATIO.mix(0.8).filled())),
        )?;
        return Ok(());
    }
    let groups = bands(points, GROUPS);
    chart.draw_series(std::iter::once(Polygon::new(
        outline(&groups, (low, high)),
        RATIO.mix(0.18).filled(),
    )))?;
    chart.draw_series(groups.iter().flat_map(|band| {
        [band.least, band.most]
            .map(|y| Circle::new((band.x, clamp(y)), 1, RATIO.mix(0.45).filled()))
    }))?;
    chart.draw_series(LineSeries::new(
        groups.iter().map(|band| (band.x, clamp(band.middle))),
        RATIO.mix(0.8).stroke_width(1),
    ))?;
    Ok(())
}

/// The 99% interval as a band with edges, so that a narrow one still shows.
fn draw_interval(
    chart: &mut RatioChart<'_, '_>,
    report: &Report,
    span: &std::ops::Range<f64>,
    (low, high): (f64, f64),
) -> DrawResult {
    let (ci_low, ci_high) = report.ci;
    if !(ci_high.is_finite() && ci_low > 0.0) {
        return Ok(());
    }
    let (bottom, top) = (ci_low.ln().max(low), ci_high.ln().min(high));
    chart.draw_series(std::iter::once(Rectangle::new(
        [(span.start, bottom), (span.end, top)],
        BAND.mix(0.22).filled(),
    )))?;
    for edge in [bottom, top] {
        chart.draw_series(LineSeries::new(
            [(span.start, edge), (span.end, edge)],
            BAND.mix(0.7).stroke_width(1),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(ratios: &[f64], speedup: f64, ci: (f64, f64)) -> RatioAxis {
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        RatioAxis::of(&logs, speedup, ci, NoiseFloor::new(0.05))
    }

    #[test]
    fn outliers_do_not_squash_the_interval_and_the_floor() {
        // 272 rounds of a function against itself under load: the body
        // within 0.9x–1.1x, a tenth of the rounds hit by interrupts (0.02x,
        // 30x).
        let mut ratios: Vec<f64> = (0..245)
            .map(|i| 0.9 + 0.2 * (i % 20) as f64 / 19.0)
            .collect();
        ratios.extend((0..27).map(|i| if i % 2 == 0 { 0.02 } else { 30.0 }));
        let shown = axis(&ratios, 0.99, (0.98, 1.03));
        assert!(shown.floor_shown);
        let (low, high) = (shown.low.exp(), shown.high.exp());
        assert!(
            low < 0.9 && low > 0.5 && high > 1.1 && high < 2.0,
            "{low} {high}"
        );
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        assert_eq!(off_scale(&logs, (shown.low, shown.high)), 27);
    }

    #[test]
    fn one_and_both_floor_lines_are_on_the_axis_near_the_rounds() {
        let threshold = NoiseFloor::new(0.05).log_threshold();
        // Rounds all a little faster: the axis reaches down past 1/1.05.
        let near = axis(&[1.06, 1.07, 1.08, 1.07], 1.07, (1.06, 1.08));
        assert!(near.floor_shown && near.low < -threshold && near.high > 1.08f64.ln());
        // Rounds spread from 1.6x to 2.6x: 2x is shown against the floor.
        let spread: Vec<f64> = (0..100).map(|i| 1.6 + i as f64 / 100.0).collect();
        assert!(axis(&spread, 2.0, (1.95, 2.05)).floor_shown);
        // 9x: the floor would squash it.
        let far = axis(&[8.5, 9.0, 9.5], 9.0, (8.8, 9.2));
        assert!(!far.floor_shown && far.low > 8f64.ln(), "{far:?}");
    }

    #[test]
    fn the_estimate_and_its_interval_are_always_on_the_axis() {
        let shown = axis(&[1.0; 5], 1.3, (1.2, 1.4));
        assert!(shown.low < 1.0f64.ln() && shown.high > 1.4f64.ln());
        // No rounds at all, or an unbounded interval: still an axis.
        let empty = RatioAxis::of(&[], 1.0, (0.0, f64::INFINITY), NoiseFloor::new(0.05));
        assert!(empty.low < 0.0 && empty.high > 0.0 && empty.floor_shown);
    }
}
