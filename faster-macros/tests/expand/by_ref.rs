// Every parameter by shared reference: each call borrows the input case.
#[faster::compare(
    original = sum_naive,
    inputs = sum_inputs,
    expect = not_slower,
    noise_floor = 0.1,
    max_time = "500ms",
    name = "sum: unrolled"
)]
fn sum_unrolled(v: &[u64], k: &u64) -> u64 {
    v.iter().sum::<u64>() * k
}
