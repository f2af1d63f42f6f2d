fn answer_naive() -> u64 {
    42
}

#[faster::compare(original = answer_naive, noise_floor = 5)]
fn integer_noise_floor() -> u64 {
    42
}

#[faster::compare(original = answer_naive, noise_floor = 0.0)]
fn out_of_range_noise_floor() -> u64 {
    42
}

#[faster::compare(original = answer_naive, max_time = "3 seconds")]
fn unreadable_max_time() -> u64 {
    42
}

#[faster::compare(original = answer_naive, max_time = 3s)]
fn unquoted_max_time() -> u64 {
    42
}

#[faster::compare(original = answer_naive, expect = slower)]
fn unknown_expect() -> u64 {
    42
}

#[faster::compare(original = answer_naive, expect = notslower)]
fn misspelt_expect() -> u64 {
    42
}

#[faster::compare(original = answer_naive, check = exact)]
fn unknown_check() -> u64 {
    42
}

#[faster::compare(original = answer_naive, name = fast_answer)]
fn unquoted_name() -> u64 {
    42
}

#[faster::compare(original = answer_naive, processes = 0)]
fn no_processes() -> u64 {
    42
}

fn main() {}
