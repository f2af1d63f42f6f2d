//! `#[faster::compare]` used for real: every annotated function below becomes
//! a generated `#[test]` (`faster_<candidate>`) in this binary, which checks
//! the outputs and measures the pair. The plain tests at the end read the
//! registry to check what the attribute recorded.
//!
//! Budgets are small (`max_time`, 500 to 600 ms) so the suite stays fast,
//! but none under 500 ms: beside two other builds, 50 and 100 ms went whole
//! to getting ready, and 200 ms once on a machine busier still ("other
//! processes took the time of 5 slices", a correct error, exit 101), which
//! is not what these tests test. These tests are
//! about the shapes the attribute accepts, not about speed: on a busy
//! machine a real verdict may come out undecided (its 99% interval too wide
//! to rule out a change of the floor's size) even for pairs 4x to 20x apart,
//! so almost every pair uses `expect = report`, which never fails on timing
//! (outputs are still checked). One pair, `triangle`, hundreds of times
//! apart, keeps the default `expect`, to show an absent option recorded as
//! absent; the regression guard, `checksum_again`, fails only on a decided
//! slowdown past its wide floor. In a debug build the timing is reported but
//! not enforced.
//!
//! `deny(warnings)` holds the expansion to it: a warning in generated code
//! fails this file's build.

#![deny(warnings)]

use faster::{Config, Expect};
use faster_runtime::__internal::{Comparison, comparisons};
use std::hint::black_box;
use std::time::Duration;

// A clearly faster candidate: O(n log n) against O(n²).

fn distinct_naive(v: &[u32]) -> usize {
    v.iter()
        .enumerate()
        .filter(|&(i, x)| !v[..i].contains(x))
        .count()
}

#[faster::compare(original = distinct_naive, inputs = distinct_inputs, expect = report, max_time = "500ms")]
fn distinct_sorted(v: &[u32]) -> usize {
    let mut sorted = v.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len()
}

fn distinct_inputs() -> Vec<Vec<u32>> {
    vec![
        (0..1_000).map(|i| i * 7 % 600).collect(),
        (0..2_000).map(|i| i * 13 % 1_500).collect(),
    ]
}

// A parameter taken by value (Copy): trial division by every smaller number
// against trial division up to the square root.

fn is_prime_naive(n: u32) -> bool {
    n >= 2 && (2..n).all(|divisor| n % divisor != 0)
}

const IS_PRIME_LINE: u32 = line!() + 1;
#[faster::compare(original = is_prime_naive, inputs = is_prime_inputs, expect = report, max_time = "500ms")]
fn is_prime(n: u32) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|divisor| n % divisor != 0)
}

fn is_prime_inputs() -> [u32; 2] {
    [211, 223]
}

// A parameter taken by value that is not Copy: every call gets its own clone
// of the vector. Insertion sort against the standard library's sort.

fn sorted_naive(mut v: Vec<u32>) -> Vec<u32> {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
    v
}

#[faster::compare(original = sorted_naive, inputs = sorted_inputs, expect = report, max_time = "500ms")]
fn sorted_fast(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

fn sorted_inputs() -> Vec<Vec<u32>> {
    vec![(0..200).map(|i| (i * 7_919) % 211).collect()]
}

// Several parameters, mixing a borrowed slice and a value: the input cases
// are tuples.

fn nth_smallest_naive(v: &[u32], k: usize) -> u32 {
    // Takes the minimum out k times: k + 1 passes over the values.
    let mut rest = v.to_vec();
    for _ in 0..k {
        let smallest = (0..rest.len())
            .min_by_key(|&i| rest[i])
            .expect("k is in range");
        rest.swap_remove(smallest);
    }
    *rest.iter().min().expect("k is in range")
}

#[faster::compare(original = nth_smallest_naive, inputs = nth_smallest_inputs, expect = report, max_time = "500ms")]
fn nth_smallest_select(v: &[u32], k: usize) -> u32 {
    let mut copy = v.to_vec();
    *copy.select_nth_unstable(k).1
}

fn nth_smallest_inputs() -> Vec<(Vec<u32>, usize)> {
    let values: Vec<u32> = (0..500).map(|i| (i * 7_919) % 499).collect();
    vec![(values.clone(), 10), (values, 30)]
}

// Several parameters, all borrowed.

fn common_naive(a: &[u32], b: &[u32]) -> usize {
    a.iter().filter(|x| b.contains(x)).count()
}

#[faster::compare(original = common_naive, inputs = common_inputs, expect = report, max_time = "500ms")]
fn common_sorted(a: &[u32], b: &[u32]) -> usize {
    let mut sorted = b.to_vec();
    sorted.sort_unstable();
    a.iter().filter(|x| sorted.binary_search(x).is_ok()).count()
}

fn common_inputs() -> Vec<(Vec<u32>, Vec<u32>)> {
    vec![(
        (0..1_000).map(|i| i * 3).collect(),
        (0..1_000).map(|i| i * 5).collect(),
    )]
}

// No parameters: a single input case. Trial division up to the square root
// against a sieve.

fn primes_trial_division() -> usize {
    let limit = black_box(2_000u32);
    (2..limit)
        .filter(|&n| (2..).take_while(|d| d * d <= n).all(|d| n % d != 0))
        .count()
}

#[faster::compare(
    original = primes_trial_division,
    expect = report,
    max_time = "500ms",
    bytes = sieve_bytes
)]
fn primes_sieve() -> usize {
    let limit = black_box(2_000usize);
    let mut composite = vec![false; limit];
    let mut count = 0;
    for n in 2..limit {
        if !composite[n] {
            count += 1;
            for multiple in (n * n..limit).step_by(n) {
                composite[multiple] = true;
            }
        }
    }
    count
}

/// A count function for a function without parameters takes none either.
fn sieve_bytes() -> u64 {
    2_000
}

// A regression guard: the same work twice must not be judged slower. One
// process runs one layout of this build, whose code placement alone can make
// one copy a decided 10% slower than the other: the floor is wide (50%), so
// only a real regression would fail it.

fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(17u32, |hash, &byte| {
        hash.wrapping_mul(31).wrapping_add(u32::from(byte))
    })
}

#[faster::compare(
    original = checksum,
    inputs = checksum_inputs,
    expect = not_slower,
    noise_floor = 0.5,
    max_time = "500ms",
    processes = 1
)]
fn checksum_again(bytes: &[u8]) -> u32 {
    bytes.iter().fold(17u32, |hash, &byte| {
        hash.wrapping_mul(31).wrapping_add(u32::from(byte))
    })
}

fn checksum_inputs() -> Vec<Vec<u8>> {
    vec![(0..4_096).map(|i| (i % 251) as u8).collect()]
}

// `expect = report`: measured and shown, never failed on timing.

fn contains_loop(v: &[u64]) -> bool {
    for &x in v {
        if x == 4_242 {
            return true;
        }
    }
    false
}

#[faster::compare(
    original = contains_loop,
    inputs = contains_inputs,
    expect = report,
    max_time = "600ms",
    name = "contains: slice method"
)]
fn contains_method(v: &[u64]) -> bool {
    v.contains(&4_242)
}

fn contains_inputs() -> Vec<Vec<u64>> {
    vec![(0..5_000).collect(), (0..100).collect()]
}

// `check = skip`: summing floats in another order rounds differently, so the
// outputs are not equal and only the timing is compared.

fn float_sum_sequential(v: &[f64]) -> f64 {
    v.iter().sum()
}

#[faster::compare(
    original = float_sum_sequential,
    inputs = float_sum_inputs,
    check = skip,
    expect = not_slower,
    max_time = "600ms",
    flops = float_sum_flops,
    bytes = float_sum_bytes
)]
fn float_sum_four_lanes(v: &[f64]) -> f64 {
    let mut lanes = [0.0; 4];
    let chunks = v.chunks_exact(4);
    let rest: f64 = chunks.remainder().iter().sum();
    for chunk in chunks {
        for (lane, x) in lanes.iter_mut().zip(chunk) {
            *lane += x;
        }
    }
    lanes.iter().sum::<f64>() + rest
}

fn float_sum_inputs() -> Vec<Vec<f64>> {
    vec![(1..10_000).map(|i| 1.0 / f64::from(i)).collect()]
}

// Count functions take the input case as the candidate does: a `Vec<f64>`
// case is counted as a `&[f64]` or as a `&Vec<f64>`.

fn float_sum_flops(v: &[f64]) -> u64 {
    v.len() as u64
}

fn float_sum_bytes(v: &Vec<f64>) -> u64 {
    std::mem::size_of_val(v.as_slice()) as u64
}

// A candidate in a nested module, its original reached by path into
// another module.

mod text {
    pub mod old {
        pub fn count_words(text: &str) -> usize {
            text.split(' ').filter(|word| !word.is_empty()).count()
        }
    }

    pub mod new {
        #[faster::compare(
            original = super::old::count_words,
            inputs = crate::text::samples,
            expect = report,
            max_time = "500ms"
        )]
        pub fn count_words(text: &str) -> usize {
            text.split_ascii_whitespace().count()
        }
    }

    pub fn samples() -> Vec<String> {
        vec!["one two  three".to_string(), "lorem ipsum ".repeat(200)]
    }
}

// Outputs of every kind: `Option`, `Result`, unit.

fn first_even_naive(v: &[u32]) -> Option<usize> {
    (0..v.len()).find(|&i| v[i] % 2 == 0)
}

#[faster::compare(original = first_even_naive, inputs = first_even_inputs, expect = report, max_time = "500ms")]
fn first_even(v: &[u32]) -> Option<usize> {
    v.iter().position(|x| x % 2 == 0)
}

fn first_even_inputs() -> Vec<Vec<u32>> {
    vec![vec![1, 3, 5, 8], vec![1, 3, 5]]
}

fn parse_total_naive(text: &str) -> Result<u64, std::num::ParseIntError> {
    let mut total = 0;
    for field in text.split(',') {
        total += field.trim().parse::<u64>()?;
    }
    Ok(total)
}

#[faster::compare(original = parse_total_naive, inputs = parse_total_inputs, expect = report, max_time = "500ms")]
fn parse_total(text: &str) -> Result<u64, std::num::ParseIntError> {
    text.split(',')
        .map(|field| field.trim().parse::<u64>())
        .sum()
}

fn parse_total_inputs() -> Vec<&'static str> {
    vec!["1, 2, 3", "4,5,6", "7, x"]
}

fn touch_naive(v: &[u64]) {
    black_box(v.iter().fold(0, |total, x| total ^ x));
}

#[faster::compare(original = touch_naive, inputs = touch_inputs, expect = report, max_time = "500ms")]
fn touch(v: &[u64]) {
    black_box(v.iter().fold(0, |total, x| total ^ x));
}

fn touch_inputs() -> Vec<Vec<u64>> {
    vec![(0..256).collect()]
}

// Other accepted shapes: `const fn`, `extern "C"`, a named lifetime.

const fn square_naive(x: u64) -> u64 {
    x * x
}

#[faster::compare(original = square_naive, inputs = square_inputs, expect = report, max_time = "500ms")]
const fn square(x: u64) -> u64 {
    x.pow(2)
}

fn square_inputs() -> Vec<u64> {
    vec![3, 1 << 20]
}

extern "C" fn halve_naive(x: u64) -> u64 {
    x / 2
}

#[faster::compare(original = halve_naive, inputs = square_inputs, expect = report, max_time = "500ms")]
extern "C" fn halve(x: u64) -> u64 {
    x >> 1
}

// One lifetime for both levels of reference: it cannot be elided, and the
// expansion, which does not declare it, names the parameter `&'_ [&'_ str]`.
fn total_length_naive<'a>(words: &'a [&'a str]) -> usize {
    let mut total = 0;
    for word in words {
        total += word.chars().count();
    }
    total
}

#[faster::compare(original = total_length_naive, inputs = word_lists, expect = report, max_time = "500ms")]
fn total_length<'a>(words: &'a [&'a str]) -> usize {
    words.iter().map(|word| word.chars().count()).sum()
}

fn word_lists() -> Vec<Vec<&'static str>> {
    vec![vec!["one", "two", "three"], vec!["naïve", "café"]]
}

// `&mut` parameters: every call mutates its own clone of the input case, and
// the argument's state after the call is compared. Insertion sort against
// the standard library's sort, in place.

fn sort_in_place_naive(v: &mut [u32]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[faster::compare(original = sort_in_place_naive, inputs = sorted_inputs, expect = report, max_time = "500ms")]
fn sort_in_place(v: &mut [u32]) {
    v.sort_unstable();
}

// `&mut` next to a value and a borrow, with an output: the output and the
// argument after the call are compared together.

fn merge_dedup_naive(v: &mut Vec<u32>, limit: usize, extra: &[u32]) -> usize {
    v.extend_from_slice(extra);
    v.sort();
    let before = v.len();
    v.dedup();
    v.truncate(limit);
    before - v.len()
}

#[faster::compare(original = merge_dedup_naive, inputs = merge_inputs, expect = report, max_time = "500ms")]
fn merge_dedup(v: &mut Vec<u32>, limit: usize, extra: &[u32]) -> usize {
    v.extend_from_slice(extra);
    v.sort_unstable();
    let before = v.len();
    v.dedup();
    v.truncate(limit);
    before - v.len()
}

fn merge_inputs() -> Vec<(Vec<u32>, usize, Vec<u32>)> {
    vec![
        ((0..300).map(|i| i * 7 % 101).collect(), 50, vec![5, 500, 7]),
        (vec![3, 1, 2], 10, vec![]),
    ]
}

// `&mut` with floating-point state: scaling by a reciprocal rounds
// differently from dividing, so the arguments after the call are compared
// with `approx`.

fn normalize_naive(v: &mut [f64]) {
    let total: f64 = v.iter().sum();
    for x in v.iter_mut() {
        *x /= total;
    }
}

#[faster::compare(
    original = normalize_naive,
    inputs = normalize_inputs,
    check = approx(1e-12),
    expect = report,
    max_time = "500ms"
)]
fn normalize(v: &mut [f64]) {
    let scale = 1.0 / v.iter().sum::<f64>();
    v.iter_mut().for_each(|x| *x *= scale);
}

fn normalize_inputs() -> Vec<Vec<f64>> {
    vec![(1..500).map(|i| f64::from(i).sqrt()).collect()]
}

// An `unsafe fn`: the annotation vouches that every input case meets its
// safety contract (here: at least one value).

fn first_checked(v: &[u64]) -> u64 {
    v[0]
}

/// The first value, without a bounds check.
///
/// # Safety
///
/// `v` must not be empty.
#[faster::compare(original = first_checked, inputs = first_inputs, expect = report, max_time = "500ms")]
unsafe fn first_unchecked(v: &[u64]) -> u64 {
    // SAFETY: the caller guarantees `v` is not empty.
    unsafe { *v.get_unchecked(0) }
}

fn first_inputs() -> Vec<Vec<u64>> {
    vec![vec![7, 8, 9], vec![1]]
}

// A generic function, compared once per type: `faster_count_distinct_u32`
// and `faster_count_distinct_u64`. The original and the inputs function are
// generic too, and instantiated by inference.

fn count_distinct_naive<T: PartialEq>(v: &[T]) -> usize {
    v.iter()
        .enumerate()
        .filter(|&(i, x)| !v[..i].contains(x))
        .count()
}

#[faster::compare(
    original = count_distinct_naive,
    inputs = distinct_inputs_of,
    types = [u32, u64],
    expect = report,
    max_time = "500ms"
)]
fn count_distinct<T: Ord + Copy>(v: &[T]) -> usize {
    let mut sorted = v.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len()
}

fn distinct_inputs_of<T: From<u16>>() -> Vec<Vec<T>> {
    vec![(0..1_500_u16).map(|i| T::from(i * 7 % 900)).collect()]
}

// `check = approx(...)` through outputs of every shape: a `Vec`, an array, a
// tuple.

// Summing each prefix from its end rounds differently from a running sum.
fn prefix_sums_naive(v: &[f64]) -> Vec<f64> {
    (0..v.len()).map(|i| v[..=i].iter().rev().sum()).collect()
}

#[faster::compare(original = prefix_sums_naive, inputs = prefix_inputs, check = approx(1e-9), expect = report, max_time = "500ms")]
fn prefix_sums(v: &[f64]) -> Vec<f64> {
    v.iter()
        .scan(0.0, |total, x| {
            *total += x;
            Some(*total)
        })
        .collect()
}

fn prefix_inputs() -> Vec<Vec<f64>> {
    vec![(1..400).map(|i| 1.0 / f64::from(i)).collect()]
}

fn lane_sums_naive(v: &[f32]) -> [f32; 4] {
    let mut lanes = [0.0; 4];
    for (i, x) in v.iter().enumerate() {
        lanes[i % 4] += x;
    }
    lanes
}

// Adds pairs of elements before adding them to the lanes: the same lanes,
// rounded differently.
#[faster::compare(original = lane_sums_naive, inputs = lane_inputs, check = approx(1e-4, 1e-4), expect = report, max_time = "500ms")]
fn lane_sums(v: &[f32]) -> [f32; 4] {
    let mut lanes = [0.0; 4];
    let chunks = v.chunks_exact(8);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (k, lane) in lanes.iter_mut().enumerate() {
            *lane += chunk[k] + chunk[k + 4];
        }
    }
    for (i, x) in rest.iter().enumerate() {
        lanes[i % 4] += x;
    }
    lanes
}

fn lane_inputs() -> Vec<Vec<f32>> {
    vec![(0..1_000).map(|i| (i as f32).sin()).collect()]
}

fn mean_and_spread_naive(v: &[f64]) -> (f64, f64) {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let spread = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64;
    (mean, spread)
}

#[faster::compare(original = mean_and_spread_naive, inputs = prefix_inputs, check = approx(1e-9, 1e-15), expect = report, max_time = "500ms")]
fn mean_and_spread(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let (sum, squares) = v.iter().fold((0.0, 0.0), |(s, q), x| (s + x, q + x * x));
    let mean = sum / n;
    (mean, squares / n - mean * mean)
}

// `check = path`: outputs that agree as sets, in any order. The check
// function takes slices for `Vec` outputs, by deref coercion.

fn distinct_values_naive(v: &[u32]) -> Vec<u32> {
    let mut seen = Vec::new();
    for x in v {
        if !seen.contains(x) {
            seen.push(*x);
        }
    }
    seen
}

#[faster::compare(original = distinct_values_naive, inputs = distinct_inputs, check = same_values, expect = report, max_time = "500ms")]
fn distinct_values_sorted(v: &[u32]) -> Vec<u32> {
    let mut sorted = v.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted
}

fn same_values(a: &[u32], b: &[u32]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

// `original` in another crate (a generic standard library function, its type
// inferred from the candidate's signature), and inputs from any iterator.

#[faster::compare(original = std::cmp::max, inputs = max_inputs, expect = report, max_time = "500ms")]
fn max_branchless(a: u64, b: u64) -> u64 {
    let a_smaller = u64::from(a < b);
    a * (1 - a_smaller) + b * a_smaller
}

fn max_inputs() -> impl Iterator<Item = (u64, u64)> {
    (0..3).map(|i| (i * 10, 15))
}

// The one pair left to the default `expect = faster` (no `expect` written,
// which `absent_options_are_left_to_the_run` reads): a loop of a thousand
// additions against a closed form of a few nanoseconds, hundreds of times
// apart: a margin no busy machine's noise undoes.
fn triangle_naive(n: u64) -> u64 {
    (1..=n).fold(0, |total, i| black_box(total + i))
}

#[faster::compare(original = triangle_naive, inputs = triangle_inputs, max_time = "500ms")]
fn triangle(n: u64) -> u64 {
    n * (n + 1) / 2
}

fn triangle_inputs() -> std::ops::Range<u64> {
    1_000..1_003
}

// Input cases that reach their parameter only through the call's own
// coercion, which the expansion's argument check leaves to it: a type of the
// user's with `Deref`, an `Arc<Vec<_>>` (two derefs), a concrete type for a
// `&dyn Trait`, a `Box` to unsize, and `inputs` functions generic over their
// whole item, which the call instantiates.
mod coerced {
    use std::fmt::Debug;
    use std::hint::black_box;
    use std::ops::{Add, Deref};
    use std::sync::Arc;

    #[derive(Clone, Debug)]
    pub struct Samples(Vec<u64>);

    impl Deref for Samples {
        type Target = [u64];

        fn deref(&self) -> &[u64] {
            &self.0
        }
    }

    fn total_naive(v: &[u64]) -> u64 {
        v.iter().fold(0, |total, x| black_box(total + x))
    }

    #[faster::compare(original = total_naive, inputs = sample_inputs, expect = report, max_time = "500ms")]
    fn total_wrapped(v: &[u64]) -> u64 {
        v.iter().sum()
    }

    fn sample_inputs() -> Vec<Samples> {
        vec![Samples(vec![1, 2, 3])]
    }

    #[faster::compare(original = total_naive, inputs = shared_inputs, expect = report, max_time = "500ms")]
    fn total_shared(v: &[u64]) -> u64 {
        v.iter().sum()
    }

    fn shared_inputs() -> Vec<Arc<Vec<u64>>> {
        vec![Arc::new(vec![4, 5])]
    }

    fn describe_naive(value: &dyn Debug) -> usize {
        format!("{value:?}").len()
    }

    #[faster::compare(original = describe_naive, inputs = describe_inputs, expect = report, max_time = "500ms")]
    fn describe(value: &dyn Debug) -> usize {
        format!("{value:?}").chars().count()
    }

    fn describe_inputs() -> Vec<Vec<u8>> {
        vec![vec![1, 2]]
    }

    fn boxed_naive(v: Box<[u64]>) -> Vec<u64> {
        v.into_vec()
    }

    #[faster::compare(original = boxed_naive, inputs = boxed_inputs, expect = report, max_time = "500ms")]
    fn boxed(v: Box<[u64]>) -> Vec<u64> {
        Vec::from(v)
    }

    fn boxed_inputs() -> [Box<[u64; 2]>; 1] {
        [Box::new([1, 2])]
    }

    fn double_naive<T: Copy + Add<Output = T>>(x: T) -> T {
        x + x
    }

    #[faster::compare(original = double_naive, inputs = small_numbers, types = [u32, f64], expect = report, max_time = "500ms")]
    fn double<T: Copy + Add<Output = T>>(x: T) -> T {
        black_box(x) + x
    }

    fn twice_naive<T: Copy + Add<Output = T>>(x: &T) -> T {
        *x + *x
    }

    #[faster::compare(original = twice_naive, inputs = small_numbers, types = [u64], expect = report, max_time = "500ms")]
    fn twice<T: Copy + Add<Output = T>>(x: &T) -> T {
        black_box(*x) + *x
    }

    fn small_numbers<T: From<u8>>() -> Vec<T> {
        vec![T::from(1), T::from(2)]
    }
}

// User items named like the standard library or like the expansion's own
// locals must not change what the expansion means.
mod hygiene {
    #![allow(dead_code, non_camel_case_types)]

    struct Option;
    struct Result;
    struct Vec;
    mod core {}
    mod std {}

    // The original is called `input`, the inputs `inputs`, and the
    // candidate `config`: the names of the expansion's locals.
    fn input(x: &u64) -> u64 {
        x + 1
    }

    fn inputs() -> [u64; 2] {
        [1, 2]
    }

    #[faster::compare(original = input, inputs = inputs, expect = report, max_time = "500ms")]
    fn config(x: &u64) -> u64 {
        *x + 1
    }

    fn function(x: u64, y: &u64) -> u64 {
        x + y
    }

    fn pairs() -> [(u64, u64); 1] {
        [(1, 2)]
    }

    #[faster::compare(original = function, inputs = pairs, expect = report, max_time = "500ms")]
    fn owned0(x: u64, y: &u64) -> u64 {
        y + x
    }
}

// A module without the prelude, holding items named like everything the
// expansion uses: it still expands, and the user needs no `inventory` of
// their own.
mod bare {
    #![no_implicit_prelude]
    #![allow(dead_code, non_camel_case_types)]

    mod inventory {}
    mod std {}
    mod core {}
    mod faster {}
    struct Result;
    struct Option;
    struct Some;
    struct Ok;
    struct Vec;
    struct Box;
    struct String;

    fn bump_naive(v: &mut [u64; 4], by: u64) -> u64 {
        v[0] += by;
        v[0]
    }

    #[::faster::compare(original = bump_naive, inputs = bump_inputs, expect = report, max_time = "500ms")]
    fn bump(v: &mut [u64; 4], by: u64) -> u64 {
        v[0] += by;
        v[0]
    }

    fn bump_inputs() -> [([u64; 4], u64); 2] {
        [([1, 2, 3, 4], 5), ([0; 4], 0)]
    }

    fn scale_naive(v: &[f64; 2]) -> [f64; 2] {
        [v[0] * 2.0, v[1] * 2.0]
    }

    fn close(a: &[f64; 2], b: &[f64; 2]) -> bool {
        a == b
    }

    #[::faster::compare(original = scale_naive, inputs = scale_inputs, check = close, expect = report, max_time = "500ms")]
    fn scale(v: &[f64; 2]) -> [f64; 2] {
        [v[0] + v[0], v[1] + v[1]]
    }

    #[::faster::compare(original = scale_naive, inputs = scale_inputs, check = approx(1e-12), expect = report, max_time = "500ms", name = "bare: scale by adding")]
    fn scale_by_adding(v: &[f64; 2]) -> [f64; 2] {
        [v[0] + v[0], v[1] + v[1]]
    }

    fn scale_inputs() -> [[f64; 2]; 1] {
        [[1.5, -2.0]]
    }

    fn largest_naive<T: ::core::cmp::Ord + ::core::marker::Copy>(v: &[T; 3]) -> T {
        let mut largest = v[0];
        if v[1] > largest {
            largest = v[1];
        }
        if v[2] > largest {
            largest = v[2];
        }
        largest
    }

    #[::faster::compare(
        original = largest_naive,
        inputs = largest_inputs,
        types = [u8, i64],
        expect = report,
        max_time = "500ms",
        name = "largest of three"
    )]
    fn largest<T: ::core::cmp::Ord + ::core::marker::Copy>(v: &[T; 3]) -> T {
        ::core::cmp::max(v[0], ::core::cmp::max(v[1], v[2]))
    }

    fn largest_inputs<T: ::core::convert::From<u8>>() -> [[T; 3]; 1] {
        [[T::from(3), T::from(9), T::from(4)]]
    }
}

// `crate = path`: the runtime named through a path of this crate's own
// (`tests/renamed.rs` builds a crate whose dependency itself is renamed).
mod renamed {
    use faster as speed;

    fn reversed_naive(v: &[u8]) -> Vec<u8> {
        let mut reversed = Vec::new();
        for byte in v {
            reversed.insert(0, *byte);
        }
        reversed
    }

    #[speed::compare(crate = speed, original = reversed_naive, inputs = reversed_inputs, expect = report, max_time = "500ms")]
    fn reversed(v: &[u8]) -> Vec<u8> {
        v.iter().rev().copied().collect()
    }

    fn reversed_inputs() -> Vec<Vec<u8>> {
        vec![(0..=255).collect()]
    }
}

// What the attribute recorded.

fn registered(test_name: &str) -> &'static Comparison {
    comparisons()
        .into_iter()
        .find(|comparison| comparison.test_name() == test_name)
        .unwrap_or_else(|| panic!("no comparison named {test_name:?} is registered"))
}

#[test]
fn every_annotated_function_is_registered_under_its_test_name() {
    let names: Vec<&str> = comparisons()
        .iter()
        .map(|comparison| comparison.test_name())
        .collect();
    let mut expected = vec![
        "bare::faster_bump",
        "bare::faster_largest_i64",
        "bare::faster_largest_u8",
        "bare::faster_scale",
        "bare::faster_scale_by_adding",
        "faster_checksum_again",
        "faster_common_sorted",
        "faster_contains_method",
        "faster_count_distinct_u32",
        "faster_count_distinct_u64",
        "faster_distinct_sorted",
        "faster_distinct_values_sorted",
        "faster_first_even",
        "faster_first_unchecked",
        "faster_float_sum_four_lanes",
        "faster_halve",
        "faster_is_prime",
        "faster_lane_sums",
        "faster_max_branchless",
        "faster_mean_and_spread",
        "faster_merge_dedup",
        "faster_normalize",
        "faster_nth_smallest_select",
        "faster_parse_total",
        "faster_prefix_sums",
        "faster_primes_sieve",
        "faster_sort_in_place",
        "faster_sorted_fast",
        "faster_square",
        "faster_total_length",
        "faster_touch",
        "faster_triangle",
        "hygiene::faster_config",
        "hygiene::faster_owned0",
        "renamed::faster_reversed",
        "text::new::faster_count_words",
        "coerced::faster_boxed",
        "coerced::faster_describe",
        "coerced::faster_double_f64",
        "coerced::faster_double_u32",
        "coerced::faster_total_shared",
        "coerced::faster_total_wrapped",
        "coerced::faster_twice_u64",
    ];
    expected.sort_unstable();
    assert_eq!(names, expected);
}

/// The one naming scheme: the name `faster::main()` lists, filters and
/// reports is the name libtest gives the generated test.
#[test]
fn registered_names_are_libtests_test_names() {
    let listed = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--list", "--format", "terse"])
        .output()
        .expect("this test binary lists its tests");
    let listed = String::from_utf8(listed.stdout).unwrap();
    for comparison in comparisons() {
        let line = format!("{}: test", comparison.test_name());
        assert!(
            listed.lines().any(|listed| listed == line),
            "{line} is not in\n{listed}"
        );
    }
}

#[test]
fn options_are_recorded_as_written() {
    let guard = registered("faster_checksum_again");
    assert_eq!(guard.settings.expect, Some(Expect::NotSlower));
    assert_eq!(guard.settings.noise_floor, Some(0.5));
    assert_eq!(guard.settings.max_time, Some(Duration::from_millis(500)));
    assert_eq!(guard.settings.processes, Some(1));
    assert_eq!(guard.original, "checksum");
    assert_eq!(guard.label, "checksum_again vs checksum");

    // A name is the report's heading; the test keeps the function's name.
    let reported = registered("faster_contains_method");
    assert_eq!(reported.label, "contains: slice method vs contains_loop");
    assert_eq!(reported.test, "attribute::faster_contains_method");
    assert_eq!(reported.settings.expect, Some(Expect::Report));
    assert_eq!(reported.settings.max_time, Some(Duration::from_millis(600)));

    let nested = registered("text::new::faster_count_words");
    assert_eq!(nested.test, "attribute::text::new::faster_count_words");
    assert_eq!(nested.original, "super::old::count_words");
}

#[test]
fn absent_options_are_left_to_the_run() {
    let plain = registered("faster_triangle");
    assert_eq!(plain.settings.expect, None);
    assert_eq!(plain.settings.noise_floor, None);
    assert_eq!(plain.settings.max_time, Some(Duration::from_millis(500)));
    assert_eq!(plain.settings.processes, None);
    assert_eq!(plain.original, "triangle_naive");

    // A pair that wrote `expect = report` and nothing else of the kind.
    let shape = registered("faster_distinct_sorted");
    assert_eq!(shape.settings.expect, Some(Expect::Report));
    assert_eq!(shape.settings.noise_floor, None);
    assert_eq!(shape.settings.processes, None);
    assert_eq!(shape.original, "distinct_naive");
}

/// Where the comparison says its two functions start: the functions its
/// calls name, a generic original at the candidate's type, and a function
/// called through a pointer (`unsafe`, `extern "C"`) alike.
#[test]
fn both_functions_addresses_are_registered() {
    let addresses = |test_name| {
        let addresses = registered(test_name)
            .addresses
            .expect("a comparison on the CPU has the addresses");
        addresses()
    };
    let at = |function: *const ()| function as usize;
    assert_eq!(
        addresses("faster_common_sorted"),
        [
            at(common_naive as *const ()),
            at(common_sorted as *const ())
        ]
    );
    assert_eq!(
        addresses("faster_count_distinct_u64"),
        [
            at(count_distinct_naive::<u64> as *const ()),
            at(count_distinct::<u64> as *const ())
        ]
    );
    assert_eq!(
        addresses("faster_first_unchecked"),
        [
            at(first_checked as *const ()),
            at(first_unchecked as *const ())
        ]
    );
    assert_eq!(
        addresses("faster_halve"),
        [at(halve_naive as *const ()), at(halve as *const ())]
    );
    // What a slice reports: each within a 64-byte line.
    let [original, candidate] = addresses("faster_common_sorted");
    assert_eq!(
        registered("faster_common_sorted").offsets(),
        Some([(original % 64) as u8, (candidate % 64) as u8])
    );
}

/// Measures a registered comparison again, briefly (unjudged). The runtime serializes
/// this with the generated tests' measurements.
fn run_briefly(test_name: &str) -> faster::report::Measurement {
    let mut config = Config::default();
    config.max_time = Duration::from_millis(500);
    (registered(test_name).run)(&config)
        .unwrap_or_else(|error| panic!("{test_name} did not run: {error}"))
}

#[test]
fn flops_and_bytes_counts_reach_the_report() {
    let report = run_briefly("faster_float_sum_four_lanes");
    let counts: Vec<(Option<u64>, Option<u64>)> = report
        .inputs
        .iter()
        .map(|input| (input.flops, input.bytes))
        .collect();
    assert_eq!(counts, [(Some(9_999), Some(8 * 9_999))]);

    let report = run_briefly("faster_primes_sieve");
    let counts: Vec<(Option<u64>, Option<u64>)> = report
        .inputs
        .iter()
        .map(|input| (input.flops, input.bytes))
        .collect();
    assert_eq!(counts, [(None, Some(2_000))]);
}

#[test]
fn the_descriptor_points_at_the_attribute() {
    let comparison = registered("faster_is_prime");
    assert_eq!(comparison.file, file!());
    assert_eq!(comparison.line, IS_PRIME_LINE);
    assert_eq!(comparison.debug_build, cfg!(debug_assertions));
}

#[test]
fn skipping_the_check_is_what_lets_the_float_sums_pass() {
    let inputs = float_sum_inputs();
    let differing = inputs
        .iter()
        .filter(|v| float_sum_sequential(v) != float_sum_four_lanes(v))
        .count();
    assert!(
        differing > 0,
        "the sums agree, so `check = skip` is not exercised"
    );
}

#[test]
fn approx_is_what_lets_the_float_outputs_pass() {
    // Each `approx` pair differs exactly on some input: without the
    // tolerance its generated test would fail.
    let inputs = prefix_inputs();
    assert!(
        inputs
            .iter()
            .any(|v| prefix_sums_naive(v) != prefix_sums(v))
    );
    assert!(
        inputs
            .iter()
            .any(|v| mean_and_spread_naive(v) != mean_and_spread(v))
    );
    let inputs = lane_inputs();
    assert!(inputs.iter().any(|v| lane_sums_naive(v) != lane_sums(v)));
    let differing = normalize_inputs().into_iter().any(|v| {
        let (mut a, mut b) = (v.clone(), v);
        normalize_naive(&mut a);
        normalize(&mut b);
        a != b
    });
    assert!(differing, "the normalized vectors agree exactly");
}

#[test]
fn the_check_function_is_what_lets_the_distinct_values_pass() {
    let inputs = distinct_inputs();
    assert!(
        inputs
            .iter()
            .any(|v| distinct_values_naive(v) != distinct_values_sorted(v))
    );
}

#[test]
fn a_generic_function_gets_one_comparison_per_type() {
    for ty in ["u32", "u64"] {
        let comparison = registered(&format!("faster_count_distinct_{ty}"));
        assert_eq!(comparison.original, "count_distinct_naive");
        assert_eq!(
            comparison.test,
            format!("attribute::faster_count_distinct_{ty}")
        );
    }
    let report = run_briefly("faster_count_distinct_u64");
    assert_eq!(report.name, "count_distinct::<u64> vs count_distinct_naive");
}

#[test]
fn mut_arguments_are_compared_after_the_call() {
    // A candidate that leaves its argument in another state is a mismatch
    // even when the outputs agree: run the registered pair's engine path
    // with a wrong candidate of the same shape.
    let inputs = vec![(vec![3_u32, 1, 2], 10_usize, vec![2_u32])];
    let mut config = Config::default();
    config.max_time = Duration::from_millis(20);
    type Case = (Vec<u32>, usize, Vec<u32>);
    let naive = |(_, limit, extra): &Case, (mut v,): (Vec<u32>,)| {
        let removed = merge_dedup_naive(&mut v, *limit, extra);
        (removed, v)
    };
    let reversing = |(_, limit, extra): &Case, (mut v,): (Vec<u32>,)| {
        let removed = merge_dedup(&mut v, *limit, extra);
        v.reverse();
        (removed, v)
    };
    let error = faster::__private::parts(
        "merge",
        &inputs,
        faster::__private::Eq,
        Some("(the output, `v` after the call)"),
        (naive, naive),
        (reversing, reversing),
        |(v, _, _): &Case| (v.clone(),),
        &config,
    )
    .unwrap_err();
    let message = error.to_string();
    assert!(message.contains("original:  (1, [1, 2, 3])"), "{message}");
    assert!(message.contains("candidate: (1, [3, 2, 1])"), "{message}");
    assert!(
        message.contains("first difference at .1[0]: 1 vs 3"),
        "{message}"
    );
    assert!(
        message.contains("compared:  (the output, `v` after the call)"),
        "{message}"
    );
}
