fn mean_naive(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn mean_inputs() -> Vec<Vec<f64>> {
    vec![vec![1.0, 2.0]]
}

// Takes `f32`s, the outputs are `f64`s.
fn close_f32(a: &f32, b: &f32) -> bool {
    (a - b).abs() < 1e-6
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = close_f32)]
fn mean_wrong_type(v: &[f64]) -> f64 {
    mean_naive(v)
}

// Returns how far apart, not whether they agree.
fn distance(a: &f64, b: &f64) -> f64 {
    (a - b).abs()
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = distance)]
fn mean_not_bool(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = close_enough)]
fn mean_missing_check(v: &[f64]) -> f64 {
    mean_naive(v)
}

// With a `&mut` parameter and no output, the check compares the argument
// after the call: here a `Vec<f64>`, not an `f64`.
fn normalize_naive(v: &mut Vec<f64>) {
    let total: f64 = v.iter().sum();
    v.iter_mut().for_each(|x| *x /= total);
}

fn close(a: &f64, b: &f64) -> bool {
    (a - b).abs() < 1e-9
}

#[faster::compare(original = normalize_naive, inputs = mean_inputs, check = close)]
fn normalize_fast(v: &mut Vec<f64>) {
    normalize_naive(v)
}

fn main() {}
