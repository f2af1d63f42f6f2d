// A safe candidate cannot stand in for an `unsafe fn` original: the
// annotation on a safe function vouches for nothing.
unsafe fn first_naive(v: &[u64]) -> u64 {
    unsafe { *v.get_unchecked(0) }
}

fn first_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2]]
}

#[faster::compare(original = first_naive, inputs = first_inputs)]
fn first_checked(v: &[u64]) -> u64 {
    v[0]
}

fn main() {}
