//! How output looks on a terminal: whether to colour (`--color`, `NO_COLOR`,
//! whether stdout is a terminal), the colours themselves, wrapping at 80
//! columns (every report, notice and message, and `--help`'s usage), and
//! the progress line on stderr (an [`Output`] of its own, so it shows
//! whatever the format on stdout).
//!
//! Colour is decided once per stream and carried as a [`Style`]; everything
//! that renders text takes one, so the plain rendering (for `Display`,
//! panics, files and pipes) is the same code with colour off.

use super::{Note, Output};
use crate::report::Outcome;
use crate::report::units::format_ns;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The variable that turns colour off where it is set and not empty
/// (<https://no-color.org>).
pub const NO_COLOR_VARIABLE: &str = "NO_COLOR";

crate::options::choices! {
    /// When to colour output: `--color auto|always|never`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum ColorChoice {
        /// Colour when the stream is a terminal, `NO_COLOR` is unset or empty,
        /// and `TERM` is not `dumb`.
        #[default]
        Auto = "auto",
        /// Always colour, even into a pipe and despite `NO_COLOR`.
        Always = "always",
        /// Never colour.
        Never = "never",
    }
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal, given the
    /// `NO_COLOR` and `TERM` variables (see <https://no-color.org>: any
    /// non-empty `NO_COLOR` turns colour off; `--color always` overrides).
    pub fn enabled(self, is_terminal: bool, no_color: Option<&str>, term: Option<&str>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                is_terminal && no_color.is_none_or(str::is_empty) && term != Some("dumb")
            }
        }
    }

    /// [`ColorChoice::enabled`] for this process's stdout.
    pub(crate) fn for_stdout(self) -> Style {
        let no_color = std::env::var(NO_COLOR_VARIABLE).ok();
        let term = std::env::var("TERM").ok();
        Style {
            color: self.enabled(
                std::io::stdout().is_terminal(),
                no_color.as_deref(),
                term.as_deref(),
            ),
        }
    }
}

/// Whether text is coloured, and the colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    /// Whether to emit ANSI colour codes.
    pub color: bool,
}

/// What a piece of text means, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// A passed check, a faster candidate.
    Good,
    /// A failure, a slower candidate.
    Bad,
    /// Something to know.
    Warn,
    /// Secondary detail.
    Dim,
    /// The figure that matters.
    Bold,
}

impl Style {
    /// Plain text, no colour.
    pub const PLAIN: Style = Style { color: false };

    /// `text` in the colour of `tone`, or unchanged without colour.
    pub fn paint(self, tone: Tone, text: &str) -> String {
        if !self.color {
            return text.to_string();
        }
        let code = match tone {
            Tone::Good => "32",
            Tone::Bad => "31;1",
            Tone::Warn => "33",
            Tone::Dim => "2",
            Tone::Bold => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

/// The width output is laid out for: a classic terminal, which also reads
/// well in CI logs and pull-request comments.
pub const WIDTH: usize = 80;

/// How many columns `text` takes on a terminal, ignoring ANSI colour codes:
/// one per `char`, except the emoji and wide symbols the reports use.
pub fn display_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Skip `ESC [ ... m`.
            for next in chars.by_ref() {
                if next == 'm' {
                    break;
                }
            }
            continue;
        }
        width += match c {
            '\u{FE0F}' | '\u{200D}' => 0,
            '\u{1F300}'..='\u{1FAFF}' | '\u{23F0}'..='\u{23FF}' => 2,
            _ => 1,
        };
    }
    width
}

/// Wraps `text` to [`WIDTH`] columns: the first line starts with `first`,
/// the following ones with `rest` (a hanging indent). Breaks at spaces; a
/// word longer than a line (a path) stays whole.
pub fn wrap(text: &str, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        let needed = display_width(&line) + usize::from(!empty) + display_width(word);
        if !empty && needed > WIDTH {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    lines.push(line);
    lines
}

/// `text` padded with spaces to `width` columns, on the left (`right`
/// aligned) or on the right.
pub fn pad(text: &str, width: usize, right: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(display_width(text)));
    if right {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

/// A one-line "measuring ..." notice on stderr while a comparison runs,
/// erased when it ends, so a long run does not look stuck.
///
/// Shown only when stderr is a terminal (never in logs or CI output), and
/// erased with spaces rather than escape codes so that even a terminal
/// with `NO_COLOR` sees none.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    shown: usize,
}

impl Progress {
    /// A progress line on stderr, enabled when stderr is a terminal and
    /// `TERM` is not `dumb`.
    pub fn on_stderr() -> Progress {
        let dumb = std::env::var("TERM").is_ok_and(|term| term == "dumb");
        Progress {
            enabled: std::io::stderr().is_terminal() && !dumb,
            shown: 0,
        }
    }

    /// No progress line at all: under libtest, whose own lines it would
    /// cut into, and in tests.
    pub fn disabled() -> Progress {
        Progress {
            enabled: false,
            shown: 0,
        }
    }

    /// Shows `faster: measuring NAME (up to BUDGET)…`.
    pub fn start(&mut self, name: &str, budget: &str) {
        if !self.enabled {
            return;
        }
        let line = format!("faster: measuring {name} (up to {budget})…");
        let line = if display_width(&line) > WIDTH - 1 {
            let mut short: String = line.chars().take(WIDTH - 2).collect();
            short.push('…');
            short
        } else {
            line
        };
        self.shown = display_width(&line);
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r{line}");
        let _ = stderr.flush();
    }

    /// Erases the line.
    pub fn finish(&mut self) {
        if !self.enabled || self.shown == 0 {
            return;
        }
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r{}\r", " ".repeat(self.shown));
        let _ = stderr.flush();
        self.shown = 0;
    }
}

impl Output for Progress {
    fn measuring(&mut self, test: &str, budget: Duration) {
        self.start(test, &format_ns(budget.as_nanos() as f64));
    }

    fn comparison(&mut self, _outcome: &Outcome, _notes: &mut Vec<Note>) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_follows_the_terminal_no_color_and_the_flag() {
        assert!(ColorChoice::Auto.enabled(true, None, Some("xterm-256color")));
        assert!(!ColorChoice::Auto.enabled(false, None, None));
        assert!(!ColorChoice::Auto.enabled(true, Some("1"), None));
        // An empty NO_COLOR does not count (no-color.org).
        assert!(ColorChoice::Auto.enabled(true, Some(""), None));
        assert!(!ColorChoice::Auto.enabled(true, None, Some("dumb")));
        assert!(ColorChoice::Always.enabled(false, Some("1"), None));
        assert!(!ColorChoice::Never.enabled(true, None, None));
        assert_eq!(ColorChoice::parse("always"), Ok(ColorChoice::Always));
        assert!(
            ColorChoice::parse("sometimes")
                .unwrap_err()
                .contains("`auto`, `always` or `never`")
        );
    }

    #[test]
    fn painting_without_colour_leaves_text_alone() {
        assert_eq!(Style::PLAIN.paint(Tone::Bad, "✗ slower"), "✗ slower");
        let coloured = Style { color: true }.paint(Tone::Good, "ok");
        assert_eq!(coloured, "\x1b[32mok\x1b[0m");
        assert_eq!(display_width(&coloured), 2);
    }

    #[test]
    fn widths_count_columns_not_bytes() {
        assert_eq!(display_width("32.8 µs → 29.2 µs"), 17);
        assert_eq!(display_width("⏱️ Runtime"), 10);
        assert_eq!(display_width("📈 plot"), 7);
    }

    #[test]
    fn wrapping_keeps_lines_within_80_columns_with_a_hanging_indent() {
        let text = "the best-of-68 times read 20% faster but the paired estimate reads 10% \
                    faster: timings vary from call to call";
        let lines = wrap(text, "  ⚠ ", "    ");
        assert!(lines.len() > 1);
        assert!(lines[0].starts_with("  ⚠ the best-of-68"));
        for line in &lines {
            assert!(display_width(line) <= WIDTH, "{line}");
        }
        assert!(lines[1].starts_with("    ") && !lines[1].starts_with("     "));
        assert_eq!(
            lines.join(" ").split_whitespace().count(),
            text.split_whitespace().count() + 1
        );
    }

    #[test]
    fn padding_fills_to_a_width_on_either_side() {
        assert_eq!(pad("µs", 4, true), "  µs");
        assert_eq!(pad("ab", 4, false), "ab  ");
    }
}
