// One comparison per type, with a check function of the user's.
#[faster::compare(
    original = sort_naive,
    inputs = sort_inputs,
    types = [u32, f64],
    check = same_order,
    flops = sort_flops
)]
fn sort_fast<T: PartialOrd + Copy>(v: &mut [T]) {
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
}
