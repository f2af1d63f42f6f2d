fn sum_naive(v: &[u32]) -> u64 {
    v.iter().map(|&x| u64::from(x)).sum()
}

fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = sum_naive, inputs = sum_inputs)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

// The candidate takes one parameter more.
fn scale_naive(v: &[u64]) -> Vec<u64> {
    v.iter().map(|x| x * 2).collect()
}

fn scale_inputs() -> Vec<(Vec<u64>, u64)> {
    vec![(vec![1, 2, 3], 2)]
}

#[faster::compare(original = scale_naive, inputs = scale_inputs)]
fn scale_fast(v: &[u64], k: u64) -> Vec<u64> {
    v.iter().map(|x| x * k).collect()
}

// Another output type.
fn count_naive(v: &[u64]) -> usize {
    v.len()
}

#[faster::compare(original = count_naive, inputs = sum_inputs)]
fn count_fast(v: &[u64]) -> u32 {
    v.len() as u32
}

// An `extern "C"` original for a Rust candidate.
extern "C" fn double_naive(x: u64) -> u64 {
    2 * x
}

fn double_inputs() -> Vec<u64> {
    vec![1, 2]
}

#[faster::compare(original = double_naive, inputs = double_inputs)]
fn double_fast(x: u64) -> u64 {
    x << 1
}

// Inputs that fit the original and not the candidate: the signatures are
// the error, and it comes first.
fn total_naive(v: &[u32]) -> u64 {
    v.iter().map(|&x| u64::from(x)).sum()
}

fn total_inputs() -> Vec<Vec<u32>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = total_naive, inputs = total_inputs)]
fn total_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
