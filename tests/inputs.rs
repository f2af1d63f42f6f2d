//! How input cases reach the functions, counted: a parameter taken by
//! value whose type is `Copy` is copied by the call, and never makes the
//! rest of the case cloned (issue 26: an `i64` needle by value made every
//! call clone an 80 KB haystack); only a part taken by value or by `&mut`
//! that is not `Copy` is cloned, once per call, before the clock starts.
//! Structure only: the figures are `examples/by_value_inputs.rs`'s.

#![deny(warnings)]

use faster::Config;
use faster_runtime::__internal::{comparisons, tracked};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Clones of a borrowed [`Haystack`], which must stay at none.
static HAYSTACK_CLONES: AtomicUsize = AtomicUsize::new(0);
/// Clones of a [`Consumed`] taken by value.
static CONSUMED_CLONES: AtomicUsize = AtomicUsize::new(0);

/// Sorted values, counting its clones.
#[derive(Debug, PartialEq)]
pub struct Haystack(Vec<i64>);

impl Clone for Haystack {
    fn clone(&self) -> Self {
        HAYSTACK_CLONES.fetch_add(1, Ordering::Relaxed);
        Haystack(self.0.clone())
    }
}

/// Values a function takes by value, counting its clones.
#[derive(Debug, PartialEq)]
pub struct Consumed(Vec<i64>);

impl Clone for Consumed {
    fn clone(&self) -> Self {
        CONSUMED_CLONES.fetch_add(1, Ordering::Relaxed);
        Consumed(self.0.clone())
    }
}

fn contains_linear(haystack: &Haystack, needle: i64) -> bool {
    haystack.0.contains(&needle)
}

#[faster::compare(original = contains_linear, inputs = lookups, expect = report, max_time = "500ms", processes = 1)]
#[faster::track(inputs = lookups)]
fn contains_sorted(haystack: &Haystack, needle: i64) -> bool {
    haystack.0.binary_search(&needle).is_ok()
}

fn lookups() -> Vec<(Haystack, i64)> {
    let haystack = Haystack((0..10_000).map(|i| 3 * i).collect());
    vec![(haystack.clone(), 3 * 9_000), (haystack, 1)]
}

fn total_naive(values: Consumed, scale: i64, haystack: &Haystack) -> i64 {
    values.0.iter().map(|x| x * scale).sum::<i64>() + haystack.0.len() as i64
}

#[faster::compare(original = total_naive, inputs = totals, expect = report, max_time = "500ms", processes = 1)]
fn total(values: Consumed, scale: i64, haystack: &Haystack) -> i64 {
    values.0.iter().sum::<i64>() * scale + haystack.0.len() as i64
}

fn totals() -> Vec<(Consumed, i64, Haystack)> {
    vec![(Consumed(vec![1, 2, 3]), 2, Haystack(vec![5; 100]))]
}

fn run(test_name: &str) {
    let mut config = Config::default();
    config.max_time = Duration::from_millis(500);
    config.processes = 1;
    let comparison = comparisons()
        .into_iter()
        .find(|comparison| comparison.test_name() == test_name)
        .expect("registered");
    (comparison.run)(&config).unwrap_or_else(|error| panic!("{test_name}: {error}"));
}

#[test]
fn a_copy_argument_by_value_clones_nothing() {
    // `lookups` clones one haystack to make its two cases.
    let before = HAYSTACK_CLONES.load(Ordering::Relaxed);
    run("faster_contains_sorted");
    let tracked = tracked()
        .into_iter()
        .find(|tracked| tracked.name.ends_with("::contains_sorted"))
        .expect("tracked");
    let mut served = (tracked.open)().expect("opens");
    served.digest_inputs().expect("digests");
    let (timer, _) = faster::time::Timer::select(faster::time::TimerKind::Wall);
    served.time_batch(&timer, 0, 1_000).expect("times");
    // Each run of `lookups` (the comparison's, the tracked function's, and
    // the generated tests' running beside this one) clones once.
    let runs_of_lookups = 2 * 2;
    assert!(
        HAYSTACK_CLONES.load(Ordering::Relaxed) - before <= runs_of_lookups,
        "the haystack was cloned per call: {} clones",
        HAYSTACK_CLONES.load(Ordering::Relaxed) - before
    );
}

#[test]
fn only_a_part_taken_by_value_that_is_not_copy_is_cloned() {
    let haystacks = HAYSTACK_CLONES.load(Ordering::Relaxed);
    run("faster_total");
    assert!(
        CONSUMED_CLONES.load(Ordering::Relaxed) > 100,
        "a clone per call of what the call consumes"
    );
    // The borrowed haystack beside it: none (but `lookups`' own).
    assert!(HAYSTACK_CLONES.load(Ordering::Relaxed) - haystacks <= 4);
}
