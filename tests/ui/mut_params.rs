fn sort_naive(v: &mut Vec<u64>) {
    v.sort();
}

fn sort_inputs() -> Vec<Vec<u64>> {
    vec![vec![3, 1, 2]]
}

// The original takes a slice, the candidate a `Vec`.
fn sort_slice(v: &mut [u64]) {
    v.sort();
}

#[faster::compare(original = sort_slice, inputs = sort_inputs)]
fn sort_vec(v: &mut Vec<u64>) {
    v.sort_unstable();
}

// The original only reads its argument.
fn sorted_copy(v: &Vec<u64>) {
    let _ = v.clone();
}

#[faster::compare(original = sorted_copy, inputs = sort_inputs)]
fn sort_in_place(v: &mut Vec<u64>) {
    v.sort_unstable();
}

// The inputs hold `u32`s.
fn small_inputs() -> Vec<Vec<u32>> {
    vec![vec![3, 1, 2]]
}

#[faster::compare(original = sort_naive, inputs = small_inputs)]
fn sort_small(v: &mut Vec<u64>) {
    v.sort_unstable();
}

// A `&mut` inside another type cannot be made from an input case.
fn bump_naive(counter: Option<&mut u64>) {
    if let Some(counter) = counter {
        *counter += 1;
    }
}

#[faster::compare(original = bump_naive, inputs = sort_inputs)]
fn bump(counter: Option<&mut u64>) {
    if let Some(counter) = counter {
        *counter += 1;
    }
}

fn main() {}
