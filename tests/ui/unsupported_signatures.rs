async fn fetch_naive() -> u64 {
    42
}

#[faster::compare(original = fetch_naive)]
async fn fetch_fast() -> u64 {
    42
}

struct Samples(Vec<f64>);

impl Samples {
    fn mean_naive(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    #[faster::compare(original = Samples::mean_naive)]
    fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }
}

fn largest_naive<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn largest_inputs() -> Vec<Vec<u64>> {
    vec![vec![1, 2, 3]]
}

#[faster::compare(original = largest_naive, inputs = largest_inputs)]
fn largest<T: Ord + Copy>(v: &[T]) -> T {
    *v.iter().max().unwrap()
}

fn total_naive(v: impl AsRef<[u64]>) -> u64 {
    v.as_ref().iter().sum()
}

#[faster::compare(original = total_naive, inputs = largest_inputs)]
fn total(v: impl AsRef<[u64]>) -> u64 {
    v.as_ref().iter().sum()
}

fn sort_naive(v: &mut Vec<u64>) {
    v.sort();
}

#[faster::compare(original = sort_naive, inputs = largest_inputs)]
fn sort_fast(v: &mut Vec<u64>) {
    v.sort_unstable();
}

unsafe fn first_naive(v: &[u64]) -> u64 {
    v[0]
}

#[faster::compare(original = first_naive, inputs = largest_inputs)]
unsafe fn first_fast(v: &[u64]) -> u64 {
    unsafe { *v.get_unchecked(0) }
}

fn largest_ref_naive(v: &[u64]) -> &u64 {
    v.iter().max().unwrap()
}

#[faster::compare(original = largest_ref_naive, inputs = largest_inputs)]
fn largest_ref(v: &[u64]) -> &u64 {
    v.iter().max().unwrap()
}

fn main() {}
