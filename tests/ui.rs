//! Compile-fail tests: every misuse of `#[faster::compare]` gets an error at
//! the offending token that says what to write instead. The expected output
//! is in `tests/ui/*.stderr`; regenerate with `TRYBUILD=overwrite` and reread
//! every changed message as a newcomer would.

#[test]
fn misuses_are_compile_errors_that_say_what_to_write() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
