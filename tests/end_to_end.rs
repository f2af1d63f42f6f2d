//! A real `cargo test --release` on the library in `tests/fixtures/demo`,
//! which uses `#[cfg_attr(test, faster::compare(...))]` as the README
//! recommends: the generated tests pass for correct candidates and fail,
//! naming the input and both outputs, for a wrong one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// One child `cargo test` at a time: a second one compiling next to a timed
/// comparison would be the noise the comparison must not see.
static CHILD_CARGO: Mutex<()> = Mutex::new(());

struct Run {
    success: bool,
    /// stdout and stderr together: libtest's report and failures go to
    /// stdout, cargo's own messages to stderr.
    output: String,
}

fn cargo_test_demo(features: &[&str]) -> Run {
    let _one_at_a_time = CHILD_CARGO
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = workspace.join("tests/fixtures/demo/Cargo.toml");
    let target_dir: PathBuf = workspace.join("target/fixtures");
    let mut command = Command::new(env!("CARGO"));
    command
        .args(["test", "--release", "--offline", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir)
        .env("CARGO_TERM_COLOR", "never");
    if !features.is_empty() {
        command.args(["--features", &features.join(",")]);
    }
    // The comparisons must see the documented defaults, not this shell's.
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("FASTER_") {
            command.env_remove(&name);
        }
    }
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("cargo runs");
    Run {
        success: status.success(),
        output: format!(
            "{}\n{}",
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&stderr)
        ),
    }
}

#[test]
fn correct_candidates_pass_and_are_reported() {
    let run = cargo_test_demo(&[]);
    let output = &run.output;
    assert!(
        run.success,
        "cargo test failed on the correct fixture:\n{output}"
    );
    for test in [
        "faster_has_duplicate_sorted",
        "faster_sum_unrolled",
        "faster_checksum_again",
    ] {
        assert!(
            output.contains(&format!("test {test} ... ok")),
            "{test} did not pass:\n{output}"
        );
    }
    for heading in [
        "has_duplicate_sorted vs has_duplicate_naive",
        "sum_unrolled vs sum_naive",
        "checksum_again vs checksum",
    ] {
        assert!(
            output.contains(heading),
            "no report for {heading}:\n{output}"
        );
    }
}

#[test]
fn a_wrong_candidate_fails_naming_the_input_and_both_outputs() {
    let run = cargo_test_demo(&["wrong"]);
    let output = &run.output;
    assert!(
        !run.success,
        "cargo test passed although sum_unrolled is wrong:\n{output}"
    );
    assert!(
        output.contains("test faster_sum_unrolled ... FAILED"),
        "{output}"
    );
    // The wrong candidate drops the last value (1 001) of input 1 only.
    let failure = failure_of("faster_sum_unrolled", output);
    assert!(
        failure.contains("input 1"),
        "the failure does not name input 1:\n{output}"
    );
    assert!(
        !failure.contains("input 0"),
        "input 0 is correct but was blamed:\n{output}"
    );
    assert!(
        failure.contains("501501"),
        "the original's output is missing:\n{output}"
    );
    assert!(
        failure.contains("500500"),
        "the candidate's output is missing:\n{output}"
    );
    // One wrong candidate does not take the other comparisons down with it.
    assert!(
        output.contains("test faster_has_duplicate_sorted ... ok"),
        "{output}"
    );
    assert!(
        output.contains("test faster_checksum_again ... ok"),
        "{output}"
    );
}

/// What libtest printed for the failed `test`: from its `---- test stdout
/// ----` line to the first blank line after the text.
fn failure_of<'a>(test: &str, output: &'a str) -> &'a str {
    let header = format!("---- {test} stdout ----");
    let start = output
        .find(&header)
        .unwrap_or_else(|| panic!("no failure output for {test}:\n{output}"));
    let section = output[start + header.len()..].trim_start_matches('\n');
    section.find("\n\n").map_or(section, |end| &section[..end])
}
