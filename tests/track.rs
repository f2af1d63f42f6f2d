//! `#[faster::track]` used for real: every annotated function below is
//! registered for comparisons across revisions (`cargo faster --against`)
//! and gets a generated `#[test]` (`faster_track_<function>`) that calls it
//! on every input. The plain tests at the end read the registry back and
//! digest each function's inputs as the process serving its revision
//! would.
//!
//! `deny(warnings)` holds the expansion to it.

#![deny(warnings)]

use faster::Expect;
use faster_runtime::__internal::{DigestedInput, Tracked, comparisons, tracked};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

// Borrowed parameters, the output digested by `Hash`.

#[faster::track(inputs = texts)]
fn count_words(text: &str) -> usize {
    text.split_whitespace().count()
}

fn texts() -> Vec<&'static str> {
    vec!["a b c", "", "one"]
}

// A `&mut` parameter: what is compared is the argument after the call. With
// every option.

#[faster::track(
    inputs = vectors,
    name = "sorting",
    expect = report,
    noise_floor = 0.1,
    max_time = "1s"
)]
fn sort_in_place(v: &mut [u32]) {
    v.sort_unstable();
}

fn vectors() -> Vec<Vec<u32>> {
    vec![vec![3, 1, 2], vec![]]
}

// By value, a floating-point output: digested by its `Debug` rendering.

#[faster::track(inputs = floats)]
fn halve(x: f64) -> f64 {
    x / 2.0
}

fn floats() -> [f64; 2] {
    [1.0, 3.0]
}

// No parameters, no inputs.

#[faster::track]
fn answer() -> u32 {
    42
}

// An output with neither `Hash` nor `Debug`: not digested.

struct Opaque(#[allow(dead_code)] u32);

#[faster::track(inputs = small)]
fn opaque(n: &u32) -> Opaque {
    Opaque(*n)
}

fn small() -> Vec<u32> {
    vec![1, 2]
}

// An output that changes from call to call: not comparable.

static CALLS: AtomicU32 = AtomicU32::new(0);

#[faster::track(inputs = small)]
fn counter(n: &u32) -> u32 {
    n + CALLS.fetch_add(1, Ordering::Relaxed)
}

// Tracked and compared at once.

fn double_naive(n: &u32) -> u32 {
    n + n
}

#[faster::track(inputs = small)]
#[faster::compare(original = double_naive, inputs = small, expect = report, max_time = "500ms")]
fn double(n: &u32) -> u32 {
    n * 2
}

// `#[deprecated]`, the function and the original it is compared with:
// still measured, and `deny(warnings)` above holds the expansion to warn of
// neither (its callers are warned, not the measurement asked for).

#[deprecated(note = "call `double`")]
fn double_deprecated(n: &u32) -> u32 {
    n << 1
}

#[deprecated(note = "call `double`")]
#[faster::track(inputs = small)]
#[faster::compare(original = double_deprecated, inputs = small, expect = report, max_time = "500ms")]
fn twice(n: &u32) -> u32 {
    n * 2
}

// By value, of a type that is not `Clone` (where a trait fixes the
// parameter, or another crate owns the type): each case makes one per
// call with `faster::PerCall`.

#[derive(Debug)]
struct Token(Vec<u8>);

fn token_len_naive(token: Token) -> usize {
    token.0.iter().map(|_| 1).sum()
}

#[faster::track(inputs = tokens)]
#[faster::compare(original = token_len_naive, inputs = tokens, expect = report, max_time = "500ms")]
fn token_len(token: Token) -> usize {
    token.0.len()
}

fn tokens() -> Vec<faster::PerCall<Token>> {
    [3, 1_000]
        .into_iter()
        .map(|len| faster::PerCall::new(move || Token(vec![7; len])))
        .collect()
}

fn registered(name: &str) -> &'static Tracked {
    tracked()
        .into_iter()
        .find(|tracked| tracked.name == name)
        .unwrap_or_else(|| panic!("{name} is not registered"))
}

fn digested(name: &str) -> Vec<DigestedInput> {
    let mut served = (registered(name).open)().unwrap();
    served.digest_inputs().unwrap()
}

#[test]
fn every_function_is_registered_under_its_path_or_its_name() {
    let names: Vec<&str> = tracked().iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "sorting",
            "track::answer",
            "track::count_words",
            "track::counter",
            "track::double",
            "track::halve",
            "track::opaque",
            "track::token_len",
            "track::twice",
        ]
    );
    let words = registered("track::count_words");
    assert_eq!(words.test, "track::faster_track_count_words");
    assert_eq!(words.test_name(), "faster_track_count_words");
    assert_eq!(words.file, "tests/track.rs");
    assert!(!words.debug_build || cfg!(debug_assertions));
    let sorting = registered("sorting");
    assert_eq!(sorting.settings.expect, Some(Expect::Report));
    assert_eq!(sorting.settings.noise_floor, Some(0.1));
    assert_eq!(sorting.settings.max_time, Some(Duration::from_secs(1)));
    assert_eq!(sorting.test_name(), "faster_track_sort_in_place");
}

#[test]
fn inputs_and_outputs_are_digested_and_shown() {
    let words = digested("track::count_words");
    let shown: Vec<(&str, &str)> = words
        .iter()
        .map(|input| (input.input_shown.as_str(), input.output_shown.as_str()))
        .collect();
    assert_eq!(shown, [("\"a b c\"", "3"), ("\"\"", "0"), ("\"one\"", "1")]);
    assert!(words.iter().all(|input| input.output_digest.is_some()));
    assert_ne!(words[0].output_digest, words[2].output_digest);

    let sorted = digested("sorting");
    assert_eq!(sorted[0].output_shown, "[1, 2, 3]");
    assert_eq!(sorted[0].input_shown, "[3, 1, 2]");

    let halves = digested("track::halve");
    assert_eq!(halves[1].output_shown, "1.5");
    assert!(halves[1].output_digest.is_some());

    let answer = digested("track::answer");
    assert_eq!((answer.len(), answer[0].output_shown.as_str()), (1, "42"));
}

#[test]
fn outputs_without_a_digest_or_that_vary_are_not_comparable() {
    let opaque = digested("track::opaque");
    assert_eq!(opaque[0].output_digest, None);
    assert!(!opaque[0].output_varies);
    assert!(
        opaque[0]
            .output_shown
            .contains("does not implement `Debug`"),
        "{}",
        opaque[0].output_shown
    );
    let counter = digested("track::counter");
    assert!(counter.iter().all(|input| input.output_varies));
    assert!(counter.iter().all(|input| input.output_digest.is_none()));
}

#[test]
fn a_function_can_be_tracked_and_compared() {
    assert!(
        comparisons()
            .iter()
            .any(|comparison| comparison.test_name() == "faster_double")
    );
    assert_eq!(digested("track::double")[1].output_shown, "4");
}

#[test]
fn an_argument_that_is_not_clone_is_made_for_each_call() {
    let token_lens = digested("track::token_len");
    assert_eq!(token_lens[1].output_shown, "1000");
    // The input is shown as the value it makes.
    assert!(
        token_lens[0].input_shown.starts_with("Token([7, 7, 7])"),
        "{:?}",
        token_lens[0].input_shown
    );
}

#[test]
fn a_deprecated_function_is_tracked_and_compared_without_a_warning() {
    assert!(
        comparisons()
            .iter()
            .any(|comparison| comparison.test_name() == "faster_twice")
    );
    assert_eq!(digested("track::twice")[1].output_shown, "4");
}
