//! How `accuracy --layouts` reads: the identical-work table, the known
//! multiples' table, the resolution's table (the ~5% differences and the
//! identical pairs at the 2% floor), the spread between layouts and what
//! the functions' offsets explain of it, and the builds' table, each as
//! aligned text or as Markdown from the same rows, and the CSV row of one
//! comparison.

use super::offsets::Spread;
use super::run::Pair;
use super::tally::{self, Comparison};
use faster::Verdict;
use faster_runtime::__internal::{Interval, median};

/// One build's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    pub build: usize,
    pub seed: u64,
    pub unrelated: usize,
    /// `cargo test --release --no-run`: the fixture compiled and linked
    /// (with its dependencies, the first time).
    pub rebuild_s: f64,
    /// The packages cargo compiled.
    pub compiled: Vec<String>,
    /// Each `cargo test --release`'s wall time.
    pub runs_s: Vec<f64>,
}

/// A table: a header and rows of cells; the first column is text, the
/// others figures.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// As Markdown, or aligned for a terminal.
    pub fn render(&self, markdown: bool) -> String {
        let lines = std::iter::once(&self.header).chain(&self.rows);
        if markdown {
            let separator: Vec<&str> = (0..self.header.len())
                .map(|column| if column == 0 { "---" } else { "--:" })
                .collect();
            return std::iter::once(format!("| {} |", self.header.join(" | ")))
                .chain(std::iter::once(format!("| {} |", separator.join(" | "))))
                .chain(
                    self.rows
                        .iter()
                        .map(|row| format!("| {} |", row.join(" | "))),
                )
                .collect::<Vec<_>>()
                .join("\n");
        }
        let widths: Vec<usize> = (0..self.header.len())
            .map(|column| {
                lines
                    .clone()
                    .map(|row| row[column].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        lines
            .map(|row| {
                row.iter()
                    .zip(&widths)
                    .enumerate()
                    .map(|(column, (cell, width))| {
                        if column == 0 {
                            format!("{cell:<width$}")
                        } else {
                            format!("{cell:>width$}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("  ")
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn strings<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|cell| cell.to_string()).collect()
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!(
            "{part}/{whole} ({:.0}%)",
            100.0 * part as f64 / whole as f64
        )
    }
}

fn seconds((median, max): (f64, f64), decimals: usize) -> String {
    format!("{median:.decimals$} / {max:.decimals$}")
}

/// A row per kind, then one of all kinds (`row(name, None)`).
fn per_kind(kinds: &[&str], row: impl Fn(&str, Option<&str>) -> Vec<String>) -> Vec<Vec<String>> {
    kinds
        .iter()
        .map(|kind| row(kind, Some(kind)))
        .chain(std::iter::once(row("all", None)))
        .collect()
}

/// The identical-work pairs: a row per kind, then all kinds.
pub fn identical_table(comparisons: &[Comparison], kinds: &[&str]) -> Table {
    let row = |name: &str, kind: Option<&str>| {
        let tally = tally::identical(comparisons, kind);
        let (low, high) = tally.spread();
        let medians: Vec<String> = tally
            .build_medians
            .iter()
            .map(|speedup| format!("{speedup:.3}"))
            .collect();
        vec![
            name.to_string(),
            tally.comparisons.to_string(),
            format!(
                "{} ({}/{})",
                tally.false_verdicts(),
                tally.faster,
                tally.slower
            ),
            percent(tally.holds_one, tally.comparisons),
            medians.join(" "),
            format!("{low:.2}x – {high:.2}x"),
            format!("±{:.2}%", 100.0 * tally.median_half_width),
            seconds(tally.elapsed, 3),
        ]
    };
    Table {
        header: strings([
            "kind",
            "comparisons",
            "false (F/S)",
            "CI holds 1.00",
            "median speedup per build",
            "spread of build medians",
            "median ±CI",
            "time s: median / max",
        ]),
        rows: per_kind(kinds, row),
    }
}

/// The known multiples: a row per kind, then all kinds.
pub fn multiple_table(comparisons: &[Comparison], kinds: &[&str]) -> Table {
    let row = |name: &str, kind: Option<&str>| {
        let tally = tally::multiple(comparisons, kind);
        let per_build: Vec<String> = tally
            .per_build
            .iter()
            .map(|(faster, of)| format!("{faster}/{of}"))
            .collect();
        vec![
            name.to_string(),
            tally.comparisons.to_string(),
            percent(tally.faster, tally.comparisons),
            per_build.join(" "),
            format!("{:.3}x", tally.median_speedup),
            format!("{:.3}x", tally.min_speedup),
            seconds(tally.elapsed, 3),
        ]
    };
    Table {
        header: strings([
            "kind",
            "comparisons",
            "judged faster",
            "faster per build",
            "median speedup",
            "lowest",
            "time s: median / max",
        ]),
        rows: per_kind(kinds, row),
    }
}

/// The resolution: a row per kind, then all kinds, of the ~5% differences
/// and of the identical-work pairs judged at the same 2% floor.
pub fn resolution_table(comparisons: &[Comparison], kinds: &[&str]) -> Table {
    let row = |name: &str, kind: Option<&str>| {
        let rework = tally::rework(comparisons, kind);
        let identical = tally::identical_at_2_percent(comparisons, kind);
        let per_build: Vec<String> = rework
            .per_build
            .iter()
            .map(|(faster, of)| format!("{faster}/{of}"))
            .collect();
        vec![
            name.to_string(),
            format!("{} of {}", rework.faster, rework.comparisons),
            per_build.join(" "),
            rework.slower.to_string(),
            format!("{:.3}x", rework.median_speedup),
            format!("{:.3}x", rework.median_best_speedup),
            format!("±{:.2}%", 100.0 * rework.median_half_width),
            format!(
                "{} of {} ({}/{})",
                identical.false_verdicts(),
                identical.comparisons,
                identical.faster,
                identical.slower
            ),
            format!("±{:.2}%", 100.0 * identical.median_half_width),
            seconds(rework.elapsed, 3),
        ]
    };
    Table {
        header: strings([
            "kind",
            "5% found at 2% floor",
            "found per build",
            "5% read slower",
            "5%: median speedup",
            "5%: best-of ratio",
            "5%: median ±CI",
            "identical at 2%: false (F/S)",
            "identical at 2%: median ±CI",
            "5%: time s median / max",
        ]),
        rows: per_kind(kinds, row),
    }
}

/// The floor the spread table judges every pair at: the 5%'s.
const SPREAD_FLOOR: f64 = 0.02;

/// The spread between layouts, per kind that had comparisons in at least
/// [`super::offsets::LEAST_LAYOUTS`] layouts: identical pairs (both) and
/// the ~5% apart, the engine's interval beside the stratified one.
pub fn spread_table(spreads: &[Spread], kinds: &[&str]) -> Table {
    let row = |kind: &str| {
        let of = |identical: bool| -> Vec<&Spread> {
            spreads
                .iter()
                .filter(|spread| spread.kind == kind)
                .filter(|spread| (spread.pair == Pair::Rework) != identical)
                .filter(|spread| spread.pair != Pair::Multiple)
                .collect()
        };
        let (identical, rework) = (of(true), of(false));
        let percent = |values: Vec<f64>| {
            if values.is_empty() {
                "–".to_string()
            } else {
                format!("{:.1}%", 100.0 * median(&values))
            }
        };
        let figures = |group: &[&Spread], figure: fn(&Spread) -> f64| {
            percent(group.iter().map(|spread| figure(spread)).collect())
        };
        let both = |figure: fn(&Spread) -> f64| {
            format!(
                "{} / {}",
                figures(&identical, figure),
                figures(&rework, figure)
            )
        };
        // How many of `group` the engine's interval and the stratified one
        // judge as `counted` says.
        let judged = |group: &[&Spread], counted: fn(Verdict) -> bool| {
            let count = |interval: fn(&Spread) -> Interval| {
                group
                    .iter()
                    .filter(|spread| {
                        counted(Verdict::from_interval(
                            interval(spread).exp_bounds(),
                            SPREAD_FLOOR,
                        ))
                    })
                    .count()
            };
            format!(
                "{} → {} of {}",
                count(|spread| spread.plain),
                count(|spread| spread.stratified),
                group.len()
            )
        };
        (!identical.is_empty() || !rework.is_empty()).then(|| {
            vec![
                kind.to_string(),
                format!("{} / {}", identical.len(), rework.len()),
                both(|spread| spread.sd.exp_m1()),
                both(|spread| spread.residual_sd.exp_m1()),
                format!(
                    "{} → {}",
                    figures(&identical, |spread| spread.plain.half_width.exp_m1()),
                    figures(&identical, |spread| spread.stratified.half_width.exp_m1())
                ),
                format!(
                    "{} → {}",
                    figures(&rework, |spread| spread.plain.half_width.exp_m1()),
                    figures(&rework, |spread| spread.stratified.half_width.exp_m1())
                ),
                judged(&rework, |verdict| verdict == Verdict::Faster),
                judged(&identical, |verdict| verdict != Verdict::WithinNoise),
            ]
        })
    };
    Table {
        header: strings([
            "kind",
            "comparisons: identical / 5%",
            "SD of layout means: identical / 5%",
            "left by the offsets: identical / 5%",
            "identical: median ±CI, engine → by offsets",
            "5%: median ±CI, engine → by offsets",
            "5% found at 2%, engine → by offsets",
            "identical at 2%: false, engine → by offsets",
        ]),
        rows: kinds.iter().filter_map(|kind| row(kind)).collect(),
    }
}

/// The builds: how each was made and how long its runs took.
pub fn build_table(builds: &[Build]) -> Table {
    let mut all_runs: Vec<f64> = builds.iter().flat_map(|b| b.runs_s.clone()).collect();
    let row = |build: &Build| {
        let mut runs = build.runs_s.clone();
        vec![
            build.build.to_string(),
            build.seed.to_string(),
            build.unrelated.to_string(),
            format!("{:.1}", build.rebuild_s),
            build.compiled.len().to_string(),
            build.runs_s.len().to_string(),
            seconds((median(&runs), crate::summary::quantile(&mut runs, 1.0)), 2),
        ]
    };
    let mut rows: Vec<Vec<String>> = builds.iter().map(row).collect();
    rows.push(vec![
        "all".into(),
        String::new(),
        String::new(),
        format!("{:.1}", builds.iter().map(|b| b.rebuild_s).sum::<f64>()),
        String::new(),
        all_runs.len().to_string(),
        seconds(
            (
                median(&all_runs),
                crate::summary::quantile(&mut all_runs, 1.0),
            ),
            2,
        ),
    ]);
    Table {
        header: strings([
            "build",
            "link seed",
            "unrelated fns",
            "rebuild s",
            "crates compiled",
            "runs",
            "cargo test s: median / max",
        ]),
        rows,
    }
}

/// The CSV's columns: one row per comparison.
pub const CSV_COLUMNS: &[&str] = &[
    "build",
    "link_seed",
    "unrelated",
    "run",
    "kind",
    "pair",
    "verdict",
    "speedup",
    "ci_low",
    "ci_high",
    "passed",
    "elapsed_s",
    "rounds",
    "noise_floor",
    "run_wall_s",
    "rebuild_s",
    "best_speedup",
];

/// One comparison's CSV row; `build` is the build it ran in and
/// `run_wall_s` its `cargo test`'s wall time.
pub fn csv_fields(comparison: &Comparison, build: &Build, run_wall_s: f64) -> Vec<String> {
    let measured = &comparison.measured;
    vec![
        comparison.build.to_string(),
        build.seed.to_string(),
        build.unrelated.to_string(),
        comparison.run.to_string(),
        comparison.kind.to_string(),
        comparison.pair.name().to_string(),
        measured.verdict.name().to_string(),
        format!("{:.6}", measured.speedup),
        format!("{:.6}", measured.ci.0),
        format!("{:.6}", measured.ci.1),
        measured.passed.to_string(),
        format!("{:.4}", measured.elapsed_s),
        measured.rounds.to_string(),
        measured.noise_floor.to_string(),
        format!("{run_wall_s:.2}"),
        format!("{:.2}", build.rebuild_s),
        format!("{:.6}", measured.best_speedup),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layouts::run::{Measured, Pair};
    use faster::Verdict;

    fn record(build: usize, pair: Pair, speedup: f64, verdict: Verdict) -> Comparison {
        Comparison {
            build,
            run: 2,
            kind: "parse",
            pair,
            measured: Measured {
                verdict,
                speedup,
                ci: (speedup - 0.01, speedup + 0.01),
                best_speedup: speedup,
                passed: true,
                elapsed_s: 0.25,
                rounds: 40,
                noise_floor: 0.05,
                layouts: Vec::new(),
            },
        }
    }

    fn records() -> Vec<Comparison> {
        vec![
            record(1, Pair::Identical, 0.95, Verdict::WithinNoise),
            record(2, Pair::Identical, 1.07, Verdict::Faster),
            record(1, Pair::Multiple, 2.01, Verdict::Faster),
            record(2, Pair::Multiple, 1.99, Verdict::Faster),
            record(1, Pair::Rework, 1.05, Verdict::Faster),
            record(2, Pair::Rework, 1.01, Verdict::WithinNoise),
            record(1, Pair::IdenticalAt2Percent, 0.97, Verdict::Slower),
            record(2, Pair::IdenticalAt2Percent, 1.0, Verdict::WithinNoise),
        ]
    }

    #[test]
    fn the_identical_table_reads_per_kind_and_overall() {
        let table = identical_table(&records(), &["parse"]);
        assert_eq!(table.rows.len(), 2);
        assert_eq!(
            table.rows[0],
            [
                "parse",
                "2",
                "1 (1/0)",
                "0/2 (0%)",
                "0.950 1.070",
                "0.95x – 1.07x",
                "±0.99%",
                "0.250 / 0.250"
            ]
        );
        assert_eq!(table.rows[1][0], "all");
        let markdown = table.render(true);
        assert!(markdown.starts_with("| kind | comparisons |"), "{markdown}");
        assert!(markdown.contains("\n| --- | --: |"), "{markdown}");
        let text = table.render(false);
        assert_eq!(text.lines().count(), 3);
        assert!(
            text.lines().nth(1).unwrap().starts_with("parse  "),
            "{text}"
        );
    }

    #[test]
    fn the_multiples_table_shows_every_build() {
        let table = multiple_table(&records(), &["parse"]);
        assert_eq!(table.rows[0][2], "2/2 (100%)");
        assert_eq!(table.rows[0][3], "1/1 1/1");
        assert_eq!(table.rows[0][4], "2.000x");
        assert_eq!(table.rows[0][5], "1.990x");
    }

    #[test]
    fn the_resolution_table_reads_the_5_percent_and_the_identical_at_2() {
        let table = resolution_table(&records(), &["parse"]);
        assert_eq!(table.header.len(), table.rows[0].len());
        assert_eq!(table.rows[0][..4], ["parse", "1 of 2", "1/1 0/1", "0"]);
        assert_eq!(table.rows[0][4], "1.030x");
        assert_eq!(table.rows[0][7], "1 of 2 (0/1)");
        assert_eq!(table.rows[1][0], "all");
    }

    #[test]
    fn a_csv_row_has_every_column() {
        let build = Build {
            build: 2,
            seed: 2,
            unrelated: 2,
            rebuild_s: 3.5,
            compiled: vec!["layouts_fixture".into()],
            runs_s: vec![20.0, 22.0],
        };
        let fields = csv_fields(&records()[1], &build, 21.0);
        assert_eq!(fields.len(), CSV_COLUMNS.len());
        assert_eq!(fields[4..8], ["parse", "identical", "faster", "1.070000"]);
        let builds = build_table(&[build]);
        assert_eq!(builds.rows[0][6], "21.00 / 22.00");
        assert_eq!(builds.rows[1][0], "all");
    }

    #[test]
    fn the_spread_table_counts_what_each_interval_judges_at_the_2_percent_floor() {
        let interval = |center: f64, half_width: f64| Interval {
            center,
            half_width,
            blocks: 64,
        };
        let spread = |pair: Pair, center: f64| Spread {
            build: 1,
            kind: "search",
            pair,
            layouts: 64,
            sd: 0.17,
            residual_sd: 0.07,
            plain: interval(center, 0.06),
            stratified: interval(center, 0.02),
        };
        // The 5% at 1.05x: ±6% straddles 1.02, ±2% clears it.
        let spreads = [
            spread(Pair::Identical, 0.0),
            spread(Pair::IdenticalAt2Percent, 0.01),
            spread(Pair::Rework, 0.05),
        ];
        let table = spread_table(&spreads, &["parse", "search"]);
        assert_eq!(table.rows.len(), 1, "parse had no spread: no row");
        let row = &table.rows[0];
        assert_eq!(row[0], "search");
        assert_eq!(row[1], "2 / 1");
        assert_eq!(row[2], "18.5% / 18.5%");
        assert_eq!(row[4], "6.2% → 2.0%");
        assert_eq!(row[6], "0 → 1 of 1");
        assert_eq!(row[7], "0 → 0 of 2");
    }
}
