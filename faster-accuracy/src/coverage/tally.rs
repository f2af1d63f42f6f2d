//! The intervals of `accuracy --coverage`, one per tracked function per
//! run of `cargo faster`: what each report says and whether its interval
//! holds the truth, 1.00; and what is made of them: the table by function
//! and floor, the line on intervals whose compiled code changed, the
//! misses and the CSV rows.

use crate::layouts::Table;
use faster::Report;
use faster::Verdict;
use faster::report::ProcessSummary;
use faster_runtime::__internal::median;
use std::collections::BTreeSet;

/// One tracked function's interval in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub floor: f64,
    /// The run, from 1 (the building runs are not counted).
    pub run: usize,
    /// The change the checked-out commit made.
    pub commit: &'static str,
    /// The tracked function, the table's row.
    pub function: &'static str,
    /// The catalog's kind whose work it does.
    pub kind: &'static str,
    /// What its report says, or why it has none.
    pub reading: Result<Reading, String>,
}

impl Interval {
    /// Whether it was measured and holds 1.00.
    pub fn holds_one(&self) -> bool {
        self.reading.as_ref().is_ok_and(Reading::holds_one)
    }

    /// Whether it was measured and its report says the compiled code
    /// changed.
    pub fn compiled_code_changed(&self) -> bool {
        self.reading
            .as_ref()
            .is_ok_and(|reading| reading.compiled_code_changed == Some(true))
    }
}

/// What one report says.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub speedup: f64,
    /// The 99% interval.
    pub ci: (f64, f64),
    pub verdict: Verdict,
    /// Whether the verdict decided `expect` (not undecided).
    pub decided: bool,
    /// The smallest change an interval as wide as this one judges.
    pub judged_beyond: f64,
    /// The layouts it was measured in: each a pair of processes, one per
    /// revision, in that layout of both binaries.
    pub layouts: usize,
    /// Its slices, in those layouts (the report's processes): past 64
    /// layouts, slices go to them again.
    pub slices: usize,
    /// Time spent measuring it.
    pub elapsed_s: f64,
    /// Whether its compiled code (the timed loop, or a function it calls)
    /// differs between the revisions; `None` where the report cannot tell.
    pub compiled_code_changed: Option<bool>,
    /// Each slice's own speedup, in the order measured: what the layouts
    /// spread, for the CSV.
    pub slice_speedups: Vec<f64>,
}

impl Reading {
    /// The figures of `report`.
    pub fn of(report: &Report) -> Reading {
        Reading {
            speedup: report.speedup,
            ci: report.ci,
            verdict: report.verdict,
            decided: report.decided(),
            judged_beyond: report.judged_beyond(),
            layouts: layouts(&report.processes),
            slices: report.processes.len(),
            elapsed_s: report.elapsed.as_secs_f64(),
            slice_speedups: report.processes.iter().map(|slice| slice.speedup).collect(),
            compiled_code_changed: report.compiled_code.as_ref().map(|code| code.differs()),
        }
    }

    /// Whether the interval holds the truth, 1.00.
    pub fn holds_one(&self) -> bool {
        self.ci.0 <= 1.0 && 1.0 <= self.ci.1
    }

    /// The interval's half-width in log space.
    fn half_width(&self) -> f64 {
        (self.ci.1.ln() - self.ci.0.ln()) / 2.0
    }
}

/// How many layouts `slices` ran in, each counted once (0 where layouts
/// were not varied).
fn layouts(slices: &[ProcessSummary]) -> usize {
    slices
        .iter()
        .filter_map(|slice| slice.layout)
        .collect::<BTreeSet<u32>>()
        .len()
}

/// The figures of a group of readings: a row of the table.
struct Summary {
    intervals: usize,
    holds: usize,
    faster: usize,
    slower: usize,
    undecided: usize,
    speedup: f64,
    half_width: f64,
    layouts: f64,
    elapsed_s: f64,
}

impl Summary {
    fn of(readings: &[&Reading]) -> Summary {
        let figures = |figure: fn(&Reading) -> f64| {
            median(
                &readings
                    .iter()
                    .map(|reading| figure(reading))
                    .collect::<Vec<f64>>(),
            )
        };
        let count = |holds: fn(&Reading) -> bool| readings.iter().filter(|r| holds(r)).count();
        Summary {
            intervals: readings.len(),
            holds: count(Reading::holds_one),
            faster: count(|reading| reading.verdict == Verdict::Faster),
            slower: count(|reading| reading.verdict == Verdict::Slower),
            undecided: count(|reading| !reading.decided),
            speedup: figures(|reading| reading.speedup),
            half_width: figures(Reading::half_width),
            layouts: figures(|reading| reading.layouts as f64),
            elapsed_s: figures(|reading| reading.elapsed_s),
        }
    }

    /// `holds` of `intervals` as a percentage.
    fn coverage(&self) -> String {
        percent(self.holds, self.intervals)
    }

    fn row(&self, function: &str, floor: f64) -> Vec<String> {
        let measured = self.intervals > 0;
        vec![
            function.to_string(),
            floor_label(floor),
            self.intervals.to_string(),
            format!("{} ({})", self.holds, self.coverage()),
            format!("{}/{}", self.faster, self.slower),
            self.undecided.to_string(),
            if measured {
                format!("{:.3}x ±{:.1}%", self.speedup, 100.0 * self.half_width)
            } else {
                "—".into()
            },
            if measured {
                format!("{}", self.layouts)
            } else {
                "—".into()
            },
            if measured {
                format!("{:.2} s", self.elapsed_s)
            } else {
                "—".into()
            },
        ]
    }
}

/// `part` of `whole` as a percentage, `—` of nothing.
fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// A noise floor as the tables show it: `5%`.
pub fn floor_label(floor: f64) -> String {
    format!("{}%", 100.0 * floor)
}

/// The readings of `intervals` at `floor`, of `function` (all where
/// `None`) and that `keep` keeps.
fn readings<'a>(
    intervals: &'a [Interval],
    floor: f64,
    function: Option<&str>,
    keep: impl Fn(&Reading) -> bool,
) -> Vec<&'a Reading> {
    intervals
        .iter()
        .filter(|interval| interval.floor == floor)
        .filter(|interval| function.is_none_or(|function| interval.function == function))
        .filter_map(|interval| interval.reading.as_ref().ok())
        .filter(|reading| keep(reading))
        .collect()
}

/// The table: a row per function and floor, then one of all functions per
/// floor.
pub fn table(intervals: &[Interval], functions: &[&str], floors: &[f64]) -> Table {
    let header = [
        "function",
        "floor",
        "intervals",
        "holds 1.00",
        "false F/S",
        "undecided",
        "median ±half-width",
        "layouts",
        "time",
    ];
    let mut rows = Vec::new();
    for &floor in floors {
        for function in functions.iter().map(Some).chain([None]) {
            let of = readings(intervals, floor, function.copied(), |_| true);
            rows.push(Summary::of(&of).row(function.unwrap_or(&"all"), floor));
        }
    }
    Table {
        header: header.iter().map(|cell| cell.to_string()).collect(),
        rows,
    }
}

/// Per floor, the intervals whose compiled code changed between the
/// revisions although nothing they use did, by commit and by function, and
/// the coverage with and without them.
pub fn compiled_code_lines(intervals: &[Interval], floors: &[f64]) -> Vec<String> {
    floors
        .iter()
        .map(|&floor| {
            let changed_ones: Vec<&Interval> = intervals
                .iter()
                .filter(|interval| interval.floor == floor && interval.compiled_code_changed())
                .collect();
            let all = Summary::of(&readings(intervals, floor, None, |_| true));
            let unchanged = Summary::of(&readings(intervals, floor, None, |reading| {
                reading.compiled_code_changed != Some(true)
            }));
            let untold = readings(intervals, floor, None, |reading| {
                reading.compiled_code_changed.is_none()
            })
            .len();
            format!(
                "{}: compiled code changed in {} of {} intervals{}; holds 1.00 in {} with them, \
                 {} without them ({}){}",
                floor_label(floor),
                changed_ones.len(),
                all.intervals,
                tallied(&changed_ones),
                all.coverage(),
                unchanged.coverage(),
                unchanged.intervals,
                if untold > 0 {
                    format!("; the report could not tell in {untold}")
                } else {
                    String::new()
                },
            )
        })
        .collect()
}

/// ` (by commit: a 3, b 1; by function: f 4)`, or nothing for none.
fn tallied(intervals: &[&Interval]) -> String {
    if intervals.is_empty() {
        return String::new();
    }
    let counted = |name: fn(&Interval) -> &'static str| {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for interval in intervals {
            match counts.iter_mut().find(|(seen, _)| *seen == name(interval)) {
                Some((_, count)) => *count += 1,
                None => counts.push((name(interval), 1)),
            }
        }
        counts
            .iter()
            .map(|(name, count)| format!("{name} {count}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        " (by commit: {}; by function: {})",
        counted(|interval| interval.commit),
        counted(|interval| interval.function)
    )
}

/// Each interval that did not hold 1.00, and each function without one.
pub fn misses(intervals: &[Interval]) -> Vec<String> {
    intervals
        .iter()
        .filter_map(|interval| {
            let place = format!(
                "{} run {} {} {}",
                floor_label(interval.floor),
                interval.run,
                interval.commit,
                interval.function
            );
            match &interval.reading {
                Ok(reading) if reading.holds_one() => None,
                Ok(reading) => Some(format!(
                    "{place}: {:.4}x [{:.4}x – {:.4}x] {}{}, {} layouts ({} slices), compiled \
                     code {}",
                    reading.speedup,
                    reading.ci.0,
                    reading.ci.1,
                    reading.verdict,
                    if reading.decided { "" } else { " (undecided)" },
                    reading.layouts,
                    reading.slices,
                    match reading.compiled_code_changed {
                        Some(true) => "changed",
                        Some(false) => "the same",
                        None => "not told",
                    }
                )),
                Err(error) => Some(format!("{place}: no interval: {error}")),
            }
        })
        .collect()
}

/// The CSV's columns: one row per interval.
pub const CSV_COLUMNS: &[&str] = &[
    "floor",
    "run",
    "commit",
    "kind",
    "function",
    "speedup",
    "ci_low",
    "ci_high",
    "holds_one",
    "verdict",
    "decided",
    "judged_beyond",
    "layouts",
    "slices",
    "elapsed_s",
    "compiled_code_changed",
    "slice_speedups",
    "error",
];

/// An interval's CSV row.
pub fn csv_fields(interval: &Interval) -> Vec<String> {
    let mut fields = vec![
        interval.floor.to_string(),
        interval.run.to_string(),
        interval.commit.to_string(),
        interval.kind.to_string(),
        interval.function.to_string(),
    ];
    match &interval.reading {
        Ok(reading) => fields.extend([
            format!("{:.6}", reading.speedup),
            format!("{:.6}", reading.ci.0),
            format!("{:.6}", reading.ci.1),
            reading.holds_one().to_string(),
            reading.verdict.name().to_string(),
            reading.decided.to_string(),
            format!("{:.6}", reading.judged_beyond),
            reading.layouts.to_string(),
            reading.slices.to_string(),
            format!("{:.4}", reading.elapsed_s),
            reading
                .compiled_code_changed
                .map_or(String::new(), |changed| changed.to_string()),
            reading
                .slice_speedups
                .iter()
                .map(|speedup| format!("{speedup:.5}"))
                .collect::<Vec<_>>()
                .join(";"),
            String::new(),
        ]),
        Err(error) => {
            fields.extend(std::iter::repeat_n(String::new(), CSV_COLUMNS.len() - 6));
            fields.push(error.clone());
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(speedup: f64, ci: (f64, f64), verdict: Verdict, changed: Option<bool>) -> Reading {
        Reading {
            speedup,
            ci,
            verdict,
            decided: verdict != Verdict::WithinNoise || (ci.0 > 1.0 / 1.05 && ci.1 < 1.05),
            judged_beyond: 0.1,
            layouts: 8,
            slices: 16,
            elapsed_s: 0.5,
            compiled_code_changed: changed,
            slice_speedups: vec![speedup; 16],
        }
    }

    fn interval(
        floor: f64,
        commit: &'static str,
        function: &'static str,
        reading: Result<Reading, String>,
    ) -> Interval {
        Interval {
            floor,
            run: 1,
            commit,
            function,
            kind: function,
            reading,
        }
    }

    /// At 5%: parse holds twice (once with its compiled code changed) and
    /// misses once (faster); utf8 holds once, undecided, and has no
    /// interval once. At 2%: one slower parse.
    fn intervals() -> Vec<Interval> {
        let within = |ci| Ok(reading(1.0, ci, Verdict::WithinNoise, Some(false)));
        vec![
            interval(0.05, "comment", "parse", within((0.98, 1.02))),
            interval(
                0.05,
                "added-here",
                "parse",
                Ok(reading(
                    1.01,
                    (0.99, 1.03),
                    Verdict::WithinNoise,
                    Some(true),
                )),
            ),
            interval(
                0.05,
                "statics",
                "parse",
                Ok(reading(1.08, (1.06, 1.10), Verdict::Faster, Some(true))),
            ),
            interval(0.05, "comment", "utf8", within((0.9, 1.1))),
            interval(0.05, "statics", "utf8", Err("not reported".into())),
            interval(
                0.02,
                "comment",
                "parse",
                Ok(reading(0.95, (0.94, 0.96), Verdict::Slower, None)),
            ),
        ]
    }

    #[test]
    fn the_table_counts_each_function_and_all_per_floor() {
        let table = table(&intervals(), &["parse", "utf8"], &[0.05, 0.02]);
        let row = |index: usize| table.rows[index].join(" | ");
        assert_eq!(table.rows.len(), 6);
        assert_eq!(
            row(0),
            "parse | 5% | 3 | 2 (66.7%) | 1/0 | 0 | 1.010x ±2.0% | 8 | 0.50 s"
        );
        // The undecided one is ±10%, beyond a 5% floor.
        assert_eq!(
            row(1),
            "utf8 | 5% | 1 | 1 (100.0%) | 0/0 | 1 | 1.000x ±10.0% | 8 | 0.50 s"
        );
        assert!(
            row(2).starts_with("all | 5% | 4 | 3 (75.0%) | 1/0 | 1 |"),
            "{}",
            row(2)
        );
        assert!(row(3).starts_with("parse | 2% | 1 | 0 (0.0%) | 0/1 |"));
        assert_eq!(row(4), "utf8 | 2% | 0 | 0 (—) | 0/0 | 0 | — | — | —");
        let markdown = table.render(true);
        assert!(markdown.starts_with("| function | floor | intervals | holds 1.00 |"));
    }

    #[test]
    fn the_compiled_code_line_counts_coverage_with_and_without_the_changed() {
        let lines = compiled_code_lines(&intervals(), &[0.05, 0.02]);
        assert_eq!(
            lines[0],
            "5%: compiled code changed in 2 of 4 intervals (by commit: added-here 1, statics 1; \
             by function: parse 2); holds 1.00 in 75.0% with them, 100.0% without them (2)"
        );
        assert_eq!(
            lines[1],
            "2%: compiled code changed in 0 of 1 intervals; holds 1.00 in 0.0% with them, 0.0% \
             without them (1); the report could not tell in 1"
        );
    }

    #[test]
    fn misses_name_each_interval_off_the_truth_and_each_missing_one() {
        let misses = misses(&intervals());
        assert_eq!(
            misses,
            [
                "5% run 1 statics parse: 1.0800x [1.0600x – 1.1000x] faster, 8 layouts (16 \
                 slices), compiled code changed",
                "5% run 1 statics utf8: no interval: not reported",
                "2% run 1 comment parse: 0.9500x [0.9400x – 0.9600x] slower, 8 layouts (16 \
                 slices), compiled code not told",
            ]
        );
    }

    #[test]
    fn a_csv_row_per_interval_with_every_column() {
        for interval in intervals() {
            assert_eq!(csv_fields(&interval).len(), CSV_COLUMNS.len());
        }
        let fields = csv_fields(&intervals()[1]);
        assert_eq!(
            fields[..10],
            [
                "0.05",
                "1",
                "added-here",
                "parse",
                "parse",
                "1.010000",
                "0.990000",
                "1.030000",
                "true",
                "within_noise"
            ]
        );
        assert_eq!(fields[15], "true");
        let missing = csv_fields(&intervals()[4]);
        assert_eq!(missing[CSV_COLUMNS.len() - 1], "not reported");
        assert_eq!(missing[5], "");
    }

    #[test]
    fn slices_in_the_same_layout_count_once() {
        let slice = |layout: Option<u32>| {
            let mut slice = ProcessSummary::new(1.0, (0.9, 1.1), 8, layout.unwrap_or(1));
            slice.layout = layout;
            slice
        };
        assert_eq!(
            layouts(&[slice(Some(1)), slice(Some(2)), slice(Some(1))]),
            2
        );
        assert_eq!(layouts(&[slice(None), slice(None)]), 0);
        assert_eq!(layouts(&[]), 0);
    }

    #[test]
    fn an_interval_holds_the_truth_at_its_ends() {
        assert!(reading(1.0, (1.0, 1.1), Verdict::WithinNoise, None).holds_one());
        assert!(!reading(1.1, (1.0001, 1.2), Verdict::WithinNoise, None).holds_one());
    }
}
