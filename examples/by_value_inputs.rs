//! A parameter taken by value measures as one taken by reference: issue
//! 26's `contains_sorted`, a binary search over 10 000 sorted `i64`s against
//! a linear scan, with the needle as an `i64` and as an `&i64`. Before, the
//! `i64` by value made every call take a clone of the whole input case, the
//! 80 KB haystack with it, before the clock started: the candidate's calls
//! then read a cold copy, and the clones capped the batches. Now a `Copy`
//! argument is copied by the call itself and the haystack is borrowed, so
//! both pairs should read the same figures, within the noise floor.
//!
//! ```text
//! cargo run --release --example by_value_inputs
//! ```

/// Looks at every element.
fn contains_linear(haystack: &[i64], needle: i64) -> bool {
    haystack.contains(&needle)
}

/// Halves the range: O(log n) against O(n).
#[faster::compare(original = contains_linear, inputs = lookups, expect = report)]
fn contains_sorted(haystack: &[i64], needle: i64) -> bool {
    haystack.binary_search(&needle).is_ok()
}

/// [`contains_linear`] with the needle by reference.
fn contains_linear_ref(haystack: &[i64], needle: &i64) -> bool {
    haystack.contains(needle)
}

/// [`contains_sorted`] with the needle by reference.
#[faster::compare(original = contains_linear_ref, inputs = lookups, expect = report)]
fn contains_sorted_ref(haystack: &[i64], needle: &i64) -> bool {
    haystack.binary_search(needle).is_ok()
}

/// 10 000 sorted values; a needle found late, and one absent.
fn lookups() -> Vec<(Vec<i64>, i64)> {
    let haystack: Vec<i64> = (0..10_000).map(|i| 3 * i).collect();
    vec![(haystack.clone(), 3 * 9_000), (haystack, 1)]
}

fn main() {
    faster::main()
}
