//! Where a comparison's spread between layouts comes from: the offset of
//! each of its two functions within a 64-byte line. Rust aligns functions
//! to 16 bytes, so a shuffle puts each at one of four offsets of a line,
//! and a hot loop that spans one more fetch block at one of them is slower
//! in every layout that puts it there.
//!
//! For each comparison measured in at least [`LEAST_LAYOUTS`] layouts this
//! reads the two functions' addresses in every layout (`nm` on the
//! layout's binary) and fits each layout's mean log speedup to a constant
//! plus an effect of the original's offset and one of the candidate's (a
//! two-way analysis of variance, effect-coded, so the constant is the mean
//! over the four offsets of each side, the quantity shuffles estimate).
//! Beside the engine's interval it gives what is left once the offsets are
//! accounted for, and the interval of the constant: what an engine that
//! stratified its layouts by these offsets would judge.

use super::fixture::{address_of, nm};
use super::kinds::Kind;
use super::run::Pair;
use super::tally::Comparison;
use faster_runtime::stats::{self, Interval, student_t_quantile};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The cache line whose offsets are read, and the functions' alignment.
const LINE: u64 = 64;
const ALIGNMENT: u64 = 16;
/// Offsets of a function within a line.
const OFFSETS: usize = (LINE / ALIGNMENT) as usize;
/// Parameters of the fit: the constant and three effects per side.
const PARAMETERS: usize = 1 + 2 * (OFFSETS - 1);
/// The fewest layouts a comparison needs to be read here.
pub const LEAST_LAYOUTS: usize = 16;
/// The intervals' confidence, as the engine's.
const CONFIDENCE: f64 = 0.99;

/// One layout's reading of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// The original's and the candidate's offset in a line, in units of
    /// [`ALIGNMENT`].
    pub offsets: [usize; 2],
    /// The mean log speedup of the layout's slices.
    pub log_speedup: f64,
}

/// One comparison's spread between layouts, and what the offsets explain.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub build: usize,
    pub kind: &'static str,
    pub pair: Pair,
    pub layouts: usize,
    /// The standard deviation of the layouts' mean log speedups.
    pub sd: f64,
    /// Its part the offsets leave (the fit's residual standard deviation).
    pub residual_sd: f64,
    /// The 99% interval over the layouts, as the engine builds it.
    pub plain: Interval,
    /// The 99% interval of the mean over offsets.
    pub stratified: Interval,
}

/// The spreads of `comparisons` (one build's, whose test binary is
/// `test_binary`) measured in at least [`LEAST_LAYOUTS`] layouts.
pub fn spreads(
    test_binary: &Path,
    kinds: &[Kind],
    crate_name: &str,
    comparisons: &[&Comparison],
) -> Result<Vec<Spread>, String> {
    let read: Vec<&&Comparison> = comparisons
        .iter()
        .filter(|comparison| comparison.measured.layouts.len() >= LEAST_LAYOUTS)
        .collect();
    let layouts: BTreeSet<u32> = read
        .iter()
        .flat_map(|comparison| {
            comparison
                .measured
                .layouts
                .iter()
                .map(|(layout, _)| *layout)
        })
        .collect();
    let mut symbols = BTreeMap::new();
    for layout in layouts {
        let mut binary = test_binary.as_os_str().to_owned();
        binary.push(format!(".layouts/layout-{layout}"));
        // The fixture's own symbols: the whole table of 64 layouts would
        // hold hundreds of megabytes.
        let own = format!(" {crate_name}::");
        let listed = nm(Path::new(&binary))?;
        let kept: Vec<&str> = listed.lines().filter(|line| line.contains(&own)).collect();
        symbols.insert(layout, kept.join("\n"));
    }
    let mut spreads = Vec::new();
    for comparison in read {
        let kind = kinds
            .iter()
            .find(|kind| kind.name == comparison.kind)
            .ok_or_else(|| format!("no kind {}", comparison.kind))?;
        let [original, candidate] = &kind.symbols(crate_name)[pair_index(comparison.pair)];
        let readings = comparison
            .measured
            .layouts
            .iter()
            .map(|(layout, log_speedup)| {
                let offset = |name: &str| {
                    address_of(&symbols[layout], name)
                        .map(|address| (address % LINE / ALIGNMENT) as usize)
                        .ok_or_else(|| format!("{name} is not a symbol of layout {layout}"))
                };
                Ok(Reading {
                    offsets: [offset(original)?, offset(candidate)?],
                    log_speedup: *log_speedup,
                })
            })
            .collect::<Result<Vec<Reading>, String>>()?;
        if let Some((sd, residual_sd, plain, stratified)) = fit(&readings) {
            spreads.push(Spread {
                build: comparison.build,
                kind: comparison.kind,
                pair: comparison.pair,
                layouts: readings.len(),
                sd,
                residual_sd,
                plain,
                stratified,
            });
        }
    }
    Ok(spreads)
}

/// The index of `pair`'s functions in [`Kind::symbols`].
fn pair_index(pair: Pair) -> usize {
    match pair {
        Pair::Identical => 0,
        Pair::Multiple => 1,
        Pair::Rework => 2,
        Pair::IdenticalAt2Percent => 3,
    }
}

/// The standard deviation of the readings, the fit's residual one, the
/// plain interval and the stratified one; `None` where the fit has no
/// degree of freedom left or an offset of a side was never drawn.
pub fn fit(readings: &[Reading]) -> Option<(f64, f64, Interval, Interval)> {
    let count = readings.len();
    if count <= PARAMETERS {
        return None;
    }
    let ys: Vec<f64> = readings.iter().map(|reading| reading.log_speedup).collect();
    let centers: Vec<(f64, Option<f64>)> = ys.iter().map(|y| (*y, None)).collect();
    let plain = stats::across_processes(&centers, CONFIDENCE).ok()?;
    let rows: Vec<[f64; PARAMETERS]> = readings.iter().map(design_row).collect();
    let mut normal = [[0.0; PARAMETERS]; PARAMETERS];
    let mut right = [0.0; PARAMETERS];
    for (row, y) in rows.iter().zip(&ys) {
        for i in 0..PARAMETERS {
            right[i] += row[i] * y;
            for j in 0..PARAMETERS {
                normal[i][j] += row[i] * row[j];
            }
        }
    }
    let beta = solve(normal, right)?;
    let mut unit = [0.0; PARAMETERS];
    unit[0] = 1.0;
    let variance_factor = solve(normal, unit)?[0];
    let freedom = (count - PARAMETERS) as f64;
    let residual_variance = rows
        .iter()
        .zip(&ys)
        .map(|(row, y)| (y - dot(row, &beta)).powi(2))
        .sum::<f64>()
        / freedom;
    let quantile = -student_t_quantile((1.0 - CONFIDENCE) / 2.0, freedom).ok()?;
    let mean = ys.iter().sum::<f64>() / count as f64;
    let sd = (ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (count - 1) as f64).sqrt();
    let stratified = Interval {
        center: beta[0],
        half_width: quantile * (residual_variance * variance_factor).sqrt(),
        blocks: count,
    };
    Some((sd, residual_variance.sqrt(), plain, stratified))
}

/// A reading's row of the design: the constant, then each side's offset
/// effect-coded (offset 0 is minus the others, so the effects sum to zero).
fn design_row(reading: &Reading) -> [f64; PARAMETERS] {
    let mut row = [0.0; PARAMETERS];
    row[0] = 1.0;
    for (side, offset) in reading.offsets.iter().enumerate() {
        for effect in 1..OFFSETS {
            row[1 + side * (OFFSETS - 1) + effect - 1] = match *offset {
                0 => -1.0,
                o if o == effect => 1.0,
                _ => 0.0,
            };
        }
    }
    row
}

fn dot(a: &[f64; PARAMETERS], b: &[f64; PARAMETERS]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// `x` with `matrix · x = right` (Gaussian elimination with partial
/// pivoting), `None` where the matrix is singular.
fn solve(
    mut matrix: [[f64; PARAMETERS]; PARAMETERS],
    mut right: [f64; PARAMETERS],
) -> Option<[f64; PARAMETERS]> {
    for column in 0..PARAMETERS {
        let pivot = (column..PARAMETERS).max_by(|a, b| {
            matrix[*a][column]
                .abs()
                .total_cmp(&matrix[*b][column].abs())
        })?;
        if matrix[pivot][column].abs() < 1e-9 {
            return None;
        }
        matrix.swap(column, pivot);
        right.swap(column, pivot);
        for row in 0..PARAMETERS {
            if row != column {
                let factor = matrix[row][column] / matrix[column][column];
                let pivot_row = matrix[column];
                for (cell, pivot_cell) in matrix[row].iter_mut().zip(pivot_row) {
                    *cell -= factor * pivot_cell;
                }
                right[row] -= factor * right[column];
            }
        }
    }
    let mut solution = [0.0; PARAMETERS];
    for (index, value) in solution.iter_mut().enumerate() {
        *value = right[index] / matrix[index][index];
    }
    Some(solution)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Readings over every pair of offsets, `repeats` times, whose log
    /// speedups are `center` plus each side's offset effect plus `noise`.
    fn readings(center: f64, effects: [f64; OFFSETS], noise: &[f64]) -> Vec<Reading> {
        let mut readings = Vec::new();
        for (index, disturbance) in noise.iter().enumerate() {
            let offsets = [index % OFFSETS, (index / OFFSETS + index) % OFFSETS];
            readings.push(Reading {
                offsets,
                log_speedup: center + effects[offsets[0]] - effects[offsets[1]] + disturbance,
            });
        }
        readings
    }

    #[test]
    fn offsets_that_explain_the_spread_leave_a_narrow_interval_around_the_mean_over_offsets() {
        // A function 20% slower at offset 32 on either side: the layouts
        // spread widely, the offsets explain all of it but the noise.
        let noise: Vec<f64> = (0..48)
            .map(|i| 0.002 * ((i * 7 % 5) as f64 - 2.0))
            .collect();
        let effects = [-0.05, -0.05, 0.15, -0.05];
        let (sd, residual, plain, stratified) =
            fit(&readings(0.05, effects, &noise)).expect("a fit");
        assert!(sd > 0.08, "the layouts spread: {sd}");
        assert!(residual < 0.005, "the offsets explain it: {residual}");
        assert!(stratified.half_width < plain.half_width / 5.0);
        assert!(
            (stratified.center - 0.05).abs() < 0.003,
            "{}",
            stratified.center
        );
    }

    #[test]
    fn offsets_that_explain_nothing_leave_the_spread_as_it_was() {
        let noise: Vec<f64> = (0..64)
            .map(|i| 0.03 * ((i * 13 % 7) as f64 - 3.0))
            .collect();
        let (sd, residual, plain, stratified) =
            fit(&readings(0.0, [0.0; OFFSETS], &noise)).expect("a fit");
        assert!(residual > 0.8 * sd, "{residual} against {sd}");
        assert!(stratified.half_width > 0.9 * plain.half_width);
    }

    #[test]
    fn too_few_layouts_or_an_offset_never_drawn_give_no_fit() {
        let few = readings(0.0, [0.0; OFFSETS], &[0.01; PARAMETERS]);
        assert_eq!(fit(&few), None);
        let mut one_offset = readings(0.0, [0.0; OFFSETS], &[0.01; 32]);
        for reading in &mut one_offset {
            reading.offsets[1] = 2;
        }
        assert_eq!(fit(&one_offset), None);
    }
}
