//! Laying out a table's columns within 80 columns: each column as wide as
//! its widest cell, the first (names) giving way when the table would not
//! fit. A name is never cut: one wider than its column goes on a line of
//! its own, and its row's figures on the next.

use crate::output::style::{WIDTH, display_width, pad};

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

    /// One row: the cells padded to their columns, each passed through
    /// `paint` with its column, so colour codes do not count towards the
    /// widths; a first cell wider than its column on a line of its own
    /// above the others.
    pub fn line(&self, cells: &[String], paint: impl Fn(usize, String) -> String) -> String {
        let Some((name, rest)) = cells.split_first() else {
            return String::new();
        };
        let (own_line, first) = self.first(name);
        let mut line = format!("{}{}", " ".repeat(self.indent), paint(0, first));
        for (column, (cell, &width)) in rest.iter().zip(&self.widths[1..]).enumerate() {
            line.push_str("  ");
            line.push_str(&paint(column + 1, pad(cell, width, self.right_aligned)));
        }
        let line = line.trim_end();
        match own_line {
            Some(name) => format!("{}{}\n{line}", " ".repeat(self.indent), paint(0, name)),
            None => line.to_string(),
        }
    }

    /// A first cell in its column: padded to it, or, when wider, whole on a
    /// line of its own (returned first) with blanks in its column.
    pub fn first(&self, cell: &str) -> (Option<String>, String) {
        let width = self.widths[0];
        if display_width(cell) > width {
            (Some(cell.to_string()), " ".repeat(width))
        } else {
            (None, pad(cell, width, false))
        }
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
        assert_eq!(columns.line(&rows[0], |_, cell| cell), "  short  1.00 ns");
        assert_eq!(columns.line(&header, |_, cell| cell), "  name      time");
        let long = vec![strings(&[&"n".repeat(100), "t"])];
        let narrow = Columns::fit(&header, &long, 2, 4, false);
        let line = narrow.line(&long[0], |_, cell| cell);
        // The name whole on its own line, the figures under their header,
        // the first column as wide as the line leaves it.
        let lines: Vec<&str> = line.lines().collect();
        assert_eq!(lines[0], format!("  {}", "n".repeat(100)));
        assert_eq!(
            lines[1],
            format!("  {}  t", " ".repeat(WIDTH - 2 - (2 + 4)))
        );
    }
}
