fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn sum_inputs() -> Vec<Vec<u32>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = sum_naive, inputs = sum_inputs)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn scale_naive(v: &[u64], k: u64) -> Vec<u64> {
    v.iter().map(|x| x * k).collect()
}

fn scale_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = scale_naive, inputs = scale_inputs)]
fn scale_fast(v: &[u64], k: u64) -> Vec<u64> {
    v.iter().map(|x| x * k).collect()
}

fn norm_naive(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn norm_inputs() -> Vec<Vec<f64>> {
    vec![vec![3.0, 4.0]]
}

fn norm_flops(v: &[f32]) -> u64 {
    2 * v.len() as u64
}

#[faster::compare(original = norm_naive, inputs = norm_inputs, flops = norm_flops)]
fn norm_fast(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |total, x| x.mul_add(*x, total)).sqrt()
}

// The second field of each tuple is a `u64`, the parameter a `usize`.
fn nth_naive(v: &[u64], n: usize) -> u64 {
    v[n]
}

fn nth_inputs() -> Vec<(Vec<u64>, u64)> {
    vec![(vec![1, 2], 1)]
}

#[faster::compare(original = nth_naive, inputs = nth_inputs)]
fn nth_fast(v: &[u64], n: usize) -> u64 {
    v[n]
}

fn main() {}
