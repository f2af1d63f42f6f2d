//! One tracked function's runs in one phase of `accuracy --revisions`: its
//! verdicts, speedups, intervals and times, as a table row and as the
//! issue's targets it missed.

use faster::Report;
use faster::Verdict;
use faster_runtime::__internal::median;

/// One function's runs in one phase.
pub struct Tally {
    pub name: &'static str,
    speedups: Vec<f64>,
    intervals: Vec<(f64, f64)>,
    verdicts: [usize; 3],
    failed: usize,
    errors: Vec<String>,
    elapsed: Vec<f64>,
}

impl Tally {
    pub const HEADER: &str = "| phase | noise | function | truth | runs | exit ≠ 0 | F/N/S | failed | \
                          median speedup | median / max error | within 1% | CI holds truth | \
                          time per function | time per run |\n\
                          | --- | --- | --- | --- | --: | --: | --- | --: | --: | --- | --: | --: | \
                          --: | --: |";

    pub fn new(name: &'static str) -> Tally {
        Tally {
            name,
            speedups: Vec::new(),
            intervals: Vec::new(),
            verdicts: [0; 3],
            failed: 0,
            errors: Vec::new(),
            elapsed: Vec::new(),
        }
    }

    pub fn add(&mut self, functions: &[(String, Result<Report, String>)]) {
        let Some((_, result)) = functions.iter().find(|(name, _)| name == self.name) else {
            self.failed += 1;
            self.errors.push("not reported".into());
            return;
        };
        match result {
            Ok(report) => {
                self.speedups.push(report.speedup);
                self.intervals.push(report.ci);
                self.elapsed.push(report.elapsed.as_secs_f64());
                self.verdicts[match report.verdict {
                    Verdict::Faster => 0,
                    Verdict::WithinNoise => 1,
                    Verdict::Slower => 2,
                }] += 1;
                self.failed += usize::from(!report.passed());
            }
            Err(error) => {
                self.failed += 1;
                self.errors.push(error.clone());
            }
        }
    }

    fn errors_of(&self, truth: f64) -> Vec<f64> {
        self.speedups
            .iter()
            .map(|speedup| (speedup / truth - 1.0).abs())
            .collect()
    }

    pub fn row(&self, phase: &str, noise: &str, truth: f64, exits: usize, wall: f64) -> String {
        let errors = self.errors_of(truth);
        let max_error = errors.iter().copied().fold(0.0, f64::max);
        let within = errors.iter().filter(|error| **error <= 0.01).count();
        let holds = self
            .intervals
            .iter()
            .filter(|(low, high)| *low <= truth && truth <= *high)
            .count();
        let [faster, within_noise, slower] = self.verdicts;
        let runs = self.speedups.len() + self.errors.len();
        format!(
            "| {phase} | {noise} | `{}` | {truth:.4} | {runs} | {exits} | {faster}/{within_noise}/\
             {slower} | {} | {:.4} | {:.2}% / {:.2}% | {within} | {holds} | {:.3} s | {wall:.2} s |",
            self.name,
            self.failed,
            median(&self.speedups),
            100.0 * median(&errors),
            100.0 * max_error,
            median(&self.elapsed),
        )
    }

    /// The targets this function missed in this phase.
    pub fn misses(&self, phase: &str, noise: &str, truth: f64) -> Vec<String> {
        let mut missed: Vec<String> = self
            .errors
            .iter()
            .map(|error| format!("{phase}/{noise} {}: {error}", self.name))
            .collect();
        let slowed = truth < 1.0;
        let [faster, _, slower] = self.verdicts;
        if slowed {
            if self.failed < self.speedups.len() + self.errors.len() {
                missed.push(format!(
                    "{phase}/{noise} {}: passed in some runs",
                    self.name
                ));
            }
            let off = self
                .errors_of(truth)
                .iter()
                .filter(|error| **error > 0.01)
                .count();
            if off > 0 {
                missed.push(format!(
                    "{phase}/{noise} {}: {off} speedups more than 1% from {truth:.4}",
                    self.name
                ));
            }
        } else if self.failed > 0 || faster + slower > 0 {
            missed.push(format!(
                "{phase}/{noise} {}: {} failed, {faster} faster, {slower} slower",
                self.name, self.failed
            ));
        }
        missed
    }
}
