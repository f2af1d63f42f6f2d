//! Expansion tests: what the attribute generates for the cases in
//! `tests/expand/*.rs`, pinned in `tests/expand/*.expanded.rs` (formatted
//! with prettyplease). A change to the expansion shows here as a diff to
//! review; after reviewing, `FASTER_EXPAND=overwrite cargo test -p
//! faster-macros` rewrites the files.
//!
//! The UI tests say what users see when they get it wrong; these say what
//! they get when they get it right, including the hygiene: every runtime
//! item by an absolute path, locals the user cannot name.

use crate::{expand, validate};
use quote::ToTokens;
use std::fs;
use std::path::{Path, PathBuf};

/// The expansion of the one `#[faster::compare(...)]` function in `source`,
/// formatted.
fn expand_source(source: &str) -> String {
    let file = syn::parse_file(source).expect("the case parses");
    let mut function = file
        .items
        .into_iter()
        .find_map(|item| match item {
            syn::Item::Fn(function) => Some(function),
            _ => None,
        })
        .expect("the case has a function");
    let position = function
        .attrs
        .iter()
        .position(validate::is_compare_attribute)
        .expect("the function carries `#[faster::compare(...)]`");
    let attribute = function.attrs.remove(position);
    let args = match attribute.meta {
        syn::Meta::List(list) => list.tokens,
        _ => proc_macro2::TokenStream::new(),
    };
    let expanded = expand::compare(args, function.to_token_stream());
    let parsed: syn::File = syn::parse2(expanded).expect("the expansion parses as items");
    prettyplease::unparse(&parsed)
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/expand exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            path.extension().is_some_and(|extension| extension == "rs")
                && !path.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn expansions_match_the_checked_in_files() {
    let overwrite = std::env::var("FASTER_EXPAND").is_ok_and(|value| value == "overwrite");
    let mut differing = Vec::new();
    let cases = cases();
    assert!(
        cases.len() >= 4,
        "the expansion cases are missing: {cases:?}"
    );
    for case in cases {
        let source = fs::read_to_string(&case).expect("the case is readable");
        let expanded = expand_source(&source);
        let expected_path = case.with_extension("expanded.rs");
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if expanded == expected {
            continue;
        }
        if overwrite {
            fs::write(&expected_path, &expanded).expect("the expansion file is writable");
        } else {
            let first_line = expanded
                .lines()
                .zip(expected.lines())
                .position(|(new, old)| new != old)
                .unwrap_or_else(|| expanded.lines().count().min(expected.lines().count()));
            differing.push(format!(
                "{}: differs from line {}\n--- generated now\n{}\n--- checked in\n{}",
                expected_path.display(),
                first_line + 1,
                expanded
                    .lines()
                    .skip(first_line)
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n"),
                expected
                    .lines()
                    .skip(first_line)
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n"),
            ));
        }
    }
    assert!(
        differing.is_empty(),
        "the expansion changed; review it, then run `FASTER_EXPAND=overwrite cargo test -p \
         faster-macros` to update the files:\n\n{}",
        differing.join("\n\n")
    );
}

#[test]
fn expansions_name_runtime_items_by_absolute_paths() {
    for case in cases() {
        let source = fs::read_to_string(&case).expect("the case is readable");
        let expanded = expand_source(&source);
        // Whatever the user's module defines (a module called `faster`,
        // `core` or `inventory`), the expansion's own names resolve from
        // the crate root; the user's own types (`Option<f64>` in the
        // types of the call) keep meaning what they mean to the user.
        for line in expanded.lines() {
            for word in ["faster::", "core::", "inventory::", "std::"] {
                for (at, _) in line.match_indices(word) {
                    let before = &line[..at];
                    assert!(
                        before.ends_with("::"),
                        "{}: `{word}` without a leading `::` in `{line}`",
                        case.display()
                    );
                }
            }
        }
    }
}
