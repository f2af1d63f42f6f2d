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
pub use crate::report::Report;
pub use crate::signature::{
    Arguments, ByMut, ByRef, ByValue, Callee, Checked, Fit, FitMatching, FitOther, FitPlain,
    Function, Matches, Plain, SameOutput, SameParameters, String, Vec, arguments, arguments_ref,
    callee,
};
pub use crate::stats::verdict::Expect;
pub use inventory;

use crate::check::{CheckWith, First, OutputCheck, truncate};
use crate::engine::compare::{compare_by_ref, compare_by_value};
use crate::engine::routine;
use crate::engine::tracked::TrackedFn;
use crate::error::{Phase, panic_message};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A count function for throughput, as the attribute's `flops = path` and
/// `bytes = path` name it: the count for one call on one input.
pub type CountFn<T> = fn(&T) -> u64;

/// The attribute's hook: runs the `flops` and `bytes` count functions over
/// the inputs and attaches the counts to the report. A panic in a count
/// function is caught and becomes the comparison's error, naming the input.
pub fn with_throughput<T>(
    result: Result<Report, Error>,
    inputs: &[T],
    flops: Option<CountFn<T>>,
    bytes: Option<CountFn<T>>,
) -> Result<Report, Error> {
    let mut report = result?;
    if let Some(count) = flops {
        report = report.with_flops(&counts(inputs, count, "flops")?);
    }
    if let Some(count) = bytes {
        report = report.with_bytes(&counts(inputs, count, "bytes")?);
    }
    Ok(report)
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

/// Functions whose parameters are all shared references (or none): each
/// call borrows the input case, and `check` compares the outputs.
pub fn by_ref<I, O, K, A, B>(
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
    compare_by_ref(label, inputs, check, original, candidate, config)
}

/// Functions taking a parameter by value or by `&mut`: each call consumes
/// its own clone of the input case, made before the clock starts, and
/// returns `(compared, kept)`: what `check` compares (the output, and the
/// `&mut` arguments after the call) and the parts of the case the call only
/// borrowed, so that they are dropped after the clock stops. `compared`
/// names the compared value in a failure message when it is not simply the
/// output.
pub fn by_value<I, O, L, K, A, B>(
    label: &str,
    inputs: &[I],
    check: K,
    compared: Option<&'static str>,
    original: A,
    candidate: B,
    config: &Config,
) -> Result<Report, Error>
where
    I: Clone,
    K: OutputCheck<O>,
    A: FnMut(I) -> (O, L),
    B: FnMut(I) -> (O, L),
{
    let check = First { check, compared };
    compare_by_value(label, inputs, check, original, candidate, config)
}

/// [`by_ref`] with the user's check function, `check = path`. The check
/// comes after the two functions so that the compiler knows the output type
/// when it reads `agree`: a check function of the wrong type is then
/// reported at its path, with the output type it should take.
pub fn by_ref_with<I, O, A, B, F, S>(
    label: &str,
    inputs: &[I],
    original: A,
    candidate: B,
    agree: F,
    show: S,
    config: &Config,
) -> Result<Report, Error>
where
    A: FnMut(&I) -> O,
    B: FnMut(&I) -> O,
    F: Fn(&O, &O) -> bool,
    S: Fn(&O) -> String,
{
    let check = CheckWith(agree, show);
    compare_by_ref(label, inputs, check, original, candidate, config)
}

/// [`by_value`] with the user's check function; see [`by_ref_with`].
#[allow(clippy::too_many_arguments)] // One per piece of the attribute.
pub fn by_value_with<I, O, L, A, B, F, S>(
    label: &str,
    inputs: &[I],
    compared: Option<&'static str>,
    original: A,
    candidate: B,
    agree: F,
    show: S,
    config: &Config,
) -> Result<Report, Error>
where
    I: Clone,
    A: FnMut(I) -> (O, L),
    B: FnMut(I) -> (O, L),
    F: Fn(&O, &O) -> bool,
    S: Fn(&O) -> String,
{
    let check = First {
        check: CheckWith(agree, show),
        compared,
    };
    compare_by_value(label, inputs, check, original, candidate, config)
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
) -> Result<Report, Error>
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

/// A tracked function taking a parameter by value or by `&mut`: each call
/// consumes its own clone of the input case, made before the clock starts,
/// and returns `(compared, kept)` as for [`by_value`]; `describe_output`
/// sees what is compared.
pub fn track_by_value<I, O, L, F, D, E>(
    inputs: Vec<I>,
    function: F,
    describe_input: D,
    describe_output: E,
) -> Opened
where
    I: Clone + 'static,
    O: 'static,
    L: 'static,
    F: FnMut(I) -> (O, L) + 'static,
    D: Fn(&I) -> Described + 'static,
    E: Fn(&O) -> Described + 'static,
{
    Ok(Box::new(TrackedFn {
        inputs,
        routine: routine::ByValue(function),
        describe_input,
        describe_output: move |(compared, _kept): &(O, L)| describe_output(compared),
    }))
}

/// Adds the input's rendering to a mismatch, so the failure shows which
/// case it was, cut to a readable length. `show` renders with `Debug` where
/// the input type has it (the expansion picks, see `Shown`).
pub fn show_input<I>(
    result: Result<Report, Error>,
    inputs: &[I],
    show: impl Fn(&I) -> String,
) -> Result<Report, Error> {
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

    fn quick() -> Config {
        Config {
            max_time: Duration::from_millis(20),
            ..Config::default()
        }
    }

    #[test]
    fn by_value_compares_only_the_first_part() {
        let inputs = [vec![3_u32, 1, 2]];
        let sort = |mut v: Vec<u32>| {
            v.sort();
            (v, "kept")
        };
        let report = by_value("sort", &inputs, Eq, None, sort, sort, &quick()).unwrap();
        assert!(report.outputs_checked);
    }

    #[test]
    fn a_mismatch_shows_the_input_and_what_was_compared() {
        let inputs = [vec![1_u32; 300], vec![3, 1, 2]];
        let error = show_input(
            by_value(
                "sort",
                &inputs,
                Eq,
                Some("`v` after the call"),
                |mut v: Vec<u32>| {
                    v.sort();
                    (v, ())
                },
                |v: Vec<u32>| (v, ()),
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
        let error = show_input(
            by_ref(
                "len",
                &inputs,
                Eq,
                |v: &Vec<u64>| v.len(),
                |_: &Vec<u64>| 0,
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
        let report = by_ref_with(
            "sqrt",
            &inputs,
            |x: &f64| x.sqrt(),
            |x: &f64| x.powf(0.5),
            close,
            show,
            &quick(),
        )
        .unwrap();
        assert!(report.outputs_checked);
        let error = by_value_with(
            "sqrt",
            &inputs,
            None,
            |x: f64| (x.sqrt(), ()),
            |x: f64| (x, ()),
            close,
            show,
            &quick(),
        )
        .unwrap_err();
        assert!(
            matches!(error, Error::Mismatch { input: 0, .. }),
            "{error:?}"
        );
    }
}
