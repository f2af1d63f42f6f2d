//! One comparison, end to end: check every input, then sample, estimate and
//! judge. [`compare_fns`] and the attribute's expansion both land here.

use crate::check::{Eq, OutputCheck};
use crate::clock::{Calibration, Clock, Timer, TimerKind, calibrate};
use crate::config::Config;
use crate::error::{Error, Phase};
use crate::estimate::Estimate;
use crate::guard;
use crate::report::{InputReport, Report, format_ns, format_percent};
use crate::sampler::{self, Subject};
use crate::samples::{Side, Stop};
use crate::verdict::Verdict;
use std::any::Any;
use std::hint::black_box;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Checks that `candidate` returns what `original` returns on every input,
/// then measures both interleaved and judges the speedup against
/// `config.noise_floor`.
///
/// Both functions receive each input by reference. A panic in either is
/// caught and returned as [`Error::Panicked`]; different outputs are
/// [`Error::Mismatch`] naming the input.
///
/// ```
/// use faster_runtime::{compare_fns, Config, Verdict};
/// use std::time::Duration;
///
/// fn sum_loop(n: &u64) -> u64 {
///     (0..*n).fold(0, |acc, i| std::hint::black_box(acc + i))
/// }
/// fn sum_formula(n: &u64) -> u64 {
///     n * (n.saturating_sub(1)) / 2
/// }
///
/// let config = Config { max_time: Duration::from_millis(200), ..Config::default() };
/// let report = compare_fns("formula vs loop", &[1_000, 5_000], sum_loop, sum_formula, &config)?;
/// println!("{report}");
/// assert!(report.speedup > 1.0);
/// # Ok::<(), faster_runtime::Error>(())
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
    let pair = Pair {
        clock,
        inputs,
        original: ByRef(original),
        candidate: ByRef(candidate),
        randomize_layout: config.randomize_layout,
        stack_offset: 0,
    };
    run(pair, name, &Eq, calibrate(clock), None, config)
}

/// The engine's entry point (behind `expansion::by_ref`) for functions
/// whose parameters are all shared references (or none): each call borrows
/// the input.
pub(crate) fn compare_by_ref<I, O, K, A, B>(
    label: &str,
    inputs: &[I],
    check: K,
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Report, Error>
where
    K: OutputCheck<O>,
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
{
    let (timer, calibration, fallback) = selected_timer(config.timer);
    let pair = Pair {
        clock: &timer,
        inputs,
        original: ByRef(original),
        candidate: ByRef(candidate),
        randomize_layout: config.randomize_layout,
        stack_offset: 0,
    };
    run(pair, label, &check, calibration, fallback, config)
}

/// The engine's entry point (behind `expansion::by_value`) for functions
/// taking a parameter by value: each call gets its own clone of the input,
/// made before the timed region.
pub(crate) fn compare_by_value<I, O, K, A, B>(
    label: &str,
    inputs: &[I],
    check: K,
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Report, Error>
where
    I: Clone,
    K: OutputCheck<O>,
    A: FnMut(I) -> O,
    B: FnMut(I) -> O,
{
    let (timer, calibration, fallback) = selected_timer(config.timer);
    let pair = Pair {
        clock: &timer,
        inputs,
        original: ByValue(original),
        candidate: ByValue(candidate),
        randomize_layout: config.randomize_layout,
        stack_offset: 0,
    };
    run(pair, label, &check, calibration, fallback, config)
}

/// Calls the attribute's `inputs` function and collects its items, catching
/// a panic in it.
#[doc(hidden)]
pub fn collect_inputs<T, It: IntoIterator<Item = T>>(
    make: impl FnOnce() -> It,
) -> Result<Vec<T>, Error> {
    catch_unwind(AssertUnwindSafe(|| make().into_iter().collect())).map_err(|payload| {
        Error::Panicked {
            during: Phase::Inputs,
            input: None,
            message: panic_message(payload),
        }
    })
}

/// Comparisons never time concurrently: libtest runs the generated tests on
/// several threads, and two measurements at once would disturb each other.
static TIMING: Mutex<()> = Mutex::new(());

/// The timer `kind` names, calibrated once per process, and why it fell back
/// to the wall clock if it did.
fn selected_timer(kind: TimerKind) -> (Timer, Calibration, Option<String>) {
    static CALIBRATIONS: [OnceLock<Calibration>; 3] = [const { OnceLock::new() }; 3];
    let (timer, fallback) = Timer::select(kind);
    let slot = match timer.kind() {
        TimerKind::Wall => 0,
        TimerKind::Cycles => 1,
        TimerKind::ThreadCpu => 2,
    };
    let calibration = *CALIBRATIONS[slot].get_or_init(|| calibrate(&timer));
    (timer, calibration, fallback)
}

/// One side of the pair: how a function is called on an input.
trait Routine<I> {
    type Output;

    /// One call, for the output check.
    fn call(&mut self, input: &I) -> Self::Output;

    /// `batch` calls timed on `clock`; outputs are dropped after the clock
    /// stops, so their destructors are not timed.
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64;

    /// The largest batch worth preparing (see [`Subject::max_batch`]).
    fn max_batch(&self, input: &I) -> u64;
}

/// Calls `f(&input)`.
struct ByRef<F>(F);

impl<I, O, F: FnMut(&I) -> O> Routine<I> for ByRef<F> {
    type Output = O;

    fn call(&mut self, input: &I) -> O {
        (self.0)(input)
    }

    #[inline(never)]
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64 {
        if std::mem::needs_drop::<O>() {
            let mut outputs = Vec::with_capacity(batch as usize);
            let start = clock.now();
            for _ in 0..batch {
                outputs.push(black_box((self.0)(black_box(input))));
            }
            let end = clock.now();
            drop(outputs);
            clock.nanos_between(start, end)
        } else {
            let start = clock.now();
            for _ in 0..batch {
                black_box((self.0)(black_box(input)));
            }
            let end = clock.now();
            clock.nanos_between(start, end)
        }
    }

    fn max_batch(&self, _input: &I) -> u64 {
        if std::mem::needs_drop::<O>() {
            MAX_HELD_OUTPUTS
        } else {
            sampler::MAX_BATCH
        }
    }
}

/// Calls `f(input.clone())`, cloning before the clock starts.
struct ByValue<F>(F);

impl<I: Clone, O, F: FnMut(I) -> O> Routine<I> for ByValue<F> {
    type Output = O;

    fn call(&mut self, input: &I) -> O {
        (self.0)(input.clone())
    }

    #[inline(never)]
    fn time_batch<C: Clock>(&mut self, clock: &C, input: &I, batch: u64) -> f64 {
        let mut prepared: Vec<I> = (0..batch).map(|_| input.clone()).collect();
        let mut outputs = Vec::with_capacity(if std::mem::needs_drop::<O>() {
            batch as usize
        } else {
            0
        });
        let start = clock.now();
        for owned in prepared.drain(..) {
            let output = black_box((self.0)(black_box(owned)));
            if std::mem::needs_drop::<O>() {
                outputs.push(output);
            }
        }
        let end = clock.now();
        drop(outputs);
        clock.nanos_between(start, end)
    }

    fn max_batch(&self, input: &I) -> u64 {
        // Clones are held for a whole batch: bound the memory they take by
        // what one clone costs to make (a proxy for its size).
        let start = Instant::now();
        let clones: Vec<I> = (0..16).map(|_| input.clone()).collect();
        let per_clone_ns = start.elapsed().as_nanos() as f64 / 16.0;
        drop(clones);
        let affordable = (MAX_CLONING_NS / per_clone_ns.max(1.0)) as u64;
        affordable.clamp(1, MAX_HELD_OUTPUTS)
    }
}

/// Below this R², Paoloni's regression is not trusted and the report says so.
/// In quiet conditions the fits measured here exceed 0.999.
pub const MIN_R_SQUARED: f64 = 0.99;

/// A function measured at no more than this many empty calls is reported as
/// probably optimized away.
const EMPTY_CALL_MARGIN: f64 = 1.5;
/// ... and so is one under a fifth of a nanosecond (one cycle at 5 GHz),
/// whatever the empty call costs.
const MIN_REAL_CALL_NS: f64 = 0.2;

/// At most this many outputs (or prepared inputs) are held at once.
const MAX_HELD_OUTPUTS: u64 = 1 << 20;
/// A batch's clones may take this long to make (≈ tens of MB of copying).
const MAX_CLONING_NS: f64 = 5e6;

/// The two functions and their inputs, as the sampler sees them.
struct Pair<'a, C, I, A, B> {
    clock: &'a C,
    inputs: &'a [I],
    original: A,
    candidate: B,
    randomize_layout: bool,
    stack_offset: usize,
}

impl<C, I, O, A, B> Subject for Pair<'_, C, I, A, B>
where
    C: Clock,
    A: Routine<I, Output = O>,
    B: Routine<I, Output = O>,
{
    fn input_count(&self) -> usize {
        self.inputs.len()
    }

    fn time_batch(&mut self, side: Side, input: usize, batch: u64) -> Result<f64, Error> {
        let (clock, value) = (self.clock, &self.inputs[input]);
        let mut batch_ns = 0.0;
        let timed = catch_unwind(AssertUnwindSafe(|| {
            at_stack_offset(self.stack_offset, &mut || {
                batch_ns = match side {
                    Side::Original => self.original.time_batch(clock, value, batch),
                    Side::Candidate => self.candidate.time_batch(clock, value, batch),
                }
            })
        }));
        timed.map(|()| batch_ns).map_err(|payload| Error::Panicked {
            during: phase(side),
            input: Some(input),
            message: panic_message(payload),
        })
    }

    fn max_batch(&self, input: usize) -> u64 {
        let value = &self.inputs[input];
        self.original
            .max_batch(value)
            .min(self.candidate.max_batch(value))
    }

    fn begin_round(&mut self, round: usize) {
        if self.randomize_layout {
            // A fixed scramble of the round number: every offset recurs, in
            // no order that could line up with the alternation of sides.
            self.stack_offset = (round.wrapping_mul(0x9E37_79B9) >> 7) % STACK_OFFSETS;
        }
    }
}

/// How many stack positions layout randomization cycles through.
const STACK_OFFSETS: usize = 8;

/// Runs `body` with its frame `offset` × 272 bytes further down the stack
/// (4.25 cache lines a step, so both the cache-line and the page offset of
/// the loop's stack slots change).
#[inline(never)]
fn at_stack_offset(offset: usize, body: &mut dyn FnMut()) {
    match offset % STACK_OFFSETS {
        0 => body(),
        1 => padded::<272>(body),
        2 => padded::<544>(body),
        3 => padded::<816>(body),
        4 => padded::<1088>(body),
        5 => padded::<1360>(body),
        6 => padded::<1632>(body),
        _ => padded::<1904>(body),
    }
}

#[inline(never)]
fn padded<const BYTES: usize>(body: &mut dyn FnMut()) {
    let pad = [0_u8; BYTES];
    black_box(&pad);
    body();
}

/// Check → sample → estimate → verdict.
fn run<C, I, O, A, B, K>(
    mut pair: Pair<'_, C, I, A, B>,
    label: &str,
    check: &K,
    calibration: Calibration,
    timer_fallback: Option<String>,
    config: &Config,
) -> Result<Report, Error>
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
    for (index, input) in pair.inputs.iter().enumerate() {
        let original = guarded(Phase::Original, index, || pair.original.call(input))?;
        let candidate = guarded(Phase::Candidate, index, || pair.candidate.call(input))?;
        if let Err((original, candidate)) = check.verify(&original, &candidate) {
            return Err(Error::Mismatch {
                input: index,
                input_debug: None,
                original,
                candidate,
            });
        }
    }

    let (samples, disturbances) = {
        let _exclusive = TIMING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let before = guard::snapshot();
        let samples = sampler::sample(pair.clock, calibration, &mut pair, config)?;
        (samples, guard::disturbances(&before, &guard::snapshot()))
    };
    let estimate = Estimate::from_samples(&samples, config.systematic_allowance);
    let verdict = Verdict::from_interval(estimate.ci, config.noise_floor);

    let mut warnings: Vec<String> = timer_fallback.into_iter().collect();
    warnings.extend(disturbances);
    warnings.extend(guard::standing_disturbances().iter().cloned());
    let disagreement = (estimate.best_speedup / estimate.speedup).ln().abs();
    if disagreement > (1.0 + config.noise_floor / 2.0).ln() {
        warnings.push(format!(
            "the best-of-{} figure ({:.2}x) and the paired estimate ({:.2}x) disagree by more than \
             half the noise floor: timings vary from call to call (a noisy machine, or work that \
             varies, such as allocation); the verdict rests on the paired estimate",
            samples.rounds.len(),
            estimate.best_speedup,
            estimate.speedup,
        ));
    }
    if samples.stop == Stop::Budget && samples.rounds.len() < config.min_rounds {
        warnings.push(format!(
            "only {} rounds fit in max_time = {:?}: the interval is wide; raise max_time",
            samples.rounds.len(),
            config.max_time,
        ));
    }
    let min_sample_ns = calibration.min_sample_ns();
    for (index, (input, &[original_batch, candidate_batch])) in estimate
        .per_input
        .iter()
        .zip(&samples.batch_sizes)
        .enumerate()
    {
        let sample_ns = (input.original_ns * original_batch as f64)
            .min(input.candidate_ns * candidate_batch as f64);
        if sample_ns < min_sample_ns / 2.0 {
            warnings.push(format!(
                "input {index}: samples last {} against the {} the timer needs to stay under 0.1% of \
                 them (batches are capped by the memory their outputs or cloned inputs take); \
                 the timer's cost weighs on the ratio",
                format_ns(sample_ns),
                format_ns(min_sample_ns),
            ));
        }
    }
    for (index, input) in estimate.per_input.iter().enumerate() {
        for (side, fit) in ["original", "candidate"].iter().zip(&input.fits) {
            if let Some(fit) = fit
                && fit.r_squared < MIN_R_SQUARED
            {
                warnings.push(format!(
                    "input {index}: the {side}'s time does not grow in line with the batch size \
                     (R² = {:.4}, under {MIN_R_SQUARED}): its per-call time depends on how many calls \
                     run back to back, or the machine was disturbed; rerun on a quieter machine, or \
                     make each call depend on the previous one's result",
                    fit.r_squared,
                ));
            }
        }
        let nothing_ns = (EMPTY_CALL_MARGIN * calibration.empty_call_ns).max(MIN_REAL_CALL_NS);
        for (side, per_call_ns) in [
            ("original", input.original_ns),
            ("candidate", input.candidate_ns),
        ] {
            if per_call_ns <= nothing_ns {
                warnings.push(format!(
                    "input {index}: the {side} takes {} per call, about what the measuring loop \
                     costs with nothing in it ({}): either the compiler optimized its work away \
                     (make the result depend on the input and return it; faster passes both through \
                     black_box), or the work is so cheap that the loop around it dominates and \
                     the ratio says little about the function",
                    format_ns(per_call_ns),
                    format_ns(calibration.empty_call_ns),
                ));
            }
        }
    }
    if !check.checks() {
        warnings.push("outputs were not checked (check = skip)".into());
    }
    if verdict == Verdict::WithinNoise && samples.stop == Stop::Budget {
        let (low, high) = estimate.ci;
        if high / low > (1.0 + config.noise_floor).powi(2) {
            warnings.push(format!(
                "the interval is wider than the noise floor ({}) on both sides: too noisy to decide \
                 within max_time = {:?}; raise max_time or run on a quieter machine",
                format_percent(config.noise_floor),
                config.max_time,
            ));
        }
    }

    Ok(Report {
        name: label.to_string(),
        verdict,
        speedup: estimate.speedup,
        ci: estimate.ci,
        best_speedup: estimate.best_speedup,
        uncorrected_speedup: estimate.uncorrected_speedup,
        original_ns: estimate.original_ns,
        candidate_ns: estimate.candidate_ns,
        rounds: samples.rounds.len(),
        elapsed: started.elapsed(),
        noise_floor: config.noise_floor,
        expect: config.expect,
        inputs: estimate
            .per_input
            .iter()
            .zip(&samples.batch_sizes)
            .enumerate()
            .map(|(index, (input, &batch_sizes))| InputReport {
                index,
                batch_sizes,
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
            .collect(),
        outputs_checked: check.checks(),
        stop: samples.stop,
        timer: pair.clock.name(),
        calibration,
        warnings,
        processes: Vec::new(),
        round_log_ratios: samples.log_ratios(),
        round_original_first: samples
            .rounds
            .iter()
            .map(|round| round.original_first)
            .collect(),
        warm_up_rounds: samples.warm_up_rounds,
    })
}

fn phase(side: Side) -> Phase {
    match side {
        Side::Original => Phase::Original,
        Side::Candidate => Phase::Candidate,
    }
}

/// Runs user code, turning a panic into [`Error::Panicked`].
fn guarded<T>(during: Phase, input: usize, call: impl FnOnce() -> T) -> Result<T, Error> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| Error::Panicked {
        during,
        input: Some(input),
        message: panic_message(payload),
    })
}

/// The text of a panic payload (`panic!("...")` carries a `&str` or `String`).
pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}
