//! The guide's script that gives every commit of a range one tracking
//! wrapper (`guide/bisect.md`, "History from before the function was
//! tracked"), taken from the guide and run as shown on a scratch repository
//! whose path by first parents crosses a merge: the branch it makes has one
//! commit per commit of that path, each the original's tree, message,
//! author and dates plus the wrapper, the dependency and a `Tracked-from:`
//! trailer, in a manifest cargo reads; the original history is untouched.

use crate::markdown;
use crate::support;
use std::path::Path;
use std::process::Command;

/// The library's manifest at the good end: a `[dev-dependencies]` table of
/// its own already, beside which the script's must still be valid TOML.
const MANIFEST: &str = "[package]
name = \"demo\"
version = \"0.1.0\"
edition = \"2021\"

[dev-dependencies]
";

/// What the guide's wrapper would be; here only copied, never built.
const WRAPPER: &str = "// tests/faster_track.rs, the same at every commit\n";

#[test]
fn the_guides_script_replays_the_first_parent_path_with_the_wrapper_at_every_commit() {
    let scratch = tempfile::Builder::new()
        .prefix("faster-docs-history-")
        .tempdir()
        .expect("a scratch folder");
    let script = scratch.path().join("track-history.sh");
    std::fs::write(&script, guide_script()).expect("the script is written");
    let wrapper = scratch.path().join("faster_track.rs");
    std::fs::write(&wrapper, WRAPPER).expect("the wrapper is written");
    let repository = scratch.path().join("demo");
    let history = History::new(&repository);
    let faster = format!("path = \"{}\"", crate::root().display());
    let printed = history.git_in(
        Command::new("sh")
            .arg(&script)
            .args(["good", "main"])
            .arg(&wrapper)
            .arg(&faster),
    );
    let tracked = history.lines(&["rev-list", "--reverse", "faster-tracked"]);
    let originals = history.lines(&["rev-list", "--reverse", "--first-parent", "good^..main"]);
    assert_eq!(tracked.len(), originals.len(), "one commit per commit");
    assert_eq!(printed, format!("{}..faster-tracked", tracked[0]));
    for (tracked, original) in tracked.iter().zip(&originals) {
        history.assert_replayed(tracked, original, &faster);
    }
    assert_eq!(
        history.lines(&["worktree", "list"]).len(),
        1,
        "its worktree is gone"
    );
    let manifest = repository.join("Cargo.toml");
    history.git(&["checkout", "--quiet", "faster-tracked"]);
    let metadata = support::cargo_on(&manifest, &["metadata"], &["--no-deps"], &[]);
    assert!(metadata.success(), "{}", metadata.output);
    for said in ["\"name\":\"faster_track\"", "\"name\":\"faster-test\""] {
        assert!(
            metadata.output.contains(said),
            "{said}\n{}",
            metadata.output
        );
    }
}

/// The script as `guide/bisect.md` shows it: its `sh` block that is a
/// script of its own.
fn guide_script() -> String {
    let guide = std::fs::read_to_string(crate::root().join("guide/bisect.md"))
        .expect("guide/bisect.md is readable");
    markdown::blocks(&guide)
        .into_iter()
        .find(|block| block.info == "sh" && block.code.starts_with("#!/bin/sh"))
        .expect("guide/bisect.md shows the script")
        .code
}

/// A scratch repository: `good` (the manifest and a library), a merge of
/// a side branch, and a last commit on `main`.
struct History<'a> {
    root: &'a Path,
}

impl<'a> History<'a> {
    fn new(root: &'a Path) -> History<'a> {
        std::fs::create_dir_all(root.join("src")).expect("the repository's folder");
        let history = History { root };
        history.git(&["init", "--quiet", "--initial-branch=main"]);
        history.commit("Cargo.toml", MANIFEST, "the manifest", 1);
        history.commit("src/lib.rs", "pub fn one() {}\n", "one", 2);
        history.git(&["tag", "good"]);
        history.git(&["checkout", "--quiet", "-b", "side"]);
        history.commit("src/side.rs", "pub fn side() {}\n", "a side commit", 3);
        history.git(&["checkout", "--quiet", "main"]);
        history.commit("src/lib.rs", "pub fn two() {}\n", "two", 4);
        history.git(&[
            "merge",
            "--quiet",
            "--no-ff",
            "--message",
            "merge side",
            "side",
        ]);
        history.commit("src/lib.rs", "pub fn three() {}\n", "three", 5);
        history
    }

    /// A commit by an author of its own on `day` of January 2025, so that
    /// a replay that took the running shell's identity or date would show.
    fn commit(&self, path: &str, text: &str, subject: &str, day: u32) {
        std::fs::write(self.root.join(path), text).expect("a file of the repository");
        self.git(&["add", "--all"]);
        let date = format!("2025-01-{day:02}T12:00:00Z");
        self.git_in(
            Command::new("git")
                .args(["commit", "--quiet", "--message", subject])
                .args(["--author", "Original <original@example.com>"])
                .env("GIT_AUTHOR_DATE", &date)
                .env("GIT_COMMITTER_DATE", &date),
        );
    }

    /// Each of `tracked`'s files is `original`'s, but for the wrapper and
    /// the manifest's added tables; its message is `original`'s with the
    /// trailer, its author and dates `original`'s.
    fn assert_replayed(&self, tracked: &str, original: &str, faster: &str) {
        let changed = self.lines(&["diff", "--name-only", original, tracked]);
        assert_eq!(changed, ["Cargo.toml", "tests/faster_track.rs"]);
        let show = |commit: &str, path: &str| self.git(&["show", &format!("{commit}:{path}")]);
        assert_eq!(show(tracked, "tests/faster_track.rs"), WRAPPER.trim_end());
        let added = format!(
            "\n\n[dev-dependencies.faster-test]\n{faster}\n\n[[test]]\nname = \"faster_track\""
        );
        assert_eq!(
            show(tracked, "Cargo.toml"),
            format!("{}{added}", show(original, "Cargo.toml"))
        );
        let said = |commit: &str| self.git(&["log", "-1", "--format=%an %ae %aI %cI%n%B", commit]);
        assert_eq!(
            said(tracked),
            format!("{}\n\nTracked-from: {original}", said(original))
        );
    }

    fn git(&self, arguments: &[&str]) -> String {
        self.git_in(Command::new("git").args(arguments))
    }

    fn lines(&self, arguments: &[&str]) -> Vec<String> {
        self.git(arguments).lines().map(str::to_string).collect()
    }

    /// Runs `command` in the repository as a committer of this test's
    /// (not the machine's git configuration), and gives its trimmed stdout;
    /// fails on a non-zero exit.
    fn git_in(&self, command: &mut Command) -> String {
        let output = command
            .current_dir(self.root)
            .env("GIT_AUTHOR_NAME", "shell")
            .env("GIT_AUTHOR_EMAIL", "shell@example.com")
            .env("GIT_COMMITTER_NAME", "committer")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git and sh run");
        assert!(
            output.status.success(),
            "{command:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout)
            .expect("git speaks UTF-8 here")
            .trim()
            .to_string()
    }
}
