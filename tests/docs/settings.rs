//! The guide's table of settings (`guide/running.md`, "Settings and their
//! precedence") against the runtime's own tables: every flag, variable and
//! attribute option the runtime declares is in it, it names none the
//! runtime does not, and each example it gives is read as a valid value.

use faster_runtime::__internal::Cli;
use faster_runtime::__internal::MAX_PROCESSES;
use faster_runtime::__internal::MOST_LAYOUTS;
use faster_runtime::__internal::SETTINGS;
use faster_runtime::__internal::{Known, VARIABLES};
use faster_runtime::{Config, Settings};
use std::collections::BTreeSet;

/// The header of the table.
const HEADER: &str = "| flag of `faster::main()` | variable | attribute | meaning |";

/// One row of the table: the code spans of its first three columns, and
/// the whole row.
struct Row<'a> {
    flags: Vec<&'a str>,
    variables: Vec<&'a str>,
    attributes: Vec<&'a str>,
    text: &'a str,
}

/// The rows of the table in `chapter`.
fn rows(chapter: &str) -> Vec<Row<'_>> {
    let mut lines = chapter.lines().skip_while(|line| *line != HEADER).skip(2);
    std::iter::from_fn(|| lines.next().filter(|line| line.starts_with('|')))
        .map(|text| {
            let cells = cells(text);
            Row {
                flags: code_spans(cells[0]),
                variables: code_spans(cells[1]),
                attributes: code_spans(cells[2]),
                text,
            }
        })
        .collect()
}

/// The cells of a row, split at each `|` outside code spans.
fn cells(row: &str) -> Vec<&str> {
    let mut cells = Vec::new();
    let (mut start, mut in_code) = (0, false);
    for (at, character) in row.char_indices() {
        match character {
            '`' => in_code = !in_code,
            '|' if !in_code => {
                cells.push(&row[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    // The text before the first `|` is no cell.
    cells.split_off(1)
}

/// The text of every `code span` in `cell`.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The name a span gives: `--max-time` of `--max-time 500ms`,
/// `FASTER_STRICT` of `FASTER_STRICT=1`, `max_time` of `max_time = "1s"`.
fn name(span: &str) -> &str {
    span.split([' ', '=']).next().unwrap_or(span)
}

/// `declared` and `documented` hold the same names; otherwise, which differ.
fn same(what: &str, declared: BTreeSet<&str>, documented: BTreeSet<&str>) {
    let missing: Vec<_> = declared.difference(&documented).collect();
    let extra: Vec<_> = documented.difference(&declared).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "the guide's table of settings: {what} declared by the runtime but not in the table: \
         {missing:?}; in the table but not the runtime's: {extra:?}"
    );
}

#[test]
fn the_guides_table_of_settings_is_the_runtimes() {
    let chapter = std::fs::read_to_string(super::root().join("guide/running.md"))
        .expect("guide/running.md is readable");
    let rows = rows(&chapter);
    assert!(rows.len() > 10, "the table is in guide/running.md");

    let flags = Known::all().flat_map(|known| known.names().iter().copied());
    let documented = rows.iter().flat_map(|row| &row.flags);
    same(
        "flags",
        flags.collect(),
        documented
            .map(|span| name(span))
            .filter(|name| name.starts_with('-'))
            .collect(),
    );
    let variables = SETTINGS
        .iter()
        .filter_map(|setting| setting.variable)
        .chain(Known::all().filter_map(Known::variable))
        .chain(VARIABLES.iter().map(|variable| variable.name));
    let documented = rows.iter().flat_map(|row| &row.variables);
    same(
        "variables",
        variables.collect(),
        documented.map(|span| name(span)).collect(),
    );
    let attributes = SETTINGS.iter().filter(|setting| setting.in_attributes());
    let documented = rows.iter().flat_map(|row| &row.attributes);
    same(
        "attribute options",
        attributes.map(|setting| setting.name).collect(),
        documented.map(|span| name(span)).collect(),
    );

    // Each example is a value its flag and variable read.
    for row in &rows {
        for span in row.flags.iter().filter(|span| span.starts_with('-')) {
            let arguments: Vec<String> = span.split(' ').map(str::to_string).collect();
            if let Err(error) = Cli::parse(&arguments) {
                panic!("the guide's `{span}`: {error}");
            }
        }
        for span in &row.variables {
            let Some((variable, value)) = span.split_once('=') else {
                continue;
            };
            let setting = SETTINGS
                .iter()
                .find(|setting| setting.variable == Some(variable));
            if setting.is_some() {
                let read = Settings::from_vars(|name| (name == variable).then(|| value.into()));
                assert!(read.is_ok(), "the guide's `{span}`: {read:?}");
            }
        }
    }

    // The bounds it states are the runtime's.
    let processes = rows
        .iter()
        .find(|row| row.flags.iter().any(|span| name(span) == "--processes"))
        .expect("a row for --processes");
    for bound in [
        format!("1 to {MAX_PROCESSES}"),
        format!("default {}", Config::default().processes),
        format!("up to {MOST_LAYOUTS}"),
    ] {
        assert!(
            processes.text.contains(&bound),
            "{bound}: {}",
            processes.text
        );
    }
}
