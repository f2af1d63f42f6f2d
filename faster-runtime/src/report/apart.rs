//! Where a report's figures read apart, so that every output can say which
//! one the verdict rests on and why they differ: each function's best-of
//! times against the paired speedup (for the whole comparison, or for one
//! input of several), inputs whose own speedups read otherwise than the
//! headline, which weighs each input by its time, and inputs that read
//! beyond the noise floor on a side the verdict does not say.

use super::Report;
use crate::stats::verdict::Verdict;

/// A best-of figure and the paired speedup beside it, read apart.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BestOfApart {
    /// The input's name, or `None` for the whole comparison (the runtime
    /// line against the headline).
    pub input: Option<String>,
    /// `original / candidate` of the best-of times.
    pub best_of: f64,
    /// The paired speedup.
    pub paired: f64,
}

/// Inputs whose own paired speedups read on the other side of the noise
/// floor than the headline does, and the input the headline weighs most.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct InputsAgainstHeadline {
    /// Each such input's name and paired speedup.
    pub inputs: Vec<(String, f64)>,
    /// The input with the largest share of the original's best-of time,
    /// and that share (a fraction).
    pub heaviest: (String, f64),
}

/// An input (of several) whose own paired speedup reads beyond the noise
/// floor on a side the verdict does not say: slower under a verdict that is
/// not `slower` (a regression the headline, which weighs each input by its
/// time, passes over), or faster under one that is not `faster` (a speedup
/// of the short inputs, news though the headline reads 1.00x).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct InputChange {
    /// The input's name.
    pub name: String,
    /// Which side of the floor it reads: `Faster` or `Slower`.
    pub reads: Verdict,
    /// Its paired speedup.
    pub speedup: f64,
    /// Its best-of times, `[original, candidate]`.
    pub best_of_ns: [f64; 2],
    /// Its share of the original's best-of time over all inputs: how much
    /// the headline weighs it.
    pub share: f64,
}

impl Report {
    /// Where the best-of times and the paired speedup read apart: further
    /// apart than the noise floor (what the user counts as a difference),
    /// or on different sides of one of its thresholds (one would read
    /// `faster`, `within noise` or `slower` and the other not). Closer than
    /// that, the two differ as a minimum and a mean of the same times do,
    /// which changes nothing the reader should do. With one input, its row
    /// is the headline's and is not said twice.
    pub fn best_of_apart(&self) -> Vec<BestOfApart> {
        let floor = self.floor();
        let apart = |best_of: f64, paired: f64| {
            floor.exceeded_by(best_of / paired) || floor.reads(best_of) != floor.reads(paired)
        };
        let whole = BestOfApart {
            input: None,
            best_of: self.best_speedup,
            paired: self.speedup,
        };
        let inputs = self
            .inputs
            .iter()
            .filter(|_| self.inputs.len() > 1)
            .map(|input| BestOfApart {
                input: Some(input.name()),
                best_of: input.original_ns / input.candidate_ns,
                paired: input.speedup,
            });
        std::iter::once(whole)
            .chain(inputs)
            .filter(|figures| apart(figures.best_of, figures.paired))
            .collect()
    }

    /// The inputs (of several) whose paired speedup reads faster beyond the
    /// noise floor under a headline that reads slower, as `rle` read 1.12x
    /// and 1.52x faster on two inputs of three under a headline of 1.03x
    /// slower: each round sums its inputs' times, so the headline follows
    /// the input that takes the most time. `None` where no input does.
    /// (Every input beyond the floor on a side the verdict does not say is
    /// in [`Report::inputs_changed`].)
    pub fn inputs_against_headline(&self) -> Option<InputsAgainstHeadline> {
        let headline = self.speedup;
        let against: Vec<(String, f64)> = self
            .inputs
            .iter()
            .filter(|_| self.inputs.len() > 1 && headline < 1.0)
            .filter(|input| self.floor().reads(input.speedup) == Verdict::Faster)
            .map(|input| (input.name(), input.speedup))
            .collect();
        if against.is_empty() {
            return None;
        }
        let total: f64 = self.inputs.iter().map(|input| input.original_ns).sum();
        let heaviest = self
            .inputs
            .iter()
            .max_by(|one, other| one.original_ns.total_cmp(&other.original_ns))?;
        Some(InputsAgainstHeadline {
            inputs: against,
            heaviest: (heaviest.name(), heaviest.original_ns / total),
        })
    }

    /// The inputs (of several) whose own paired speedup reads beyond the
    /// noise floor on a side the verdict does not say, as one input of a
    /// guard read 1.97x slower (5.73 ns → 10.2 ns) under `1.01x slower ✓
    /// within noise`: the headline weighs each input by its time, so a
    /// short input's change hardly moves it. In input order; empty where
    /// there is none.
    pub fn inputs_changed(&self) -> Vec<InputChange> {
        if self.inputs.len() < 2 {
            return Vec::new();
        }
        let total: f64 = self.inputs.iter().map(|input| input.original_ns).sum();
        self.inputs
            .iter()
            .map(|input| (input, self.floor().reads(input.speedup)))
            .filter(|(_, reads)| {
                matches!(reads, Verdict::Faster | Verdict::Slower) && *reads != self.verdict
            })
            .map(|(input, reads)| InputChange {
                name: input.name(),
                reads,
                speedup: input.speedup,
                best_of_ns: [input.original_ns, input.candidate_ns],
                share: input.original_ns / total,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::report::fixtures::{input, report};
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn estimates_on_different_sides_of_a_threshold_read_apart() {
        let mut slower = report(0.94, (0.93, 0.95), Verdict::Slower, Expect::Faster);
        slower.best_speedup = 1.01;
        let apart = slower.best_of_apart();
        assert_eq!(apart.len(), 1, "{apart:?}");
        assert_eq!((apart[0].input.as_deref(), apart[0].best_of), (None, 1.01));
    }

    #[test]
    fn estimates_further_apart_than_the_floor_read_apart_on_the_same_side_too() {
        // 8.99 µs → 2.25 µs reads 4x, the paired estimate 2.95x.
        let mut apart = report(2.95, (2.9, 3.0), Verdict::Faster, Expect::Faster);
        apart.best_speedup = 8.99 / 2.25;
        assert_eq!(apart.best_of_apart().len(), 1);
        // Within the floor (4% apart at 5%) and on the same side: a minimum
        // and a mean of the same times, nothing to say.
        let mut close = report(9.33, (9.15, 9.50), Verdict::Faster, Expect::Faster);
        close.best_speedup = 8.98;
        assert!(close.best_of_apart().is_empty());
        // Slower on both sides, under 5% apart at a 5% floor: not past it.
        let mut slower = report(0.485, (0.48, 0.49), Verdict::Slower, Expect::Faster);
        slower.best_speedup = 0.485 * 1.049;
        assert!(slower.best_of_apart().is_empty());
        // At a floor of 100%, 35% apart on the same side is within it.
        let mut wide = report(2.95, (2.9, 3.0), Verdict::Faster, Expect::Faster);
        wide.best_speedup = 3.99;
        wide.noise_floor = 1.0;
        assert!(wide.best_of_apart().is_empty());
    }

    #[test]
    fn an_input_whose_row_reads_otherwise_than_its_estimate_is_named() {
        let mut split = report(0.87, (0.85, 0.89), Verdict::Slower, Expect::Faster);
        split.best_speedup = split.speedup;
        split.inputs = vec![
            input(0, 3_240.0, 3_530.0, 315),
            input(1, 10_500.0, 10_400.0, 315),
        ];
        split.inputs[1].speedup = 1.0 / 1.19;
        split.inputs[1].label = Some("192×192".into());
        let apart = split.best_of_apart();
        assert_eq!(apart.len(), 1, "{apart:?}");
        assert_eq!(apart[0].input.as_deref(), Some("192×192"));
        assert_eq!(apart[0].paired, 1.0 / 1.19);
    }

    #[test]
    fn inputs_that_read_against_the_headline_name_the_input_it_follows() {
        // The issue's `rle`: 1.12x and 1.52x faster on two inputs, 1.03x
        // slower overall, where the first input takes most of the time.
        let mut rle = report(
            1.0 / 1.03,
            (0.91, 1.05),
            Verdict::WithinNoise,
            Expect::Report,
        );
        rle.inputs = vec![
            input(0, 90_000.0, 96_000.0, 315),
            input(1, 5_600.0, 5_000.0, 315),
            input(2, 4_400.0, 2_900.0, 315),
        ];
        rle.inputs[0].speedup = 1.0 / 1.07;
        rle.inputs[1].speedup = 1.12;
        rle.inputs[2].speedup = 1.52;
        let against = rle
            .inputs_against_headline()
            .expect("two inputs read faster");
        assert_eq!(
            against.inputs,
            [("1".to_string(), 1.12), ("2".to_string(), 1.52)]
        );
        assert_eq!(against.heaviest, ("0".to_string(), 0.9));
        // Inputs on the headline's side, or within the floor, agree with it.
        rle.inputs[1].speedup = 1.03;
        rle.inputs[2].speedup = 1.0 / 1.2;
        assert_eq!(rle.inputs_against_headline(), None);
        // A slower input under a faster headline is a regression of its
        // own, not a reading against the headline.
        rle.speedup = 1.5;
        assert_eq!(rle.inputs_against_headline(), None);
        // One input is the headline.
        let one = report(1.5, (1.4, 1.6), Verdict::Faster, Expect::Faster);
        assert_eq!(one.inputs_against_headline(), None);
    }

    #[test]
    fn an_input_beyond_the_floor_is_named_unless_the_verdict_says_its_side() {
        // The guard: one short input 1.97x slower, 1.01x slower
        // within noise overall.
        let mut guard = report(
            1.0 / 1.01,
            (0.97, 1.02),
            Verdict::WithinNoise,
            Expect::NotSlower,
        );
        guard.inputs = vec![input(0, 1_000.0, 1_000.0, 315), input(1, 5.73, 10.2, 315)];
        guard.inputs[1].speedup = 1.0 / 1.97;
        let changed = guard.inputs_changed();
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(
            (changed[0].name.as_str(), changed[0].reads),
            ("1", Verdict::Slower)
        );
        assert_eq!(changed[0].best_of_ns, [5.73, 10.2]);
        assert!((changed[0].share - 5.73 / 1_005.73).abs() < 1e-12);
        // Said by the verdict itself, or within the floor: nothing.
        guard.verdict = Verdict::Slower;
        assert!(guard.inputs_changed().is_empty());
        guard.verdict = Verdict::WithinNoise;
        guard.inputs[1].speedup = 1.0 / 1.04;
        assert!(guard.inputs_changed().is_empty());
        // A short input 1.8x faster under a headline of 1.00x is news; under
        // a verdict of `faster`, it is what the verdict says.
        guard.inputs[1].speedup = 1.8;
        let changed = guard.inputs_changed();
        assert_eq!((changed.len(), changed[0].reads), (1, Verdict::Faster));
        guard.verdict = Verdict::Faster;
        assert!(guard.inputs_changed().is_empty());
    }
}
