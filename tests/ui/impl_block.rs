// The attributes inside `impl` blocks without `#[faster::methods]`, which
// writes the test they add (a block cannot hold one): one error each,
// saying to add it, with the free function to annotate where it cannot go.
struct Samples(Vec<f64>);

impl Samples {
    fn mean_naive(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    // A method.
    #[faster::compare(original = Samples::mean_naive)]
    fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    fn scale_naive(v: &[f64], k: f64) -> Vec<f64> {
        v.iter().map(|x| x * k).collect()
    }

    // An associated function, naming the original through `Self`.
    #[faster::compare(original = Self::scale_naive, inputs = scale_inputs)]
    fn scale(v: &[f64], k: f64) -> Vec<f64> {
        v.iter().map(|x| x * k).collect()
    }
}

struct Parser;

fn parse_naive(x: &str) -> u64 {
    x.len() as u64
}

fn parse_inputs() -> Vec<&'static str> {
    vec!["12"]
}

impl Parser {
    // An associated function, as `#[cfg_attr(test, ...)]` writes it under
    // `cargo test` (`all()` holds everywhere, as `test` does there).
    #[cfg_attr(all(), faster::compare(original = parse_naive, inputs = parse_inputs))]
    fn parse_fast(x: &str) -> u64 {
        x.len() as u64
    }

    // `#[faster::track]`, on a method taking `&mut self`.
    #[faster::track(inputs = parse_inputs)]
    fn parse_tracked(&mut self, x: &str) -> u64 {
        x.len() as u64
    }
}

trait Parse {
    fn parse(x: &str) -> u64;
}

// A trait's implementation.
impl Parse for Parser {
    #[faster::compare(original = parse_naive, inputs = parse_inputs)]
    fn parse(x: &str) -> u64 {
        x.len() as u64
    }
}

fn scale_inputs() -> Vec<(Vec<f64>, f64)> {
    vec![(vec![1.0], 2.0)]
}

fn main() {}
