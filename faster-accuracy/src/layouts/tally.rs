//! The figures of `accuracy --layouts`, from every comparison of every run
//! of every build: per kind (and over all kinds), what the identical-work
//! pairs (at either floor), the known multiples and the ~5% differences came
//! to. Pure functions of the records.

use super::run::{Measured, Pair};
use crate::summary::quantile;
use faster::Verdict;
use faster_runtime::__internal::median;

/// One comparison of one run of one build.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The build (the layout), from 1.
    pub build: usize,
    /// The run within the build, from 1.
    pub run: usize,
    pub kind: &'static str,
    pub pair: Pair,
    pub measured: Measured,
}

/// The identical-work pairs of a kind (or of all kinds), at one floor.
#[derive(Debug, Clone, PartialEq)]
pub struct Identical {
    pub comparisons: usize,
    pub faster: usize,
    pub slower: usize,
    /// Comparisons whose 99% interval holds 1.00.
    pub holds_one: usize,
    /// Each build's median speedup, in build order.
    pub build_medians: Vec<f64>,
    /// The median of each interval's half-width relative to its speedup.
    pub median_half_width: f64,
    /// The reports' elapsed time: median and max, in seconds.
    pub elapsed: (f64, f64),
}

impl Identical {
    /// `Faster` or `Slower` verdicts: every one is false.
    pub fn false_verdicts(&self) -> usize {
        self.faster + self.slower
    }

    /// The lowest and highest of the builds' medians.
    pub fn spread(&self) -> (f64, f64) {
        spread(&self.build_medians)
    }
}

/// The known multiples of a kind (or of all kinds).
#[derive(Debug, Clone, PartialEq)]
pub struct Multiple {
    pub comparisons: usize,
    /// Judged `faster`, as they should be.
    pub faster: usize,
    /// Per build, in build order: (judged faster, comparisons).
    pub per_build: Vec<(usize, usize)>,
    pub median_speedup: f64,
    pub min_speedup: f64,
    pub elapsed: (f64, f64),
}

impl Multiple {
    /// Comparisons not judged `faster`.
    pub fn misses(&self) -> usize {
        self.comparisons - self.faster
    }
}

/// The ~5% differences of a kind (or of all kinds): the resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Rework {
    pub comparisons: usize,
    /// Judged `faster`: the difference found.
    pub faster: usize,
    /// Judged `slower`: the difference reversed.
    pub slower: usize,
    /// Per build, in build order: (judged faster, comparisons).
    pub per_build: Vec<(usize, usize)>,
    pub median_speedup: f64,
    /// The median best-of figure: the suite has no reference measurement
    /// of the true ratio, and the fastest calls read it with the least of
    /// the machine's noise (though not of the layout's).
    pub median_best_speedup: f64,
    /// The median of each interval's half-width relative to its speedup.
    pub median_half_width: f64,
    pub elapsed: (f64, f64),
}

/// The comparisons of `pair`, of `kind` (every kind for `None`).
fn of<'a>(comparisons: &'a [Comparison], kind: Option<&str>, pair: Pair) -> Vec<&'a Comparison> {
    comparisons
        .iter()
        .filter(|comparison| comparison.pair == pair)
        .filter(|comparison| kind.is_none_or(|kind| comparison.kind == kind))
        .collect()
}

/// The builds present, in order.
fn builds(comparisons: &[&Comparison]) -> Vec<usize> {
    let mut builds: Vec<usize> = comparisons.iter().map(|c| c.build).collect();
    builds.sort_unstable();
    builds.dedup();
    builds
}

/// Per build present, in order: (judged faster, comparisons).
fn faster_per_build(pairs: &[&Comparison]) -> Vec<(usize, usize)> {
    builds(pairs)
        .into_iter()
        .map(|build| {
            let of_build: Vec<&Comparison> =
                pairs.iter().copied().filter(|c| c.build == build).collect();
            (faster(&of_build), of_build.len())
        })
        .collect()
}

/// How many of `pairs` were judged `faster`.
fn faster(pairs: &[&Comparison]) -> usize {
    pairs
        .iter()
        .filter(|c| c.measured.verdict == Verdict::Faster)
        .count()
}

/// The median of each interval's half-width relative to its speedup.
fn median_half_width(pairs: &[&Comparison]) -> f64 {
    let half_widths: Vec<f64> = pairs
        .iter()
        .map(|c| (c.measured.ci.1 - c.measured.ci.0) / 2.0 / c.measured.speedup)
        .collect();
    median(&half_widths)
}

fn elapsed(comparisons: &[&Comparison]) -> (f64, f64) {
    let mut seconds: Vec<f64> = comparisons.iter().map(|c| c.measured.elapsed_s).collect();
    (median(&seconds), quantile(&mut seconds, 1.0))
}

/// The identical-work pairs of `kind` (every kind for `None`) at the
/// default floor.
pub fn identical(comparisons: &[Comparison], kind: Option<&str>) -> Identical {
    identical_pairs(comparisons, kind, Pair::Identical)
}

/// The identical-work pairs of `kind` (every kind for `None`) at the 2%
/// floor.
pub fn identical_at_2_percent(comparisons: &[Comparison], kind: Option<&str>) -> Identical {
    identical_pairs(comparisons, kind, Pair::IdenticalAt2Percent)
}

fn identical_pairs(comparisons: &[Comparison], kind: Option<&str>, pair: Pair) -> Identical {
    let pairs = of(comparisons, kind, pair);
    let count =
        |test: &dyn Fn(&Measured) -> bool| pairs.iter().filter(|c| test(&c.measured)).count();
    Identical {
        comparisons: pairs.len(),
        faster: count(&|m| m.verdict == Verdict::Faster),
        slower: count(&|m| m.verdict == Verdict::Slower),
        holds_one: count(&|m| m.ci.0 <= 1.0 && 1.0 <= m.ci.1),
        build_medians: builds(&pairs)
            .into_iter()
            .map(|build| {
                let speedups: Vec<f64> = pairs
                    .iter()
                    .filter(|c| c.build == build)
                    .map(|c| c.measured.speedup)
                    .collect();
                median(&speedups)
            })
            .collect(),
        median_half_width: median_half_width(&pairs),
        elapsed: elapsed(&pairs),
    }
}

/// The known multiples of `kind` (every kind for `None`).
pub fn multiple(comparisons: &[Comparison], kind: Option<&str>) -> Multiple {
    let pairs = of(comparisons, kind, Pair::Multiple);
    let mut speedups: Vec<f64> = pairs.iter().map(|c| c.measured.speedup).collect();
    Multiple {
        comparisons: pairs.len(),
        faster: faster(&pairs),
        per_build: faster_per_build(&pairs),
        median_speedup: median(&speedups),
        min_speedup: quantile(&mut speedups, 0.0),
        elapsed: elapsed(&pairs),
    }
}

/// The ~5% differences of `kind` (every kind for `None`).
pub fn rework(comparisons: &[Comparison], kind: Option<&str>) -> Rework {
    let pairs = of(comparisons, kind, Pair::Rework);
    let figure = |read: fn(&Measured) -> f64| -> f64 {
        median(&pairs.iter().map(|c| read(&c.measured)).collect::<Vec<_>>())
    };
    Rework {
        comparisons: pairs.len(),
        faster: faster(&pairs),
        slower: pairs
            .iter()
            .filter(|c| c.measured.verdict == Verdict::Slower)
            .count(),
        per_build: faster_per_build(&pairs),
        median_speedup: figure(|m| m.speedup),
        median_best_speedup: figure(|m| m.best_speedup),
        median_half_width: median_half_width(&pairs),
        elapsed: elapsed(&pairs),
    }
}

/// The lowest and highest of `values` (NaN, NaN when empty).
pub fn spread(values: &[f64]) -> (f64, f64) {
    let mut values = values.to_vec();
    (quantile(&mut values, 0.0), quantile(&mut values, 1.0))
}

/// The kind whose builds' medians spread the widest (as a ratio of the
/// highest to the lowest), with that spread.
pub fn widest<'a>(comparisons: &[Comparison], kinds: &[&'a str]) -> Option<(&'a str, (f64, f64))> {
    kinds
        .iter()
        .map(|kind| (*kind, identical(comparisons, Some(kind)).spread()))
        .filter(|(_, (low, high))| low.is_finite() && high.is_finite())
        .max_by(|(_, a), (_, b)| (a.1 / a.0).total_cmp(&(b.1 / b.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(build: usize, kind: &'static str, pair: Pair, speedup: f64) -> Comparison {
        let ci = (speedup * 0.99, speedup * 1.01);
        Comparison {
            build,
            run: 1,
            kind,
            pair,
            measured: Measured {
                verdict: Verdict::from_interval(ci, 0.05),
                speedup,
                ci,
                best_speedup: speedup * 1.01,
                passed: true,
                elapsed_s: speedup,
                rounds: 10,
                noise_floor: 0.05,
                layouts: Vec::new(),
            },
        }
    }

    fn close(values: &[f64], expected: &[f64]) -> bool {
        values.len() == expected.len()
            && values
                .iter()
                .zip(expected)
                .all(|(a, b)| (a - b).abs() < 1e-9)
    }

    fn records() -> Vec<Comparison> {
        vec![
            comparison(1, "parse", Pair::Identical, 0.90),
            comparison(1, "parse", Pair::Identical, 0.94),
            comparison(2, "parse", Pair::Identical, 1.00),
            comparison(2, "parse", Pair::Identical, 1.08),
            comparison(1, "sort", Pair::Identical, 1.001),
            comparison(2, "sort", Pair::Identical, 0.999),
            comparison(1, "parse", Pair::Multiple, 2.0),
            comparison(2, "parse", Pair::Multiple, 1.03),
            comparison(1, "sort", Pair::Multiple, 1.9),
            comparison(1, "parse", Pair::Rework, 1.07),
            comparison(2, "parse", Pair::Rework, 1.03),
            comparison(2, "parse", Pair::Rework, 0.90),
            comparison(1, "parse", Pair::IdenticalAt2Percent, 1.0),
        ]
    }

    #[test]
    fn identical_pairs_count_false_verdicts_coverage_and_build_medians() {
        let records = records();
        let parse = identical(&records, Some("parse"));
        assert_eq!(parse.comparisons, 4);
        // 0.90 and 0.94 read slower (their intervals end below 1/1.05),
        // 1.08 faster; only 1.00's interval holds 1.
        assert_eq!(
            (parse.faster, parse.slower, parse.false_verdicts()),
            (1, 2, 3)
        );
        assert_eq!(parse.holds_one, 1);
        assert!(close(&parse.build_medians, &[0.92, 1.04]));
        let (low, high) = parse.spread();
        assert!(close(&[low, high], &[0.92, 1.04]));
        assert!(close(&[parse.median_half_width], &[0.01]));
        assert!(close(&[parse.elapsed.0, parse.elapsed.1], &[0.97, 1.08]));

        let all = identical(&records, None);
        assert_eq!(all.comparisons, 6);
        assert_eq!(all.holds_one, 3);
        assert_eq!(all.build_medians.len(), 2);
        let (kind, (low, high)) = widest(&records, &["parse", "sort", "none"]).unwrap();
        assert_eq!(kind, "parse");
        assert!(close(&[low, high], &[0.92, 1.04]));
    }

    #[test]
    fn known_multiples_count_faster_per_build() {
        let records = records();
        let parse = multiple(&records, Some("parse"));
        assert_eq!((parse.comparisons, parse.faster, parse.misses()), (2, 1, 1));
        assert_eq!(parse.per_build, [(1, 1), (0, 1)]);
        assert_eq!(parse.min_speedup, 1.03);
        let all = multiple(&records, None);
        assert_eq!((all.comparisons, all.faster), (3, 2));
        assert_eq!(all.median_speedup, 1.9);
        assert_eq!(all.per_build, [(2, 2), (0, 1)]);
        let none = multiple(&records, Some("none"));
        assert_eq!(none.comparisons, 0);
        assert!(none.median_speedup.is_nan());
    }

    #[test]
    fn the_5_percent_differences_count_found_and_reversed() {
        let records = records();
        let parse = rework(&records, Some("parse"));
        // 1.07's interval clears `comparison`'s 5% floor, 1.03's does not,
        // 0.90's is below it.
        assert_eq!((parse.comparisons, parse.faster, parse.slower), (3, 1, 1));
        assert_eq!(parse.per_build, [(1, 1), (0, 2)]);
        assert!(close(&[parse.median_speedup], &[1.03]));
        assert!(close(&[parse.median_best_speedup], &[1.0403]));
        assert!(close(&[parse.median_half_width], &[0.01]));
        assert_eq!(rework(&records, Some("sort")).comparisons, 0);
        // The 2% floor's identical pairs are counted apart from the 5%'s.
        assert_eq!(identical_at_2_percent(&records, None).comparisons, 1);
        assert_eq!(identical(&records, Some("parse")).comparisons, 4);
    }
}
