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

fn main() {}
