//! One comparison, end to end: check every input, then sample, estimate and
//! judge. [`compare_fns`] and the attribute's expansion both land here;
//! `measure` is the part they share.

use super::guard;
use super::routine::{ByRef, Pair, Routine};
use super::sampler::{self, Subject};
use crate::check::{Eq, OutputCheck};
use crate::config::Config;
use crate::error::{Error, Phase, guarded};
use crate::judge::{self, Context};
use crate::report::{InputReport, Measurement, Notice, Placement, Report};
use crate::stats::estimate::Estimate;
use crate::stats::samples::Samples;
use crate::time::{self, Calibration, Clock, calibrate};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Checks that `candidate` returns what `original` returns on every input,
/// then measures both interleaved and judges the speedup against
/// `config.noise_floor`. The report's warnings say what the reader should
/// know about the measurement (see the guide's "Reading a report",
/// `guide/reports.md`).
///
/// Both functions receive each input by reference. A panic in either is
/// caught and returned as [`Error::Panicked`]; different outputs are
/// [`Error::Mismatch`] naming the input.
///
/// ```
/// use faster::{compare_fns, Config, Verdict};
/// use std::time::Duration;
///
/// fn sum_loop(n: &u64) -> u64 {
///     (0..*n).fold(0, |acc, i| std::hint::black_box(acc + i))
/// }
/// fn sum_formula(n: &u64) -> u64 {
///     n * (n.saturating_sub(1)) / 2
/// }
///
/// let mut config = Config::default();
/// config.max_time = Duration::from_millis(200);
/// let report = compare_fns("formula vs loop", &[1_000, 5_000], sum_loop, sum_formula, &config)?;
/// println!("{report}");
/// assert!(report.speedup > 1.0);
/// # Ok::<(), faster::Error>(())
/// ```
pub fn compare_fns<I, O, A, B>(
    name: &str,
    inputs: &[I],
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Report, Error>
where
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
    O: PartialEq + std::fmt::Debug,
{
    let measurement = measure_fns(name, inputs, original, candidate, config)?;
    Ok(judge::judge(measurement, config, Context::default()))
}

/// What [`compare_fns`] measures, not yet judged: a slice, as a process of
/// a replicated comparison hands it back.
pub fn measure_fns<I, O, A, B>(
    name: &str,
    inputs: &[I],
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Measurement, Error>
where
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
    O: PartialEq + std::fmt::Debug,
{
    compare_by_ref(name, inputs, Eq, original, candidate, config)
}

/// [`compare_fns`] with another timing source in place of the wall clock
/// (a cycle counter, thread CPU time, a simulated clock in tests).
pub fn compare_fns_with_clock<C, I, O, A, B>(
    clock: &C,
    name: &str,
    inputs: &[I],
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Report, Error>
where
    C: Clock,
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
    O: PartialEq + std::fmt::Debug,
{
    let pair = Pair::new(
        clock,
        inputs,
        ByRef(original),
        ByRef(candidate),
        config.vary_stack,
    );
    let measurement = measure(pair, name, &Eq, calibrate(clock), None, config)?;
    Ok(judge::judge(measurement, config, Context::default()))
}

/// The entry point of [`compare_fns`]: each call borrows the input.
pub(crate) fn compare_by_ref<I, O, K, A, B>(
    label: &str,
    inputs: &[I],
    check: K,
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Measurement, Error>
where
    K: OutputCheck<O>,
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
{
    let (timer, calibration, fallback) = time::selected(config.timer);
    let pair = Pair::new(
        &timer,
        inputs,
        ByRef(original),
        ByRef(candidate),
        config.vary_stack,
    );
    measure(pair, label, &check, calibration, fallback, config)
}

/// Comparisons never time concurrently: libtest runs the generated tests on
/// several threads, and two measurements at once would disturb each other.
static TIMING: Mutex<()> = Mutex::new(());

/// This process's turn to time: held while one comparison measures, here or
/// in processes it started (which the mutex cannot see), so no other thread
/// of this process times beside it.
pub fn timing_turn() -> MutexGuard<'static, ()> {
    TIMING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Check → sample → estimate: the measurement with what was observed while
/// measuring (a timer that fell back, other processes' load), for the judge
/// (`crate::judge`) to judge.
pub(crate) fn measure<C, I, O, A, B, K>(
    mut pair: Pair<'_, C, I, A, B>,
    label: &str,
    check: &K,
    calibration: Calibration,
    timer_fallback: Option<String>,
    config: &Config,
) -> Result<Measurement, Error>
where
    C: Clock,
    A: Routine<I, Output = O>,
    B: Routine<I, Output = O>,
    K: OutputCheck<O>,
{
    let started = Instant::now();
    config.validate()?;
    if pair.inputs.is_empty() {
        return Err(Error::NoInputs);
    }
    let round = check_every_input(&mut pair, check)?;
    if round > config.max_time {
        return Err(Error::BudgetTooShort {
            round,
            max_time: config.max_time,
            processes: 1,
        });
    }
    let clock = pair.clock;
    let timed = Timed {
        label,
        timer: clock.name(),
        calibration,
        outputs_checked: check.checks(),
        notices: timer_fallback.into_iter().map(Notice::Said).collect(),
        started,
        device: None,
    };
    timed.measure(clock, &mut pair, config)
}

/// What a comparison brings to the sampler once its outputs are checked:
/// whatever its subject times (functions on the CPU, kernels on a GPU),
/// the rest of a comparison is this.
pub(crate) struct Timed<'a> {
    /// The report's heading.
    pub label: &'a str,
    /// The timing source's name, as the report shows it.
    pub timer: &'a str,
    /// The timing source's cost and resolution.
    pub calibration: Calibration,
    /// Whether outputs were compared (`false` for `check = skip`).
    pub outputs_checked: bool,
    /// What the reader should know so far (a timer that fell back).
    pub notices: Vec<Notice>,
    /// When the comparison started, checks included.
    pub started: Instant,
    /// Where a device runs what is measured while this thread waits for
    /// it; `None` when this thread runs it.
    pub device: Option<Device>,
}

/// A device that runs what is measured (a GPU) while the measuring thread
/// waits: its waiting is no sign that the functions sleep.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Device {
    /// Whether the device runs on this process's own threads (a software
    /// GPU such as lavapipe), whose work is then the measurement, not a
    /// disturbance.
    pub on_our_threads: bool,
}

impl Timed<'_> {
    /// Samples `subject` (alone in this process, the budget kept on
    /// `clock`), then estimates: the measurement.
    pub(crate) fn measure<C: Clock, S: Subject>(
        self,
        clock: &C,
        subject: &mut S,
        config: &Config,
    ) -> Result<Measurement, Error> {
        let on_our_threads = self.device.is_some_and(|device| device.on_our_threads);
        let snapshot = || {
            let snapshot = guard::snapshot();
            if on_our_threads {
                snapshot.whole_process()
            } else {
                snapshot
            }
        };
        let (samples, load, waiting) = {
            let _exclusive = timing_turn();
            let before = snapshot();
            let samples = sampler::sample(clock, self.calibration, subject, config)?;
            let after = snapshot();
            let waiting = guard::waiting_between(&before, &after).filter(|_| self.device.is_none());
            (samples, guard::load_between(&before, &after), waiting)
        };
        let unchecked = (!self.outputs_checked).then_some(Notice::ChecksSkipped);
        let mut measurement = measurement_of(
            self.label,
            &samples,
            self.timer,
            self.outputs_checked,
            self.started,
            config,
        );
        measurement.notices = (self.notices.into_iter())
            .chain(unchecked)
            .chain(waiting)
            .collect();
        measurement.load = load;
        Ok(measurement)
    }
}

/// The measurement of `samples`, estimated as `config` says, measured with
/// the timer named `timer`, its outputs compared before (or not), started
/// at `started`. Its warnings and load are left to the caller.
pub(crate) fn measurement_of(
    label: &str,
    samples: &Samples,
    timer: &str,
    outputs_checked: bool,
    started: Instant,
    config: &Config,
) -> Measurement {
    let estimate = Estimate::from_samples(samples, config.plan.systematic_allowance);
    Measurement {
        name: label.to_string(),
        speedup: estimate.speedup,
        ci: estimate.ci,
        systematic: config.plan.systematic_allowance,
        best_speedup: estimate.best_speedup,
        uncorrected_speedup: estimate.uncorrected_speedup,
        original_ns: estimate.original_ns,
        candidate_ns: estimate.candidate_ns,
        rounds: samples.rounds.len(),
        elapsed: started.elapsed(),
        inputs: input_reports(&estimate, samples),
        outputs_checked,
        stop: samples.stop,
        timer: timer.to_string(),
        calibration: samples.calibration,
        notices: Vec::new(),
        load: None,
        processes: Vec::new(),
        placement: Placement {
            threshold_ns: config.plan.placement_threshold.as_nanos() as f64,
            shorter_call_ns: samples.shorter_call_ns,
            count: samples.placements,
            speedups: estimate.placement_speedups.clone(),
        },
        round_log_ratios: samples.log_ratios(),
        round_original_first: samples
            .rounds
            .iter()
            .map(|round| round.original_first)
            .collect(),
        warm_up_rounds: samples.warm_up_rounds,
        gpu: None,
        offsets: None,
    }
}

/// Runs each function once on every input and compares their outputs;
/// returns how long those calls took: one round, which, where it alone
/// outlasts the budget, says no round can be measured in it.
fn check_every_input<C, I, O, A, B, K>(
    pair: &mut Pair<'_, C, I, A, B>,
    check: &K,
) -> Result<Duration, Error>
where
    A: Routine<I, Output = O>,
    B: Routine<I, Output = O>,
    K: OutputCheck<O>,
{
    let mut round = Duration::ZERO;
    for (index, input) in pair.inputs.iter().enumerate() {
        let calls = Instant::now();
        let original = guarded(Phase::Original, index, || pair.original.call(input))?;
        let candidate = guarded(Phase::Candidate, index, || pair.candidate.call(input))?;
        round += calls.elapsed();
        if let Err((original, candidate)) = check.verify(&original, &candidate) {
            return Err(Error::Mismatch {
                input: index,
                input_debug: None,
                original,
                candidate,
            });
        }
    }
    Ok(round)
}

/// Each input's figures, with its rounds' per-call times.
fn input_reports(estimate: &Estimate, samples: &Samples) -> Vec<InputReport> {
    estimate
        .per_input
        .iter()
        .enumerate()
        .map(|(index, input)| InputReport {
            index,
            batch_sizes: samples.batch_sizes[index],
            batch_limit: samples.batch_limits[index],
            original_ns: input.original_ns,
            candidate_ns: input.candidate_ns,
            speedup: input.speedup,
            overhead_ns: input.overhead_ns,
            fits: input.fits,
            label: None,
            flops: None,
            bytes: None,
            round_ns: samples
                .rounds
                .iter()
                .map(|round| round.per_call_ns[index])
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Skip;
    use crate::time::SimClock;

    #[test]
    fn outputs_not_compared_are_said_once_by_the_measurement() {
        let clock = SimClock::with_reading_cost(20.0);
        let work = |clock: SimClock| move |_: &()| clock.advance(1_000.0);
        let config = Config {
            max_time: Duration::from_millis(50),
            ..Config::default()
        };
        let measure_with = |check: &dyn Fn(Pair<'_, SimClock, (), _, _>) -> Measurement| {
            check(Pair::new(
                &clock,
                &[()],
                ByRef(work(clock.clone())),
                ByRef(work(clock.clone())),
                false,
            ))
        };
        let skipped = measure_with(&|pair| {
            measure(pair, "skip", &Skip, calibrate(&clock), None, &config).unwrap()
        });
        let said = |measurement: &Measurement| {
            (measurement.notices.iter())
                .filter(|notice| **notice == Notice::ChecksSkipped)
                .count()
        };
        assert!(!skipped.outputs_checked);
        assert_eq!(said(&skipped), 1, "{:?}", skipped.notices);
        let checked = measure_with(&|pair| {
            measure(pair, "eq", &Eq, calibrate(&clock), None, &config).unwrap()
        });
        assert!(checked.outputs_checked);
        assert_eq!(said(&checked), 0, "{:?}", checked.notices);
    }
}
