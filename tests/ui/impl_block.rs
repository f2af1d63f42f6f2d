struct Samples(Vec<f64>);

impl Samples {
    fn mean_naive(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    #[faster::compare(original = Samples::mean_naive)]
    fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    fn scale_naive(v: &[f64], k: f64) -> Vec<f64> {
        v.iter().map(|x| x * k).collect()
    }

    #[faster::compare(original = Self::scale_naive, inputs = scale_inputs)]
    fn scale(v: &[f64], k: f64) -> Vec<f64> {
        v.iter().map(|x| x * k).collect()
    }
}

fn scale_inputs() -> Vec<(Vec<f64>, f64)> {
    vec![(vec![1.0], 2.0)]
}

fn main() {}
