fn answer_naive() -> u64 {
    42
}

fn answer_inputs() -> Vec<u64> {
    vec![1, 2, 3]
}

#[faster::compare(original = answer_naive, inputs = answer_inputs)]
fn answer_fast() -> u64 {
    42
}

fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

#[faster::compare(original = sum_naive)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn dot_naive(a: &[f64], b: &[f64], scale: f64) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y * scale).sum()
}

#[faster::compare(original = dot_naive)]
fn dot_fast(a: &[f64], b: &[f64], scale: f64) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() * scale
}

fn main() {}
