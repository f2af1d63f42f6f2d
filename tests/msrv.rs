//! The minimum Rust version (`rust-version` in the root `Cargo.toml`, 1.85)
//! holds for the language as well as the standard library. Clippy's
//! `incompatible_msrv` lint (CI's clippy step) rejects std APIs newer than
//! `rust-version`; it does not see syntax. This test rejects the syntax
//! newer than Rust 1.85 that reads naturally enough to slip in: let chains
//! (`if let Some(x) = a && x > 0`, stable in 1.88), in every `.rs` file of
//! the repository (fixtures and compile-fail cases too, which the tests
//! compile). It reads tokens rather than syntax trees, so that it also sees
//! the code inside macros: the code `quote!` writes into users' crates.

use std::fs;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

#[test]
fn no_let_chains_which_rust_1_85_rejects() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(root, &mut files);
    assert!(
        files.len() > 100,
        "found only {} .rs files under {}",
        files.len(),
        root.display()
    );
    let mut let_chains = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let tokens = TokenStream::from_str(&text)
            .unwrap_or_else(|error| panic!("{} does not tokenize: {error}", file.display()));
        let mut lines = Vec::new();
        find_let_chains(tokens, &mut lines);
        let relative = file.strip_prefix(root).unwrap().display();
        let_chains.extend(lines.iter().map(|line| format!("{relative}:{line}")));
    }
    assert!(
        let_chains.is_empty(),
        "let chains need Rust 1.88, above the workspace's rust-version; \
         write a nested `if let`, a `match` or `let ... else` instead:\n{}",
        let_chains.join("\n")
    );
}

#[test]
fn let_chains_are_found_in_code_and_in_macros_and_nothing_else_is() {
    let lines = |code: &str| {
        let mut lines = Vec::new();
        find_let_chains(TokenStream::from_str(code).unwrap(), &mut lines);
        lines
    };
    let chains = "fn f(a: Option<u8>) {\n\
                  if let Some(x) = a && x > 0 {}\n\
                  while ready() && let Some(x) = a {}\n\
                  quote! { if let Some(x) = #a\n && x > 0 { #body } }\n\
                  if let Node { items, .. } = a && !items.is_empty() {}\n\
                  }";
    assert_eq!(lines(chains), [2, 3, 4, 6]);
    let plain = "fn f(a: Option<u8>, v: Vec<u8>) {\n\
                 if let Some(x) = a { if x > 0 && ready() {} }\n\
                 if let [x, ..] = &&v[..] {}\n\
                 if v.iter().any(|x| { let y = *x; y > 0 && y < 9 }) {}\n\
                 let both = ready() && a.is_some();\n\
                 if let 1..=5 = a { b && c } else if a == b && c {}\n\
                 }";
    assert_eq!(lines(plain), Vec::<usize>::new());
}

/// Every `.rs` file under `dir`, but not in build output or hidden folders.
fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                rust_files(&path, files);
            }
        } else if name.ends_with(".rs") {
            files.push(path);
        }
    }
}

/// The lines of the `if` and `while` keywords whose condition holds both a
/// `let` and a `&&` between operands.
fn find_let_chains(tokens: TokenStream, lines: &mut Vec<usize>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (at, token) in tokens.iter().enumerate() {
        if let TokenTree::Group(group) = token {
            find_let_chains(group.stream(), lines);
        }
        if !is_ident(token, "if") && !is_ident(token, "while") {
            continue;
        }
        let condition = condition(&tokens[at + 1..]);
        let has_let = condition.iter().any(|token| is_ident(token, "let"));
        let has_and = condition.windows(3).any(is_and);
        if has_let && has_and {
            lines.push(token.span().start().line);
        }
    }
}

/// The tokens of a condition, up to the body's braces: braces between a
/// `let` and its `=` are a pattern's (`let Node { items, .. } = node`).
fn condition(tokens: &[TokenTree]) -> &[TokenTree] {
    let mut in_pattern = false;
    for (at, token) in tokens.iter().enumerate() {
        if is_ident(token, "let") {
            in_pattern = true;
        } else if in_pattern && is_punct(token, '=', Spacing::Alone) {
            // Not the `=` of a range pattern's `..=`.
            in_pattern = at > 0 && is_punct(&tokens[at - 1], '.', Spacing::Joint);
        } else if !in_pattern && is_braces(token) {
            return &tokens[..at];
        }
    }
    tokens
}

/// Whether three tokens are an operand's last token and a `&&` operator
/// (not a double reference, `= &&value`, which follows no operand).
fn is_and(tokens: &[TokenTree]) -> bool {
    let ends_operand = match &tokens[0] {
        TokenTree::Ident(_) | TokenTree::Literal(_) | TokenTree::Group(_) => true,
        TokenTree::Punct(punct) => punct.as_char() == '?',
    };
    ends_operand
        && is_punct(&tokens[1], '&', Spacing::Joint)
        && is_punct(&tokens[2], '&', Spacing::Alone)
}

fn is_punct(token: &TokenTree, char: char, spacing: Spacing) -> bool {
    matches!(token, TokenTree::Punct(punct) if punct.as_char() == char && punct.spacing() == spacing)
}

fn is_ident(token: &TokenTree, word: &str) -> bool {
    matches!(token, TokenTree::Ident(ident) if ident == word)
}

fn is_braces(token: &TokenTree) -> bool {
    matches!(token, TokenTree::Group(group) if group.delimiter() == Delimiter::Brace)
}
