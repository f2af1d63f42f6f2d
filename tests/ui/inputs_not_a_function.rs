// `inputs` names something other than a function that returns the cases:
// one error at the value, naming the case the function takes.
fn sum_naive(v: &[u64]) -> u64 {
    v.iter().sum()
}

// A static holding one case.
static SUM_CASE: [u64; 3] = [1, 2, 3];

#[faster::compare(original = sum_naive, inputs = SUM_CASE)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}

// A constant holding the cases.
const SUM_CASES: &[&[u64]] = &[&[1, 2], &[3]];

#[faster::compare(original = sum_naive, inputs = SUM_CASES)]
fn sum_faster(v: &[u64]) -> u64 {
    v.iter().sum()
}

// A function that takes a parameter.
fn sized_inputs(len: u64) -> Vec<Vec<u64>> {
    vec![(0..len).collect()]
}

#[faster::compare(original = sum_naive, inputs = sized_inputs)]
fn sum_fastest(v: &[u64]) -> u64 {
    v.iter().sum()
}

// Several parameters: the case is a tuple.
fn dot_naive(a: &[f64], b: &[f64], scale: f64) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y * scale).sum()
}

static DOT_CASES: [f64; 2] = [1.0, 2.0];

#[faster::compare(original = dot_naive, inputs = DOT_CASES)]
fn dot_fast(a: &[f64], b: &[f64], scale: f64) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() * scale
}

// `#[faster::track]`.
#[faster::track(inputs = SUM_CASE)]
fn sum_tracked(v: &[u64]) -> u64 {
    v.iter().sum()
}

fn main() {}
