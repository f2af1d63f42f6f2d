//! Where a comparison's spread between layouts comes from: the offset of
//! each of its two functions within a 64-byte cache line. Rust aligns
//! functions to 16 bytes, so a shuffle puts each at one of four offsets of
//! a cache line, and a hot loop that spans one more fetch block at one of
//! them is slower in every layout that puts it there.
//!
//! For each comparison measured in at least [`LEAST_LAYOUTS`] layouts this
//! reads the two functions' addresses in every layout (from the symbol
//! table of the layout's binary) and fits each layout's mean log speedup
//! to a constant plus an effect of the original's offset and one of the
//! candidate's (a two-way analysis of variance, effect-coded, so the
//! constant is the mean over the four offsets of each side, the quantity
//! shuffles estimate: the engine's own fit, `by_offsets`).
//! Beside the engine's interval it gives what is left once the offsets are
//! accounted for, and the interval of the constant: what an engine that
//! stratified its layouts by these offsets would judge.

use super::kinds::Kind;
use super::run::Pair;
use super::symbols::functions;
use super::tally::Comparison;
use faster_runtime::__internal::CONFIDENCE;
use faster_runtime::__internal::LAYOUTS_TO_STRATIFY;
use faster_runtime::__internal::{Interval, Placed, across_processes, by_offsets, variance};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The cache line whose offsets are read (the engine's), and the
/// functions' alignment.
const CACHE_LINE: u64 = faster_runtime::__internal::CACHE_LINE as u64;
const ALIGNMENT: u64 = 16;
/// The fewest layouts a comparison needs to be read here: as many as the
/// engine fits.
pub const LEAST_LAYOUTS: usize = LAYOUTS_TO_STRATIFY;

/// One layout's reading of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// The original's and the candidate's offset in a cache line, in units
    /// of [`ALIGNMENT`].
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
        // The fixture's own functions: the whole table of 64 layouts would
        // hold hundreds of megabytes.
        let own = functions(Path::new(&binary), &format!("{crate_name}::"))?;
        symbols.insert(layout, own);
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
                    symbols[layout]
                        .get(name)
                        .map(|address| (address % CACHE_LINE / ALIGNMENT) as usize)
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
/// plain interval and the stratified one ([`by_offsets`], the
/// engine's own); `None` where the fit has no degree of freedom left or
/// the offsets do not vary.
pub fn fit(readings: &[Reading]) -> Option<(f64, f64, Interval, Interval)> {
    let ys: Vec<f64> = readings.iter().map(|reading| reading.log_speedup).collect();
    let centers: Vec<(f64, Option<f64>)> = ys.iter().map(|y| (*y, None)).collect();
    let plain = across_processes(&centers, CONFIDENCE).ok()?;
    let placed: Vec<Placed> = readings
        .iter()
        .map(|reading| Placed {
            offsets: reading
                .offsets
                .map(|class| (class as u64 * ALIGNMENT) as u8),
            log_speedup: reading.log_speedup,
        })
        .collect();
    let fitted = by_offsets(&placed, CONFIDENCE)?;
    let sd = variance(&ys).sqrt();
    Some((sd, fitted.residual_sd, plain, fitted.interval))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Offsets of a function within a cache line.
    const OFFSETS: usize = (CACHE_LINE / ALIGNMENT) as usize;

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
    fn too_few_layouts_give_no_fit() {
        // Seven parameters (the constant, three effects a side): seven
        // readings leave no degree of freedom.
        let few = readings(0.0, [0.0; OFFSETS], &[0.01; 7]);
        assert_eq!(fit(&few), None);
    }
}
