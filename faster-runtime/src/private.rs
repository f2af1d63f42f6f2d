//! What the expansions of `#[faster::compare]` and `#[faster::track]` name:
//! thin entry points over the engine whose bounds are the ones a user can
//! get wrong, so that the compiler's "required by a bound in ..." notes
//! point here, at signatures written for that purpose, and stay put when the
//! engine changes; the hooks for inputs, throughput counts and showing a
//! mismatching input; and the items the descriptors are built from.
//!
//! Not a public API: reached through `faster::__private`, and free to change
//! in any release together with the macro.

pub use crate::check::digest::{Digest, DigestDebug, DigestHash, DigestNone};
pub use crate::check::{Approx, Eq, ShowAny, ShowDebug, Shown, Skip};
/// Each setting's type by its name, which a keyword option's value is a
/// variant of.
pub use crate::config::setting_types;
pub use crate::config::{Config, Settings};
pub use crate::engine::tracked::{Described, Served};
pub use crate::error::Error;
#[cfg(feature = "gpu")]
pub use crate::gpu::{Gpu, KernelOptions};
pub use crate::harness::{run_test, run_tracked_test};
#[cfg(feature = "gpu")]
pub use crate::inputs::{GpuInputsByFunction, GpuInputsFunction, GpuInputsOther};
pub use crate::inputs::{Inputs, InputsByFunction, InputsFunction, InputsOther, collect_inputs};
pub use crate::registry::{Comparison, Tracked};
// What a comparison's `run` returns: its measurement, which the harness
// judges.
pub use crate::report::Measurement;
pub use crate::signature::{
    ArgumentClone, ArgumentMade, ArgumentOf, ArgumentOther, ArgumentType, Arguments, ByMut, ByRef,
    ByValue, Callee, Checked, Cloned, ClonedPerCall, Fit, FitMatching, FitOther, FitPlain,
    Function, Later, Made, Matches, OwnedOutput, Plain, Prepare, PrepareClone, PrepareCopy,
    PrepareMade, SameOutput, SameParameters, String, Take, Vec, arguments, arguments_ref, callee,
    owned, taken,
};
pub use inventory;

use crate::check::{CheckWith, Legend, OutputCheck, truncate};
use crate::engine::compare::measure;
use crate::engine::routine::{self, Pair, Parts};
use crate::engine::tracked::TrackedFn;
use crate::error::{Phase, panic_message};
use crate::report::throughput::{Count, attach};
use crate::time;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A count function for throughput, as the attribute's `flops = path` and
/// `bytes = path` name it: the count for one call on one input.
pub type CountFn<T> = fn(&T) -> u64;

/// The attribute's hook: runs the `flops` and `bytes` count functions over
/// the inputs and attaches the counts to the report. A panic in a count
/// function is caught and becomes the comparison's error, naming the input.
pub fn with_throughput<T>(
    result: Result<Measurement, Error>,
    inputs: &[T],
    flops: Option<CountFn<T>>,
    bytes: Option<CountFn<T>>,
) -> Result<Measurement, Error> {
    let mut measurement = result?;
    if let Some(count) = flops {
        attach(
            &mut measurement.inputs,
            &counts(inputs, count, "flops")?,
            Count::Flops,
        );
    }
    if let Some(count) = bytes {
        attach(
            &mut measurement.inputs,
            &counts(inputs, count, "bytes")?,
            Count::Bytes,
        );
    }
    Ok(measurement)
}

fn counts<T>(inputs: &[T], count: CountFn<T>, option: &str) -> Result<Vec<u64>, Error> {
    inputs
        .iter()
        .enumerate()
        .map(|(index, input)| {
            catch_unwind(AssertUnwindSafe(|| count(input))).map_err(|payload| Error::Panicked {
                during: Phase::Inputs,
                input: Some(index),
                message: format!(
                    "in the `{option} = ...` count function: {}",
                    panic_message(payload)
                ),
            })
        })
        .collect()
}

/// The two functions, each called as the expansion's closures say: `prepare`
/// makes, before the clock starts, what one call consumes (a clone of each
/// argument taken by value or by `&mut` whose type is not `Copy`, through
/// [`Prepare`]; nothing for the others), and each side's closure calls its
/// function on the input case and that, borrowing the rest of the case and
/// copying its `Copy` parts. It returns what `check` compares: the output,
/// and the `&mut` arguments after the call, which `compared` then names in
/// a failure message.
///
/// Each side comes as two closures, `check`'s call and the timed one: the
/// same closure, but for an output that borrows from the input, which the
/// first makes owned and the second passes through `black_box`. `prepare`
/// comes last: rustc reads the closures in order, and the sides' calls are
/// what tell it the type of an `inputs` function's cases where that is
/// generic.
#[allow(clippy::too_many_arguments)] // One per piece of the attribute.
pub fn parts<I, Q, O, R, K, A, AT, B, BT, P>(
    label: &str,
    inputs: &[I],
    check: K,
    compared: Option<&'static str>,
    (original, original_timed): (A, AT),
    (candidate, candidate_timed): (B, BT),
    prepare: P,
    config: &Config,
) -> Result<Measurement, Error>
where
    K: OutputCheck<O>,
    A: FnMut(&I, Q) -> O,
    AT: FnMut(&I, Q) -> R,
    B: FnMut(&I, Q) -> O,
    BT: FnMut(&I, Q) -> R,
    P: Fn(&I) -> Q + Copy,
{
    let check = Legend { check, compared };
    let (timer, calibration, fallback) = time::selected(config.timer);
    let pair = Pair::new(
        &timer,
        inputs,
        Parts {
            prepare,
            check: original,
            timed: original_timed,
        },
        Parts {
            prepare,
            check: candidate,
            timed: candidate_timed,
        },
        config.vary_stack,
    );
    measure(pair, label, &check, calibration, fallback, config)
}

/// [`parts`] with the user's check function, `check = path`. The check
/// comes after the two functions so that the compiler knows the output type
/// when it reads `agree`: a check function of the wrong type is then
/// reported at its path, with the output type it should take.
#[allow(clippy::too_many_arguments)] // One per piece of the attribute.
pub fn parts_with<I, Q, O, R, A, AT, B, BT, F, S, P>(
    label: &str,
    inputs: &[I],
    compared: Option<&'static str>,
    original: (A, AT),
    candidate: (B, BT),
    agree: F,
    show: S,
    prepare: P,
    config: &Config,
) -> Result<Measurement, Error>
where
    A: FnMut(&I, Q) -> O,
    AT: FnMut(&I, Q) -> R,
    B: FnMut(&I, Q) -> O,
    BT: FnMut(&I, Q) -> R,
    F: Fn(&O, &O) -> bool,
    S: Fn(&O) -> String,
    P: Fn(&I) -> Q + Copy,
{
    let check = CheckWith(agree, show);
    parts(
        label, inputs, check, compared, original, candidate, prepare, config,
    )
}

/// `#[faster::compare_gpu]`'s entry: two record functions over the cases
/// the `inputs` function made on the shared device.
#[cfg(feature = "gpu")]
pub fn gpu_kernels<I, K, A, B>(
    label: &str,
    gpu: &Gpu,
    inputs: &[I],
    options: KernelOptions<K>,
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Measurement, Error>
where
    I: crate::gpu::GpuInput,
    K: OutputCheck<Vec<I::Element>>,
    A: FnMut(&mut wgpu::ComputePass<'_>, &I),
    B: FnMut(&mut wgpu::ComputePass<'_>, &I),
{
    crate::gpu::measure(gpu, label, inputs, original, candidate, &options, config)
}

/// What a tracked function's `open` returns: the function with its inputs,
/// ready to serve.
pub type Opened = Result<Box<dyn Served>, Error>;

/// A tracked function whose parameters are all shared references (or
/// none), with its inputs: each call borrows the input case. `describe_*`
/// digest and render an input case and an output.
pub fn track_by_ref<I, O, F, D, E>(
    inputs: Vec<I>,
    function: F,
    describe_input: D,
    describe_output: E,
) -> Opened
where
    I: 'static,
    F: FnMut(&I) -> O + 'static,
    D: Fn(&I) -> Described + 'static,
    E: Fn(&O) -> Described + 'static,
{
    Ok(Box::new(TrackedFn {
        inputs,
        routine: routine::ByRef(function),
        describe_input,
        describe_output,
    }))
}

/// A tracked function called as [`parts`] calls a side: `check` for the
/// digests, whose output `describe_output` sees, `timed` by the clock.
pub fn track_parts<I, Q, O, R, C, T, P, D, E>(
    inputs: Vec<I>,
    (check, timed): (C, T),
    prepare: P,
    describe_input: D,
    describe_output: E,
) -> Opened
where
    I: 'static,
    O: 'static,
    C: FnMut(&I, Q) -> O + 'static,
    T: FnMut(&I, Q) -> R + 'static,
    P: Fn(&I) -> Q + 'static,
    D: Fn(&I) -> Described + 'static,
    E: Fn(&O) -> Described + 'static,
{
    Ok(Box::new(TrackedFn {
        inputs,
        routine: routine::Parts {
            prepare,
            check,
            timed,
        },
        describe_input,
        describe_output,
    }))
}

/// Adds the input's rendering to a mismatch, so the failure shows which
/// case it was, cut to a readable length. `show` renders with `Debug` where
/// the input type has it (the expansion picks, see `Shown`).
pub fn show_input<I>(
    result: Result<Measurement, Error>,
    inputs: &[I],
    show: impl Fn(&I) -> String,
) -> Result<Measurement, Error> {
    result.map_err(|error| match error {
        Error::Mismatch {
            input,
            input_debug: None,
            original,
            candidate,
        } => Error::Mismatch {
            input,
            input_debug: inputs.get(input).map(|case| truncate(&show(case), None)),
            original,
            candidate,
        },
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Eq, ShowDebug, Shown};
    use std::time::Duration;

    /// Long enough to end in a verdict beside two other builds: 20 ms once
    /// went whole to getting ready there.
    fn quick() -> Config {
        Config {
            max_time: Duration::from_millis(500),
            ..Config::default()
        }
    }

    /// Nothing to prepare: every part borrowed or copied.
    fn nothing<I>(_: &I) {}

    #[test]
    fn a_clone_per_call_is_made_only_of_what_the_call_consumes() {
        let inputs = [vec![3_u32, 1, 2]];
        let sort = |_: &Vec<u32>, mut v: Vec<u32>| {
            v.sort();
            v
        };
        let report = parts(
            "sort",
            &inputs,
            Eq,
            None,
            (sort, sort),
            (sort, sort),
            |case: &Vec<u32>| case.clone(),
            &quick(),
        )
        .unwrap();
        assert!(report.outputs_checked);
    }

    #[test]
    fn a_mismatch_shows_the_input_and_what_was_compared() {
        let inputs = [vec![1_u32; 300], vec![3, 1, 2]];
        let sort = |_: &Vec<u32>, mut v: Vec<u32>| {
            v.sort();
            v
        };
        let keep = |_: &Vec<u32>, v: Vec<u32>| v;
        let error = show_input(
            parts(
                "sort",
                &inputs,
                Eq,
                Some("`v` after the call"),
                (sort, sort),
                (keep, keep),
                |case: &Vec<u32>| case.clone(),
                &quick(),
            ),
            &inputs,
            |input| (&&Shown(input)).show(),
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(message.contains("input 1"), "{message}");
        assert!(message.contains("input:     [3, 1, 2]"), "{message}");
        assert!(message.contains("original:  [1, 2, 3]"), "{message}");
        assert!(message.contains("candidate: [3, 1, 2]"), "{message}");
        assert!(
            message.contains("first difference at [0]: 1 vs 3"),
            "{message}"
        );
        assert!(
            message.contains("compared:  `v` after the call"),
            "{message}"
        );
    }

    #[test]
    fn huge_inputs_are_cut() {
        let inputs = [vec![7_u64; 10_000]];
        let len = |v: &Vec<u64>, ()| v.len();
        let zero = |_: &Vec<u64>, ()| 0;
        let error = show_input(
            parts(
                "len",
                &inputs,
                Eq,
                None,
                (len, len),
                (zero, zero),
                nothing,
                &quick(),
            ),
            &inputs,
            |input| (&&Shown(input)).show(),
        )
        .unwrap_err();
        let Error::Mismatch {
            input_debug: Some(shown),
            ..
        } = error
        else {
            panic!("{error:?}");
        };
        assert!(shown.starts_with("[7, 7, "), "{shown}");
        assert!(shown.ends_with(" more)]"), "{shown}");
        assert!(shown.len() < 260, "{shown}");
    }

    #[test]
    fn a_check_function_decides() {
        let inputs = [2.0_f64];
        let close = |a: &f64, b: &f64| (a - b).abs() < 1e-6;
        let show = |value: &f64| (&&Shown(value)).show();
        let sqrt = |x: &f64, ()| x.sqrt();
        let power = |x: &f64, ()| x.powf(0.5);
        let same = |x: &f64, ()| *x;
        let report = parts_with(
            "sqrt",
            &inputs,
            None,
            (sqrt, sqrt),
            (power, power),
            close,
            show,
            nothing,
            &quick(),
        )
        .unwrap();
        assert!(report.outputs_checked);
        let error = parts_with(
            "sqrt",
            &inputs,
            None,
            (sqrt, sqrt),
            (same, same),
            close,
            show,
            nothing,
            &quick(),
        )
        .unwrap_err();
        assert!(
            matches!(error, Error::Mismatch { input: 0, .. }),
            "{error:?}"
        );
    }
}
