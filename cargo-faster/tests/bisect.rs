//! `cargo faster bisect` for real: a fixture git repository of a small
//! library whose tracked function `grows` comes in at the second commit,
//! becomes fifty times slower at the seventh, a commit on the way does not
//! build, and the others only change comments. Built by real cargo
//! (offline) and bisected by the real binary: the commit found is the
//! seventh; the one that does not build is skipped; the commits whose
//! compiled code is an end's take its answer unmeasured; and from a good
//! end that lacks the function, it says so and exits 1.
//!
//! A fiftyfold slowdown is decided however loaded the machine: the test
//! asserts what the search did, not a figure.

mod common;

use common::Fixture;
use std::path::PathBuf;

/// The library once `grows` is in; `ROUNDS` is how many times it goes over
/// its input, and `NOTE` a comment that changes no code.
const LIBRARY: &str = r#"
// NOTE
#[cfg_attr(test, faster::track(inputs = numbers, max_time = "1s"))]
pub fn grows(n: &u64) -> u64 {
    (0..*n * ROUNDS).fold(0, |total, i| std::hint::black_box(total ^ i))
}

#[cfg(test)]
fn numbers() -> Vec<u64> {
    vec![1_000, 4_000]
}
"#;

/// The library at one commit.
fn library(rounds: u32, note: &str) -> String {
    LIBRARY
        .replace("ROUNDS", &rounds.to_string())
        .replace("NOTE", note)
}

impl Fixture {
    /// The history: c0 without `grows`; c1 adds it; c2 and c3 change a
    /// comment; c4 does not build; c5 builds again, as c1; c6 makes it
    /// fifty times slower; c7 and c8 change a comment.
    fn new() -> Fixture {
        let fixture = Fixture::repository("cargo-faster-fixture-bisect-");
        fixture.write("Cargo.toml", &common::manifest("bisect-fixture"));
        fixture.write("src/lib.rs", "pub fn nothing_tracked_yet() {}\n");
        fixture.commit("c0: no tracked function yet");
        let commits = [
            (library(1, "one pass"), "c1: grows"),
            (library(1, "still one pass"), "c2: a comment"),
            (library(1, "one pass, said again"), "c3: a comment"),
            (
                library(1, "one pass").replace("pub fn", "pub fn fn"),
                "c4: does not build",
            ),
            (library(1, "one pass"), "c5: builds again"),
            (library(50, "fifty passes"), "c6: fifty passes"),
            (library(50, "fifty passes, said again"), "c7: a comment"),
            (library(50, "fifty passes, and more"), "c8: a comment"),
        ];
        for (text, subject) in commits {
            fixture.write("src/lib.rs", &text);
            fixture.commit(subject);
        }
        fixture
    }

    /// `cargo faster bisect ARGUMENTS`: its exit code, stdout and stderr.
    fn bisect(&self, arguments: &[&str]) -> (Option<i32>, String, String) {
        let arguments = [&["bisect"], arguments].concat();
        let output = self.command(&arguments, &target()).output().unwrap();
        let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
        (
            output.status.code(),
            text(output.stdout),
            text(output.stderr),
        )
    }

    /// The bisect's JSON document.
    fn document(&self) -> serde_json::Value {
        let path = target().join("faster/bisect/bisect.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }
}

/// The target directory the revision tests build their fixtures in: only
/// the first of them builds `faster` for it.
fn target() -> PathBuf {
    common::target("revisions-fixture")
}

#[test]
fn the_commit_that_made_it_slower_is_named_the_broken_one_skipped_the_same_code_unmeasured() {
    let fixture = Fixture::new();
    let [c1, c8] = ["c1:", "c8:"].map(|subject| fixture.commit_of(subject));
    let (code, stdout, stderr) = fixture.bisect(&[&format!("{c1}..{c8}"), "grows"]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let document = fixture.document();
    let function = &document["functions"][0];
    assert_eq!(function["name"], "bisect_fixture::grows", "{document:#}");
    assert_eq!(function["conclusion"], "found", "{document:#}");
    let culprits = function["culprits"].as_array().unwrap();
    assert_eq!(culprits.len(), 1, "{document:#}");
    assert_eq!(culprits[0]["commit"], fixture.commit_of("c6:"));
    assert_eq!(culprits[0]["subject"], "c6: fifty passes");
    let against_parent = &culprits[0]["against_parent"];
    assert_eq!(against_parent["answer"], "slower", "{document:#}");
    assert!(
        against_parent["time_ratio"].as_f64().unwrap() > 5.0,
        "{document:#}"
    );

    let steps = function["steps"].as_array().unwrap();
    let step = |subject: &str| {
        steps
            .iter()
            .find(|step| step["subject"].as_str().unwrap().starts_with(subject))
            .unwrap_or_else(|| panic!("{subject} not looked at: {document:#}"))
    };
    assert_eq!(step("c4:")["answer"], "skip");
    assert_eq!(step("c4:")["decided_by"], "skipped");
    // Fewer than every commit was measured: the compiled code decided.
    assert!(
        steps.iter().any(|step| step["decided_by"]
            .as_str()
            .unwrap()
            .starts_with("same_code")),
        "{document:#}\n{stderr}"
    );
    assert!(stdout.contains("c6: fifty passes"), "{stdout}");
    // The steps' reports are the bisect's own: the last guard's stay.
    let steps_run = target().join("faster/bisect/steps/+run.json");
    assert!(steps_run.is_file(), "no {}", steps_run.display());
    let markdown = std::fs::read_to_string(target().join("faster/bisect/bisect.md")).unwrap();
    assert!(
        markdown.contains("| commit | subject | decided by |"),
        "{markdown}"
    );

    // From a good end that lacks the function: said, and nothing found.
    let c0 = fixture.commit_of("c0:");
    let (code, stdout, stderr) = fixture.bisect(&[&format!("{c0}..{c8}"), "grows"]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert_eq!(
        fixture.document()["functions"][0]["conclusion"],
        "not_compared"
    );
    assert!(stdout.contains("not at"), "{stdout}");

    // A bad command line: 2.
    let (code, _, stderr) = fixture.bisect(&["grows"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("name both ends"), "{stderr}");
}
