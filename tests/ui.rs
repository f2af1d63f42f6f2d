//! Compile-fail tests: every misuse of `#[faster::compare]` and
//! `#[faster::track]` gets an error at the offending token that says what to
//! write instead. The expected output is in `tests/ui/*.stderr`; regenerate
//! with `TRYBUILD=overwrite` and reread every changed message as a newcomer
//! would.
//!
//! The `.stderr` files were written by rustc 1.95.0, the one toolchain this
//! repository's CI uses; another compiler version may word its own part of
//! an error (the notes around our messages) differently, and then these tests
//! fail without anything being wrong. The files hold no absolute paths and no
//! dependency versions (trybuild writes paths relative to the workspace, and
//! the cases only point into this workspace's own crates), so they do not
//! drift with the machine or `Cargo.lock`.
//!
//! The cases, by file:
//! - `missing_original`, `duplicate_option`, `unknown_option` (`orignal`,
//!   `input`, `type`; an unrelated option, whose error lists every option,
//!   is a unit test of `faster-macros`, which reads that list off its
//!   table), `path_as_string` (a string or a call where a path goes),
//!   `original_not_found`, `bad_values` (floor, duration, `expect`,
//!   `check`, `name`, `processes`), `crate_misuse` (`crate` quoted, not a
//!   path, with generic arguments, misspelt);
//! - `signature_mismatch` (a parameter's type, an extra parameter, the
//!   output, an `extern "C"` original, inputs that fit the original and not
//!   the candidate: the signatures' error first), `inputs_mismatch` (an
//!   item's type, an item that is not a tuple, a tuple's field, a count
//!   function's type), `inputs_not_a_function` (a static, a constant, a
//!   function with a parameter, for `compare` and `track`),
//!   `inputs_presence`, `mut_params` (`&mut` mismatches and a `&mut` inside
//!   another type), `unsafe_original` (a safe candidate for an `unsafe fn`
//!   original);
//! - `output_not_comparable` (`check = eq` on an output or a `&mut`
//!   argument without `PartialEq`/`Debug`), `approx_not_applicable`,
//!   `bad_check` (malformed `approx(...)` and check values),
//!   `check_function_mismatch` (a `check = path` of the wrong type);
//! - `types_misuse` (generic functions and `types = [...]`),
//!   `unsupported_signatures` (`async`, `impl Trait`, a borrow inside an
//!   output, lifetime bounds, two attributes), `impl_block` (a method, associated
//!   functions, in `cfg_attr`, in a trait's implementation, and
//!   `#[faster::track]` without `#[faster::methods]` on the block: one
//!   error each, at the attribute), `methods_misuse` (`#[faster::methods]`
//!   on a generic block or with options, a receiver without inputs, a
//!   `&mut self` that is not `Clone`, `types` on a method that is not
//!   generic); `trait_methods` (a provided method without
//!   `#[faster::methods]` on its `trait`, whose free function declares its
//!   generics, or without `implementors`; a marked required method; a
//!   generic trait; `implementors` on a method of an `impl` block and on a
//!   free function);
//! - `track_misuse` (`#[faster::track]`: an option of `compare`, a misspelt
//!   option, inputs missing or superfluous, generic and `async` functions, a
//!   bad value).

#[test]
fn misuses_are_compile_errors_that_say_what_to_write() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
