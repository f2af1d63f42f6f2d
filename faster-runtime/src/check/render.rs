//! Readable renderings for mismatch messages: a `Debug` rendering cut to a
//! length a person reads (keeping whole elements of a sequence, and the
//! elements around a difference), and the first place two renderings differ.
//!
//! Works on the text `Debug` produced, so it serves every output type,
//! including the user's own: `[1, 2, 3]`, `(a, b)`, `Point { x: 1, y: 2 }`,
//! `Some([..])`, `{"k": v}`. Text it cannot read as structure is treated as
//! one opaque value; nothing here panics on odd `Debug` output.

/// Renderings longer than this many characters are cut.
pub(crate) const LIMIT: usize = 200;

/// One element's rendering in a "first difference" line is cut to this.
const ELEMENT_LIMIT: usize = 80;

/// Where two renderings first differ, as a path from the top
/// (`[3]`, `.1[0]`, `.max`) and what each side holds there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextDifference {
    /// Empty when the values differ as a whole (two numbers, `Some` and
    /// `None`): then the outputs themselves say it all.
    pub path: String,
    pub what: DifferenceKind,
    /// The index of the differing top-level element, when the top level is
    /// a sequence: a cut rendering shows the elements around it.
    pub top_index: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum DifferenceKind {
    /// The two sides hold these values at the path.
    Values(String, String),
    /// Sequences of these lengths, equal up to the shorter one's end.
    Lengths(usize, usize),
}

impl TextDifference {
    /// The line a mismatch message adds: `first difference at [3]: 4 vs 5`,
    /// or `lengths differ: 1001 vs 1000 elements, ...`; `None` when the
    /// values differ as a whole (the outputs themselves say it all).
    pub fn describe(&self) -> Option<String> {
        match &self.what {
            DifferenceKind::Values(..) if self.path.is_empty() => None,
            DifferenceKind::Values(original, candidate) => Some(format!(
                "first difference at {}: {} vs {}",
                self.path,
                cut(original, ELEMENT_LIMIT),
                cut(candidate, ELEMENT_LIMIT)
            )),
            DifferenceKind::Lengths(original, candidate) => {
                let at = if self.path.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", self.path)
                };
                Some(format!(
                    "lengths differ{at}: {original} vs {candidate} elements, equal as far as the \
                     shorter goes"
                ))
            }
        }
    }
}

/// The first place `original` and `candidate` (two `Debug` renderings)
/// differ; `None` when the texts are equal.
pub(crate) fn first_difference(original: &str, candidate: &str) -> Option<TextDifference> {
    if original == candidate {
        return None;
    }
    let (a, b) = (parse(original), parse(candidate));
    let mut path = String::new();
    let mut top_index = None;
    let what = descend(&a, &b, &mut path, &mut top_index, true);
    Some(TextDifference {
        path,
        what,
        top_index,
    })
}

/// Appends path steps while both sides have the same shape, and returns what
/// differs where they stop agreeing.
fn descend(
    a: &Node<'_>,
    b: &Node<'_>,
    path: &mut String,
    top_index: &mut Option<usize>,
    top: bool,
) -> DifferenceKind {
    let whole = || DifferenceKind::Values(a.text().to_string(), b.text().to_string());
    let (
        Node::Group {
            head: head_a,
            open: open_a,
            items: items_a,
            ..
        },
        Node::Group {
            head: head_b,
            open: open_b,
            items: items_b,
            ..
        },
    ) = (a, b)
    else {
        return whole();
    };
    if head_a != head_b || open_a != open_b {
        return whole();
    }
    let differing = items_a
        .iter()
        .zip(items_b.iter())
        .position(|(x, y)| x.text != y.text);
    let Some(index) = differing else {
        return if *open_a == '[' && items_a.len() != items_b.len() {
            if top {
                *top_index = Some(items_a.len().min(items_b.len()));
            }
            DifferenceKind::Lengths(items_a.len(), items_b.len())
        } else {
            whole()
        };
    };
    let (x, y) = (&items_a[index], &items_b[index]);
    if x.key != y.key {
        return whole();
    }
    match (*open_a, x.key) {
        ('[', _) => path.push_str(&format!("[{index}]")),
        ('(', _) => path.push_str(&format!(".{index}")),
        // A struct's field (`Point { x: 1 }`) or a map's key (`{"k": 1}`).
        ('{', Some(key)) if !head_a.is_empty() => path.push_str(&format!(".{key}")),
        ('{', Some(key)) => path.push_str(&format!("[{key}]")),
        _ => path.push_str(&format!("[{index}]")),
    }
    if top && *open_a == '[' {
        *top_index = Some(index);
    }
    descend(&x.value, &y.value, path, top_index, false)
}

/// `text` cut to [`LIMIT`] characters: a sequence keeps whole elements (the
/// ones around `focus`, an element index, when given) and says how many it
/// left out; other text is cut and says how many characters it left out.
pub(crate) fn truncate(text: &str, focus: Option<usize>) -> String {
    if text.chars().count() <= LIMIT {
        return text.to_string();
    }
    match parse(text) {
        Node::Group {
            head,
            open: '[',
            items,
            ..
        } if !items.is_empty() => {
            // Two elements of context before the one that differs.
            let start = focus.map_or(0, |index| index.saturating_sub(2).min(items.len() - 1));
            let mut shown = String::new();
            if start > 0 {
                shown.push_str(&format!("… ({start} before), "));
            }
            let mut end = start;
            for item in &items[start..] {
                let separator = if end > start { ", " } else { "" };
                let grown = shown.chars().count() + separator.len() + item.text.chars().count();
                if end > start && grown > LIMIT {
                    break;
                }
                shown.push_str(separator);
                shown.push_str(item.text);
                end += 1;
            }
            let after = items.len() - end;
            if after > 0 {
                shown.push_str(&format!(", … ({after} more)"));
            }
            let shown = if shown.chars().count() > 2 * LIMIT {
                cut(&shown, LIMIT)
            } else {
                shown
            };
            format!("{head}[{shown}]")
        }
        _ => cut(text, LIMIT),
    }
}

/// One element's rendering, cut for a "first difference" line.
pub(crate) fn cut_element(text: &str) -> String {
    cut(text, ELEMENT_LIMIT)
}

/// The first `limit` characters of `text` and how many were left out.
fn cut(text: &str, limit: usize) -> String {
    let total = text.chars().count();
    if total <= limit {
        return text.to_string();
    }
    let kept: String = text.chars().take(limit).collect();
    format!("{kept}… ({} more characters)", total - limit)
}

/// A rendering's structure as far as the text shows it.
#[derive(Debug)]
enum Node<'a> {
    /// A number, a string, a unit variant, anything without brackets.
    Atom(&'a str),
    /// `head(...)`, `head[...]`, `head {...}` with `head` possibly empty.
    Group {
        text: &'a str,
        head: &'a str,
        open: char,
        items: Vec<Item<'a>>,
    },
}

#[derive(Debug)]
struct Item<'a> {
    /// The whole element as rendered (`x: 1` for a field).
    text: &'a str,
    /// `x` in `x: 1` (a struct's field or a map's key).
    key: Option<&'a str>,
    value: Node<'a>,
}

impl<'a> Node<'a> {
    fn text(&self) -> &'a str {
        match self {
            Node::Atom(text) => text,
            Node::Group { text, .. } => text,
        }
    }
}

fn parse(text: &str) -> Node<'_> {
    let text = text.trim();
    let Some(close) = text.chars().last() else {
        return Node::Atom(text);
    };
    let open = match close {
        ')' => '(',
        ']' => '[',
        '}' => '{',
        _ => return Node::Atom(text),
    };
    // The opener that matches the final closer must be the first bracket:
    // `Some([1])` is a group, `(1) + (2)` is not.
    let Some(open_at) = first_bracket(text) else {
        return Node::Atom(text);
    };
    if !text[open_at..].starts_with(open) || matching_close(text, open_at) != Some(text.len() - 1) {
        return Node::Atom(text);
    }
    let head = text[..open_at].trim();
    let inner = &text[open_at + 1..text.len() - 1];
    let items = split_top_level(inner, ',')
        .into_iter()
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let (key, value) = match (open, split_top_level(item, ':').as_slice()) {
                ('{', [key, value]) => (Some(key.trim()), value.trim()),
                // `::` inside a path rendering is no key (`a::b`).
                _ => (None, item),
            };
            Item {
                text: item,
                key,
                value: parse(value),
            }
        })
        .collect();
    Node::Group {
        text,
        head,
        open,
        items,
    }
}

/// The byte index of the first bracket outside string and char literals.
fn first_bracket(text: &str) -> Option<usize> {
    scan(text)
        .find(|&(_, c, depth)| depth == 0 && matches!(c, '(' | '[' | '{'))
        .map(|(at, _, _)| at)
}

/// The byte index of the bracket closing the one at `open_at`.
fn matching_close(text: &str, open_at: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c, _) in scan(text).filter(|&(at, _, _)| at >= open_at) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at the `separator`s outside brackets and literals. A `:`
/// only separates when followed by a space and not part of `::`.
fn split_top_level(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, c, depth) in scan(text) {
        if depth != 0 || c != separator {
            continue;
        }
        if separator == ':' {
            let doubled = bytes.get(at + 1) == Some(&b':') || (at > 0 && bytes[at - 1] == b':');
            if doubled || bytes.get(at + 1) != Some(&b' ') {
                continue;
            }
            parts.push(&text[start..at]);
            start = at + 1;
            // Key and value: the rest is the value, colons and all.
            parts.push(&text[start..]);
            return parts;
        }
        parts.push(&text[start..at]);
        start = at + c.len_utf8();
    }
    parts.push(&text[start..]);
    parts
}

/// Every character outside string and char literals, with its byte index
/// and the bracket depth before it (a closer is reported at the depth it
/// closes, so depth 0 means "at the top level").
fn scan(text: &str) -> impl Iterator<Item = (usize, char, usize)> + '_ {
    let mut chars = text.char_indices().peekable();
    let mut depth = 0usize;
    std::iter::from_fn(move || {
        loop {
            let (at, c) = chars.next()?;
            match c {
                '"' => {
                    // Skip the string literal, escapes and all.
                    while let Some((_, inner)) = chars.next() {
                        match inner {
                            '\\' => {
                                chars.next();
                            }
                            '"' => break,
                            _ => {}
                        }
                    }
                }
                // A char literal (`'a'`, `'\''`, `'\u{1f600}'`); a lone
                // apostrophe in custom output is an ordinary character.
                '\'' if is_char_literal(&text[at..]) => {
                    let length = char_literal_length(&text[at..]);
                    while chars.peek().is_some_and(|&(next, _)| next < at + length) {
                        chars.next();
                    }
                }
                '(' | '[' | '{' => {
                    let before = depth;
                    depth += 1;
                    return Some((at, c, before));
                }
                ')' | ']' | '}' => {
                    depth = depth.saturating_sub(1);
                    return Some((at, c, depth));
                }
                _ => return Some((at, c, depth)),
            }
        }
    })
}

fn is_char_literal(rest: &str) -> bool {
    char_literal_length(rest) > 0
}

/// The byte length of the char literal `rest` starts with, or 0.
fn char_literal_length(rest: &str) -> usize {
    let mut chars = rest.char_indices().skip(1);
    match chars.next() {
        Some((_, '\\')) => {
            // An escape: up to the closing quote, within `'\u{10ffff}'`.
            rest.char_indices()
                .skip(2)
                .take(10)
                .find(|&(_, c)| c == '\'')
                .map_or(0, |(at, _)| at + 1)
        }
        Some((_, c)) if c != '\'' => match chars.next() {
            Some((at, '\'')) => at + 1,
            _ => 0,
        },
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn difference(a: &str, b: &str) -> Option<String> {
        first_difference(a, b).and_then(|difference| difference.describe())
    }

    #[test]
    fn equal_texts_have_no_difference() {
        assert_eq!(first_difference("[1, 2]", "[1, 2]"), None);
    }

    #[test]
    fn whole_values_add_nothing_to_the_outputs() {
        assert_eq!(difference("4", "5"), None);
        assert_eq!(difference("Some(4)", "None"), None);
        assert_eq!(difference("Ok(1)", "Err(\"x\")"), None);
    }

    #[test]
    fn sequences_name_the_index() {
        assert_eq!(
            difference("[1, 2, 3]", "[1, 9, 3]").unwrap(),
            "first difference at [1]: 2 vs 9"
        );
        let difference = first_difference("[1, 2, 3]", "[1, 9, 3]").unwrap();
        assert_eq!(difference.top_index, Some(1));
    }

    #[test]
    fn nested_values_give_a_path() {
        assert_eq!(
            difference("(3, [1, 2])", "(3, [1, 5])").unwrap(),
            "first difference at .1[1]: 2 vs 5"
        );
        assert_eq!(
            difference("Some([1.0, 2.5])", "Some([1.0, 2.25])").unwrap(),
            "first difference at .0[1]: 2.5 vs 2.25"
        );
        assert_eq!(
            difference("Stats { mean: 1.5, max: 3 }", "Stats { mean: 1.5, max: 4 }").unwrap(),
            "first difference at .max: 3 vs 4"
        );
        assert_eq!(
            difference("{\"a\": 1, \"b\": 2}", "{\"a\": 1, \"b\": 3}").unwrap(),
            "first difference at [\"b\"]: 2 vs 3"
        );
    }

    #[test]
    fn lengths_are_named_when_one_sequence_extends_the_other() {
        assert_eq!(
            difference("[1, 2, 3]", "[1, 2]").unwrap(),
            "lengths differ: 3 vs 2 elements, equal as far as the shorter goes"
        );
        assert_eq!(
            difference("(0, [1])", "(0, [1, 2])").unwrap(),
            "lengths differ at .1: 1 vs 2 elements, equal as far as the shorter goes"
        );
    }

    #[test]
    fn literals_do_not_confuse_the_structure() {
        assert_eq!(
            difference(r#"["a, b", "c"]"#, r#"["a, b", "d"]"#).unwrap(),
            r#"first difference at [1]: "c" vs "d""#
        );
        assert_eq!(
            difference(r#"['(', ']']"#, r#"['(', '[']"#).unwrap(),
            "first difference at [1]: ']' vs '['"
        );
        assert_eq!(
            difference(r#"["\"]", 1]"#, r#"["\"]", 2]"#).unwrap(),
            "first difference at [1]: 1 vs 2"
        );
        assert_eq!(
            difference("[a::B(1), 2]", "[a::B(1), 3]").unwrap(),
            "first difference at [1]: 2 vs 3"
        );
    }

    #[test]
    fn odd_text_is_one_value() {
        for (a, b) in [
            ("(1) + (2)", "(1) + (3)"),
            ("[unbalanced", "[unbalanced!"),
            ("]", ")"),
            ("it's", "its"),
            ("", "x"),
        ] {
            let difference = first_difference(a, b).unwrap();
            assert!(difference.path.is_empty(), "{a} / {b}: {difference:?}");
        }
    }

    #[test]
    fn short_text_is_kept() {
        assert_eq!(truncate("[1, 2, 3]", None), "[1, 2, 3]");
    }

    #[test]
    fn long_sequences_keep_whole_elements_and_count_the_rest() {
        let long: Vec<u32> = (0..1_000).collect();
        let text = format!("{long:?}");
        let cut = truncate(&text, None);
        assert!(cut.starts_with("[0, 1, 2, "), "{cut}");
        assert!(cut.ends_with(" more)]"), "{cut}");
        assert!(cut.chars().count() <= LIMIT + 20, "{cut}");
        let shown = cut.matches(", ").count();
        assert!(
            cut.contains(&format!("… ({} more)", 1_000 - shown)),
            "{cut}"
        );
    }

    #[test]
    fn a_focus_shows_the_elements_around_it() {
        let long: Vec<u32> = (0..1_000).collect();
        let cut = truncate(&format!("{long:?}"), Some(500));
        assert!(cut.starts_with("[… (498 before), 498, 499, 500, "), "{cut}");
    }

    #[test]
    fn other_long_text_is_cut_by_characters() {
        let text = "x".repeat(250);
        assert_eq!(
            truncate(&text, None),
            format!("{}… (50 more characters)", "x".repeat(200))
        );
        let nested = format!("({:?}, 1)", vec![7u8; 300]);
        assert!(truncate(&nested, None).ends_with("more characters)"));
    }
}
