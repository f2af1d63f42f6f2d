fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn sum_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(orignal = sum_naive, inputs = sum_inputs)]
fn misspelt_original(v: &[u64]) -> u64 {
    v.iter().sum()
}

#[faster::compare(original = sum_naive, input = sum_inputs)]
fn misspelt_inputs(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn largest_naive<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn largest_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2]]
}

#[faster::compare(original = largest_naive, inputs = largest_inputs, type = [u64])]
fn largest<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn main() {}
