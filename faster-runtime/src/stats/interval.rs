//! Intervals of a mean: batch means over autocorrelated rounds, the robust
//! interval the verdict rests on (winsorized first), the interval over
//! several processes' estimates, and the one around several placements of
//! the measuring loop that covers another placement.

use super::{StatsError, all_finite, mean, median, student_t_quantile, variance};

/// A symmetric interval around an estimate (in log space for ratios).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub center: f64,
    /// Half the interval's width.
    pub half_width: f64,
    /// How many independent-enough blocks the width rests on.
    pub blocks: usize,
}

impl Interval {
    /// The lower end.
    pub fn low(&self) -> f64 {
        self.center - self.half_width
    }

    /// The upper end.
    pub fn high(&self) -> f64 {
        self.center + self.half_width
    }

    /// This interval widened by an independent `systematic` half-width,
    /// added in quadrature: `√(half_width² + systematic²)`.
    pub fn with_systematic(self, systematic: f64) -> Interval {
        Interval {
            half_width: self.half_width.hypot(systematic),
            ..self
        }
    }

    /// The interval mapped from log space to ratios: `(exp(low), exp(high))`.
    pub fn exp_bounds(&self) -> (f64, f64) {
        (self.low().exp(), self.high().exp())
    }
}

/// The lower tail probability whose t quantile (negated) is the multiplier
/// of a two-sided `confidence` interval, once `confidence` is checked to be
/// strictly between 0 and 1: `(1 − confidence) / 2`, which stays above zero
/// where `½ + confidence / 2` would round to 1.
fn two_sided(confidence: f64) -> Result<f64, StatsError> {
    if confidence > 0.0 && confidence < 1.0 {
        Ok((1.0 - confidence) / 2.0)
    } else {
        Err(StatsError::OutOfDomain {
            argument: "confidence",
            value: confidence,
            domain: "strictly between 0 and 1 (0.99 for 99%)",
        })
    }
}

/// A half-width: `multiplier · spread`, where a multiplier of 0 (a
/// confidence so near 0 that the interval is the point) gives 0 even for a
/// spread beyond the range of an `f64`.
fn times(multiplier: f64, spread: f64) -> f64 {
    if multiplier == 0.0 {
        0.0
    } else {
        multiplier * spread
    }
}

/// How many consecutive rounds make one block for batch means.
///
/// Always a whole number of `cycle`s (a `cycle` of 0 counts as 1), the
/// rounds after which the measurement pattern repeats (2: one round of each
/// order; 8: each order at each of four batch sizes), so every block holds
/// the pattern evenly and its effects cancel inside it. It grows as the cube
/// root of the number of cycles, the rate that balances the bias of
/// too-short blocks (correlation left between them) against the variance of
/// too few blocks.
pub fn block_length(rounds: usize, cycle: usize) -> usize {
    let cycle = cycle.max(1);
    let cycles = (rounds / cycle).max(1) as f64;
    cycle * (cycles.cbrt().floor() as usize).max(1)
}

/// The `confidence` interval (e.g. 0.99) of the mean of `values`, a series of
/// autocorrelated observations in time order, by non-overlapping batch means
/// over blocks of [`block_length`]`(values.len(), cycle)`.
///
/// The centre is the mean of all values; the width comes from the spread of
/// the means of consecutive blocks (the oldest values that do not fill a whole
/// block only count towards the centre), with Student's t on blocks − 1
/// degrees of freedom.
///
/// Errors: a `confidence` not strictly between 0 and 1, a value that is not
/// finite, or fewer than two blocks of values ([`StatsError::TooFew`]). The
/// half-width is `+∞` where the values' spread exceeds the range of an `f64`.
pub fn batch_means_interval(
    values: &[f64],
    confidence: f64,
    cycle: usize,
) -> Result<Interval, StatsError> {
    let tail = two_sided(confidence)?;
    all_finite(values.iter().copied())?;
    let block_means = block_means(values, cycle);
    let blocks = block_means.len();
    if blocks < 2 {
        return Err(StatsError::TooFew {
            what: "blocks of values",
            needed: 2,
            got: blocks,
        });
    }
    let standard_error = (variance(&block_means) / blocks as f64).sqrt();
    let quantile = -student_t_quantile(tail, (blocks - 1) as f64)?;
    Ok(Interval {
        center: mean(values),
        half_width: times(quantile, standard_error),
        blocks,
    })
}

/// The means of consecutive blocks of [`block_length`]`(values.len(),
/// cycle)` values; the oldest values that do not fill a whole block are
/// left out.
fn block_means(values: &[f64], cycle: usize) -> Vec<f64> {
    let block = block_length(values.len(), cycle);
    let skipped = values.len() % block;
    values[skipped..].chunks_exact(block).map(mean).collect()
}

/// Robust intervals of several series measured side by side under
/// different conditions (the placements of the measuring loop, taking turns
/// by round): each series, in time order, is winsorized on its own (one
/// condition reading 20% apart from the rest is no outlier of theirs) and cut
/// into blocks of [`block_length`]`(its length, cycle)`, and the variance of
/// block means about their series' mean is pooled over the series, with
/// Student's t on Σ (blocks − 1) degrees of freedom.
///
/// Returns each series' own interval, and the interval of the mean of the
/// series' means (its `blocks` one more than the pooled degrees of freedom,
/// as a single series' are). Pooling lets eight series of two blocks each
/// give a width as well founded as one series of nine blocks.
///
/// Errors: a `confidence` not strictly between 0 and 1, a value that is not
/// finite (its index counting through the series in turn), no series, a
/// series without a whole block, or no degrees of freedom left.
pub fn pooled_robust_intervals(
    series: &[Vec<f64>],
    confidence: f64,
    cycle: usize,
) -> Result<(Vec<Interval>, Interval), StatsError> {
    let tail = two_sided(confidence)?;
    all_finite(series.iter().flatten().copied())?;
    if series.is_empty() {
        return Err(StatsError::TooFew {
            what: "series",
            needed: 1,
            got: 0,
        });
    }
    let mut centers = Vec::with_capacity(series.len());
    let mut block_counts = Vec::with_capacity(series.len());
    let mut squares = 0.0;
    for values in series {
        let values = winsorize(values, WINSORIZE_SIGMAS)?;
        let block_means = block_means(&values, cycle);
        if block_means.is_empty() {
            return Err(StatsError::TooFew {
                what: "blocks of values in a series",
                needed: 1,
                got: 0,
            });
        }
        let center = mean(&block_means);
        squares += block_means
            .iter()
            .map(|value| (value - center).powi(2))
            .sum::<f64>();
        centers.push(mean(&values));
        block_counts.push(block_means.len());
    }
    let degrees_of_freedom: usize = block_counts.iter().map(|blocks| blocks - 1).sum();
    if degrees_of_freedom == 0 {
        return Err(StatsError::TooFew {
            what: "blocks of values beyond one per series",
            needed: 1,
            got: 0,
        });
    }
    let block_variance = squares / degrees_of_freedom as f64;
    let quantile = -student_t_quantile(tail, degrees_of_freedom as f64)?;
    let own = centers
        .iter()
        .zip(&block_counts)
        .map(|(&center, &blocks)| Interval {
            center,
            half_width: times(quantile, (block_variance / blocks as f64).sqrt()),
            blocks,
        })
        .collect();
    let count = series.len() as f64;
    let share: f64 = block_counts.iter().map(|&blocks| 1.0 / blocks as f64).sum();
    let of_mean = Interval {
        center: mean(&centers),
        half_width: times(quantile, (block_variance * share).sqrt() / count),
        blocks: degrees_of_freedom + 1,
    };
    Ok((own, of_mean))
}

/// How many robust standard deviations from the median a log ratio may lie
/// before [`winsorize`] pulls it in. Three keeps Gaussian data almost
/// untouched (0.3% of values move) while capping a disturbed round's weight.
pub const WINSORIZE_SIGMAS: f64 = 3.0;

/// `values` with each one clamped to `median ± sigmas · σ̂`, where
/// σ̂ = 1.4826 · MAD is the robust standard deviation (the median absolute
/// deviation, scaled to equal σ for Gaussian data).
///
/// The mean of the result is a Huber-type location estimate: the median's
/// robustness with nearly the mean's efficiency. For a symmetric distribution
/// (an A/A comparison is symmetric by construction, as is any pair measured
/// in alternating order) it estimates the same centre as the mean.
///
/// Errors: a value that is not finite, or `sigmas` negative or `NaN`
/// (`+∞` clamps nothing).
pub fn winsorize(values: &[f64], sigmas: f64) -> Result<Vec<f64>, StatsError> {
    if sigmas.is_nan() || sigmas < 0.0 {
        return Err(StatsError::OutOfDomain {
            argument: "sigmas",
            value: sigmas,
            domain: "zero or more",
        });
    }
    all_finite(values.iter().copied())?;
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let center = median(values);
    let deviations: Vec<f64> = values.iter().map(|value| (value - center).abs()).collect();
    let spread = sigmas * 1.4826 * median(&deviations);
    if spread.is_nan() {
        // ∞ · 0: no spread at all, and no limit asked for.
        return Ok(values.to_vec());
    }
    Ok(values
        .iter()
        .map(|value| value.max(center - spread).min(center + spread))
        .collect())
}

/// The interval the verdict rests on: batch means over the winsorized
/// values (see the module documentation for why both). Errors as
/// [`batch_means_interval`]'s.
pub fn robust_interval(
    values: &[f64],
    confidence: f64,
    cycle: usize,
) -> Result<Interval, StatsError> {
    batch_means_interval(&winsorize(values, WINSORIZE_SIGMAS)?, confidence, cycle)
}

/// How much the prior of [`across_placements`] weighs: as many degrees of
/// freedom as the spread of five groups would give.
pub const PRIOR_DEGREES_OF_FREEDOM: f64 = 4.0;

/// The `confidence` interval of the mean over processes, from each
/// process's own estimate, a `(center, half_width)` in log space with the
/// half-width at the same confidence.
///
/// Each process is one draw of what a process can be: where the code
/// landed (each runs in its own layout of the binary where layouts are
/// varied), where its heap and stack landed, its own noise. The question is
/// the mean over such draws, so the processes' centres are the sample, and
/// the interval is Student's t on N − 1 degrees of freedom over their
/// spread, as in a random-effects meta-analysis with the
/// Hartung-Knapp-Sidik-Jonkman variance. The spread is never taken as less
/// than the processes' own claimed variance: four processes that happen to
/// agree more closely than each could measure do not make the interval
/// narrower than their measurements allow.
///
/// No prior pulls the spread down: layouts of one function read further
/// apart than each process claimed (`guide/environment.md` has the figures
/// measured), and an estimate that weighs the claims would call four such
/// processes precise. What honesty costs with few processes is a wide t
/// quantile, which is why a comparison measures in at least four and adds
/// more while its verdict is undecided.
///
/// A process without an interval of its own (too few rounds in it for
/// one: `None`) still gives its centre, which is all the t-interval needs;
/// the floor is then the claims of the others. One process short of rounds
/// must not leave a comparison that four processes decided undecided.
///
/// Errors: fewer than two processes, a centre or half-width that is not
/// finite, a negative half-width, or a `confidence` not strictly between 0
/// and 1.
pub fn across_processes(
    processes: &[(f64, Option<f64>)],
    confidence: f64,
) -> Result<Interval, StatsError> {
    let tail = two_sided(confidence)?;
    let claims: Vec<(f64, f64)> = processes
        .iter()
        .filter_map(|&(center, half_width)| Some((center, half_width?)))
        .collect();
    check_groups(&claims, "processes", 0)?;
    let centers: Vec<f64> = processes.iter().map(|&(center, _)| center).collect();
    all_finite(centers.iter().copied())?;
    let count = processes.len();
    if count < 2 {
        return Err(StatsError::TooFew {
            what: "processes",
            needed: 2,
            got: count,
        });
    }
    let normal_quantile = -student_t_quantile(tail, f64::INFINITY)?;
    let claimed = if claims.is_empty() {
        0.0
    } else {
        claimed_variance(&claims, normal_quantile)
    };
    let spread = variance(&centers).max(claimed);
    Ok(Interval {
        center: mean(&centers),
        half_width: times(
            -student_t_quantile(tail, (count - 1) as f64)?,
            (spread / count as f64).sqrt(),
        ),
        blocks: count,
    })
}

/// The `confidence` interval of what one more group would measure, from
/// the groups' own estimates, each a `(center, half_width)` in log space:
/// placements of the measuring loop, where the question is not the mean
/// over the placements measured but the figure another placement (another
/// caller's loop) would read.
///
/// A t-interval over a handful of placements is wide, and the placements
/// are fixed in number (eight) and measured side by side in one process,
/// so the variance between them is pooled with a prior: the groups' own
/// claimed uncertainty, weighted as [`PRIOR_DEGREES_OF_FREEDOM`] (the
/// conjugate scaled-inverse-χ² update of a normal variance). The interval
/// is the prediction interval of a new group, `t · s · √(1 + 1/N)`. Groups
/// that agree keep about the width one group claims; groups that disagree
/// widen it to cover their spread.
///
/// Errors: no group, a centre or half-width that is not finite, a negative
/// half-width, or a `confidence` not strictly between 0 and 1.
pub fn across_placements(
    placements: &[(f64, f64)],
    confidence: f64,
) -> Result<Interval, StatsError> {
    let tail = two_sided(confidence)?;
    check_groups(placements, "placements", 1)?;
    let count = placements.len();
    let centers: Vec<f64> = placements.iter().map(|&(center, _)| center).collect();
    let center = mean(&centers);
    let normal_quantile = -student_t_quantile(tail, f64::INFINITY)?;
    if normal_quantile == 0.0 {
        // A confidence so near 0 that its interval is the point itself.
        return Ok(Interval {
            center,
            half_width: 0.0,
            blocks: count,
        });
    }
    let prior_variance = claimed_variance(placements, normal_quantile);
    let spread: f64 = centers.iter().map(|value| (value - center).powi(2)).sum();
    let degrees_of_freedom = PRIOR_DEGREES_OF_FREEDOM + (count - 1) as f64;
    let pooled_variance = (PRIOR_DEGREES_OF_FREEDOM * prior_variance + spread) / degrees_of_freedom;
    Ok(Interval {
        center,
        half_width: times(
            -student_t_quantile(tail, degrees_of_freedom)?,
            (pooled_variance * (1.0 + 1.0 / count as f64)).sqrt(),
        ),
        blocks: count,
    })
}

/// Checks groups of `(center, half_width)`: every figure finite, no
/// half-width negative, at least `needed` groups (`what` names them).
fn check_groups(
    groups: &[(f64, f64)],
    what: &'static str,
    needed: usize,
) -> Result<(), StatsError> {
    all_finite(
        groups
            .iter()
            .flat_map(|&(center, half_width)| [center, half_width]),
    )?;
    if let Some(&(_, half_width)) = groups.iter().find(|(_, half_width)| *half_width < 0.0) {
        return Err(StatsError::OutOfDomain {
            argument: "half_width",
            value: half_width,
            domain: "zero or more",
        });
    }
    if groups.len() < needed {
        return Err(StatsError::TooFew {
            what,
            needed,
            got: groups.len(),
        });
    }
    Ok(())
}

/// The mean variance the groups claim, their half-widths read as
/// `normal_quantile` standard deviations (0 where the quantile is 0).
fn claimed_variance(groups: &[(f64, f64)], normal_quantile: f64) -> f64 {
    if normal_quantile == 0.0 {
        return 0.0;
    }
    mean(
        &groups
            .iter()
            .map(|(_, half_width)| (half_width / normal_quantile).powi(2))
            .collect::<Vec<_>>(),
    )
}
