//! Many rounds drawn as what the eye can take in. Up to a few hundred
//! rounds, every round is a point; beyond, consecutive rounds are grouped
//! and each group is drawn as its median, the band its middle 80% lies in,
//! and its extremes. A line through each group's lowest and highest round
//! (what a plot of thousands of noisy rounds otherwise shows) is a solid
//! band the width of the noise's extremes, hiding the lines behind it and
//! the level the rounds hold.

/// Up to this many rounds, each is drawn; beyond, groups of them are.
pub(super) const EVERY_ROUND_UP_TO: usize = 400;

/// How many groups many rounds are drawn as: about one per four pixels of
/// a panel's width, and a few kilobytes of SVG per series.
pub(super) const GROUPS: usize = 200;

/// One group of consecutive rounds, summarized.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Band {
    /// The group's middle round.
    pub x: f64,
    /// The group's lowest value.
    pub least: f64,
    /// Its 10th percentile.
    pub low: f64,
    /// Its median.
    pub middle: f64,
    /// Its 90th percentile.
    pub high: f64,
    /// Its highest value.
    pub most: f64,
}

/// The `points` (round, value) in at most `groups` groups of consecutive
/// rounds, each summarized; values that are not finite are left out, and a
/// group with none is too.
pub(super) fn bands(points: &[(f64, f64)], groups: usize) -> Vec<Band> {
    if points.is_empty() || groups == 0 {
        return Vec::new();
    }
    let size = points.len().div_ceil(groups);
    points
        .chunks(size)
        .filter_map(|chunk| {
            let mut values: Vec<f64> = chunk
                .iter()
                .map(|&(_, y)| y)
                .filter(|y| y.is_finite())
                .collect();
            if values.is_empty() {
                return None;
            }
            values.sort_by(f64::total_cmp);
            let x = (chunk[0].0 + chunk[chunk.len() - 1].0) / 2.0;
            Some(Band {
                x,
                least: values[0],
                low: quantile(&values, 0.1),
                middle: quantile(&values, 0.5),
                high: quantile(&values, 0.9),
                most: values[values.len() - 1],
            })
        })
        .collect()
}

/// The `fraction` quantile of sorted values, interpolated between ranks.
fn quantile(sorted: &[f64], fraction: f64) -> f64 {
    let position = (sorted.len() - 1) as f64 * fraction;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    sorted[below] * (1.0 - weight) + sorted[above] * weight
}

/// The outline of the bands' middle 80%, clamped to `low..=high`: along
/// the 90th percentiles, then back along the 10th (a polygon's corners).
pub(super) fn outline(bands: &[Band], (low, high): (f64, f64)) -> Vec<(f64, f64)> {
    let upper = bands
        .iter()
        .map(|band| (band.x, band.high.clamp(low, high)));
    let lower = bands
        .iter()
        .rev()
        .map(|band| (band.x, band.low.clamp(low, high)));
    upper.chain(lower).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_rounds_become_groups_with_their_middle_and_extremes() {
        // 10,000 rounds: noise 0..10 repeating, one spike.
        let points: Vec<(f64, f64)> = (0..10_000)
            .map(|round| {
                let value = if round == 5_005 {
                    99.0
                } else {
                    (round % 10) as f64
                };
                (round as f64, value)
            })
            .collect();
        let bands = bands(&points, 200);
        assert_eq!(bands.len(), 200);
        let first = bands[0];
        assert_eq!((first.least, first.middle, first.most), (0.0, 4.5, 9.0));
        assert!((first.low - 0.9).abs() < 1e-9 && (first.high - 8.1).abs() < 1e-9);
        assert_eq!(first.x, 24.5);
        // The spike is its group's extreme, not its band.
        let spiked = bands.iter().find(|band| band.most == 99.0).unwrap();
        assert!(spiked.high < 10.0, "{spiked:?}");
        assert!(bands.windows(2).all(|pair| pair[0].x < pair[1].x));
    }

    #[test]
    fn a_few_rounds_are_each_a_group_and_nothing_is_not_drawn() {
        let points = [(0.0, 1.0), (1.0, f64::NAN), (2.0, 3.0)];
        let bands = bands(&points, 200);
        assert_eq!(bands.len(), 2);
        assert_eq!(bands[1].middle, 3.0);
        assert!(super::bands(&[], 200).is_empty());
        let corners = outline(&bands, (0.0, 2.0));
        assert_eq!(
            corners,
            vec![(0.0, 1.0), (2.0, 2.0), (2.0, 2.0), (0.0, 1.0)]
        );
    }
}
