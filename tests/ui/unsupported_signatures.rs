async fn fetch_naive() -> u64 {
    42
}

#[faster::compare(original = fetch_naive)]
async fn fetch_fast() -> u64 {
    42
}

fn largest_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

fn total_naive(v: impl AsRef<[u64]>) -> u64 {
    v.as_ref().iter().sum()
}

#[faster::compare(original = total_naive, inputs = largest_inputs)]
fn total(v: impl AsRef<[u64]>) -> u64 {
    v.as_ref().iter().sum()
}

fn largest_ref_naive(v: &[u64]) -> Option<&u64> {
    v.iter().max()
}

// A reference is compared as the value it points to; one inside another
// type cannot be.
#[faster::compare(original = largest_ref_naive, inputs = largest_inputs)]
fn largest_ref(v: &[u64]) -> Option<&u64> {
    v.iter().max()
}

fn shorter_naive<'a, 'b: 'a>(a: &'a str, b: &'b str) -> usize {
    a.len().min(b.len())
}

fn shorter_inputs() -> Vec<(String, String)> {
    vec![("a".into(), "bc".into())]
}

#[faster::compare(original = shorter_naive, inputs = shorter_inputs)]
fn shorter<'a, 'b: 'a>(a: &'a str, b: &'b str) -> usize {
    a.len().min(b.len())
}

fn answer_naive() -> u64 {
    42
}

fn answer_other() -> u64 {
    42
}

#[faster::compare(original = answer_naive)]
#[faster::compare(original = answer_other)]
fn answer() -> u64 {
    42
}

fn main() {}
