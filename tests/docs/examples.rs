//! The docs' Rust examples as a user's crate: where each block goes, the
//! verdicts the docs show after it, and the crate they make together.
//!
//! A block is library code, in a module of its own (`pub`, so that its
//! public functions are the library's API), unless its first line names a
//! file of the crate (`// tests/speed.rs`), where it goes instead, as a
//! `harness = false` target when it has a `main`. A block that uses
//! `faster::gpu` needs the `gpu` feature and is left out without it.

use crate::markdown::{self, Block};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// One Rust block of one document.
pub struct Example {
    /// Where it is shown: `README.md:12`.
    pub place: String,
    /// The code, as shown.
    pub code: String,
    /// The file of the crate it names on its first line (`tests/speed.rs`),
    /// or `None` for library code.
    pub file: Option<String>,
    /// What the docs show it prints: each report's heading (`faster: a vs
    /// b`) with its verdict (`faster`, `within the 5% floor`, `slower`,
    /// `undecided`).
    pub shown: Vec<(String, String)>,
}

impl Example {
    /// Whether it needs the `gpu` feature.
    pub fn needs_gpu(&self) -> bool {
        self.code.contains("faster::gpu") || self.code.contains("compare_gpu")
    }
}

/// The Rust blocks of the document `name` (its text `text`), each with the
/// verdicts of the `text` block right after it, if any. Panics on a block
/// that cannot be what a user copies: one rustdoc ignores, or one with lines
/// rustdoc hides from the reader.
pub fn examples(name: &str, text: &str) -> Vec<Example> {
    let blocks = markdown::blocks(text);
    let mut found = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        if !block.is_rust() {
            continue;
        }
        let place = format!("{name}:{}", block.line);
        assert!(
            block
                .attributes()
                .all(|a| a != "ignore" && a != "compile_fail"),
            "{place}: a Rust example must compile as shown; `{}` skips it",
            block.info
        );
        if let Some(hidden) = block.code.lines().find(|line| is_hidden(line)) {
            panic!(
                "{place}: `{hidden}` is hidden by rustdoc, so a reader copies the block without it"
            );
        }
        let shown = blocks
            .get(index + 1)
            .filter(|next| next.info == "text")
            .map(|next| verdicts_shown(&block.code, next))
            .unwrap_or_default();
        found.push(Example {
            place,
            file: file_named(&block.code),
            code: block.code.clone(),
            shown,
        });
    }
    found
}

/// Whether rustdoc hides `line` of a Rust block (`# use x;`, `#`).
fn is_hidden(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed == "#" || trimmed.starts_with("# ")
}

/// The file a block's first line names: `// tests/speed.rs`.
fn file_named(code: &str) -> Option<String> {
    let first = code.lines().next()?.strip_prefix("// ")?;
    let path = first.split_whitespace().next()?;
    (path.ends_with(".rs") && path.contains('/')).then(|| path.to_string())
}

/// Each report's heading and verdict in `output`, of the reports that
/// compare two functions `code` defines (an output block may follow an
/// example of something else).
fn verdicts_shown(code: &str, output: &Block) -> Vec<(String, String)> {
    let defines = |name: &str| {
        let name = name.split("::<").next().unwrap_or(name);
        code.contains(&format!("fn {name}(")) || code.contains(&format!("fn {name}<"))
    };
    reports(&output.code)
        .into_iter()
        .filter(|(heading, _)| {
            let pair = heading.trim_start_matches("faster: ");
            let (candidate, rest) = pair.split_once(" vs ").unwrap_or((pair, ""));
            let original = rest.split_whitespace().next().unwrap_or(rest);
            defines(candidate) && defines(original)
        })
        .collect()
}

/// Each `faster: A vs B` heading in `output`, with the verdict of the
/// report under it: the words after the first `✓`, `✗` or `? ` (an
/// undecided pass) that follows, up to ` (` or `:` (`faster`, `within
/// the 5% floor`, `slower`, `undecided`).
pub fn reports(output: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let heading = line.trim();
        if !(heading.starts_with("faster: ") && heading.contains(" vs ")) {
            continue;
        }
        let verdict = lines[index + 1..]
            .iter()
            .find_map(|line| {
                line.split_once('✓')
                    .or_else(|| line.split_once('✗'))
                    .or_else(|| {
                        line.split_once("? undecided")
                            .map(|(_, _)| ("", "undecided"))
                    })
            })
            .map(|(_, after)| {
                let verdict = after.split(" (").next().unwrap_or(after);
                verdict
                    .split(':')
                    .next()
                    .unwrap_or(verdict)
                    .trim()
                    .to_string()
            })
            .unwrap_or_default();
        found.push((heading.to_string(), verdict));
    }
    found
}

/// The crate the examples make, as files: the path of each (relative to
/// the crate) and its text. The manifest has no dependency yet: the test
/// adds them with `cargo add`, as the README says.
pub fn crate_files(examples: &[&Example]) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut lib = String::from(
        "//! The README's and the guide's Rust examples, one module per block\n\
         //! (written by `tests/docs/`).\n",
    );
    let mut manifest = String::from(
        "# The README's and the guide's examples as a user's crate (written by\n\
         # `tests/docs/`): built and tested as a user would.\n\
         [package]\nname = \"my_crate\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n",
    );
    for example in examples {
        match &example.file {
            Some(path) => {
                let previous = files.insert(path.clone(), example.code.clone());
                assert!(previous.is_none(), "{}: a second {path}", example.place);
                if let Some(name) = path
                    .strip_prefix("tests/")
                    .and_then(|p| p.strip_suffix(".rs"))
                    .filter(|_| example.code.contains("fn main("))
                {
                    let _ = write!(manifest, "\n[[test]]\nname = \"{name}\"\nharness = false\n");
                }
            }
            None => {
                let module = module_name(&example.place);
                let _ = writeln!(lib, "\n/// {}\npub mod {module};", example.place);
                files.insert(format!("src/{module}.rs"), example.code.clone());
            }
        }
    }
    manifest.push_str("\n# Its own workspace, not a member of faster's.\n[workspace]\n");
    files.insert("src/lib.rs".into(), lib);
    files.insert("Cargo.toml".into(), manifest);
    files
}

/// A module name for the block at `place`: `README.md:12` is `readme_12`,
/// `guide/writing.md:40` is `guide_writing_40`.
fn module_name(place: &str) -> String {
    let name: String = place
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches(':')
        .trim_end_matches(".md")
        .trim_end_matches(".rs")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let line = place.rsplit(':').next().unwrap_or_default();
    format!("{name}_{line}")
}

/// Writes `files` under `root`, leaving a file alone where its text is the
/// same (so cargo rebuilds only what changed), and removes the sources of
/// earlier runs that are no longer examples.
pub fn write_crate(root: &Path, files: &BTreeMap<String, String>) {
    for folder in ["src", "tests"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let relative = format!("{folder}/{}", entry.file_name().to_string_lossy());
            if !files.contains_key(&relative) {
                std::fs::remove_file(entry.path()).expect("an old example is removed");
            }
        }
    }
    for (relative, text) in files {
        let path = root.join(relative);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(&path, text).expect("the example is written");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_gives_its_heading_and_verdict() {
        let output = "faster: a vs b\n  ⏱️ Runtime: 1 µs → 2 µs\n  1.10x slower [99% CI 1.09x – 1.11x]\n    ✗ slower (expected not slower; noise floor 5%)\n\
                      faster: c vs d\n  1.00x  ✓ within the 5% floor\n\
                      faster: e vs f\n  1.03x slower [99% CI 1.15x faster – 1.22x slower]\n    ? undecided: only a change beyond 24% could be judged (noise floor 5%)\n\
                      faster: g vs h\n  1.06x faster  ✗ undecided: only a change beyond 9% could be judged (expected faster; noise floor 5%)\n\
                      faster: i vs j\n  1.00x  ✓ within the 5% floor\n";
        assert_eq!(
            reports(output),
            [
                ("faster: a vs b".to_string(), "slower".to_string()),
                (
                    "faster: c vs d".to_string(),
                    "within the 5% floor".to_string()
                ),
                ("faster: e vs f".to_string(), "undecided".to_string()),
                ("faster: g vs h".to_string(), "undecided".to_string()),
                (
                    "faster: i vs j".to_string(),
                    "within the 5% floor".to_string()
                ),
            ]
        );
    }

    #[test]
    fn only_the_reports_of_the_examples_functions_are_its_output() {
        let code = "pub fn fast(v: &[u8]) {}\nfn slow<T>(v: &[T]) {}\n";
        let output = Block {
            info: "text".into(),
            line: 1,
            code: "faster: fast vs slow\n  ✓ faster (noise floor 5%)\n\
                   faster: other vs slow (src/lib.rs:9): the candidate returns a different result\n"
                .into(),
        };
        assert_eq!(
            verdicts_shown(code, &output),
            [("faster: fast vs slow".to_string(), "faster".to_string())]
        );
    }

    #[test]
    fn modules_are_named_after_their_place() {
        assert_eq!(module_name("README.md:12"), "readme_12");
        assert_eq!(module_name("guide/writing.md:40"), "guide_writing_40");
        assert_eq!(module_name("src/lib.rs:10"), "src_lib_10");
    }

    #[test]
    fn a_first_line_naming_a_file_places_the_block() {
        assert_eq!(
            file_named("// tests/speed.rs\nfn main() {}\n").as_deref(),
            Some("tests/speed.rs")
        );
        assert_eq!(file_named("// A comment.\nfn f() {}\n"), None);
        assert_eq!(file_named("fn f() {}\n"), None);
    }
}
