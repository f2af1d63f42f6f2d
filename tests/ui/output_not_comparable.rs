struct Summary {
    total: u64,
}

fn summarize_naive(v: &[u64]) -> Summary {
    Summary {
        total: v.iter().sum(),
    }
}

fn summarize_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = summarize_naive, inputs = summarize_inputs)]
fn summarize_fast(v: &[u64]) -> Summary {
    Summary {
        total: v.iter().sum(),
    }
}

// A `&mut` argument's state after the call is compared too.
#[derive(Clone)]
struct Tally {
    count: u64,
}

fn count_naive(tally: &mut Tally) {
    tally.count += 1;
}

fn count_inputs() -> Vec<Tally> {
    vec![Tally { count: 0 }]
}

#[faster::compare(original = count_naive, inputs = count_inputs)]
fn count_fast(tally: &mut Tally) {
    tally.count += 1;
}

fn main() {
    let _ = summarize_fast(&[1]).total;
}
