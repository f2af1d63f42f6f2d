fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(inputs = sum_inputs)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
