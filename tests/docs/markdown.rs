//! What the documentation tests read in a Markdown document: its fenced code
//! blocks, its headings (as the anchors GitHub and rustdoc give them) and
//! its links. Only as much of CommonMark as the README and the guide use.

/// A fenced code block.
pub struct Block {
    /// The info string after the opening fence (`rust`, `text`, `toml`).
    pub info: String,
    /// The line of the opening fence, from 1.
    pub line: usize,
    /// The code, without the fence's indentation.
    pub code: String,
}

impl Block {
    /// Whether the block is Rust, as rustdoc reads its info string: no
    /// language, `rust`, or only rustdoc's own attributes.
    pub fn is_rust(&self) -> bool {
        matches!(
            self.attributes().next(),
            None | Some("rust" | "no_run" | "ignore" | "should_panic" | "compile_fail")
        )
    }

    /// The words of the info string (`rust,no_run` gives `rust`, `no_run`).
    pub fn attributes(&self) -> impl Iterator<Item = &str> {
        self.info
            .split([',', ' '])
            .filter(|attribute| !attribute.is_empty())
    }
}

/// The fenced code blocks of `text`, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    for (index, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let block = Block {
                        info: info.trim().to_string(),
                        line: index + 1,
                        code: String::new(),
                    };
                    open = Some((indent, block));
                }
            }
            Some((fence_indent, block)) => {
                if trimmed.starts_with("```") {
                    blocks.push(open.take().expect("a block is open").1);
                } else {
                    let cut = indent.min(*fence_indent);
                    block.code.push_str(&line[cut..]);
                    block.code.push('\n');
                }
            }
        }
    }
    if let Some((_, block)) = open {
        panic!(
            "the code block opened on line {} is never closed",
            block.line
        );
    }
    blocks
}

/// The lines of `text` outside fenced code blocks, with their numbers from 1.
pub fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut in_block = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// The anchor of every heading of `text`.
pub fn anchors(text: &str) -> Vec<String> {
    prose(text)
        .into_iter()
        .filter_map(|(_, line)| {
            let title = line.trim_start_matches('#');
            (title.len() < line.len() && title.starts_with(' ')).then(|| anchor(title))
        })
        .collect()
}

/// A heading's anchor as GitHub and rustdoc make it: lowercase, spaces as
/// hyphens, and of the rest only letters, digits, `-` and `_`.
pub fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// A link's target, and where it is.
pub struct Link {
    /// The line, from 1.
    pub line: usize,
    /// The label of a reference definition (`[label]: target`), `None` for
    /// an inline link (`[text](target)`).
    pub label: Option<String>,
    /// Where it points.
    pub target: String,
}

/// Every inline link and reference definition outside code.
pub fn links(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (line_number, line) in prose(text) {
        if let Some((label, target)) = definition(line) {
            links.push(Link {
                line: line_number,
                label: Some(label.to_lowercase()),
                target: target.to_string(),
            });
            continue;
        }
        let outside_code: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for (start, _) in outside_code.match_indices("](") {
            let rest = &outside_code[start + 2..];
            if let Some(end) = rest.find(')') {
                links.push(Link {
                    line: line_number,
                    label: None,
                    target: rest[..end].to_string(),
                });
            }
        }
    }
    links
}

/// `[label]: target` at the start of a line.
pub fn definition(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    let (label, target) = rest.split_once("]: ")?;
    Some((label, target.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(
            anchor(" Integration tests and benches: `faster::main()`"),
            "integration-tests-and-benches-fastermain"
        );
        assert_eq!(
            anchor(" Verdicts about the code: set-up (Linux x86-64)"),
            "verdicts-about-the-code-set-up-linux-x86-64"
        );
    }

    #[test]
    fn indented_blocks_lose_their_indentation() {
        let text = "- a list\n\n  ```text\n  test x ... ok\n  ```\n";
        let found = blocks(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "test x ... ok\n");
        assert_eq!(found[0].line, 3);
    }

    #[test]
    fn links_in_code_are_not_links() {
        let text = "[a](x.md) and `[b](y.md)`\n[c]: z.md#top\n```text\n[d](w.md)\n```\n";
        let targets: Vec<String> = links(text).into_iter().map(|link| link.target).collect();
        assert_eq!(targets, ["x.md", "z.md#top"]);
    }
}
