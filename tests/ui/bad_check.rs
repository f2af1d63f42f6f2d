fn mean_naive(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn mean_inputs() -> Vec<Vec<f64>> {
    vec![vec![1.0, 2.0]]
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx)]
fn approx_without_tolerance(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx(-1e-9))]
fn negative_tolerance(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx(5))]
fn percentage_tolerance(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx("1e-9"))]
fn quoted_tolerance(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx(1e-9, 1e-12, 1e-3))]
fn three_tolerances(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = approx(tol = 1e-9))]
fn unknown_tolerance(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = eqq)]
fn misspelt_check(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = "skip")]
fn quoted_check(v: &[f64]) -> f64 {
    mean_naive(v)
}

#[faster::compare(original = mean_naive, inputs = mean_inputs, check = close_enough())]
fn called_check(v: &[f64]) -> f64 {
    mean_naive(v)
}

fn main() {}
