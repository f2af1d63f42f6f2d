//! One comparison, end to end: check every input, then sample, estimate and
//! judge. [`compare_fns`] and the attribute's expansion both land here.

use crate::check::{Eq, OutputCheck};
use crate::clock::{Calibration, Clock, WallClock, calibrate};
use crate::config::Config;
use crate::error::{Error, Phase};
use crate::estimate::Estimate;
use crate::report::{InputReport, Report, format_ns, format_percent};
use crate::sampler::{self, Side, Stop, Subject};
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
    };
    run(pair, name, &Eq, calibrate(clock), config)
}

/// The attribute's entry point for functions whose parameters are all
/// shared references (or none): each call borrows the input.
#[doc(hidden)]
pub fn compare_by_ref<I, O, K, A, B>(
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
    let pair = Pair {
        clock: &WallClock,
        inputs,
        original: ByRef(original),
        candidate: ByRef(candidate),
    };
    run(pair, label, &check, wall_clock_calibration(), config)
}

/// The attribute's entry point for functions taking a parameter by value:
/// each call gets its own clone of the input, made before the timed region.
#[doc(hidden)]
pub fn compare_by_value<I, O, K, A, B>(
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
    let pair = Pair {
        clock: &WallClock,
        inputs,
        original: ByValue(original),
        candidate: ByValue(candidate),
    };
    run(pair, label, &check, wall_clock_calibration(), config)
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

/// The wall clock is calibrated once per process.
fn wall_clock_calibration() -> Calibration {
    static CALIBRATION: OnceLock<Calibration> = OnceLock::new();
    *CALIBRATION.get_or_init(|| calibrate(&WallClock))
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
        let mut outputs = Vec::with_capacity(if std::mem::needs_drop::<O>() { batch as usize } else { 0 });
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
        let timed = match side {
            Side::Original => catch_unwind(AssertUnwindSafe(|| self.original.time_batch(clock, value, batch))),
            Side::Candidate => catch_unwind(AssertUnwindSafe(|| self.candidate.time_batch(clock, value, batch))),
        };
        timed.map_err(|payload| Error::Panicked {
            during: phase(side),
            input: Some(input),
            message: panic_message(payload),
        })
    }

    fn max_batch(&self, input: usize) -> u64 {
        let value = &self.inputs[input];
        self.original.max_batch(value).min(self.candidate.max_batch(value))
    }
}

/// Check → sample → estimate → verdict.
fn run<C, I, O, A, B, K>(
    mut pair: Pair<'_, C, I, A, B>,
    label: &str,
    check: &K,
    calibration: Calibration,
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

    let samples = {
        let _exclusive = TIMING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        sampler::sample(pair.clock, calibration, &mut pair, config)?
    };
    let estimate = Estimate::from_samples(&samples);
    let verdict = Verdict::from_interval(estimate.ci, config.noise_floor);

    let mut warnings = Vec::new();
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
    for (index, (input, &batch)) in estimate.per_input.iter().zip(&samples.batch_sizes).enumerate() {
        let sample_ns = input.original_ns.min(input.candidate_ns) * batch as f64;
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
            .map(|(index, (input, &batch_size))| InputReport {
                index,
                batch_size,
                original_ns: input.original_ns,
                candidate_ns: input.candidate_ns,
                speedup: input.speedup,
            })
            .collect(),
        outputs_checked: check.checks(),
        stop: samples.stop,
        timer: pair.clock.name(),
        warnings,
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
