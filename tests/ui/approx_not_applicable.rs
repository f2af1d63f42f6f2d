#[derive(Debug, PartialEq)]
struct Point {
    x: f64,
    y: f64,
}

fn centre_naive(v: &[f64]) -> Point {
    Point { x: v[0], y: v[1] }
}

fn centre_inputs() -> Vec<Vec<f64>> {
    vec![vec![1.0, 2.0]]
}

#[faster::compare(original = centre_naive, inputs = centre_inputs, check = approx(1e-9))]
fn centre_fast(v: &[f64]) -> Point {
    Point { x: v[0], y: v[1] }
}

fn centres_naive(v: &[f64]) -> Vec<Point> {
    vec![Point { x: v[0], y: v[1] }]
}

#[faster::compare(original = centres_naive, inputs = centre_inputs, check = approx(1e-9))]
fn centres_fast(v: &[f64]) -> Vec<Point> {
    vec![Point { x: v[0], y: v[1] }]
}

fn main() {}
