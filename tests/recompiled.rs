//! A library file that an integration test compiles again, as a module
//! (`#[path = "../src/digits.rs"] mod digits;`, as `ryu`'s tests do), is
//! tracked and compared once per crate: through a real `cargo test` on
//! `tests/fixtures/recompiled`, the copy compiles though the attributes'
//! options name `crate::cases`, which the test crate lacks, and only the
//! library's test binary has the tests they add; a function the test file
//! tracks itself is still registered there.

mod support;

use support::cargo;

#[test]
fn a_file_compiled_again_by_a_test_registers_in_the_library_alone() {
    let listed = cargo("recompiled", &["test"], &["--release", "--", "--list"]);
    let output = &listed.output;
    assert!(listed.success(), "{output}");
    assert!(!output.contains("warning"), "{output}");
    // libtest lists each binary's tests (on stdout), ending with a count:
    // the library's unit tests, then `tests/digits_test.rs`, then the
    // doctests.
    let binaries: Vec<Vec<&str>> = output
        .split("tests, 0 benchmarks")
        .map(|listing| {
            listing
                .lines()
                .filter(|line| line.ends_with(": test"))
                .collect()
        })
        .collect();
    assert_eq!(
        binaries[0],
        [
            "digits::faster_count_digits: test",
            "digits::faster_track_count_digits: test",
            "digits::faster_track_counter_count: test",
        ],
        "{output}"
    );
    assert_eq!(
        binaries[1],
        ["digits_are_counted: test", "faster_track_answer: test"],
        "{output}"
    );

    let run = cargo("recompiled", &["test"], &["--release"]);
    assert!(run.success(), "{}", run.output);
}
