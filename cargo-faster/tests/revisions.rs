//! `cargo faster --against` for real: a fixture git repository in a
//! temporary directory, two commits of a small library that tracks
//! functions with `#[faster::track]`, built by real cargo (offline, from
//! what this workspace's build has fetched) and compared by the real
//! binary. Between the commits one function keeps its behaviour, one
//! returns something else on input 1, one is removed and one added. The
//! runs: the first builds the base; the second, with the change accepted,
//! builds nothing and writes JUnit and the job summary; the third, after a
//! change to the workspace's `.cargo/config.toml`, rebuilds the base (and
//! says why) and measures one function in two pairs of processes.
//!
//! Timing is not what is tested here (every function says `expect =
//! report`): the accuracy suite measures it (`accuracy --revisions`).

mod common;

use common::{Fixture, MANIFEST};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The base commit's library. Each function gets 1 s: beside other builds
/// a 200 ms budget went whole to getting ready ("other processes took the
/// time of 5 slices", a correct error, exit 101), which is not what these
/// tests test.
const BASE: &str = r#"
#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn kept(n: &u64) -> u64 {
    (0..*n).fold(0, |total, i| std::hint::black_box(mix(total, i)))
}

#[inline(never)]
fn mix(total: u64, i: u64) -> u64 {
    total ^ i
}

#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn behaves(n: &u64) -> u64 {
    n * 3
}

#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn removed(n: &u64) -> u64 {
    n + 1
}

#[cfg(test)]
fn numbers() -> Vec<u64> {
    vec![100, 1_000]
}
"#;

/// The manifest of the package `package`, with `dependencies` after
/// faster's. Each test's package has a name of its own: cargo names the
/// binaries of path packages alike wherever they are, and fixtures built
/// at the same time into the one target directory would link over each
/// other's (a run listed another test's functions).
fn manifest(package: &str, dependencies: &str) -> String {
    common::manifest(package).replace("[workspace]", &format!("{dependencies}\n[workspace]"))
}

/// The second commit: `behaves` changes on input 1, `removed` goes,
/// `added` comes, and `mix`, which `kept` calls, computes the same in
/// other instructions.
fn head() -> String {
    BASE.replace("    total ^ i\n", "    std::hint::black_box(total) ^ i\n")
        .replace(
            "    n * 3\n",
            "    if *n == 1_000 { n * 3 + 1 } else { n * 3 }\n",
        )
        .replace(
            "pub fn removed(n: &u64) -> u64 {\n    n + 1",
            "pub fn added(n: &u64) -> u64 {\n    n + 2",
        )
}

impl Fixture {
    /// The repository of the package `package` with its two commits, the
    /// second checked out.
    fn new(package: &str) -> Fixture {
        let fixture = Fixture::empty(package);
        fixture.write("Cargo.toml", &manifest(package, ""));
        fixture.write("src/lib.rs", BASE);
        fixture.commit("base");
        fixture.write("src/lib.rs", &head());
        fixture.commit("head");
        fixture
    }

    /// A repository without commits, at `repository` in a fresh scratch
    /// directory.
    fn empty(tag: &str) -> Fixture {
        Fixture::repository(&format!("cargo-faster-fixture-{tag}-"))
    }

    /// `cargo faster ARGUMENTS` in the fixture, with `environment`.
    fn cargo_faster(&self, arguments: &[&str], environment: &[(&str, &Path)]) -> Ran {
        let Output {
            status,
            stdout,
            stderr,
        } = self
            .command(arguments, &target())
            .envs(environment.iter().copied())
            .output()
            .unwrap();
        Ran {
            code: status.code(),
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
        }
    }

    /// `cargo faster ARGUMENTS --junit PATH` with a job summary: the run,
    /// its JUnit document and its job summary.
    fn cargo_faster_reporting(&self, arguments: &[&str]) -> (Ran, String, String) {
        let (junit, step_summary) = (self.root.join("junit.xml"), self.root.join("summary.md"));
        let _ = std::fs::remove_file(&step_summary);
        let junit_text = junit.to_string_lossy();
        let ran = self.cargo_faster(
            &[arguments, &["--junit", &junit_text]].concat(),
            &[("GITHUB_STEP_SUMMARY", &step_summary)],
        );
        let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
        (ran, read(&junit), read(&step_summary))
    }
}

/// The fixture's target directory: kept between runs, so only the first
/// one builds `faster` for it.
fn target() -> PathBuf {
    common::target("revisions-fixture")
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// The JSON documents of `--format json`, by name.
    fn documents(&self) -> Vec<(String, serde_json::Value)> {
        self.stdout
            .lines()
            .map(|line| {
                let document: serde_json::Value = serde_json::from_str(line)
                    .unwrap_or_else(|error| panic!("{error}: {line}\n{}", self.stderr));
                (document["name"].as_str().unwrap().to_string(), document)
            })
            .collect()
    }
}

/// The paired layouts of the fixture's test binary at the base commit
/// `base_commit` (`<binary>.layouts/paired-<id>/`, the one folder of them
/// there) and in the current build (the folder of the same pairing: other
/// tests' fixtures build in the same target directory).
fn paired_folders(base_commit: &str) -> [PathBuf; 2] {
    let paired_in = |deps: PathBuf| -> Vec<PathBuf> {
        std::fs::read_dir(&deps)
            .unwrap()
            .flatten()
            .filter(|entry| entry.file_name().to_string_lossy().ends_with(".layouts"))
            .flat_map(|layouts| std::fs::read_dir(layouts.path()).unwrap().flatten())
            .filter(|entry| entry.file_name().to_string_lossy().starts_with("paired-"))
            .map(|entry| entry.path())
            .collect()
    };
    let base_bin = target()
        .join("faster/base")
        .join(&base_commit[..12])
        .join("release/bin");
    let [base]: [PathBuf; 1] = paired_in(base_bin).try_into().unwrap();
    let current: Vec<PathBuf> = paired_in(target().join("faster/build/release/deps"))
        .into_iter()
        .filter(|folder| folder.file_name() == base.file_name())
        .collect();
    let [current]: [PathBuf; 1] = current.try_into().unwrap();
    [base, current]
}

/// The defined symbols of `binary`, by name, with the addresses of every
/// copy of each.
fn addresses(binary: &Path) -> std::collections::HashMap<String, Vec<u64>> {
    use object::{Object, ObjectSymbol};
    let data = std::fs::read(binary).unwrap();
    let file = object::File::parse(&*data).unwrap();
    let mut addresses = std::collections::HashMap::<String, Vec<u64>>::new();
    for symbol in file.symbols().filter(|symbol| symbol.is_definition()) {
        if let Ok(name) = symbol.name() {
            addresses
                .entry(name.to_string())
                .or_default()
                .push(symbol.address());
        }
    }
    // A local symbol can have copies of one name (a generic instantiated
    // in two codegen units), listed in any order: all of them, sorted.
    for copies in addresses.values_mut() {
        copies.sort_unstable();
    }
    addresses
}

/// Layout `k` of both revisions placed the code both run the same (the
/// symbols the ordering lists between its two pads) at the same addresses,
/// each layout at others.
fn assert_paired(base_commit: &str) {
    let [base, current] = paired_folders(base_commit);
    let order = std::fs::read_to_string(current.join("order-1")).unwrap();
    let lines: Vec<&str> = order.lines().collect();
    assert_eq!(lines[0], "faster_pad_before", "{order}");
    let between = lines
        .iter()
        .position(|line| *line == "faster_pad_between")
        .unwrap();
    let same = &lines[1..between];
    assert!(!same.is_empty(), "{order}");
    let placed = |folder: &Path, layout: u32| addresses(&folder.join(format!("layout-{layout}")));
    let (base_1, current_1, current_2) =
        (placed(&base, 1), placed(&current, 1), placed(&current, 2));
    let mut moved = false;
    for symbol in same {
        let (Some(at_base), Some(at_current)) = (base_1.get(*symbol), current_1.get(*symbol))
        else {
            continue;
        };
        assert_eq!(
            at_base, at_current,
            "{symbol} in layout 1 of both revisions"
        );
        moved |= current_2.get(*symbol) != Some(at_current);
    }
    assert!(moved, "layout 2 places the same code elsewhere");
}

/// `text` with its lines joined and its spaces single, as it reads before
/// wrapping at 80 columns.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What every output says of a function new in the current code, and of
/// one removed from it.
const NEW: &str = "new in this revision: nothing to compare against yet";
const REMOVED: &str = "not in this revision any more: nothing to compare";

#[test]
fn one_revision_against_another_built_once() {
    let fixture = Fixture::new("fixture");
    // Start from an empty cache for the base commit (the fixture's commits
    // are the same in every run, and the target directory stays).
    let base_commit = fixture.git(&["rev-parse", "HEAD~1"]);
    let _ = std::fs::remove_dir_all(target().join("faster/base").join(&base_commit[..12]));

    let first_summary = fixture.root.join("first.md");
    let first = fixture.cargo_faster(
        &["--against", "HEAD~1", "--format", "json"],
        &[("GITHUB_STEP_SUMMARY", &first_summary)],
    );
    assert!(
        first
            .stderr
            .contains("cargo faster: building the base revision HEAD~1"),
        "{}",
        first.stderr
    );
    assert_eq!(first.code, Some(101), "{}\n{}", first.stdout, first.stderr);
    assert!(
        first.stderr.contains("faster keeps ")
            && first
                .stderr
                .contains(" and the build both revisions share ("),
        "what the cache keeps: {}",
        first.stderr
    );
    let documents = first.documents();
    let names: Vec<&str> = documents.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "fixture::added",
            "fixture::behaves",
            "fixture::kept",
            "fixture::removed"
        ]
    );
    let by_name = |wanted: &str| &documents.iter().find(|(name, _)| name == wanted).unwrap().1;
    // Kept: measured and reported, the base as the original.
    let kept = by_name("fixture::kept");
    assert_eq!(kept["status"], "passed");
    assert_eq!(kept["result"]["expect"], "report");
    assert_eq!(kept["result"]["outputs_checked"], true);
    assert!(kept["result"]["speedup"].as_f64().unwrap() > 0.0);
    assert_eq!(
        kept["label"],
        format!("fixture::kept vs HEAD~1 ({})", &base_commit[..7])
    );
    // Its source is the same in both commits, and each binary's timed loop
    // for it was found (their sizes are the compiler's to choose); the
    // function it calls out of line was compiled to other code, and is
    // named.
    let code = &kept["result"]["compiled_code"];
    assert_eq!(code["source_unchanged"], true, "{code}");
    for revision in ["base", "current"] {
        let bytes = code["timed_loop_bytes"][revision].as_u64().unwrap_or(0);
        assert!((16..100_000).contains(&bytes), "{code}");
    }
    assert_eq!(code["changed_alone"], true, "{code}");
    let callees = code["callees_differing"].as_array().unwrap();
    assert!(
        callees
            .iter()
            .any(|callee| callee["name"] == "fixture::mix"),
        "{code}"
    );
    // Behaves: a failure naming the input and both outputs.
    let behaves = by_name("fixture::behaves");
    assert_eq!(behaves["status"], "error");
    let error = behaves["error"].as_str().unwrap();
    assert!(
        error.starts_with("the output changed since the base revision for input 1"),
        "{error}"
    );
    assert!(
        error.contains("base:    3000") && error.contains("current: 3001"),
        "{error}"
    );
    // Layout `k` of both revisions placed the code both run the same at
    // the same addresses, and another layout elsewhere.
    assert_paired(&base_commit);
    // One side only: said plainly, not failed.
    for (name, said) in [("fixture::removed", REMOVED), ("fixture::added", NEW)] {
        assert_eq!(by_name(name)["status"], "skipped");
        assert_eq!(by_name(name)["error"], said);
    }
    // The job summary names the base by its short hash, and keeps every
    // line of the error: which input, and both outputs. `kept` only
    // reports: on a busy machine its interval may leave it undecided,
    // which the heading counts apart.
    let summary = std::fs::read_to_string(&first_summary).unwrap();
    let undecided = if kept["result"]["decided"] == false {
        "1 undecided, "
    } else {
        ""
    };
    assert!(
        summary.contains(&format!(
            "### faster: `cargo faster` against `HEAD~1 ({})` — 4 comparisons, 1 failed, \
             {undecided}1 new, 1 removed\n",
            &base_commit[..7]
        )),
        "{summary}"
    );
    assert!(
        summary.contains(
            "| `fixture::behaves` | | | | ❌ error: the output changed since the base revision \
             for input 1<br>input:   1000<br>base:    3000<br>current: 3001 |"
        ),
        "{summary}"
    );

    // Again, the change accepted, with JUnit and the job summary: nothing to
    // build, every function in every output.
    let (second, junit, summary) =
        fixture.cargo_faster_reporting(&["--against", "HEAD~1", "--accept-changes"]);
    assert_eq!(second.code, Some(0), "{}\n{}", second.stdout, second.stderr);
    assert!(
        second.stderr.contains("is built already"),
        "{}",
        second.stderr
    );
    assert!(!second.stderr.contains("Compiling"), "{}", second.stderr);
    assert!(
        second
            .stdout
            .contains("the output changed since the base revision for input 1 (accepted"),
        "{}",
        second.stdout
    );
    // `kept` and `behaves` (its change accepted) only report, and either
    // may be undecided on a busy machine: counted among the passed, and in JUnit
    // skipped with what it could judge.
    let undecided = ["| `fixture::kept` |", "| `fixture::behaves` |"]
        .iter()
        .filter(|row| {
            summary
                .lines()
                .any(|line| line.starts_with(**row) && line.contains("❔ undecided"))
        })
        .count();
    let counts = match undecided {
        0 => "2 passed, 1 new, 1 removed".to_string(),
        undecided => format!("2 passed ({undecided} undecided), 1 new, 1 removed"),
    };
    let skipped = 2 + undecided;
    assert!(second.stdout.contains(&counts), "{}", second.stdout);
    assert!(
        words(&second.stdout).contains(
            "faster: a function renamed since the base revision reads as one removed and one new: \
             `#[faster::track(name = \"...\")]` with its old name keeps comparing it"
        ),
        "{}",
        second.stdout
    );
    assert!(
        junit.contains(&format!(
            "tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"{skipped}\""
        )),
        "{junit}"
    );
    for row in [
        format!("| `fixture::added` | | | | 🆕 {NEW} |"),
        format!("| `fixture::removed` | | | | ➖ {REMOVED} |"),
    ] {
        assert!(summary.contains(&row), "{summary}");
    }
    assert!(
        junit.contains(&format!("<skipped message=\"{NEW}\"/>")),
        "{junit}"
    );
    for measured in ["| `fixture::behaves` |", "| `fixture::kept` |"] {
        let row = summary
            .lines()
            .find(|line| line.starts_with(measured))
            .unwrap();
        assert!(row.contains(" ns |") || row.contains(" µs |"), "{row}");
    }

    // Replicated in fresh pairs of children, one function selected, after
    // a change to the workspace's cargo configuration (one that changes no
    // artifact, so cargo compiles nothing again): the base is rebuilt, and
    // says why.
    std::fs::create_dir_all(fixture.root.join(".cargo")).unwrap();
    fixture.write(".cargo/config.toml", "[alias]\nfixture-check = \"check\"\n");
    let replicated = fixture.cargo_faster(
        &[
            "--against",
            "HEAD~1",
            "--processes",
            "2",
            "--format",
            "json",
            "--exact",
            "fixture::kept",
        ],
        &[],
    );
    assert_eq!(replicated.code, Some(0), "{}", replicated.stderr);
    assert!(
        replicated
            .stderr
            .contains("is rebuilt: .cargo/config.toml changed since it was built"),
        "{}",
        replicated.stderr
    );
    let documents = replicated.documents();
    assert_eq!(documents.len(), 1, "{}", replicated.stdout);
    let result = &documents[0].1["result"];
    let processes = result["processes"].as_array().unwrap();
    // At least the two asked for; more while the verdict is unsettled.
    assert!(processes.len() >= 2, "{result}");
    let rounds: u64 = processes
        .iter()
        .map(|p| p["rounds"].as_u64().unwrap())
        .sum();
    assert_eq!(result["rounds"].as_u64(), Some(rounds));
}

#[test]
fn a_revision_that_names_no_commit_is_a_clear_error() {
    let fixture = Fixture::new("no-commit");
    let ran = fixture.cargo_faster(&["--against", "no-such-branch"], &[]);
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("`no-such-branch` names no commit here; fetch it first"),
        "{}",
        ran.stderr
    );
    let ran = fixture.cargo_faster(&[], &[]);
    assert_eq!(ran.code, Some(2));
    assert!(
        ran.stderr.contains("--against origin/main"),
        "{}",
        ran.stderr
    );
}

/// A tracked function that calls a crate outside the repository. Its
/// budget leaves each slice room to get ready on a busy machine: with
/// 100 ms, a run beside two other builds ended on "other processes took the
/// time of 5 slices" (an error, exit 101), which is not what this tests.
const SHIFTED: &str = r#"
#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = "1s"))]
pub fn shifted(n: &u64) -> u64 {
    n + helper::offset()
}

#[cfg(test)]
fn numbers() -> Vec<u64> {
    vec![1, 2]
}
"#;

impl Fixture {
    /// A crate `name` beside the repository, not in it, whose `offset()`
    /// returns `value`, from a package of its own in a folder under it
    /// (`<name>/inner`), as faster's own crates are under its checkout.
    fn outside_crate(&self, name: &str, value: u64) {
        let directory = self.scratch.path().join(name);
        std::fs::create_dir_all(directory.join("src")).unwrap();
        std::fs::create_dir_all(directory.join("inner/src")).unwrap();
        let package = |name: &str| {
            format!("[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n")
        };
        let manifest = format!(
            "{}\n[dependencies]\n{name}-inner = {{ path = \"inner\" }}\n",
            package(name)
        );
        std::fs::write(directory.join("Cargo.toml"), manifest).unwrap();
        let inner = format!("{name}_inner");
        let source = format!("pub fn offset() -> u64 {{\n    {inner}::offset()\n}}\n");
        std::fs::write(directory.join("src/lib.rs"), source).unwrap();
        let inner_manifest = package(&format!("{name}-inner"));
        std::fs::write(directory.join("inner/Cargo.toml"), inner_manifest).unwrap();
        let inner_source = format!("pub fn offset() -> u64 {{\n    {value}\n}}\n");
        std::fs::write(directory.join("inner/src/lib.rs"), inner_source).unwrap();
    }

    /// Where the base revision `HEAD~1` is built, emptied.
    fn fresh_base(&self) -> PathBuf {
        let commit = self.git(&["rev-parse", "HEAD~1"]);
        let directory = target().join("faster/base").join(&commit[..12]);
        let _ = std::fs::remove_dir_all(&directory);
        directory
    }
}

#[test]
fn a_path_dependency_outside_the_repository_is_the_same_for_both_revisions() {
    let fixture = Fixture::empty("outside");
    fixture.outside_crate("helper", 7);
    fixture.write(
        "Cargo.toml",
        &manifest("outside", r#"helper = { path = "../helper" }"#),
    );
    fixture.write("src/lib.rs", SHIFTED);
    fixture.commit("base");
    fixture.write("src/lib.rs", &format!("// A comment.\n{SHIFTED}"));
    fixture.commit("head");
    fixture.fresh_base();
    let run = || fixture.cargo_faster(&["--against", "HEAD~1", "--format", "json"], &[]);

    let first = run();
    assert_eq!(first.code, Some(0), "{}\n{}", first.stdout, first.stderr);
    assert!(
        first.stderr.contains(
            "cargo faster: the base revision uses the path dependencies outside the repository \
             as they are now (git does not version them): "
        ) && first.stderr.contains("helper (../helper)"),
        "{}",
        first.stderr
    );
    let documents = first.documents();
    assert_eq!(documents.len(), 1, "{}", first.stdout);
    assert_eq!(documents[0].1["status"], "passed");
    assert_eq!(documents[0].1["result"]["outputs_checked"], true);

    let second = run();
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    assert!(
        second.stderr.contains("is built already"),
        "{}",
        second.stderr
    );

    // The crate outside changes: both revisions see the change (a base
    // built with the old one would return other outputs, and fail).
    fixture.outside_crate("helper", 8);
    let third = run();
    assert_eq!(third.code, Some(0), "{}\n{}", third.stdout, third.stderr);
    // Compiled once, for the current code, with the package under it: the
    // base, which reaches them through a link beside its worktree, takes
    // the same packages.
    assert_eq!(compiled(&third.stderr, "helper"), 1, "{}", third.stderr);
    assert_eq!(
        compiled(&third.stderr, "helper-inner"),
        1,
        "{}",
        third.stderr
    );
    assert!(
        third
            .stderr
            .contains("cargo faster: built the base revision HEAD~1"),
        "{}",
        third.stderr
    );

    // A package nested in it that is no dependency (a test's fixture crate,
    // its lock file written by a test run) is not its: nothing is rebuilt.
    let fixture_crate = fixture.scratch.path().join("helper/tests/fixtures/old");
    std::fs::create_dir_all(&fixture_crate).unwrap();
    std::fs::write(
        fixture_crate.join("Cargo.toml"),
        "[package]\nname = \"old\"\n",
    )
    .unwrap();
    std::fs::write(fixture_crate.join("Cargo.lock"), "version = 4\n").unwrap();
    let fourth = run();
    assert_eq!(fourth.code, Some(0), "{}", fourth.stderr);
    assert!(
        fourth.stderr.contains("is built already"),
        "{}",
        fourth.stderr
    );
    // One nested in it that is a dependency is fingerprinted on its own.
    let inner_source = fixture.scratch.path().join("helper/inner/src/lib.rs");
    std::fs::write(&inner_source, "pub fn offset() -> u64 {\n    9\n}\n").unwrap();
    let fifth = run();
    assert_eq!(fifth.code, Some(0), "{}\n{}", fifth.stdout, fifth.stderr);
    assert!(
        fifth.stderr.contains("is rebuilt: ") && fifth.stderr.contains("helper/inner changed"),
        "{}",
        fifth.stderr
    );
}

#[test]
fn a_package_nested_outside_that_only_the_base_depends_on_is_fingerprinted() {
    let fixture = Fixture::empty("nested");
    fixture.outside_crate("helper", 7);
    // `../helper/old`: a package in the linked folder that the current
    // code does not name, read by the base through the link.
    let old = fixture.scratch.path().join("helper/old");
    std::fs::create_dir_all(old.join("src")).unwrap();
    std::fs::write(
        old.join("Cargo.toml"),
        "[package]\nname = \"old\"\nversion = \"0.0.0\"\nedition = \"2024\"\n",
    )
    .unwrap();
    std::fs::write(
        old.join("src/lib.rs"),
        "pub fn offset() -> u64 {\n    7\n}\n",
    )
    .unwrap();
    fixture.write(
        "Cargo.toml",
        &manifest(
            "nested",
            "helper = { path = \"../helper\" }\nold = { path = \"../helper/old\" }",
        ),
    );
    fixture.write("src/lib.rs", &SHIFTED.replace("helper::", "old::"));
    fixture.commit("base, with the old crate");
    fixture.write(
        "Cargo.toml",
        &manifest("nested", r#"helper = { path = "../helper" }"#),
    );
    fixture.write("src/lib.rs", SHIFTED);
    fixture.commit("head, without it");
    fixture.fresh_base();
    let run = || fixture.cargo_faster(&["--against", "HEAD~1", "--format", "json"], &[]);

    let first = run();
    assert_eq!(first.code, Some(0), "{}\n{}", first.stdout, first.stderr);
    // A change beside the packages is none of theirs: the base is kept.
    std::fs::write(fixture.scratch.path().join("notes.md"), "notes\n").unwrap();
    let second = run();
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    assert!(
        second.stderr.contains("is built already"),
        "{}",
        second.stderr
    );
    // A change in the package only the base reads rebuilds it.
    std::fs::write(
        old.join("src/lib.rs"),
        "pub fn offset() -> u64 {\n    3 + 4\n}\n",
    )
    .unwrap();
    let third = run();
    assert_eq!(third.code, Some(0), "{}\n{}", third.stdout, third.stderr);
    assert!(
        third.stderr.contains("is rebuilt: ") && third.stderr.contains("helper/old changed"),
        "{}",
        third.stderr
    );
}

#[test]
fn a_base_that_does_not_build_says_which_revision_where_and_the_fix() {
    let fixture = Fixture::empty("gone");
    fixture.outside_crate("gone", 1);
    fixture.write(
        "Cargo.toml",
        &manifest("vanishing", r#"gone = { path = "../gone" }"#),
    );
    fixture.write("src/lib.rs", &SHIFTED.replace("helper::", "gone::"));
    fixture.commit("base, with a crate outside");
    fixture.write("Cargo.toml", &manifest("vanishing", ""));
    fixture.write("src/lib.rs", BASE);
    fixture.commit("head, without it");
    let base = fixture.fresh_base();

    let ran = fixture.cargo_faster(&["--against", "HEAD~1"], &[]);
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    let message = ran
        .stderr
        .lines()
        .find(|line| line.starts_with("cargo faster: could not build"))
        .unwrap_or_else(|| panic!("{}", ran.stderr));
    let commit = fixture.git(&["rev-parse", "--short=7", "HEAD~1"]);
    assert!(
        message.starts_with(&format!(
            "cargo faster: could not build the base revision HEAD~1 ({commit}) in {}",
            base.join("src").display()
        )),
        "{message}"
    );
    assert!(
        message.ends_with(
            "(cargo's errors are above): it names a path dependency outside the repository, \
             ../gone, that the current code does not: only the current code's are laid out \
             beside the base, as they are now; compare against a revision that uses the same \
             ones"
        ),
        "{message}"
    );
}

#[test]
fn a_run_where_every_function_is_new_says_it_compared_nothing_and_passes() {
    let fixture = Fixture::empty("all-new");
    fixture.write("Cargo.toml", &manifest("all-new", ""));
    fixture.write(
        "src/lib.rs",
        "pub fn kept(n: &u64) -> u64 {\n    n + 1\n}\n",
    );
    fixture.commit("before faster::track");
    fixture.write("src/lib.rs", BASE);
    fixture.commit("the first #[faster::track]");
    fixture.fresh_base();
    let nothing = "nothing was compared: every tracked function is new in this revision; the run \
                   passes, as nothing can have regressed";

    let (json, junit, summary) =
        fixture.cargo_faster_reporting(&["--against", "HEAD~1", "--format", "json"]);
    assert_eq!(json.code, Some(0), "{}\n{}", json.stdout, json.stderr);
    assert!(
        json.stderr.contains(&format!("faster: {nothing}\n")),
        "{}",
        json.stderr
    );
    let documents = json.documents();
    assert_eq!(documents.len(), 3, "{}", json.stdout);
    for (_, document) in &documents {
        assert_eq!(document["status"], "skipped");
        assert_eq!(document["error"], NEW);
    }
    assert!(
        junit.contains(&format!(
            "    <system-out>{nothing}</system-out>\n  </testsuite>"
        )),
        "{junit}"
    );
    assert!(
        summary.contains("— 3 comparisons, 0 passed, 3 new\n"),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("\n> ℹ️ {nothing}\n")),
        "{summary}"
    );

    for format in ["pretty", "terse", "bench"] {
        let ran = fixture.cargo_faster(&["--against", "HEAD~1", "--format", format], &[]);
        assert_eq!(
            ran.code,
            Some(0),
            "{format}: {}\n{}",
            ran.stdout,
            ran.stderr
        );
        assert!(
            words(&ran.stdout).contains(&format!("faster: {nothing}")),
            "{format}: {}",
            ran.stdout
        );
        assert!(
            ran.stdout
                .contains("test result: ok. 0 passed; 0 failed; 3 ignored;"),
            "{format}: {}",
            ran.stdout
        );
        // The time on that line is the measuring's; the whole run's, the
        // builds included, is said apart.
        assert!(
            ran.stdout.contains("cargo faster: the whole run took "),
            "{format}: {}",
            ran.stdout
        );
        let said = if format == "pretty" {
            "faster: all_new::kept vs HEAD~1 (".to_string()
        } else {
            format!("test all_new::kept ... ignored, {NEW}\n")
        };
        assert!(ran.stdout.contains(&said), "{format}: {}", ran.stdout);
        if format == "pretty" {
            assert!(
                ran.stdout.contains(&format!(")\n  {NEW}\n")),
                "{}",
                ran.stdout
            );
        }
    }
}

/// A package without `faster`, with a registry dependency, a binary and an
/// integration test: what `cargo faster` builds, whatever it then finds;
/// with `dependency` and `workspace` lines more.
fn sharing_manifest(dependency: &str, workspace: &str) -> String {
    // Each test builds it in a target directory of its own.
    MANIFEST
        .replace("PACKAGE", "fixture")
        .replace(
            "faster-test = { path = \"FASTER\", default-features = false }",
            &format!("itoa = \"1\"\n{dependency}"),
        )
        .replace("[workspace]", &format!("[workspace]\n{workspace}"))
}

impl Fixture {
    /// Two commits of a package with `itoa` and a binary printing which
    /// commit it is: its name; or, when `vendored`, the value of a path
    /// package inside the repository that is not a member of its
    /// workspace, 1 in the first commit and 2 in the second.
    fn sharing(tag: &str, vendored: bool) -> Fixture {
        let fixture = Fixture::empty(tag);
        let manifest = if vendored {
            sharing_manifest("v = { path = \"vendor/v\" }", "exclude = [\"vendor/v\"]")
        } else {
            sharing_manifest("", "")
        };
        fixture.write("Cargo.toml", &manifest);
        std::fs::create_dir_all(fixture.root.join("src/bin")).unwrap();
        std::fs::create_dir_all(fixture.root.join("tests")).unwrap();
        std::fs::create_dir_all(fixture.root.join("vendor/v/src")).unwrap();
        fixture.write(
            "vendor/v/Cargo.toml",
            "[package]\nname = \"v\"\nversion = \"0.0.0\"\nedition = \"2024\"\n",
        );
        fixture.write(
            "src/lib.rs",
            "pub fn digits(n: u64) -> usize {\n    itoa::Buffer::new().format(n).len()\n}\n",
        );
        fixture.write("tests/runs.rs", "#[test]\nfn runs() {}\n");
        for (commit, value) in [("base", 1), ("head", 2)] {
            let said = if vendored {
                "v::value()".to_string()
            } else {
                format!("{commit:?}")
            };
            fixture.write(
                "src/bin/which.rs",
                &format!("fn main() {{\n    println!(\"{{}}\", {said});\n}}\n"),
            );
            fixture.write(
                "vendor/v/src/lib.rs",
                &format!("pub fn value() -> u32 {{\n    {value}\n}}\n"),
            );
            fixture.commit(commit);
        }
        fixture
    }
}

/// How many times cargo said it compiled the package `name`.
fn compiled(stderr: &str, name: &str) -> usize {
    let said = format!("Compiling {name} v");
    stderr
        .lines()
        .filter(|line| line.trim_start().starts_with(&said))
        .count()
}

/// The files in `folder` whose names start with `prefix` and end with
/// `suffix`.
fn files(folder: &Path, prefix: &str, suffix: &str) -> Vec<String> {
    let entries = std::fs::read_dir(folder).unwrap_or_else(|error| panic!("{folder:?}: {error}"));
    entries
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(prefix) && name.ends_with(suffix))
        .collect()
}

#[test]
fn both_revisions_compile_a_dependency_once_and_their_own_crates_apart() {
    let fixture = Fixture::sharing("sharing", false);
    let target = fixture.scratch.path().join("target");
    let run = |environment: &[(&str, &Path)]| {
        let environment = [&[("CARGO_TARGET_DIR", target.as_path())], environment].concat();
        let ran = fixture.cargo_faster(&["--against", "HEAD~1"], &environment);
        // Nothing is tracked: built, then said.
        assert_eq!(ran.code, Some(1), "{}", ran.stderr);
        assert!(
            ran.stderr
                .contains("has a function tracked with #[faster::track]"),
            "{}",
            ran.stderr
        );
        ran
    };

    // From an empty target directory: itoa compiled once, for both; the
    // fixture once for each revision, under names of its own.
    let first = run(&[]);
    assert_eq!(compiled(&first.stderr, "itoa"), 1, "{}", first.stderr);
    assert_eq!(compiled(&first.stderr, "fixture"), 2, "{}", first.stderr);
    let deps = target.join("faster/build/release/deps");
    assert_eq!(files(&deps, "libitoa-", ".rlib").len(), 1);
    assert_eq!(files(&deps, "libfixture-", ".rlib").len(), 2);
    assert!(!target.join("faster/base/target").exists());
    assert!(
        words(&first.stderr).contains(&format!(
            "cargo faster: {} keeps 1 base revision (",
            target.join("faster").display()
        )) && first
            .stderr
            .contains(") and the build both revisions share ("),
        "{}",
        first.stderr
    );
    // The binary integration tests run (`CARGO_BIN_EXE_which`) is the
    // current code's, though the base was built after it.
    let which = Command::new(target.join("faster/build/release/which"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&which.stdout), "head\n");

    // `cargo faster test` builds there too, with the same compiler and
    // linker: the current code's build is its own, nothing compiled again.
    let environment = [("CARGO_TARGET_DIR", target.as_path())];
    let tested = fixture.cargo_faster(&["test", "--release", "--no-run"], &environment);
    assert_eq!(tested.code, Some(0), "{}", tested.stderr);
    assert!(!tested.stderr.contains("Compiling"), "{}", tested.stderr);

    // A workspace wrapper of the project's own: the base is built apart,
    // and says why.
    let wrapper = fixture.scratch.path().join("wrap");
    std::fs::write(&wrapper, "#!/bin/sh\nexec \"$@\"\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let executable = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&wrapper, executable).unwrap();
    }
    let wrapped = run(&[("RUSTC_WORKSPACE_WRAPPER", &wrapper)]);
    assert!(
        words(&wrapped.stderr).contains(
            "cargo faster: the base revision is built apart from the current code, its \
             dependencies compiled again: RUSTC_WORKSPACE_WRAPPER is set"
        ),
        "{}",
        wrapped.stderr
    );
    let apart = target.join("faster/base/target/release/deps");
    assert_eq!(files(&apart, "libitoa-", ".rlib").len(), 1);
}

#[test]
fn a_path_package_in_the_workspace_but_not_of_it_is_built_apart() {
    let fixture = Fixture::sharing("vendored", true);
    let target = fixture.scratch.path().join("target");
    let run = || {
        let environment = [("CARGO_TARGET_DIR", target.as_path())];
        let ran = fixture.cargo_faster(&["--against", "HEAD~1"], &environment);
        assert_eq!(ran.code, Some(1), "{}", ran.stderr);
        ran
    };
    let ran = run();
    assert!(
        words(&ran.stderr).contains(
            "its dependencies compiled again: vendor/v is a path package inside the workspace \
             but not a member of it, which cargo would name alike in both revisions"
        ),
        "{}",
        ran.stderr
    );
    // Each revision compiled its own `v`, in a target directory of its own.
    assert_eq!(compiled(&ran.stderr, "v"), 2, "{}", ran.stderr);
    for deps in [
        "faster/build/release/deps",
        "faster/base/target/release/deps",
    ] {
        assert_eq!(files(&target.join(deps), "libv-", ".rlib").len(), 1);
    }
    // Run again, the base cached: the current code's binary still has the
    // current code's `v`, not the base's, which one target directory would
    // have given it (its sources older than the base's library, cargo would
    // call that fresh).
    run();
    let which = Command::new(target.join("faster/build/release/which"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&which.stdout), "2\n");
}

#[test]
fn a_base_built_again_after_another_base_compiles_its_own_sources() {
    let fixture = Fixture::sharing("rebase", false);
    fixture.write(
        "src/bin/which.rs",
        "fn main() {\n    println!(\"third\");\n}\n",
    );
    fixture.commit("third");
    let target = fixture.scratch.path().join("target");
    let against = |revision: &str| {
        let environment = [("CARGO_TARGET_DIR", target.as_path())];
        let ran = fixture.cargo_faster(&["--against", revision], &environment);
        assert_eq!(ran.code, Some(1), "{}", ran.stderr);
        ran
    };
    // The first commit's base, then the second's: the second's crates now
    // have the newer files under the names every base shares.
    against("HEAD~2");
    against("HEAD~1");
    // The first commit's build is forgotten (pruned, or its key changed)
    // while its worktree, checked out before the second's build, stays.
    let first = fixture.git(&["rev-parse", "HEAD~2"]);
    let record = target
        .join("faster/base")
        .join(&first.trim()[..12])
        .join("release/build.json");
    std::fs::remove_file(&record).unwrap_or_else(|error| panic!("{record:?}: {error}"));
    let again = against("HEAD~2");
    let base_compiled = again
        .stderr
        .lines()
        .filter(|line| line.contains("Compiling fixture v") && line.contains("faster/base"))
        .count();
    assert!(base_compiled > 0, "{}", again.stderr);
}

/// What a fault leaves in `<target>/faster` is made again, and never
/// measured as it is: one revision run in the one link it has against the
/// other in many would read where that link put the code as a change.
#[test]
fn a_damaged_build_or_layout_is_made_again_never_measured_as_it_is() {
    let fixture = Fixture::empty("faults");
    fixture.write("Cargo.toml", &manifest("faults", ""));
    // Commits of its own: the base's cache folder is this test's alone.
    let base = format!("{BASE}\n// The fault-injection fixture.\n");
    fixture.write("src/lib.rs", &base);
    fixture.commit("base");
    fixture.write("src/lib.rs", &format!("{base}\npub fn unrelated() {{}}\n"));
    fixture.commit("head");
    let base_bin = fixture.fresh_base().join("release/bin");
    let run = |fault: &str| -> Ran {
        let ran = fixture.cargo_faster(
            &[
                "--against",
                "HEAD~1",
                "--format",
                "json",
                "--exact",
                "faults::kept",
            ],
            &[],
        );
        assert_eq!(ran.code, Some(0), "{fault}: {}\n{}", ran.stdout, ran.stderr);
        let documents = ran.documents();
        let scope = &documents[0].1["result"]["scope"];
        assert_eq!(scope["layouts"], true, "{fault}: {scope}\n{}", ran.stderr);
        ran
    };
    let said = |ran: &Ran, fault: &str, words: &[&str]| {
        for word in words {
            assert!(
                ran.stderr.contains(word),
                "{fault}: {word:?} in\n{}",
                ran.stderr
            );
        }
    };
    run("the first run");
    let root = std::fs::canonicalize(&fixture.root).unwrap();
    let current = std::fs::read_dir(target().join("faster/build/release/deps"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|folder| {
            let material =
                std::fs::read_to_string(folder.join("material.json")).unwrap_or_default();
            let material: serde_json::Value = serde_json::from_str(&material).unwrap_or_default();
            let directory = material["kept"]["material"]["directory"].as_str();
            directory.and_then(|directory| std::fs::canonicalize(directory).ok())
                == Some(root.clone())
        })
        .expect("the current binary's layouts");
    let truncate = |file: &Path| {
        let bytes = std::fs::read(file).unwrap();
        std::fs::write(file, &bytes[..bytes.len() / 2]).unwrap();
    };

    truncate(&current.join("material.json"));
    let ran = run("a layout record cut short");
    said(
        &ran,
        "a layout record cut short",
        &["material.json cannot be read", "linking it again"],
    );

    std::fs::remove_dir_all(&current).unwrap();
    let ran = run("a layout folder removed");
    said(
        &ran,
        "a layout folder removed",
        &[".layouts is gone", "linking it again"],
    );

    let [base_binary]: [PathBuf; 1] = std::fs::read_dir(&base_bin)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    truncate(&base_binary);
    let ran = run("a cached base binary cut short");
    said(
        &ran,
        "a cached base binary cut short",
        &["is rebuilt: ", "changed since it was kept"],
    );

    // A layout the base's binary was relinked in, cut short: made again,
    // not run (it crashed every child before).
    let layouts = faster_runtime::__internal::own_dir(&base_binary);
    let paired = std::fs::read_dir(&layouts)
        .unwrap()
        .flatten()
        .find(|entry| entry.file_name().to_string_lossy().starts_with("paired-"))
        .unwrap()
        .path();
    let layout = paired.join("layout-1");
    let whole = std::fs::metadata(&layout).unwrap().len();
    truncate(&layout);
    run("a layout cut short");
    assert_eq!(
        std::fs::metadata(&layout).unwrap().len(),
        whole,
        "made again"
    );

    // The same layout damaged in place, its size and time kept (a bad
    // block): its digest tells it, and it is made again, not run (it
    // crashed every function, run after run, before).
    let whole = std::fs::read(&layout).unwrap();
    let modified = std::fs::metadata(&layout).unwrap().modified().unwrap();
    let mut damaged = whole.clone();
    for byte in &mut damaged[whole.len() / 4..whole.len() / 2] {
        *byte = 0xff;
    }
    std::fs::write(&layout, &damaged).unwrap();
    let file = std::fs::File::options().write(true).open(&layout).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    run("a layout damaged in place");
    assert_eq!(std::fs::read(&layout).unwrap(), whole, "made again");

    truncate(&base_bin.parent().unwrap().join("build.json"));
    let ran = run("the base's record cut short");
    said(
        &ran,
        "the base's record cut short",
        &["is rebuilt: its build.json cannot be read"],
    );
}

/// A base revision the last run did not measure keeps what relinks its
/// layouts, not the layouts themselves: measured again, it is relinked in
/// the same layouts, and the line at the end of each run says what went.
#[test]
fn a_base_not_measured_keeps_only_its_material_and_is_relinked_alike() {
    let fixture = Fixture::empty("idle");
    fixture.write("Cargo.toml", &manifest("idle", ""));
    // Commits of its own: the bases' cache folders are this test's alone.
    let base = format!("{BASE}\n// The fixture of bases not measured.\n");
    for (file, commit) in [
        (base.clone(), "first base"),
        (format!("{base}\npub fn second() {{}}\n"), "second base"),
        (
            format!("{base}\npub fn second() {{}}\npub fn third() {{}}\n"),
            "head",
        ),
    ] {
        fixture.write("src/lib.rs", &file);
        fixture.commit(commit);
    }
    // Where each base's test binaries are kept, its cache folder emptied.
    let [first, second] = ["HEAD~2", "HEAD~1"].map(|revision| {
        let commit = fixture.git(&["rev-parse", revision]);
        let folder = target().join("faster/base").join(&commit[..12]);
        let _ = std::fs::remove_dir_all(&folder);
        folder.join("release/bin")
    });
    let run = |revision: &str| -> String {
        let arguments = ["--against", revision, "--format", "json"];
        let ran = fixture.cargo_faster(&[&arguments[..], &["--exact", "idle::kept"]].concat(), &[]);
        assert_eq!(
            ran.code,
            Some(0),
            "{revision}: {}\n{}",
            ran.stdout,
            ran.stderr
        );
        let documents = ran.documents();
        let scope = &documents[0].1["result"]["scope"];
        assert_eq!(
            scope["layouts"], true,
            "{revision}: {scope}\n{}",
            ran.stderr
        );
        words(&ran.stderr)
    };
    // The layouts made from a base's one test binary (cargo names it
    // `idle-HASH`), and all its `.layouts/` holds.
    let layouts_of = |bin: &Path| -> (Vec<PathBuf>, Vec<String>) {
        let binary = std::fs::read_dir(bin)
            .unwrap()
            .flatten()
            .map(|entry| entry.path())
            .find(|path| path.is_file())
            .unwrap();
        let made = faster_runtime::__internal::made_from(&binary);
        let dir = faster_runtime::__internal::own_dir(&binary);
        let mut all: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        all.sort();
        (made, all)
    };
    const MATERIAL: [&str; 2] = ["inputs", "material.json"];

    run("HEAD~2");
    let (made, _) = layouts_of(&first);
    let [paired]: [PathBuf; 1] = made.try_into().unwrap();
    let layout = paired.join("layout-1");
    let placed = addresses(&layout);

    // Measured against the second base: the first's layouts go, and its
    // material stays.
    // (The layouts of older test binaries in the build every test here
    // shares may go in the same clause.)
    let said = run("HEAD~1");
    assert!(
        said.contains(" of 1 base revision not measured now ("),
        "{said}"
    );
    assert_eq!(layouts_of(&first).1, MATERIAL);
    assert!(!layouts_of(&second).0.is_empty());

    // Against the first again: built already, relinked where it was, and
    // the second's layouts go in turn (said, though nothing was built) —
    // or the whole second base, where the other tests' bases made since
    // (they share this target) leave it among the older ones the cache
    // does not keep.
    let said = run("HEAD~2");
    assert!(said.contains("is built already"), "{said}");
    assert_eq!(addresses(&layout), placed, "relinked alike");
    if second.exists() {
        assert!(
            said.contains(" of 1 base revision not measured now ("),
            "{said}"
        );
        assert_eq!(layouts_of(&second).1, MATERIAL);
    } else {
        assert!(said.contains(" older one"), "{said}");
    }
}
