//! `cargo faster --against --partition` for real, as a CI matrix runs it:
//! a fixture git repository of two commits tracking five functions, run
//! whole once and as two shards (`hash:1/2`, `hash:2/2`) one after another,
//! each in a target directory of its own (as each CI machine builds both
//! revisions itself), then `cargo faster merge` over the shards' run
//! documents. The merge holds the same functions as the whole run, each
//! measured by exactly one shard, and ends as the whole run did.
//!
//! Timing is not what is tested (every function says `expect = report`,
//! and no verdict is assumed decided); each function gets 1 s, as in
//! `revisions.rs`, for the same reason.

mod common;

use common::Fixture;
use std::path::{Path, PathBuf};

/// Five tracked functions; the head commit changes a comment only.
fn library(note: &str) -> String {
    let mut text = format!("// {note}\n");
    for name in ["encode", "decode", "parse", "render", "hash"] {
        text.push_str(&format!(
            "#[cfg_attr(test, faster::track(inputs = numbers, expect = report, max_time = \
             \"1s\"))]\npub fn {name}(n: &u64) -> u64 {{\n    (0..*n).fold({}, |total, i| \
             std::hint::black_box(total ^ i))\n}}\n\n",
            name.len()
        ));
    }
    text + "#[cfg(test)]\nfn numbers() -> Vec<u64> {\n    vec![100, 1_000]\n}\n"
}

impl Fixture {
    /// The repository with its two commits, the head one checked out.
    fn new(tag: &str) -> Fixture {
        let fixture = Fixture::repository(&format!("cargo-faster-shards-{tag}-"));
        fixture.write("Cargo.toml", &common::manifest("fixture"));
        for note in ["base", "head"] {
            fixture.write("src/lib.rs", &library(note));
            fixture.commit(note);
        }
        fixture
    }

    /// `cargo faster ARGUMENTS` in the fixture, building in `target`: its
    /// exit code and stderr.
    fn cargo_faster(&self, arguments: &[&str], target: &Path) -> (Option<i32>, String) {
        let output = self.command(arguments, target).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stderr)
    }
}

/// A target directory of the workspace's for this test: kept between runs
/// (each shard's its own, as each CI machine has its own).
fn target(name: &str) -> PathBuf {
    common::target("shards-fixture").join(name)
}

/// The names of the functions a run document holds, sorted.
fn names(run: &serde_json::Value) -> Vec<String> {
    let mut names: Vec<String> = run["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|document| document["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

fn read(path: &Path) -> serde_json::Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn two_shards_merged_hold_what_one_whole_run_holds() {
    let fixture = Fixture::new("merged");
    let run_file = |target: &Path| target.join("faster/against/+run.json");
    let whole_target = target("whole");
    let (code, stderr) = fixture.cargo_faster(&["--against", "HEAD~1"], &whole_target);
    assert_eq!(code, Some(0), "{stderr}");
    let whole = read(&run_file(&whole_target));
    assert!(whole["shard"].is_null());
    assert_eq!(
        names(&whole),
        ["decode", "encode", "hash", "parse", "render"].map(|name| format!("fixture::{name}"))
    );

    let artifacts = fixture.scratch.path().join("artifacts");
    let mut measured = Vec::new();
    for index in 1..=2 {
        let partition = format!("hash:{index}/2");
        let shard_target = target(&format!("shard-{index}"));
        let arguments = ["--against", "HEAD~1", "--partition", &partition];
        let (code, stderr) = fixture.cargo_faster(&arguments, &shard_target);
        assert_eq!(code, Some(0), "{partition}: {stderr}");
        let run = read(&run_file(&shard_target));
        assert_eq!(run["shard"], partition.as_str());
        assert_eq!(run["environment"]["host"], whole["environment"]["host"]);
        assert!(run["toolchain"].as_str().unwrap().starts_with("rustc "));
        let shard_names = names(&run);
        assert_eq!(
            run["filtered_out"].as_u64().unwrap() as usize,
            5 - shard_names.len()
        );
        measured.extend(shard_names);
        // As a CI artifact downloads: a folder per shard.
        let folder = artifacts.join(format!("shard-{index}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(run_file(&shard_target), folder.join("+run.json")).unwrap();
    }
    measured.sort();
    assert_eq!(
        measured,
        names(&whole),
        "each function in exactly one shard"
    );

    let out = fixture.scratch.path().join("merged");
    let out_text = out.to_string_lossy().into_owned();
    let artifacts_text = artifacts.to_string_lossy().into_owned();
    let (code, stderr) = fixture.cargo_faster(
        &["merge", &artifacts_text, "--out", &out_text],
        &target("whole"),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("cargo faster merge: merged 2 shards (hash:K/2): 5 comparisons"),
        "{stderr}"
    );
    // Every file written as comment.md is (0644 under a 022 umask), not
    // tempfile's 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        let comment = mode(&out.join("comment.md"));
        for file in [
            out.join("merged.json"),
            out.join("junit.xml"),
            run_file(&whole_target),
        ] {
            assert_eq!(mode(&file), comment, "{}", file.display());
        }
    }
    let merged = read(&out.join("merged.json"));
    assert_eq!(names(&merged), names(&whole));
    assert_eq!(merged["shards"].as_array().unwrap().len(), 2);
    assert_eq!(merged["filtered_out"], 0);
    let statuses = |run: &serde_json::Value| -> Vec<String> {
        let mut statuses: Vec<String> = run["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|document| format!("{} {}", document["name"], document["status"]))
            .collect();
        statuses.sort();
        statuses
    };
    // `expect = report` never fails on timing: every one passed in both.
    assert_eq!(statuses(&merged), statuses(&whole));
    let comment = std::fs::read_to_string(out.join("comment.md")).unwrap();
    assert!(
        comment.contains("measured in 2 shards (hash:K/2)"),
        "{comment}"
    );
    assert!(!comment.contains("differ in"), "one machine: {comment}");
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    assert_eq!(junit.matches("<testcase ").count(), 5, "{junit}");

    // Without the second shard the merge names it and fails.
    std::fs::remove_dir_all(artifacts.join("shard-2")).unwrap();
    let (code, stderr) = fixture.cargo_faster(
        &["merge", &artifacts_text, "--out", &out_text],
        &target("whole"),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("shard hash:2/2 is missing"), "{stderr}");

    // Without a folder, the argument is named.
    let (code, stderr) = fixture.cargo_faster(&["merge"], &target("whole"));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the following required arguments were not provided: <DIR>..."),
        "{stderr}"
    );
}

#[test]
fn a_bad_partition_is_a_usage_error_saying_what_to_write() {
    let fixture = Fixture::new("bad");
    for (partition, said) in [
        ("hash:0/2", "shard 0 of 2 does not exist"),
        ("hash:3/2", "shard 3 of 2 does not exist"),
        ("foo:1/2", "`foo` is not a way to partition"),
    ] {
        let arguments = ["--against", "HEAD~1", "--partition", partition];
        let (code, stderr) = fixture.cargo_faster(&arguments, &target("unused"));
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
        let arguments = ["test", "--release", "--partition", partition];
        let (code, stderr) = fixture.cargo_faster(&arguments, &target("unused"));
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
    }
    // Twice: an error, not the last one silently.
    let twice = ["--partition", "hash:1/2", "--partition", "hash:2/2"];
    for command in [&["--against", "HEAD~1"][..], &["test", "--release"][..]] {
        let arguments: Vec<&str> = command.iter().chain(&twice).copied().collect();
        let (code, stderr) = fixture.cargo_faster(&arguments, &target("unused"));
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("--partition: given twice (hash:1/2, then hash:2/2)"),
            "{stderr}"
        );
    }
}
