//! Laying out a table's columns within 80 columns: each column as wide as
//! its widest cell, the first (names) giving way when the table would not
//! fit, cut at its start so a name's end survives.

use crate::output::style::{WIDTH, display_width, pad, truncate_start};

/// The widths of a table's columns, and how its lines are laid out.
#[derive(Debug)]
pub struct Columns {
    widths: Vec<usize>,
    indent: usize,
    right_aligned: bool,
}

impl Columns {
    /// Columns for `header` and `rows` (a row may have fewer cells than the
    /// header), indented by `indent`, the first column at least
    /// `first_min` wide; the cells after the first are right-aligned when
    /// `right_aligned`, else left-aligned.
    pub fn fit(
        header: &[String],
        rows: &[Vec<String>],
        indent: usize,
        first_min: usize,
        right_aligned: bool,
    ) -> Columns {
        let mut widths: Vec<usize> = header.iter().map(|cell| display_width(cell)).collect();
        for row in rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(display_width(cell));
            }
        }
        let others: usize = widths[1..].iter().map(|width| width + 2).sum();
        widths[0] = widths[0].min(WIDTH.saturating_sub(indent + others).max(first_min));
        Columns {
            widths,
            indent,
            right_aligned,
        }
    }

    /// The width of column `column`.
    pub fn width(&self, column: usize) -> usize {
        self.widths[column]
    }

    /// One line: the cells padded to their columns (the first cut at its
    /// start when too long), each then passed through `paint` with its
    /// column, so colour codes do not count towards the widths.
    pub fn line(&self, cells: &[String], paint: impl Fn(usize, String) -> String) -> String {
        let mut line = " ".repeat(self.indent);
        for (column, (cell, &width)) in cells.iter().zip(&self.widths).enumerate() {
            let padded = if column == 0 {
                pad(&truncate_start(cell, width), width, false)
            } else {
                line.push_str("  ");
                pad(cell, width, self.right_aligned)
            };
            line.push_str(&paint(column, padded));
        }
        line.trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|cell| cell.to_string()).collect()
    }

    #[test]
    fn columns_fit_their_cells_and_names_give_way() {
        let header = strings(&["name", "time"]);
        let rows = vec![strings(&["short", "1.00 ns"]), strings(&["x"])];
        let columns = Columns::fit(&header, &rows, 2, 4, true);
        assert_eq!((columns.width(0), columns.width(1)), (5, 7));
        assert_eq!(columns.line(&rows[0], |_, cell| cell), "  short  1.00 ns");
        assert_eq!(columns.line(&header, |_, cell| cell), "  name      time");
        let long = vec![strings(&[&"n".repeat(100), "t"])];
        let narrow = Columns::fit(&header, &long, 2, 4, false);
        let line = narrow.line(&long[0], |_, cell| cell);
        assert_eq!(narrow.width(0), WIDTH - 2 - (2 + 4));
        assert!(display_width(&line) <= WIDTH, "{line}");
        assert!(line.starts_with("  …n"), "{line}");
    }
}
