fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

// Quoted, as serde's `crate = "..."` is written.
#[faster::compare(crate = "faster", original = sum_naive, inputs = sum_inputs)]
fn quoted(v: &[u64]) -> u64 {
    v.iter().sum()
}

// Not a path.
#[faster::compare(crate = 3, original = sum_naive, inputs = sum_inputs)]
fn number(v: &[u64]) -> u64 {
    v.iter().sum()
}

// A path with generic arguments.
#[faster::compare(crate = faster::<u8>, original = sum_naive, inputs = sum_inputs)]
fn generic(v: &[u64]) -> u64 {
    v.iter().sum()
}

// Misspelt.
#[faster::track(krate = faster, inputs = sum_inputs)]
fn misspelt(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
