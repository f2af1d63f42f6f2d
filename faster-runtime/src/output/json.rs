//! `--format json`: one `faster/report/v1` document per comparison, one per
//! line (JSON Lines), and nothing else on stdout.

use super::{Note, Output, Summary, notices};
use crate::report::{Document, Outcome};
use std::io::Write;

/// Writes each outcome's document on its own line.
pub struct JsonLines<W: Write> {
    out: W,
}

impl<W: Write> JsonLines<W> {
    /// JSON lines into `out`.
    pub fn new(out: W) -> Self {
        JsonLines { out }
    }
}

impl<W: Write> Output for JsonLines<W> {
    fn comparison(&mut self, outcome: &Outcome, _notes: &mut Vec<Note>) {
        // A closed pipe is not worth a panic: the exit code still tells.
        let _ = writeln!(self.out, "{}", Document::of(outcome).to_line());
        let _ = self.out.flush();
    }

    /// What holds for the whole run goes to stderr: stdout holds documents
    /// only.
    fn end(&mut self, summary: &Summary<'_>, _notes: &mut Vec<Note>) {
        for notice in notices::one_sided(summary.outcomes) {
            eprintln!("faster: {notice}");
        }
    }
}
