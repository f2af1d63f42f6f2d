// A crate that depends on `faster-test` under another name, `bench_kit`:
// every runtime item is named under `::bench_kit`, at the spans the
// default expansion gives them.
#[faster::compare(crate = ::bench_kit, original = sum_naive, inputs = sum_inputs, expect = report)]
fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}
