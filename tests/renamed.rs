//! A crate that depends on `faster-test` under another name: through a
//! real `cargo test` on `tests/fixtures/renamed`, whose `Cargo.toml` says
//! `my_faster = { package = "faster-test", ... }`, every attribute given
//! `crate = my_faster` (a function compared, one tracked, a method
//! compared in a `#[my_faster::methods]` block) compiles with no `faster`
//! in scope, and its test runs.

mod support;

use support::cargo;

#[test]
fn a_renamed_dependency_is_named_by_the_crate_option() {
    let run = cargo("renamed", &["test"], &["--release"]);
    let output = &run.output;
    assert!(run.success(), "{output}");
    assert!(!output.contains("warning"), "{output}");
    for test in [
        "faster_sum_fast",
        "faster_track_largest",
        "faster_counter_add",
    ] {
        assert!(
            output.contains(&format!("test {test} ... ok")),
            "{test}: {output}"
        );
    }
}
