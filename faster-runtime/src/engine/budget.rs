//! The run's budget ([`RunBudget`]): the time a whole run may spend
//! measuring (`max_run_time`, by default the sum of its comparisons' own
//! budgets), and the one rule that spends what its comparisons left over
//! on those whose verdicts their own budgets left unsettled
//! ([`spend_on_undecided`]), for every driver (a run in one binary, a run
//! across revisions).
//!
//! Each comparison first has its turn on its own budget; a comparison that
//! settles early leaves time over, and one whose layouts read too far apart
//! for its budget gets it: more slices, in new layouts up to
//! `report::MOST_LAYOUTS_OF_A_RUN`, until it settles at one of the stop
//! rule's looks or the run's time is spent. Only comparisons whose
//! projected need fits that cap take any (`Replication::could_use_the_runs_time`):
//! one no budget would settle is said so, not measured on.

use super::replicate::{Replication, SliceToMeasure};
use crate::error::Error;
use crate::report::Measurement;
use std::time::Duration;

/// The time a run may spend measuring, and how much it has spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunBudget {
    total: Duration,
    spent: Duration,
}

impl RunBudget {
    /// A run that may spend `total` measuring, none of it spent yet.
    pub const fn new(total: Duration) -> RunBudget {
        RunBudget {
            total,
            spent: Duration::ZERO,
        }
    }

    /// The budget of a run whose comparisons' own budgets are `own`: the
    /// run's `max_run_time` where set, else their sum.
    pub fn for_run(
        max_run_time: Option<Duration>,
        own: impl IntoIterator<Item = Duration>,
    ) -> RunBudget {
        RunBudget::new(max_run_time.unwrap_or_else(|| own.into_iter().sum()))
    }

    /// Counts in a comparison whose own budget is `own`, in a run whose
    /// comparisons come one at a time (libtest's tests): the run's
    /// `max_run_time` where set, else the sum of its comparisons' own so
    /// far.
    pub fn add(&mut self, max_run_time: Option<Duration>, own: Duration) {
        self.total = max_run_time.unwrap_or(self.total + own);
    }

    /// Counts `time` as spent.
    pub fn spend(&mut self, time: Duration) {
        self.spent += time;
    }

    /// Whether `time` more still fits in the run's budget.
    pub fn affords(&self, time: Duration) -> bool {
        self.spent + time <= self.total
    }
}

/// Spends what `budget` has left on the `replications` (each after its own
/// turn, or the error that ended it) that more of the run's time could
/// settle: one slice each in turn, while one more slice like its average
/// fits in the budget, until each has enough on the run's time
/// ([`Replication::enough`]). `measure_slice` measures slice `slice` of
/// replication `index` and says how long it took. A slice's error ends its
/// comparison, as on its own turn. Returns the indexes it measured more of.
pub fn spend_on_undecided(
    budget: &mut RunBudget,
    replications: &mut [Result<Replication, Error>],
    mut measure_slice: impl FnMut(usize, SliceToMeasure) -> (Result<Measurement, Error>, Duration),
) -> Vec<usize> {
    let helped: Vec<usize> = replications
        .iter_mut()
        .enumerate()
        .filter_map(|(index, entry)| {
            let replication = entry.as_mut().ok()?;
            replication.could_use_the_runs_time().then(|| {
                replication.on_the_runs_time();
                index
            })
        })
        .collect();
    let mut measured_one = true;
    while measured_one {
        measured_one = false;
        for &index in &helped {
            let Ok(replication) = &mut replications[index] else {
                continue;
            };
            if replication.enough() || !budget.affords(replication.per_slice()) {
                continue;
            }
            let slice = replication.next_slice();
            let slot = slice.slot;
            let (measured, took) = measure_slice(index, slice);
            budget.spend(took);
            if let Err(error) = replication.record(slot, measured, took) {
                replications[index] = Err(error);
            }
            measured_one = true;
        }
    }
    helped
}

/// Comparisons on a simulated clock, for the tests of every driver of the
/// run's budget: identical code whose layouts read apart.
#[cfg(test)]
pub(crate) mod simulated {
    use super::*;
    use crate::config::Config;
    use crate::report::fixtures;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// How long every simulated slice takes.
    pub(crate) const SLICE: Duration = Duration::from_millis(40);

    /// A comparison at a 2% floor of identical code whose layouts read
    /// up to `spread` either way (seeded by `seed`), in pairs that cancel
    /// (so every even count of layouts averages exactly 1.00x), each slice
    /// taking [`SLICE`] of a simulated clock.
    pub(crate) struct Simulated {
        layouts: Vec<f64>,
    }

    impl Simulated {
        /// Its layouts, drawn from `seed`.
        pub(crate) fn new(spread: f64, seed: u64) -> Simulated {
            let mut random = StdRng::seed_from_u64(seed);
            let layouts = (0..512)
                .flat_map(|_| {
                    let effect = spread * random.random::<f64>();
                    [effect, -effect]
                })
                .collect();
            Simulated { layouts }
        }

        /// The slice measured in layout `slot`, and its time.
        pub(crate) fn slice(&self, slot: u32) -> (Result<Measurement, Error>, Duration) {
            let speedup = self.layouts[slot as usize - 1].exp();
            let measured = fixtures::measurement(speedup, (speedup / 1.01, speedup * 1.01));
            (Ok(measured), SLICE)
        }
    }

    /// A 2% floor, and a budget of 64 slices.
    pub(crate) fn config() -> Config {
        Config {
            noise_floor: 0.02,
            max_time: 64 * SLICE,
            ..Config::default()
        }
    }

    /// `simulated`'s comparison on its own budget.
    pub(crate) fn own_turn(simulated: &Simulated) -> Replication {
        let mut replication = Replication::new(&config());
        while !replication.enough() {
            let slot = replication.next_slot();
            let (measured, took) = simulated.slice(slot);
            replication.record(slot, measured, took).unwrap();
        }
        replication
    }
}

#[cfg(test)]
mod tests {
    use super::simulated::{SLICE, Simulated, config, own_turn};
    use super::*;
    use crate::stats::verdict::{NoiseFloor, Verdict};

    /// Two comparisons of the same wide spread (seeds 7 and 8) after their
    /// own turns, the first's simulation, and the time their turns spent.
    fn two_wide_after_their_turns() -> (Simulated, Vec<Result<Replication, Error>>, Duration) {
        let wide = Simulated::new(0.121, 7);
        let replications = vec![Ok(own_turn(&wide)), Ok(own_turn(&Simulated::new(0.121, 8)))];
        let spent = replications
            .iter()
            .map(|r: &Result<Replication, Error>| r.as_ref().unwrap().spent())
            .sum();
        (wide, replications, spent)
    }

    #[test]
    fn time_left_over_settles_a_verdict_its_own_budget_left_undecided() {
        // Identical code whose layouts read up to 12% either way: too far
        // apart for 64 layouts at 2%, near enough for 128.
        let wide = Simulated::new(0.121, 7);
        let mut replications = vec![Ok(own_turn(&wide))];
        let first = replications[0].as_ref().unwrap();
        let floor = NoiseFloor::new(0.02);
        assert!(!super::super::replicate::settled(
            first.summaries(),
            floor,
            crate::config::plan::SYSTEMATIC_ALLOWANCE
        ));
        assert!(first.could_use_the_runs_time());
        // Three comparisons' budgets, one of them spent by another that
        // settled early.
        let mut budget = RunBudget::new(3 * config().max_time);
        budget.spend(first.spent() + config().max_time);
        let helped = spend_on_undecided(&mut budget, &mut replications, |_, slice| {
            wide.slice(slice.slot)
        });
        assert_eq!(helped, [0]);
        let replication = replications.pop().unwrap().unwrap();
        let slots: Vec<u32> = replication.summaries().iter().map(|s| s.slot).collect();
        assert_eq!(slots.len(), 128, "settled at the look at 128");
        assert_eq!(
            slots[64..],
            (65..=128).collect::<Vec<u32>>()[..],
            "new layouts"
        );
        let combined = replication.combined();
        assert_eq!(floor.verdict(combined.ci), Verdict::WithinNoise);
        assert!(floor.settles(combined.ci), "{:?}", combined.ci);
        assert!(budget.affords(Duration::ZERO), "within the run's budget");
    }

    #[test]
    fn a_run_never_spends_more_than_its_budget() {
        let (wide, mut replications, spent) = two_wide_after_their_turns();
        let total = spent + 10 * SLICE + SLICE / 2;
        let mut budget = RunBudget::new(total);
        budget.spend(spent);
        let mut slices = 0;
        spend_on_undecided(&mut budget, &mut replications, |_, slice| {
            slices += 1;
            wide.slice(slice.slot)
        });
        assert_eq!(slices, 10, "ten slices fit, the eleventh would not");
        assert!(budget.affords(Duration::ZERO), "within the run's budget");
        for replication in replications {
            assert_eq!(
                replication.unwrap().summaries().len(),
                69,
                "in turn: five each"
            );
        }
    }

    #[test]
    fn a_runs_budget_set_bounds_it_instead_of_the_sum_of_its_comparisons() {
        let (wide, mut replications, spent) = two_wide_after_their_turns();
        let own = [config().max_time, config().max_time];
        assert_eq!(
            RunBudget::for_run(None, own),
            RunBudget::new(2 * config().max_time)
        );
        // Room for 6 slices beyond the comparisons' own turns, where the
        // sum of their budgets would have room for none.
        let mut budget = RunBudget::for_run(Some(spent + 6 * SLICE + SLICE / 2), own);
        budget.spend(spent);
        let mut slices = 0;
        spend_on_undecided(&mut budget, &mut replications, |_, slice| {
            slices += 1;
            wide.slice(slice.slot)
        });
        assert_eq!(slices, 6, "the run's budget set, not the sum");
        assert!(budget.affords(Duration::ZERO), "within the run's budget");
    }

    #[test]
    fn comparisons_one_at_a_time_add_their_budgets_unless_the_run_sets_one() {
        let mut summed = RunBudget::new(Duration::ZERO);
        summed.add(None, SLICE);
        summed.add(None, SLICE);
        assert_eq!(summed, RunBudget::new(2 * SLICE));
        let mut set = RunBudget::new(Duration::ZERO);
        set.add(Some(5 * SLICE), SLICE);
        set.add(Some(5 * SLICE), SLICE);
        assert_eq!(set, RunBudget::new(5 * SLICE));
    }

    #[test]
    fn a_spread_no_budget_would_settle_takes_none_of_the_runs_time() {
        // httparse's `parse_headers` read 30% apart: no 128 layouts
        // narrow that to 2%.
        let hopeless = Simulated::new(0.6, 3);
        let mut replications = vec![Ok(own_turn(&hopeless))];
        let mut budget = RunBudget::new(Duration::from_secs(3600));
        let helped = spend_on_undecided(&mut budget, &mut replications, |_, _| {
            panic!("no slice is measured")
        });
        assert!(helped.is_empty());
        assert_eq!(budget, RunBudget::new(Duration::from_secs(3600)));
    }

    #[test]
    fn a_failed_slice_on_the_runs_time_ends_its_comparison_only() {
        let wide = Simulated::new(0.121, 7);
        let mut replications = vec![Ok(own_turn(&wide)), Ok(own_turn(&wide))];
        let mut budget = RunBudget::new(Duration::from_secs(3600));
        spend_on_undecided(&mut budget, &mut replications, |index, slice| {
            if index == 0 {
                let error = Error::Replication {
                    process: slice.slot as usize,
                    message: "it crashed".into(),
                };
                return (Err(error), SLICE);
            }
            wide.slice(slice.slot)
        });
        assert!(matches!(
            replications[0],
            Err(Error::Replication { process: 65, .. })
        ));
        assert_eq!(replications[1].as_ref().unwrap().summaries().len(), 128);
    }
}
