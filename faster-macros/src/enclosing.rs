//! The block the annotated function is written in, as the source shows it:
//! an `impl` or `trait` block, or neither. (Not [`crate::owner`], the
//! `impl` block `#[faster::methods]` hands a method it compares: this reads
//! the source around any function, marked or not.) The attributes add a
//! `#[test]` and a registration next to the function, which only a module
//! or a block can hold: inside an `impl` they are five errors of rustc's,
//! none of which says what to do. rustc does not tell an attribute where
//! its item is, so this reads the source file at the function name's line
//! and column and finds the innermost `{ ... }` around it.
//!
//! Anything uncertain (no file, as under rust-analyzer or before Rust 1.88,
//! whose proc macros cannot ask for a span's file; a name that is not
//! at the place given, as for a function a macro writes; a name inside a
//! macro's arguments) counts as not inside a block: the expansion is then
//! what it always was.

use proc_macro2::Ident;

/// A block a function can be written in, but not an attribute's test.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Enclosing {
    /// `impl Type { ... }` or `impl Trait for Type { ... }`: the type's and
    /// the trait's paths as written, generic arguments left out; no type
    /// where it is not a path (`impl<T> Trait for &T`).
    Impl {
        self_type: Option<String>,
        of_trait: Option<String>,
    },
    /// `trait Name { ... }`.
    Trait { name: String },
}

/// The block `ident`, the annotated function's name, is written in, when
/// it is an `impl` or a `trait` block. Reads the file the name's span is
/// in; `None` outside a procedural macro (the crate's own tests).
pub(crate) fn enclosing(ident: &Ident) -> Option<Enclosing> {
    if !proc_macro::is_available() {
        return None;
    }
    let span = ident.span();
    let source = std::fs::read_to_string(span.local_file()?).ok()?;
    let start = span.start();
    enclosing_in(&source, start.line, start.column + 1, &ident.to_string())
}

/// [`enclosing`] for a name at `line` and `column` (both from 1, the column
/// in characters) of `source`.
fn enclosing_in(source: &str, line: usize, column: usize, name: &str) -> Option<Enclosing> {
    // rustc counts from after a byte order mark.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let rest = &source[line_start..];
    let offset = line_start
        + rest
            .char_indices()
            .nth(column.checked_sub(1)?)
            .map(|(at, _)| at)?;
    if !source[offset..].starts_with(name) {
        return None;
    }
    classify(innermost_brace_header(&tokens(&source[..offset]))?)
}

/// A token of the source, as far as finding blocks needs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    /// `->`, kept apart from `>` so it does not close generics.
    Arrow,
    Punct(char),
    Open(char),
    Close(char),
    /// A literal or a lifetime: its text does not matter.
    Other,
}

/// The tokens of `source`, comments left out.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        let next = chars.get(at + 1).copied();
        at = match c {
            _ if c.is_whitespace() => at + 1,
            '/' if next == Some('/') => skip_while(&chars, at, |c| c != '\n'),
            '/' if next == Some('*') => skip_block_comment(&chars, at),
            '"' => {
                tokens.push(Token::Other);
                skip_string(&chars, at + 1)
            }
            '\'' => {
                tokens.push(Token::Other);
                skip_quote(&chars, at)
            }
            '-' if next == Some('>') => {
                tokens.push(Token::Arrow);
                at + 2
            }
            '{' | '(' | '[' => {
                tokens.push(Token::Open(c));
                at + 1
            }
            '}' | ')' | ']' => {
                tokens.push(Token::Close(c));
                at + 1
            }
            _ if c.is_ascii_digit() => {
                tokens.push(Token::Other);
                skip_while(&chars, at, |c| c.is_alphanumeric() || c == '_')
            }
            _ if c.is_alphabetic() || c == '_' => word(&chars, at, &mut tokens),
            _ => {
                tokens.push(Token::Punct(c));
                at + 1
            }
        };
    }
    tokens
}

/// A word at `at`, or the literal it prefixes (`r"..."`, `b'x'`, `br#"..."#`),
/// or a raw identifier (`r#type`); where it ends.
fn word(chars: &[char], at: usize, tokens: &mut Vec<Token>) -> usize {
    let end = skip_while(chars, at, |c| c.is_alphanumeric() || c == '_');
    let word: String = chars[at..end].iter().collect();
    match (word.as_str(), chars.get(end), chars.get(end + 1)) {
        ("r" | "br" | "cr", Some('"' | '#'), _) if is_raw_string(chars, end) => {
            tokens.push(Token::Other);
            skip_raw_string(chars, end)
        }
        ("r", Some('#'), Some(_)) => {
            let raw_end = skip_while(chars, end + 1, |c| c.is_alphanumeric() || c == '_');
            tokens.push(Token::Word(chars[end + 1..raw_end].iter().collect()));
            raw_end
        }
        ("b" | "c", Some('"'), _) => {
            tokens.push(Token::Other);
            skip_string(chars, end + 1)
        }
        ("b", Some('\''), _) => {
            tokens.push(Token::Other);
            skip_quote(chars, end)
        }
        _ => {
            tokens.push(Token::Word(word));
            end
        }
    }
}

fn skip_while(chars: &[char], mut at: usize, keep: impl Fn(char) -> bool) -> usize {
    while chars.get(at).is_some_and(|&c| keep(c)) {
        at += 1;
    }
    at
}

/// Past a `/* ... */` comment at `at`, which may nest.
fn skip_block_comment(chars: &[char], mut at: usize) -> usize {
    let mut depth = 0;
    while at < chars.len() {
        match (chars[at], chars.get(at + 1)) {
            ('/', Some('*')) => {
                depth += 1;
                at += 2;
            }
            ('*', Some('/')) => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    at
}

/// Past the closing `"` of a string whose contents start at `at`.
fn skip_string(chars: &[char], mut at: usize) -> usize {
    while let Some(&c) = chars.get(at) {
        at += if c == '\\' { 2 } else { 1 };
        if c == '"' {
            break;
        }
    }
    at
}

/// Whether `#...#"` (or `"`) at `at` opens a raw string.
fn is_raw_string(chars: &[char], at: usize) -> bool {
    let hashes = skip_while(chars, at, |c| c == '#');
    chars.get(hashes) == Some(&'"')
}

/// Past a raw string whose hashes (or quote) start at `at`.
fn skip_raw_string(chars: &[char], at: usize) -> usize {
    let quote = skip_while(chars, at, |c| c == '#');
    let hashes = quote - at;
    let mut end = quote + 1;
    while end < chars.len() {
        if chars[end] == '"' && chars[end + 1..].iter().take_while(|&&c| c == '#').count() >= hashes
        {
            return end + 1 + hashes;
        }
        end += 1;
    }
    end
}

/// Past a character literal or a lifetime whose `'` is at `at`.
fn skip_quote(chars: &[char], at: usize) -> usize {
    match (chars.get(at + 1), chars.get(at + 2)) {
        // `'\n'`, `'\u{..}'`.
        (Some('\\'), _) => skip_while(chars, at + 3, |c| c != '\'') + 1,
        // `'x'`.
        (Some(_), Some('\'')) => at + 3,
        // `'a`, `'static`.
        _ => skip_while(chars, at + 1, |c| c.is_alphanumeric() || c == '_'),
    }
}

/// What precedes the innermost `{` still open at the end of `tokens`, from
/// the end of the statement or item before it: `impl<T> Trait for Type`,
/// `fn main()`, `mod tests`. `None` when the end is inside parentheses or
/// brackets (a macro's arguments), or in no block at all.
fn innermost_brace_header(tokens: &[Token]) -> Option<Vec<Token>> {
    // The open delimiters, each `{` with the header before it.
    let mut open: Vec<(char, Vec<Token>)> = Vec::new();
    let mut header: Vec<Token> = Vec::new();
    for token in tokens {
        match token {
            Token::Open('{') => open.push(('{', std::mem::take(&mut header))),
            Token::Open(delimiter) => {
                header.push(token.clone());
                open.push((*delimiter, Vec::new()));
            }
            Token::Close('}') => {
                while let Some((delimiter, _)) = open.pop() {
                    if delimiter == '{' {
                        break;
                    }
                }
                header.clear();
            }
            Token::Close(_) => {
                header.push(token.clone());
                if open.last().is_some_and(|(delimiter, _)| *delimiter != '{') {
                    open.pop();
                }
            }
            Token::Punct(';') if open.last().is_none_or(|(delimiter, _)| *delimiter == '{') => {
                header.clear();
            }
            _ => header.push(token.clone()),
        }
    }
    match open.pop()? {
        ('{', header) => Some(header),
        _ => None,
    }
}

/// The block a header opens, when it is an `impl` or a `trait`.
fn classify(header: Vec<Token>) -> Option<Enclosing> {
    let mut rest = header.as_slice();
    // Attributes and qualifiers: `#[cfg(test)] pub(crate) unsafe impl`.
    loop {
        rest = match rest {
            [Token::Punct('#'), Token::Punct('!'), Token::Open('['), ..] => after_group(&rest[2..]),
            [Token::Punct('#'), Token::Open('['), ..] => after_group(&rest[1..]),
            [Token::Word(word), Token::Open('('), ..] if word == "pub" => after_group(&rest[1..]),
            [Token::Word(word), ..]
                if matches!(word.as_str(), "pub" | "unsafe" | "default" | "auto") =>
            {
                &rest[1..]
            }
            _ => break,
        };
    }
    match rest {
        [Token::Word(keyword), tail @ ..] if keyword == "impl" => Some(impl_block(tail)),
        [Token::Word(keyword), Token::Word(name), ..] if keyword == "trait" => {
            Some(Enclosing::Trait { name: name.clone() })
        }
        _ => None,
    }
}

/// The tokens after the group that opens at `tokens[0]`.
fn after_group(tokens: &[Token]) -> &[Token] {
    let mut depth = 0;
    for (at, token) in tokens.iter().enumerate() {
        match token {
            Token::Open(_) => depth += 1,
            Token::Close(_) => {
                depth -= 1;
                if depth == 0 {
                    return &tokens[at + 1..];
                }
            }
            _ => {}
        }
    }
    &[]
}

/// `impl<...> Trait<...> for Type<...> where ...`, after `impl`.
fn impl_block(tail: &[Token]) -> Enclosing {
    let mut depth = 0_i32;
    // Each token with the depth of `<...>` it is at.
    let leveled: Vec<(i32, &Token)> = tail
        .iter()
        .map(|token| {
            match token {
                Token::Punct('<') => depth += 1,
                Token::Punct('>') => depth -= 1,
                _ => {}
            }
            (depth, token)
        })
        .collect();
    // The impl's own generics, `impl<T>`, come first.
    let start = match tail.first() {
        Some(Token::Punct('<')) => leveled
            .iter()
            .position(|(depth, _)| *depth == 0)
            .map_or(tail.len(), |at| at + 1),
        _ => 0,
    };
    let top_level_word = |wanted: &str| {
        leveled[start..]
            .iter()
            .position(|(depth, token)| *depth == 0 && **token == Token::Word(wanted.into()))
            .map(|at| start + at)
    };
    let end = top_level_word("where").unwrap_or(tail.len());
    match top_level_word("for").filter(|&at| at < end) {
        Some(for_at) => Enclosing::Impl {
            self_type: path_as_written(&tail[for_at + 1..end]),
            of_trait: path_as_written(&tail[start..for_at]),
        },
        None => Enclosing::Impl {
            self_type: path_as_written(&tail[start..end]),
            of_trait: None,
        },
    }
}

/// `a::b::Type` of `a::b::Type<T>`, or `None` for a type that is not a path.
fn path_as_written(tokens: &[Token]) -> Option<String> {
    let mut path = String::new();
    for token in tokens {
        match token {
            Token::Word(word) if !path.ends_with(|c: char| c.is_alphanumeric() || c == '_') => {
                path.push_str(word);
            }
            Token::Punct(':') => path.push(':'),
            _ => break,
        }
    }
    let is_path = path.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && !matches!(path.as_str(), "dyn" | "impl");
    is_path.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `fn target` is in `source`.
    fn enclosing_target(source: &str) -> Option<Enclosing> {
        let (line, text) = source
            .lines()
            .enumerate()
            .find(|(_, text)| text.contains("fn target"))
            .expect("the case has `fn target`");
        let column = text[..text.find("target").unwrap()].chars().count() + 1;
        enclosing_in(source, line + 1, column, "target")
    }

    fn inherent(self_type: &str) -> Option<Enclosing> {
        Some(Enclosing::Impl {
            self_type: Some(self_type.into()),
            of_trait: None,
        })
    }

    #[test]
    fn a_function_in_an_impl_block_is_found_there() {
        let source = "\
struct Parser;

impl Parser {
    #[cfg_attr(test, faster::compare(original = parse_naive, inputs = parse_inputs))]
    fn target(x: &str) -> u64 { 0 }
}
";
        assert_eq!(enclosing_target(source), inherent("Parser"));
        let source = "\
#[cfg(test)]
pub(crate) unsafe impl<'a, T: Iterator<Item = u8> + Fn() -> u8> a::Trait<T> for b::Wrapper<'a, T>
where
    T: Clone,
{
    fn helper() -> u8 { 0 }
    #[faster::compare(original = slow)]
    fn target() -> u8 { 1 }
}
";
        assert_eq!(
            enclosing_target(source),
            Some(Enclosing::Impl {
                self_type: Some("b::Wrapper".into()),
                of_trait: Some("a::Trait".into()),
            })
        );
        let source = "impl<T> Trait for &T {\n    fn target() {}\n}\n";
        assert_eq!(
            enclosing_target(source),
            Some(Enclosing::Impl {
                self_type: None,
                of_trait: Some("Trait".into()),
            })
        );
        let source = "pub trait Parse {\n    fn target() {}\n}\n";
        assert_eq!(
            enclosing_target(source),
            Some(Enclosing::Trait {
                name: "Parse".into()
            })
        );
    }

    #[test]
    fn functions_in_modules_and_bodies_are_not_in_a_block_of_that_kind() {
        for source in [
            "fn helper() {}\n#[faster::compare(original = a)]\nfn target() {}\n",
            "mod inner {\n    impl X { fn a() {} }\n    fn target() {}\n}\n",
            "fn outer() {\n    impl X {}\n    fn target() {}\n}\n",
            "const _: () = {\n    struct S { a: [u8; 4] }\n    fn target() {}\n};\n",
            // A macro's arguments: its expansion decides.
            "impl X {\n    make!(\n        fn target() {}\n    );\n}\n",
        ] {
            assert_eq!(enclosing_target(source), None, "{source}");
        }
    }

    #[test]
    fn comments_literals_and_lifetimes_do_not_open_or_close_blocks() {
        let source = r####"
impl Tricky<'static> {
    // } a brace in a comment
    /* } /* nested */ } */
    const A: &str = "}\"}";
    const B: &str = r#"}"#;
    const C: &[u8] = br##"}"#}"##;
    const D: char = '}';
    const E: char = '\'';
    const F: u8 = b'}';
    fn r#type<'a>(x: &'a str) -> &'a str { x }
    fn target() {}
}
"####;
        assert_eq!(enclosing_target(source), inherent("Tricky"));
    }

    #[test]
    fn a_name_not_at_the_place_given_is_not_judged() {
        let source = "impl X {\n    fn target() {}\n}\n";
        assert_eq!(enclosing_in(source, 2, 8, "target"), inherent("X"));
        assert_eq!(enclosing_in(source, 2, 9, "target"), None);
        assert_eq!(enclosing_in(source, 9, 1, "target"), None);
        assert_eq!(enclosing_in(source, 0, 1, "target"), None);
        // Columns count characters, after a byte order mark.
        let source = "\u{feff}impl Ünïcode {\n    /* é */ fn target() {}\n}\n";
        assert_eq!(enclosing_in(source, 2, 16, "target"), inherent("Ünïcode"));
    }
}
