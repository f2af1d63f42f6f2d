// An `unsafe fn` without parameters: called inside `unsafe {}`, on the one
// input `()`.
#[faster::compare(original = answer_naive, check = skip, bytes = answer_bytes)]
unsafe fn answer() -> u64 {
    42
}
