//! The plot's header: the title, the figures line (times, speedup and
//! verdict) wrapped to the plot's width, and one legend for all panels, so
//! that no legend box sits on data.
//!
//! SVG text is laid out by the viewer, so its width is not known here: it
//! is estimated from per-character widths of DejaVu Sans (the widest common
//! sans-serif; librsvg's default), which errs towards wrapping early.

use super::{Area, DrawResult, FONT};
use plotters::prelude::*;

/// The title's size in pixels, and each of its lines' height.
const TITLE_SIZE: f64 = 22.0;
const TITLE_LINE: i32 = 28;
/// The figures line's size, and each of its lines' height.
const FIGURES_SIZE: f64 = 15.0;
const FIGURES_LINE: i32 = 20;
/// The legend's size, and its row's height.
const LEGEND_SIZE: f64 = 12.0;
const LEGEND_ROW: i32 = 22;
/// The left margin, also kept free at the right.
const MARGIN: i32 = 16;

/// What a legend entry's sample looks like.
#[derive(Clone, Copy)]
pub(super) enum Swatch {
    Line(RGBColor, u32),
    Dashed(RGBColor),
    Dot(RGBColor),
    Box(RGBColor),
}

/// The header's text, already wrapped to the plot's width.
pub(super) struct Header {
    title: Vec<String>,
    figures: Vec<String>,
    legend: Vec<(Swatch, String)>,
    /// Where each legend entry goes: its left edge and its row.
    places: Vec<(i32, i32)>,
}

impl Header {
    /// The header of a plot `width` pixels wide: `figures` are the parts of
    /// the figures line, kept whole on a line where they fit.
    pub(super) fn new(
        title: &str,
        figures: &[String],
        legend: Vec<(Swatch, String)>,
        width: u32,
    ) -> Header {
        let room = f64::from(width) - 2.0 * f64::from(MARGIN);
        let widths: Vec<f64> = legend
            .iter()
            .map(|(_, text)| SWATCH + text_width(text, LEGEND_SIZE))
            .collect();
        Header {
            title: wrap(&[title.to_string()], TITLE_SIZE * BOLD, room),
            figures: wrap(figures, FIGURES_SIZE, room),
            legend,
            places: place(&widths, room),
        }
    }

    /// The header's height in pixels.
    pub(super) fn height(&self) -> u32 {
        let rows = self.places.last().map_or(0, |&(_, row)| row + 1);
        let lines = self.title.len() as i32 * TITLE_LINE
            + self.figures.len() as i32 * FIGURES_LINE
            + rows * LEGEND_ROW;
        (lines + 22) as u32
    }

    pub(super) fn draw(&self, area: &Area<'_>) -> DrawResult {
        let mut y = 10;
        let title = (FONT, TITLE_SIZE)
            .into_font()
            .style(FontStyle::Bold)
            .color(&BLACK);
        for line in &self.title {
            area.draw_text(line, &title, (MARGIN, y))?;
            y += TITLE_LINE;
        }
        let figures = (FONT, FIGURES_SIZE)
            .into_font()
            .color(&RGBColor(80, 80, 80));
        for line in &self.figures {
            area.draw_text(line, &figures, (MARGIN, y))?;
            y += FIGURES_LINE;
        }
        self.draw_legend(area, y + 10)
    }

    /// The legend in rows from `top` (the first one's middle), each entry's
    /// sample and then its label.
    fn draw_legend(&self, area: &Area<'_>, top: i32) -> DrawResult {
        let label = (FONT, LEGEND_SIZE).into_font().color(&BLACK);
        for ((swatch, text), &(left, row)) in self.legend.iter().zip(&self.places) {
            let (x, y) = (MARGIN + left, top + row * LEGEND_ROW);
            match *swatch {
                Swatch::Line(color, width) => area.draw(&PathElement::new(
                    vec![(x, y), (x + 18, y)],
                    color.stroke_width(width),
                ))?,
                Swatch::Dashed(color) => {
                    for start in [x, x + 11] {
                        area.draw(&PathElement::new(
                            vec![(start, y), (start + 7, y)],
                            color.stroke_width(1),
                        ))?;
                    }
                }
                Swatch::Dot(color) => area.draw(&Circle::new((x + 9, y), 2, color.filled()))?,
                Swatch::Box(color) => area.draw(&Rectangle::new(
                    [(x, y - 6), (x + 18, y + 6)],
                    color.mix(0.35).filled(),
                ))?,
            }
            area.draw_text(text, &label, (x + SWATCH as i32, y - 7))?;
        }
        Ok(())
    }
}

/// A legend entry's sample and the space after it, in pixels.
const SWATCH: f64 = 24.0;
/// The space between legend entries.
const GAP: f64 = 22.0;

/// Where legend entries `widths` wide go in rows `room` wide: each one's
/// left edge and row, in order, a new row where the next would not fit.
pub(super) fn place(widths: &[f64], room: f64) -> Vec<(i32, i32)> {
    let mut places = Vec::with_capacity(widths.len());
    let (mut x, mut row) = (0.0, 0);
    for &width in widths {
        if x > 0.0 && x + width > room {
            (x, row) = (0.0, row + 1);
        }
        places.push((x.round() as i32, row));
        x += width + GAP;
    }
    places
}

/// How much wider bold text is.
const BOLD: f64 = 1.1;

/// The estimated width of `text` in pixels at plotters' `size`, which its
/// SVG backend writes as a font size of `size / 1.24` pixels.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(em_width).sum::<f64>() * size / 1.24
}

/// A character's width in DejaVu Sans, in ems, in classes: a little over
/// each class's widest.
fn em_width(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.3,
        ' ' => 0.32,
        'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 0.42,
        'm' | 'w' | '%' | 'M' | 'W' | 'µ' => 0.98,
        'A'..='Z' => 0.78,
        '0'..='9' | '+' | '–' | '×' => 0.64,
        '→' | '✓' | '✗' => 0.84,
        _ => 0.63,
    }
}

/// The `parts` on as few lines no wider than `room` pixels at `size` as
/// keep each part whole, three spaces between parts on a line; a part too
/// long for a line of its own is wrapped at its spaces.
pub(super) fn wrap(parts: &[String], size: f64, room: f64) -> Vec<String> {
    let fits = |line: &str| text_width(line, size) <= room;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in parts {
        let joined = if line.is_empty() {
            part.clone()
        } else {
            format!("{line}   {part}")
        };
        if fits(&joined) {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for word in part.split(' ') {
            let joined = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if fits(&joined) || line.is_empty() {
                line = joined;
            } else {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_wrap_between_parts_and_then_between_words() {
        let parts = [
            "55.9 ns → 57.2 ns (best of 272 runs)".to_string(),
            "1.01x slower [99% CI 1.01x faster – 1.03x slower]".to_string(),
            "undecided: only a change beyond 1.8% could be judged (noise floor 5%)".to_string(),
        ];
        let lines = wrap(&parts, 15.0, 928.0);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("55.9 ns") && lines[1].starts_with("undecided"));
        assert!(lines.iter().all(|line| text_width(line, 15.0) <= 928.0));
        // One part too long for a line is cut at its spaces, nothing lost.
        let narrow = wrap(&parts, 15.0, 300.0);
        assert!(narrow.len() >= 5, "{narrow:?}");
        assert!(narrow.iter().all(|line| text_width(line, 15.0) <= 300.0));
        assert_eq!(narrow.join(" "), parts.join(" "));
        // What fits stays on one line.
        assert_eq!(wrap(&parts[..1], 15.0, 928.0), vec![parts[0].clone()]);
    }

    #[test]
    fn a_word_longer_than_the_line_has_a_line_of_its_own() {
        let long = "has_duplicate_sorted_with_a_name_far_too_long_for_the_title".to_string();
        let lines = wrap(&[format!("{long} vs naive")], 22.0, 300.0);
        assert_eq!(lines, vec![long, "vs naive".to_string()]);
    }

    #[test]
    fn legend_entries_go_on_a_new_row_where_they_would_not_fit() {
        assert_eq!(
            place(&[100.0, 100.0, 100.0], 300.0),
            vec![(0, 0), (122, 0), (0, 1)]
        );
        // An entry wider than a row has one of its own.
        assert_eq!(place(&[500.0, 10.0], 300.0), vec![(0, 0), (0, 1)]);
        assert!(place(&[], 300.0).is_empty());
    }

    #[test]
    fn widths_grow_with_text_and_size() {
        assert_eq!(text_width("", 15.0), 0.0);
        assert!(text_width("mmm", 15.0) > text_width("iii", 15.0));
        assert!((text_width("0000", 20.0) - 2.0 * text_width("0000", 10.0)).abs() < 1e-9);
    }
}
