// A `&mut` parameter next to a value and a borrow: each call takes its own
// clone of `v` (made before the clock starts; `k`, being `Copy`, the call
// copies), borrows `extra` from the case, and returns the output with `v`
// after the call.
#[faster::compare(original = pop_naive, inputs = pop_inputs, check = approx(1e-9, 1e-12))]
fn pop_fast(v: &mut Vec<f64>, k: usize, extra: &[f64]) -> Option<f64> {
    v.truncate(k);
    v.extend_from_slice(extra);
    v.pop()
}
