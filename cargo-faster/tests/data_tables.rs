//! A commit that changes only a table the tracked function reads is not
//! "the same code" (issue 47): a fixture git repository whose second commit
//! changes nothing but a `static TABLE: [u8; 256]` the tracked function
//! indexes, making it thirty times slower, and whose third changes its code
//! but not its speed. Built by real cargo (offline), run by the real binary:
//! `cargo faster --against HEAD~1` at the second commit names the table as
//! compiled code that changed, and a bisect measures that commit rather
//! than taking the good end's answer for it, so it names it.
//!
//! A thirtyfold slowdown is decided however loaded the machine: the test
//! asserts what was compared and what the search did, not a figure.

mod common;

use common::Fixture;
use std::path::PathBuf;

/// The library: `walks` goes over its input, as many rounds per element
/// as `TABLE` says, each round `STEP`, and comes to the same output
/// whatever the table.
const LIBRARY: &str = r#"
static TABLE: [u8; 256] = [ENTRIES];

#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn walks(n: &u64) -> u64 {
    (0..*n).fold(0, |total, i| {
        for j in 0..u64::from(TABLE[(i & 255) as usize]) {
            std::hint::black_box(STEP);
        }
        total + i
    })
}

#[cfg(test)]
fn numbers() -> Vec<u64> {
    vec![1_000, 4_000]
}
"#;

/// The library with a table whose entries are `scale` times a pattern no
/// optimizer folds into arithmetic, and `step`.
fn library(scale: u8, step: &str) -> String {
    let entries: Vec<String> = (0..256u32)
        .map(|i| (u8::try_from(1 + i * 37 % 3).unwrap() * scale).to_string())
        .collect();
    LIBRARY
        .replace("ENTRIES", &entries.join(", "))
        .replace("STEP", step)
}

impl Fixture {
    /// The history: c1 with a table of ones to threes, c2 with the same
    /// table thirty times over, c3 with other code as fast: c2's code is
    /// neither end's, so a bisect measures it.
    fn tables() -> Fixture {
        let fixture = Fixture::repository("cargo-faster-fixture-tables-");
        fixture.write("Cargo.toml", &common::manifest("tables-fixture"));
        let commits = [
            (library(1, "i ^ j"), "c1: walks"),
            (library(30, "i ^ j"), "c2: a larger table"),
            (library(30, "i.wrapping_add(j)"), "c3: adds"),
        ];
        for (text, subject) in commits {
            fixture.write("src/lib.rs", &text);
            fixture.commit(subject);
        }
        fixture
    }

    /// `cargo faster ARGUMENTS`: its exit code, stdout and stderr.
    fn cargo_faster(&self, arguments: &[&str]) -> (Option<i32>, String, String) {
        let output = self.command(arguments, &target()).output().unwrap();
        let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
        (
            output.status.code(),
            text(output.stdout),
            text(output.stderr),
        )
    }
}

/// The target directory the revision tests build their fixtures in: only
/// the first of them builds `faster` for it.
fn target() -> PathBuf {
    common::target("revisions-fixture")
}

#[test]
#[cfg_attr(
    not(all(target_os = "linux", target_arch = "x86_64")),
    ignore = "compiled code is read from x86-64 ELF"
)]
fn a_commit_that_changes_only_a_table_read_is_compiled_code_changed_and_measured() {
    let fixture = Fixture::tables();
    let [c1, c2, c3] = ["c1:", "c2:", "c3:"].map(|subject| fixture.commit_of(subject));

    let (code, stdout, stderr) = fixture.cargo_faster(&["bisect", &format!("{c1}..{c3}"), "walks"]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let path = target().join("faster/bisect/bisect.json");
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let function = &document["functions"][0];
    assert_eq!(function["conclusion"], "found", "{document:#}");
    assert_eq!(function["culprits"][0]["commit"], c2, "{document:#}");
    let steps = function["steps"].as_array().unwrap();
    let c2_step = steps.iter().find(|step| step["commit"] == c2);
    assert_eq!(
        c2_step.map(|step| &step["decided_by"]),
        Some(&"measured".into()),
        "{document:#}"
    );

    fixture.git(&["checkout", "--quiet", &c2]);
    let (_, stdout, stderr) = fixture.cargo_faster(&["--against", "HEAD~1", "--format", "json"]);
    let document: serde_json::Value = stdout
        .lines()
        .find_map(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("no document: {stdout}\n{stderr}"));
    let compiled = &document["result"]["compiled_code"];
    assert_eq!(compiled["source_unchanged"], true, "{compiled}");
    assert_eq!(compiled["changed_alone"], true, "{compiled}");
    let table = compiled["callees_differing"]
        .as_array()
        .unwrap()
        .iter()
        .find(|callee| {
            callee["name"]
                .as_str()
                .unwrap()
                .starts_with("tables_fixture::TABLE, data read by ")
        });
    assert_eq!(
        table.map(|table| table["bytes"].clone()),
        Some(serde_json::json!({"base": 256, "current": 256})),
        "{compiled}"
    );
}
