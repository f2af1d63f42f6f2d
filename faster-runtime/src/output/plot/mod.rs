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

mod panels;
mod scale;

use super::verdict_words;
use crate::report::Report;
use crate::report::units::{Ratio, format_ns, format_percent};
use plotters::coord::Shift;
use plotters::prelude::*;

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
    let (title, body) = root.split_vertically(64);
    let heading = if debug_build {
        format!(
            "{} (a debug build: timing reported, not enforced)",
            report.name
        )
    } else {
        report.name.clone()
    };
    title.draw_text(
        &heading,
        &(FONT, 22).into_font().style(FontStyle::Bold).color(&BLACK),
        (16, 10),
    )?;
    let verdict = if report.decided() {
        format!("verdict: {}", verdict_words(report))
    } else {
        verdict_words(report)
    };
    let subtitle = format!(
        "{} → {} (best of {} runs)   {}   {verdict} (noise floor {})",
        format_ns(report.original_ns),
        format_ns(report.candidate_ns),
        report.rounds,
        Ratio(report.speedup, Some(report.ci)),
        format_percent(report.noise_floor),
    );
    title.draw_text(
        &subtitle,
        &(FONT, 15).into_font().color(&RGBColor(80, 80, 80)),
        (16, 38),
    )?;

    let (top, bottom) = body.split_vertically(330);
    let (drift, distribution) = top.split_horizontally(560);
    let totals = round_totals(report);
    panels::draw_drift(report, &totals, &drift)?;
    panels::draw_distribution(&totals, report.inputs.len(), &distribution)?;
    panels::draw_ratio(report, &bottom)?;
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

/// The legend every panel shows, in its upper right corner.
fn draw_legend<'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> DrawResult
where
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font((FONT, 12))
        .draw()?;
    Ok(())
}
