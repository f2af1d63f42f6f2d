fn largest_naive<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn largest_inputs<T: Default>() -> Vec<Vec<T>> {
    vec![vec![T::default()]]
}

#[faster::compare(original = largest_naive, inputs = largest_inputs)]
fn largest_without_types<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

#[faster::compare(original = largest_naive, inputs = largest_inputs, types = u32)]
fn largest_unbracketed<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

#[faster::compare(original = largest_naive, inputs = largest_inputs, types = ["u32"])]
fn largest_quoted<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

#[faster::compare(original = largest_naive, inputs = largest_inputs, types = [])]
fn largest_empty<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

#[faster::compare(original = largest_naive, inputs = largest_inputs, types = [u32, u64, u32])]
fn largest_twice<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

// `String` is not `Copy`: the bound fails at the type that breaks it.
#[faster::compare(original = largest_naive, inputs = largest_inputs, types = [u32, String])]
fn largest_unbounded<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn total_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn total_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2]]
}

#[faster::compare(original = total_naive, inputs = total_inputs, types = [u64])]
fn total_not_generic(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn pair_naive<A: Copy, B: Copy>(a: A, b: B) -> (B, A) {
    (b, a)
}

fn pair_inputs() -> Vec<(u8, u16)> {
    vec![(1, 2)]
}

#[faster::compare(original = pair_naive, inputs = pair_inputs, types = [u8])]
fn pair_swapped<A: Copy, B: Copy>(a: A, b: B) -> (B, A) {
    (b, a)
}

fn first_naive<const N: usize>(v: [u8; N]) -> u8 {
    v[0]
}

fn first_inputs() -> Vec<[u8; 4]> {
    vec![[1, 2, 3, 4]]
}

#[faster::compare(original = first_naive, inputs = first_inputs)]
fn first_fast<const N: usize>(v: [u8; N]) -> u8 {
    v[0]
}

fn main() {}
