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
//! Above them, the figures and one legend, outside every panel. Each axis
//! shows the body of its data: rounds beyond are drawn at its edge and
//! counted in its label. Thousands of rounds are drawn in groups.
//!
//! Drawn with plotters' SVG backend only, whose text is SVG `<text>` laid out
//! by the viewer: nothing here needs a font library.

mod bands;
#[cfg(test)]
mod gallery;
mod header;
mod panels;
mod ratio;
mod scale;

use super::verdict_words;
use crate::report::Report;
use crate::report::units::{Ratio, format_ns, format_percent};
use header::{Header, Swatch};
use plotters::coord::Shift;
use plotters::prelude::*;
use ratio::RatioAxis;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 760;
const ORIGINAL: RGBColor = RGBColor(0x3b, 0x6e, 0xb5);
const CANDIDATE: RGBColor = RGBColor(0xe0, 0x7b, 0x1f);
const RATIO: RGBColor = RGBColor(0x2a, 0x2a, 0x2a);
const BAND: RGBColor = RGBColor(0x4c, 0xaf, 0x50);
const FLOOR: RGBColor = RGBColor(0xc6, 0x28, 0x28);
const GRID: RGBColor = RGBColor(0xe6, 0xe6, 0xe6);
const FONT: &str = "sans-serif";

impl Report {
    /// The plot of this report as an SVG document (with the default-on
    /// `plots` feature): per-round times against their medians, both
    /// functions' time distributions, and the per-round ratio with the
    /// estimate, its interval and the noise floor.
    pub fn to_svg(&self) -> Result<String, String> {
        svg(self, false)
    }
}

/// The plot of `report` as an SVG document, or why it could not be drawn;
/// the title of a `debug_build`'s says that its timing is unoptimized
/// code's, reported and not enforced.
pub fn svg(report: &Report, debug_build: bool) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        draw(report, debug_build, &root)
            .map_err(|error| format!("drawing the plot failed: {error}"))?;
        root.present()
            .map_err(|error| format!("writing the plot failed: {error}"))?;
    }
    Ok(out)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(report: &Report, debug_build: bool, root: &Area<'_>) -> DrawResult {
    root.fill(&WHITE)?;
    let values = &report.round_log_ratios;
    let axis = RatioAxis::of(values, report.speedup, report.ci, report.floor());
    let header = header(report, debug_build, axis);
    let (top, body) = root.split_vertically(header.height());
    header.draw(&top)?;
    let (upper, lower) = body.split_vertically(330);
    let (drift, distribution) = upper.split_horizontally(560);
    let totals = round_totals(report);
    panels::draw_drift(report, &totals, &drift)?;
    panels::draw_distribution(&totals, report.inputs.len(), &distribution)?;
    ratio::draw_ratio(report, axis, &lower)?;
    Ok(())
}

/// The title, the figures and the legend of every panel's lines.
fn header(report: &Report, debug_build: bool, axis: RatioAxis) -> Header {
    let title = if debug_build {
        format!(
            "{} (a debug build: timing reported, not enforced)",
            report.name
        )
    } else {
        report.name.clone()
    };
    let verdict = if report.decided() {
        format!("verdict: {}", verdict_words(report))
    } else {
        verdict_words(report)
    };
    let figures = [
        format!(
            "{} → {} (best of {} runs)",
            format_ns(report.original_ns),
            format_ns(report.candidate_ns),
            report.rounds,
        ),
        Ratio(report.speedup, Some(report.ci)).to_string(),
        format!(
            "{verdict} (noise floor {})",
            format_percent(report.noise_floor)
        ),
    ];
    let mut legend = vec![
        (Swatch::Line(ORIGINAL, 2), "original".to_string()),
        (Swatch::Line(CANDIDATE, 2), "candidate".to_string()),
    ];
    let rounds = report.round_log_ratios.len();
    if rounds <= bands::EVERY_ROUND_UP_TO {
        legend.push((Swatch::Dot(RATIO), "ratio per round".into()));
    } else {
        let group = rounds.div_ceil(bands::GROUPS);
        legend.extend([
            (
                Swatch::Line(RATIO, 1),
                format!("median of each {group} rounds"),
            ),
            (Swatch::Box(RATIO), "their middle 80%".into()),
            (Swatch::Dot(RATIO), "their extremes".into()),
        ]);
    }
    legend.extend([
        (
            Swatch::Line(BAND, 2),
            format!("estimate {}", Ratio(report.speedup, None)),
        ),
        (Swatch::Box(BAND), "99% interval".into()),
    ]);
    let floor = format!("noise floor ±{}", format_percent(report.noise_floor));
    legend.push(if axis.floor_shown {
        (Swatch::Dashed(FLOOR), floor)
    } else if axis.low > 0.0 {
        (
            Swatch::Dashed(FLOOR),
            format!("{floor} (far below this axis)"),
        )
    } else {
        (
            Swatch::Dashed(FLOOR),
            format!("{floor} (far above this axis)"),
        )
    });
    Header::new(&title, &figures, legend, WIDTH)
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
