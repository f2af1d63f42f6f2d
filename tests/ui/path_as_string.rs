fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = "sum_naive", inputs = sum_inputs)]
fn quoted_original(v: &[u64]) -> u64 {
    v.iter().sum()
}

#[faster::compare(original = sum_naive, inputs = "sum_inputs")]
fn quoted_inputs(v: &[u64]) -> u64 {
    v.iter().sum()
}

#[faster::compare(original = sum_naive(), inputs = sum_inputs)]
fn called_original(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
