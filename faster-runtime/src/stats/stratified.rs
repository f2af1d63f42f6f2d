//! The interval of a mean over layouts stratified by where each side's
//! code starts in a cache line.
//!
//! A shuffle of the link order puts each function at one of a few offsets
//! within a 64-byte cache line (Rust aligns functions to 16 bytes: four), and a
//! hot loop that spans one more fetch block at one of them is slower in
//! every layout that puts it there. Between layouts, that is most of the
//! spread of a layout-sensitive function (`guide/layouts.md`, "What the
//! layouts spread"). Fitting each layout's mean log speedup as a constant
//! plus an effect of each side's offset (a two-way analysis of variance,
//! effect-coded so the constant is the mean over the offsets drawn, each
//! weighted alike: the quantity shuffles estimate) leaves only what the
//! offsets do not explain in the interval of the constant, at the cost of
//! one degree of freedom per effect.

use super::Interval;
use super::quantile::student_t_quantile;

/// One layout's reading of a comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// Where the original's and the candidate's code start within a cache line
    /// (any labels: each distinct value is a class).
    pub offsets: [u8; 2],
    /// The layout's mean log speedup.
    pub log_speedup: f64,
}

/// The fit of readings to their offsets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByOffsets {
    /// The interval of the constant: the mean over each side's offsets,
    /// weighted alike, its width from the residuals, on `layouts −
    /// parameters` degrees of freedom (`blocks` is the layouts).
    pub interval: Interval,
    /// The standard deviation the offsets leave (the residuals').
    pub residual_sd: f64,
}

/// The fit of `readings` to a constant plus an effect of each offset of
/// each side, and the `confidence` interval of the constant. `None` where
/// no side's offset varies (the plain interval is the same), the fit
/// leaves no degree of freedom, the design is singular (the two sides'
/// offsets move together), or a reading is not finite.
pub fn by_offsets(readings: &[Placed], confidence: f64) -> Option<ByOffsets> {
    let classes = [0, 1].map(|side| {
        let mut seen: Vec<u8> = readings.iter().map(|r| r.offsets[side]).collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    });
    let parameters = 1 + classes.iter().map(|seen| seen.len() - 1).sum::<usize>();
    let count = readings.len();
    if parameters == 1 || count <= parameters {
        return None;
    }
    let ys: Vec<f64> = readings.iter().map(|r| r.log_speedup).collect();
    if ys.iter().any(|y| !y.is_finite()) {
        return None;
    }
    let rows: Vec<Vec<f64>> = readings
        .iter()
        .map(|reading| design_row(reading, &classes))
        .collect();
    let mut normal = vec![vec![0.0; parameters]; parameters];
    let mut right = vec![0.0; parameters];
    for (row, y) in rows.iter().zip(&ys) {
        for i in 0..parameters {
            right[i] += row[i] * y;
            for j in 0..parameters {
                normal[i][j] += row[i] * row[j];
            }
        }
    }
    let beta = solve(normal.clone(), right)?;
    let mut unit = vec![0.0; parameters];
    unit[0] = 1.0;
    // The constant's entry of the inverse of the normal matrix: its
    // variance in units of the residual variance.
    let variance_factor = solve(normal, unit)?[0];
    let freedom = (count - parameters) as f64;
    let residual_variance = rows
        .iter()
        .zip(&ys)
        .map(|(row, y)| (y - dot(row, &beta)).powi(2))
        .sum::<f64>()
        / freedom;
    let quantile = -student_t_quantile((1.0 - confidence) / 2.0, freedom).ok()?;
    Some(ByOffsets {
        interval: Interval {
            center: beta[0],
            half_width: quantile * (residual_variance * variance_factor).sqrt(),
            blocks: count,
        },
        residual_sd: residual_variance.sqrt(),
    })
}

/// A reading's row of the design: the constant, then each side's offset
/// effect-coded over the classes drawn (the first class is minus the
/// others, so each side's effects sum to zero).
fn design_row(reading: &Placed, classes: &[Vec<u8>; 2]) -> Vec<f64> {
    let mut row = vec![1.0];
    for (offset, seen) in reading.offsets.iter().zip(classes) {
        for class in &seen[1..] {
            row.push(if offset == class {
                1.0
            } else if *offset == seen[0] {
                -1.0
            } else {
                0.0
            });
        }
    }
    row
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// `x` with `matrix · x = right` (Gauss–Jordan elimination with partial
/// pivoting), `None` where the matrix is singular.
fn solve(mut matrix: Vec<Vec<f64>>, mut right: Vec<f64>) -> Option<Vec<f64>> {
    let size = right.len();
    let scale = matrix
        .iter()
        .flatten()
        .fold(0.0_f64, |largest, cell| largest.max(cell.abs()));
    for column in 0..size {
        let pivot = (column..size).max_by(|a, b| {
            matrix[*a][column]
                .abs()
                .total_cmp(&matrix[*b][column].abs())
        })?;
        if matrix[pivot][column].abs() <= 1e-9 * scale {
            return None;
        }
        matrix.swap(column, pivot);
        right.swap(column, pivot);
        for row in 0..size {
            if row != column {
                let factor = matrix[row][column] / matrix[column][column];
                let pivot_row = matrix[column].clone();
                for (cell, pivot_cell) in matrix[row].iter_mut().zip(pivot_row) {
                    *cell -= factor * pivot_cell;
                }
                right[row] -= factor * right[column];
            }
        }
    }
    Some((0..size).map(|i| right[i] / matrix[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::across_processes;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use rand_distr::{Distribution, Normal};

    const CONFIDENCE: f64 = 0.99;

    /// `layouts` readings at offsets drawn at random (0, 16, 32 or 48 for
    /// each side), each `center` plus the original's effect at its offset,
    /// minus the candidate's at its own, plus normal noise of `noise` SD.
    fn drawn(
        rng: &mut StdRng,
        layouts: usize,
        center: f64,
        effects: [f64; 4],
        noise: f64,
    ) -> Vec<Placed> {
        let normal = Normal::new(0.0, noise).unwrap();
        (0..layouts)
            .map(|_| {
                let classes = [rng.random_range(0..4), rng.random_range(0..4)];
                Placed {
                    offsets: classes.map(|class| 16 * class as u8),
                    log_speedup: center + effects[classes[0]] - effects[classes[1]]
                        + normal.sample(rng),
                }
            })
            .collect()
    }

    fn plain(readings: &[Placed]) -> Interval {
        let centers: Vec<(f64, Option<f64>)> =
            readings.iter().map(|r| (r.log_speedup, None)).collect();
        across_processes(&centers, CONFIDENCE).unwrap()
    }

    #[test]
    fn offsets_that_explain_the_spread_leave_a_narrow_interval_around_the_mean_over_offsets() {
        // A function 20% slower at byte 32 of a cache line, on either side: the
        // layouts spread widely, the offsets explain all but the noise.
        let mut rng = StdRng::seed_from_u64(7);
        let readings = drawn(&mut rng, 48, 0.05, [-0.05, -0.05, 0.15, -0.05], 0.005);
        let fit = by_offsets(&readings, CONFIDENCE).expect("a fit");
        let plain = plain(&readings);
        assert!(fit.residual_sd < 0.008, "{}", fit.residual_sd);
        assert!(
            fit.interval.half_width < plain.half_width / 5.0,
            "{fit:?} against {plain:?}"
        );
        assert!((fit.interval.center - 0.05).abs() < 0.005, "{fit:?}");
        assert_eq!(fit.interval.blocks, 48);
    }

    #[test]
    fn offsets_that_explain_nothing_leave_the_interval_no_narrower() {
        let mut rng = StdRng::seed_from_u64(8);
        let readings = drawn(&mut rng, 64, 0.0, [0.0; 4], 0.05);
        let fit = by_offsets(&readings, CONFIDENCE).expect("a fit");
        assert!(
            fit.interval.half_width > 0.9 * plain(&readings).half_width,
            "{fit:?}"
        );
    }

    #[test]
    fn the_interval_holds_the_mean_over_offsets_as_often_as_it_says() {
        // Identical work whose layouts spread by their offsets, drawn 1 000
        // times in 16 to 64 layouts: the 99% interval misses the true mean
        // over offsets about 1% of the time, whatever offsets were drawn.
        let mut rng = StdRng::seed_from_u64(9);
        let trials = 1_000;
        let mut missed = 0;
        for trial in 0..trials {
            let layouts = 16 + trial % 49;
            let readings = drawn(&mut rng, layouts, 0.0, [0.03, -0.08, 0.12, -0.07], 0.02);
            let Some(fit) = by_offsets(&readings, CONFIDENCE) else {
                continue;
            };
            if fit.interval.low() > 0.0 || fit.interval.high() < 0.0 {
                missed += 1;
            }
        }
        assert!(missed <= 25, "{missed} of {trials} missed");
    }

    #[test]
    fn offsets_that_do_not_vary_or_leave_no_freedom_give_no_fit() {
        let at = |offsets: [u8; 2], log_speedup: f64| Placed {
            offsets,
            log_speedup,
        };
        let still: Vec<Placed> = (0..32).map(|i| at([16, 48], 0.01 * i as f64)).collect();
        assert_eq!(by_offsets(&still, CONFIDENCE), None);
        // Four classes of each side: seven parameters, so seven readings
        // leave none.
        let seven: Vec<Placed> = (0..7)
            .map(|i| at([16 * (i % 4), 16 * ((i + 1) % 4)], 0.0))
            .collect();
        assert_eq!(by_offsets(&seven, CONFIDENCE), None);
        // The two sides' offsets always move together: no way to tell
        // their effects apart.
        let together: Vec<Placed> = (0..32)
            .map(|i| at([16 * (i % 4), 16 * (i % 4)], 0.01 * i as f64))
            .collect();
        assert_eq!(by_offsets(&together, CONFIDENCE), None);
        let mut broken = still.clone();
        broken[0].offsets = [0, 0];
        broken[1].log_speedup = f64::NAN;
        assert_eq!(by_offsets(&broken, CONFIDENCE), None);
    }

    #[test]
    fn one_side_still_fits_the_other_sides_offsets_alone() {
        // The candidate always at byte 0: only the original's effects are
        // fitted (four parameters), and they are still taken out.
        let mut rng = StdRng::seed_from_u64(10);
        let mut readings = drawn(&mut rng, 32, 0.0, [0.0; 4], 0.005);
        for reading in &mut readings {
            if reading.offsets[0] == 32 {
                reading.log_speedup += 0.2;
            }
            reading.offsets[1] = 0;
        }
        let fit = by_offsets(&readings, CONFIDENCE).expect("a fit");
        assert!(fit.residual_sd < 0.008, "{fit:?}");
        assert!(
            fit.interval.half_width < plain(&readings).half_width / 5.0,
            "{fit:?}"
        );
        // The mean over the original's four offsets: a quarter of 0.2.
        assert!((fit.interval.center - 0.05).abs() < 0.005, "{fit:?}");
    }
}
