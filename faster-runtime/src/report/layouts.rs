//! What a comparison measured in slices reads slot by slot: each slot's
//! (layout's, where layouts vary) mean speedup over the slices it measured,
//! and how far apart those means read. Read off the slices' summaries as
//! the replication recorded them, each under its slot: the diagnostics, the
//! interval and the outputs all group slices by that one record.

use super::{ProcessSummary, Report};
use crate::stats;
use std::collections::BTreeMap;

/// The mean log speedup of each slot's slices in `processes`, in slot
/// order.
pub fn log_means_by_slot(processes: &[ProcessSummary]) -> Vec<f64> {
    let mut sums: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
    for process in processes {
        let sum = sums.entry(process.slot).or_default();
        sum.0 += process.speedup.ln();
        sum.1 += 1.0;
    }
    sums.into_values().map(|(sum, count)| sum / count).collect()
}

/// From this many layouts on, how far apart they read is said of the middle
/// 80% of their means: a short slice reads its own noise as well as its
/// layout, and the extremes of dozens of them say more about the noise
/// than the layouts.
pub const MIDDLE_FROM: usize = 10;

/// How far apart the processes' (layouts') means read: the lowest and the
/// highest, or the 10th and 90th percentiles from `MIDDLE_FROM` (ten) means
/// on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeansApart {
    /// The low end, as a speedup.
    pub low: f64,
    /// The high end, as a speedup.
    pub high: f64,
    /// Whether the ends are the middle 80%'s rather than the extremes.
    pub middle: bool,
}

impl MeansApart {
    /// The high end over the low, minus one: `0.10` for 10% apart.
    pub fn spread(&self) -> f64 {
        self.high / self.low - 1.0
    }
}

/// How far apart `means` read (see [`MeansApart`]); `None` for fewer than
/// two.
pub fn means_apart(means: &[f64]) -> Option<MeansApart> {
    if means.len() < 2 {
        return None;
    }
    let mut sorted = means.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() >= MIDDLE_FROM;
    let (low, high) = if middle {
        (
            stats::percentile(&sorted, 10.0),
            stats::percentile(&sorted, 90.0),
        )
    } else {
        (sorted[0], sorted[sorted.len() - 1])
    };
    Some(MeansApart { low, high, middle })
}

impl Report {
    /// Each slot's (layout's, where layouts vary) mean speedup over the
    /// slices it measured, in slot order; empty for a report measured in
    /// one process.
    pub fn slot_means(&self) -> Vec<f64> {
        log_means_by_slot(&self.processes)
            .into_iter()
            .map(f64::exp)
            .collect()
    }

    /// How far apart the slots' means read ([`MeansApart`]); `None` for
    /// fewer than two slots.
    pub fn slots_apart(&self) -> Option<MeansApart> {
        means_apart(&self.slot_means())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(slot: u32, speedup: f64) -> ProcessSummary {
        ProcessSummary {
            speedup,
            ci: (0.0, f64::INFINITY),
            rounds: 16,
            slot,
            layout: None,
            offsets: None,
        }
    }

    #[test]
    fn slices_are_grouped_by_the_slot_they_were_recorded_under() {
        // A hundred processes without layouts: slots 1 to 100, then slot 1
        // again. Slice 64 is slot 65's, not slot 1's.
        let mut processes: Vec<ProcessSummary> = (1..=100)
            .map(|slot| slice(slot, 1.0 + slot as f64 / 1000.0))
            .collect();
        processes.push(slice(1, 1.001));
        let means = log_means_by_slot(&processes);
        assert_eq!(means.len(), 100);
        assert!((means[64] - 1.065f64.ln()).abs() < 1e-12, "{}", means[64]);
        assert!((means[0] - 1.001f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_middle_eighty_percent_from_ten_means_on() {
        let few = means_apart(&[1.0, 1.2, 0.9]).unwrap();
        assert_eq!((few.low, few.high, few.middle), (0.9, 1.2, false));
        let many: Vec<f64> = (0..=10).map(|i| 1.0 + i as f64 / 10.0).collect();
        let apart = means_apart(&many).unwrap();
        assert!(apart.middle);
        assert!((apart.low - 1.1).abs() < 1e-9 && (apart.high - 1.9).abs() < 1e-9);
        assert_eq!(means_apart(&[1.0]), None);
    }
}
