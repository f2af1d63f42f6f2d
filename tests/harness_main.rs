//! A `harness = false` target run by `faster::main()`, as the README shows
//! for integration tests and benches: `cargo test`, `cargo bench --test
//! harness_main` and `cargo nextest run` all list and run these comparisons
//! through the same command line (`--list --format terse`, `--exact NAME`,
//! `--bench`, `--format json|bench`, ...).
//!
//! The attribute is applied unconditionally (not under `cfg_attr(test)`):
//! this file is the test binary, which passes when every comparison in it
//! passes, so neither may depend on a real verdict being decided. Budgets
//! are short. The first pair differs by an order of magnitude, yet a loaded
//! machine can leave its verdict undecided (at 200 ms, with other builds
//! keeping two cores busy, its four processes read 11.7x to 192.8x and it
//! ended undecided; a 1 s budget makes that rarer, not impossible): it is a
//! guard (`not_slower`), which only a decided slowdown fails, and an
//! undecided verdict passes. The second only reports.

use std::hint::black_box;

/// Every pair compared: O(n²).
fn has_duplicate_naive(values: &[u32]) -> bool {
    (0..values.len()).any(|i| values[i + 1..].contains(&values[i]))
}

/// Sort a copy, compare neighbours: O(n log n).
#[faster::compare(
    original = has_duplicate_naive,
    inputs = distinct_values,
    expect = not_slower,
    max_time = "1s"
)]
fn has_duplicate_sorted(values: &[u32]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

/// Distinct values: the worst case for both.
fn distinct_values() -> Vec<Vec<u32>> {
    let distinct = |n: u32| {
        (0..n)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect::<Vec<u32>>()
    };
    vec![distinct(500), distinct(2_000)]
}

/// A dependent chain: each step needs the previous result.
fn chain(seed: &u64) -> u64 {
    (0..200).fold(*seed, |x, _| {
        black_box(x.rotate_left(5) ^ 0x9e37_79b9_7f4a_7c15)
    })
}

/// The same chain, written again: a refactor that reports, never fails.
#[faster::compare(original = chain, inputs = seeds, expect = report, max_time = "200ms")]
fn chain_again(seed: &u64) -> u64 {
    (0..200).fold(*seed, |x, _| {
        black_box(x.rotate_left(5) ^ 0x9e37_79b9_7f4a_7c15)
    })
}

fn seeds() -> [u64; 1] {
    [7]
}

fn main() {
    faster::main()
}
