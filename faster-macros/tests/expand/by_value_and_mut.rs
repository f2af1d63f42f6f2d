// A `&mut` parameter next to a value and a borrow: each call takes its own
// clone, returns the output with the argument after the call, and hands
// back the borrowed field so it is dropped after the clock stops.
#[faster::compare(original = pop_naive, inputs = pop_inputs, check = approx(1e-9, 1e-12))]
fn pop_fast(v: &mut Vec<f64>, k: usize, extra: &[f64]) -> Option<f64> {
    v.truncate(k);
    v.extend_from_slice(extra);
    v.pop()
}
