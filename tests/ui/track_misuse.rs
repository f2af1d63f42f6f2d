// Misuses of `#[faster::track]`.

fn inputs() -> Vec<u64> {
    vec![1]
}

// An option of `#[faster::compare]`.
#[faster::track(inputs = inputs, original = other)]
fn with_original(n: &u64) -> u64 {
    *n
}

// A misspelt option.
#[faster::track(input = inputs)]
fn misspelt(n: &u64) -> u64 {
    *n
}

// Parameters without inputs.
#[faster::track]
fn no_inputs(n: &u64) -> u64 {
    *n
}

// Inputs for a function without parameters.
#[faster::track(inputs = inputs)]
fn no_parameters() -> u64 {
    1
}

// A generic function.
#[faster::track(inputs = inputs)]
fn generic<T: Copy>(n: &T) -> T {
    *n
}

// An async function.
#[faster::track(inputs = inputs)]
async fn asynchronous(n: &u64) -> u64 {
    *n
}

// A bad value.
#[faster::track(inputs = inputs, noise_floor = 5)]
fn percentage(n: &u64) -> u64 {
    *n
}

fn main() {}
