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

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MANIFEST: &str = r#"[package]
name = "tables-fixture"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
faster-test = { path = "FASTER", default-features = false }

[workspace]
"#;

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

struct Fixture {
    _scratch: tempfile::TempDir,
    root: PathBuf,
}

impl Fixture {
    /// The history: c1 with a table of ones to threes, c2 with the same
    /// table thirty times over, c3 with other code as fast: c2's code is
    /// neither end's, so a bisect measures it.
    fn new() -> Fixture {
        let scratch = tempfile::Builder::new()
            .prefix("cargo-faster-fixture-tables-")
            .tempdir()
            .unwrap();
        let root = scratch.path().join("repository");
        std::fs::create_dir_all(root.join("src")).unwrap();
        let fixture = Fixture {
            _scratch: scratch,
            root,
        };
        fixture.write(".gitignore", "/target\n/Cargo.lock\n");
        fixture.git(&["init", "--quiet", "--initial-branch=main"]);
        let faster = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        fixture.write(
            "Cargo.toml",
            &MANIFEST.replace("FASTER", &faster.to_string_lossy()),
        );
        let commits = [
            (library(1, "i ^ j"), "c1: walks"),
            (library(30, "i ^ j"), "c2: a larger table"),
            (library(30, "i.wrapping_add(j)"), "c3: adds"),
        ];
        for (text, subject) in commits {
            fixture.write("src/lib.rs", &text);
            fixture.git(&["add", "--all"]);
            fixture.git(&["commit", "--quiet", "--message", subject]);
        }
        fixture
    }

    fn write(&self, path: &str, text: &str) {
        std::fs::write(self.root.join(path), text).unwrap();
    }

    /// `git ARGUMENTS` in the fixture, with a fixed author and date; its
    /// output.
    fn git(&self, arguments: &[&str]) -> String {
        let output = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args([
                "-c",
                "user.name=fixture",
                "-c",
                "user.email=fixture@example.com",
            ])
            .args(["-c", "commit.gpgsign=false"])
            .args(arguments)
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(output.status.success(), "git {arguments:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    /// The commit whose subject starts with `prefix`.
    fn commit_of(&self, prefix: &str) -> String {
        let log = self.git(&["log", "--format=%H %s"]);
        let line = log
            .lines()
            .find(|line| line.split_once(' ').unwrap().1.starts_with(prefix))
            .unwrap();
        line[..40].to_string()
    }

    /// `cargo faster ARGUMENTS`: its exit code, stdout and stderr.
    fn cargo_faster(&self, arguments: &[&str]) -> (Option<i32>, String, String) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-faster"));
        command
            .arg("faster")
            .args(arguments)
            .current_dir(&self.root)
            .env("CARGO", env!("CARGO"))
            .env("CARGO_TARGET_DIR", target())
            .env("CARGO_NET_OFFLINE", "true")
            .env("CARGO_TERM_COLOR", "never")
            .env_remove("GITHUB_STEP_SUMMARY");
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("FASTER_") {
                command.env_remove(&name);
            }
        }
        let Output {
            status,
            stdout,
            stderr,
        } = command.output().unwrap();
        let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
        (status.code(), text(stdout), text(stderr))
    }
}

/// The target directory the revision tests build their fixtures in (under
/// the one cargo builds this in): only the first of them builds `faster`.
fn target() -> PathBuf {
    let workspace_target = || {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .join("target")
    };
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(workspace_target)
        .join("revisions-fixture")
}

#[test]
#[cfg_attr(
    not(all(target_os = "linux", target_arch = "x86_64")),
    ignore = "compiled code is read from x86-64 ELF"
)]
fn a_commit_that_changes_only_a_table_read_is_compiled_code_changed_and_measured() {
    let fixture = Fixture::new();
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
