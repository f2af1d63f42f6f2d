//! A first comparison, run with:
//!
//! ```text
//! cargo run --release --example quickstart
//! ```
//!
//! Two pairs: an optimization that must be faster (finding a duplicate by
//! sorting instead of checking every pair: the README's first example), and
//! a refactor that must not be slower (a guard against regressions). In a
//! library you write `#[cfg_attr(test, faster::compare(...))]`, with
//! `#[cfg(test)]` on what exists only for the comparison, and run
//! `cargo test --release`; an example has no tests, so here the attribute is
//! unconditional and `faster::main()` runs every registered comparison.

/// The version it replaced, kept for the comparison: checks every pair,
/// O(n²).
fn has_duplicate_naive(values: &[u32]) -> bool {
    values
        .iter()
        .enumerate()
        .any(|(i, value)| values[i + 1..].contains(value))
}

/// Whether any value appears twice: sorts a copy, then compares neighbours,
/// O(n log n).
#[faster::compare(original = has_duplicate_naive, inputs = duplicate_inputs)]
fn has_duplicate(values: &[u32]) -> bool {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

/// Distinct values (nothing to find: the slowest case) and one late
/// duplicate.
fn duplicate_inputs() -> Vec<Vec<u32>> {
    let distinct = |n: u32| {
        (0..n)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect::<Vec<u32>>()
    };
    let mut late_duplicate = distinct(2_000);
    late_duplicate.push(late_duplicate[1_000]);
    vec![distinct(300), distinct(3_000), late_duplicate]
}

/// The mean, as first written.
fn mean_v1(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The same mean after a refactor: it must not have become slower.
#[faster::compare(original = mean_v1, inputs = mean_inputs, expect = not_slower)]
fn mean_v2(values: &[f64]) -> f64 {
    let total: f64 = values.iter().copied().sum();
    total / values.len() as f64
}

fn mean_inputs() -> Vec<Vec<f64>> {
    vec![(0..10_000).map(f64::from).collect()]
}

fn main() {
    faster::main()
}
