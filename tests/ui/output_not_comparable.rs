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

fn main() {
    let _ = summarize_fast(&[1]).total;
}
