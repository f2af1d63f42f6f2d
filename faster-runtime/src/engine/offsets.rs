//! Which interval judges a comparison replicated in layouts: where at
//! least [`LAYOUTS_TO_STRATIFY`] layouts put the two sides' timed code at
//! different offsets within a 64-byte cache line, the interval stratified by
//! those offsets ([`stats::by_offsets`]), else the plain one over the
//! layouts' means. Never the narrower of the two, chosen after seeing
//! both: that choice would make the interval too short as often as the
//! fit is narrow by chance.
//!
//! A shuffle moves a function by whole alignments, and at one offset of a
//! cache line a hot loop may span one more fetch block: for a
//! layout-sensitive function that is most of the spread between layouts,
//! which fitting the offsets takes out; where the offsets do not move the
//! pair, the fit only costs degrees of freedom (six of them, at 16 layouts
//! and more).
//! The offsets are the user's two functions' ([`in_cache_line`] of the
//!addresses the attribute takes, in the process that measured the slice):
//!the
//! measuring loop is always aligned to a cache line, so its own say nothing.

use crate::report::ProcessSummary;
use crate::stats::samples::CONFIDENCE;
use crate::stats::{self, Interval, Placed};
use std::collections::BTreeMap;

/// The fewest layouts whose offsets are fitted: seven parameters (a
/// constant and three effects a side) need as many again to leave the
/// residuals a few degrees of freedom.
pub const LAYOUTS_TO_STRATIFY: usize = 16;

/// The cache line whose offsets are read: 64 bytes, four 16-byte fetch
/// blocks.
pub const CACHE_LINE: usize = 64;

/// Where code at `addresses` starts within a [`CACHE_LINE`], in bytes. Taken in
/// the process that measures, they are its layout's offsets: a binary is
/// loaded at a page boundary, ASLR or not.
pub fn in_cache_line(addresses: [usize; 2]) -> [u8; 2] {
    addresses.map(|address| (address % CACHE_LINE) as u8)
}

/// The interval that judges: stratified by the slots' offsets where every
/// slice reported them, there are at least [`LAYOUTS_TO_STRATIFY`] slots
/// and the fit leaves degrees of freedom, else `plain`, the interval over
/// `log_means` (each slot's mean log speedup, in slot order, over the slices
/// of `processes`, each recorded under its slot).
pub fn judging(plain: Interval, processes: &[ProcessSummary], log_means: &[f64]) -> Interval {
    if log_means.len() < LAYOUTS_TO_STRATIFY {
        return plain;
    }
    let Some(placed) = placed_by_slot(processes, log_means) else {
        return plain;
    };
    stats::by_offsets(&placed, CONFIDENCE).map_or(plain, |fit| fit.interval)
}

/// Whether one side's code started at the same offset in every slice of
/// `processes` while the other's moved, where every slice reported its
/// offsets: the layouts then read that side at one offset, however many
/// they are, and at few layouts they can agree with each other and not
/// with the mean over offsets. A duplicate search's identical
/// copies read 0.76x in every layout that puts the candidate at byte 32
/// of a cache line and the original elsewhere, about 1.00x to 1.34x in the
/// others. Where neither side ever moved, the slices ran one binary (no
/// layouts: another linker, or `FASTER_LAYOUTS=off`), which puts each side
/// at one offset only, and whose report says its verdict is about that
/// build.
pub fn one_side_at_one_offset(processes: &[ProcessSummary]) -> bool {
    let Some(offsets) = processes
        .iter()
        .map(|process| process.offsets)
        .collect::<Option<Vec<[u8; 2]>>>()
    else {
        return false;
    };
    let Some(first) = offsets.first() else {
        return false;
    };
    let fixed = |side: usize| offsets.iter().all(|each| each[side] == first[side]);
    fixed(0) != fixed(1)
}

/// Each slot's mean with the offsets its slices reported (a slot is one
/// layout, so all of its slices report the same), in slot order; `None`
/// where a slice reported none.
fn placed_by_slot(processes: &[ProcessSummary], log_means: &[f64]) -> Option<Vec<Placed>> {
    let mut offsets: BTreeMap<u32, [u8; 2]> = BTreeMap::new();
    for process in processes {
        offsets.entry(process.slot).or_insert(process.offsets?);
    }
    let placed: Vec<Placed> = offsets
        .into_values()
        .zip(log_means)
        .map(|(offsets, &log_speedup)| Placed {
            offsets,
            log_speedup,
        })
        .collect();
    (placed.len() == log_means.len()).then_some(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::plan::SYSTEMATIC_ALLOWANCE as ALLOWANCE;
    use crate::engine::replicate;
    use crate::report::layouts::log_means_by_slot;
    use crate::stats::verdict::{NoiseFloor, Verdict};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use rand_distr::{Distribution, Normal};

    /// What [`slices`] draws: the original 20% slower at byte 32 of a
    /// cache line, the candidate 15% slower at byte 48.
    const SENSITIVE: [f64; 2] = [0.2, 0.15];

    /// One slice in each of `layouts` layouts of a pair whose speedup is
    /// `speedup`, the original `costs[0]` slower (in log) at byte 32 of a
    /// cache line, the candidate `costs[1]` at byte 48, each slice with
    /// 1.5% of noise of its own; with the offsets where `reported`.
    fn slices(
        seed: u64,
        layouts: usize,
        speedup: f64,
        costs: [f64; 2],
        reported: bool,
    ) -> Vec<ProcessSummary> {
        let mut rng = StdRng::seed_from_u64(seed);
        let noise = Normal::new(0.0, 0.015).unwrap();
        (1..=layouts as u32)
            .map(|slot| {
                let [original, candidate] = [
                    16 * rng.random_range(0..4_u8),
                    16 * rng.random_range(0..4_u8),
                ];
                let slower = |at: u8, by: u8, cost: f64| if at == by { cost } else { 0.0 };
                let log_speedup = speedup.ln() + slower(original, 32, costs[0])
                    - slower(candidate, 48, costs[1])
                    + noise.sample(&mut rng);
                ProcessSummary {
                    speedup: log_speedup.exp(),
                    ci: (0.0, f64::INFINITY),
                    rounds: 16,
                    slot,
                    layout: None,
                    offsets: reported.then_some([original, candidate]),
                }
            })
            .collect()
    }

    /// [`judging`] of `processes` as the replicated comparison reads
    /// them (at least four processes), and the plain interval.
    fn intervals(processes: &[ProcessSummary]) -> (Interval, Interval) {
        let means = log_means_by_slot(processes);
        let centers: Vec<(f64, Option<f64>)> = means.iter().map(|&m| (m, None)).collect();
        let plain = stats::across_processes(&centers, CONFIDENCE).unwrap();
        (judging(plain, processes, &means), plain)
    }

    #[test]
    fn layouts_spread_by_their_offsets_are_judged_by_the_interval_stratified_by_them() {
        let (chosen, plain) = intervals(&slices(1, 32, 1.05, SENSITIVE, true));
        assert!(
            chosen.half_width < plain.half_width / 3.0,
            "{chosen:?} {plain:?}"
        );
        // The mean over offsets: the original's 20% and the candidate's
        // 15%, each at one offset of four, are a quarter of themselves.
        let over_offsets = 1.05_f64.ln() + (0.2 - 0.15) / 4.0;
        assert!(
            chosen.low() < over_offsets && over_offsets < chosen.high(),
            "{chosen:?}"
        );
    }

    #[test]
    fn the_plain_interval_stays_below_sixteen_layouts_or_without_offsets() {
        let (chosen, plain) = intervals(&slices(2, 12, 1.05, SENSITIVE, true));
        assert_eq!(chosen, plain, "twelve layouts");
        let (chosen, plain) = intervals(&slices(3, 32, 1.05, SENSITIVE, false));
        assert_eq!(chosen, plain, "no offsets reported");
        // Offsets that move nothing: the fit's six more parameters cost
        // degrees of freedom, and what it takes out is the slices' noise,
        // by chance: never much narrower than the plain interval, often
        // wider.
        for seed in 10..30 {
            let (chosen, plain) = intervals(&slices(seed, 32, 1.05, [0.0; 2], true));
            assert!(
                chosen.half_width > 0.75 * plain.half_width,
                "{chosen:?} {plain:?}"
            );
        }
    }

    /// A slice reading `speedup` in slot `slot` with the two sides at
    /// `offsets`.
    fn placed_slice(slot: u32, speedup: f64, offsets: [u8; 2]) -> ProcessSummary {
        ProcessSummary {
            speedup,
            ci: (0.0, f64::INFINITY),
            rounds: 16,
            slot,
            layout: None,
            offsets: Some(offsets),
        }
    }

    #[test]
    fn layouts_that_put_one_side_at_one_offset_do_not_settle_early() {
        // Identical work, the candidate 15% slower at byte 48: four layouts
        // that all put it there read `slower`, every one of them, and agree
        // within a 5% floor.
        let floor = NoiseFloor::new(0.05);
        let readings = [0.86, 0.87, 0.85, 0.86];
        let at_one: Vec<ProcessSummary> = (1..)
            .zip(readings)
            .zip([0, 16, 32, 0])
            .map(|((slot, speedup), original)| placed_slice(slot, speedup, [original, 48]))
            .collect();
        assert!(one_side_at_one_offset(&at_one));
        assert!(!replicate::settled(&at_one, floor, ALLOWANCE));
        // The same readings with the candidate seen at two offsets settle.
        let mut at_two = at_one.clone();
        at_two[3].offsets = Some([0, 16]);
        assert!(!one_side_at_one_offset(&at_two));
        assert!(replicate::settled(&at_two, floor, ALLOWANCE));
        // Without offsets the rule cannot apply.
        let unreported: Vec<ProcessSummary> = at_one
            .iter()
            .map(|slice| ProcessSummary {
                offsets: None,
                ..*slice
            })
            .collect();
        assert!(!one_side_at_one_offset(&unreported));
        assert!(replicate::settled(&unreported, floor, ALLOWANCE));
        // Neither side moved: one binary, no layouts, one offset each.
        let one_binary: Vec<ProcessSummary> = (1..)
            .zip(readings)
            .map(|(slot, speedup)| placed_slice(slot, speedup, [16, 48]))
            .collect();
        assert!(!one_side_at_one_offset(&one_binary));
        assert!(replicate::settled(&one_binary, floor, ALLOWANCE));
    }

    #[test]
    fn a_five_percent_difference_spread_by_offsets_settles_at_a_two_percent_floor() {
        let floor = NoiseFloor::new(0.02);
        let with = slices(5, 32, 1.05, SENSITIVE, true);
        let without = slices(5, 32, 1.05, SENSITIVE, false);
        assert!(replicate::settled(&with, floor, ALLOWANCE));
        assert!(!replicate::settled(&without, floor, ALLOWANCE));
        let (chosen, _) = intervals(&with);
        assert_eq!(floor.verdict(chosen.exp_bounds()), Verdict::Faster);
    }
}
