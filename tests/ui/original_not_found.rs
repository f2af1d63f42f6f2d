fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = sum_naiv, inputs = sum_inputs)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

mod old {}

#[faster::compare(original = old::sum_naive, inputs = sum_inputs)]
fn sum_faster(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
