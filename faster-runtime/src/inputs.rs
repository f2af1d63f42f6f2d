//! What `inputs = path` must name, a function without parameters that
//! returns the cases (`fn() -> impl IntoIterator<Item = Case>`), and how
//! the expansion collects them: a static, a constant or a function of
//! another shape is one error at the path in this crate's words, naming the
//! case type the function takes, instead of rustc's "expected an `FnOnce()`
//! closure" and the errors that an unknown case type then causes wherever
//! the cases are used.
//!
//! The expansion writes `(&&Inputs::<_, Case>::of(&path)).faster_inputs(path)`,
//! and method resolution picks the first of two routes whose bounds hold:
//!
//! 1. [`InputsByFunction`]: `path` is such a function: its cases, collected.
//! 2. [`InputsOther`]: anything else: the bound of its method fails with
//!    [`InputsFunction`]'s message. It returns `Vec<Case>`, so the code that
//!    uses the cases has nothing more to report.
//!
//! A generic function (`fn cases<T>() -> Vec<T>`) takes the first route and
//! is instantiated where its cases are used. `#[faster::compare_gpu]`'s
//! inputs, `fn(&Gpu) -> impl IntoIterator<Item = Case>`, are sorted the
//! same way by routes of their own ([`GpuInputsByFunction`],
//! [`GpuInputsOther`]), whose message names that shape.
//!
//! Not a public API: reached through `faster::__private`, and free to change
//! in any release together with the macro.

use crate::error::{Error, Phase, panic_message};
#[cfg(feature = "gpu")]
use crate::gpu::Gpu;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Calls the attribute's `inputs` function and collects its items, catching
/// a panic in it.
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

/// `F` is what `inputs = ...` names: a function without parameters that
/// returns the cases. `Case` is the case the candidate takes, for the
/// message.
#[diagnostic::on_unimplemented(
    message = "`inputs` takes a function that returns the cases, `fn() -> impl IntoIterator<Item = {Case}>`, and this is a `{Self}`",
    label = "not a function that returns the cases",
    note = "write `fn cases() -> Vec<{Case}>` returning them and name it in `inputs`; for cases kept in a static or a constant, return them from such a function (`CASES.to_vec()`, or `vec![CASE.to_vec()]` for one case)"
)]
pub trait InputsFunction<Case: ?Sized> {}

#[diagnostic::do_not_recommend]
impl<F, It, Case: ?Sized> InputsFunction<Case> for F
where
    F: FnOnce() -> It,
    It: IntoIterator,
{
}

/// The `inputs = path` of a candidate whose cases are `Case`; see the
/// module's documentation.
pub struct Inputs<F, Case: ?Sized>(PhantomData<fn(&F) -> *const Case>);

impl<F, Case: ?Sized> Inputs<F, Case> {
    /// What method resolution picks a route for, by `path`'s type.
    #[inline(always)]
    pub fn of(_: &F) -> Self {
        Inputs(PhantomData)
    }
}

/// The first route of [`Inputs`]: a function that returns the cases.
pub trait InputsByFunction<F, It: IntoIterator> {
    /// Calls `make` and collects its cases, catching a panic in it.
    fn faster_inputs(&self, make: F) -> Result<Vec<It::Item>, Error>;
}

impl<F, It, Case: ?Sized> InputsByFunction<F, It> for &Inputs<F, Case>
where
    F: FnOnce() -> It,
    It: IntoIterator,
{
    fn faster_inputs(&self, make: F) -> Result<Vec<It::Item>, Error> {
        collect_inputs(make)
    }
}

/// The second route of [`Inputs`]: anything else.
pub trait InputsOther<F, Case: ?Sized> {
    /// Fails to compile, with [`InputsFunction`]'s message.
    fn faster_inputs<V>(&self, value: V) -> Result<Vec<Case>, Error>
    where
        F: InputsFunction<Case>,
        Case: Sized;
}

impl<F, Case: ?Sized> InputsOther<F, Case> for Inputs<F, Case> {
    fn faster_inputs<V>(&self, _: V) -> Result<Vec<Case>, Error>
    where
        F: InputsFunction<Case>,
        Case: Sized,
    {
        // Method resolution reaches this route only when `F` is not such a
        // function (the first route wins otherwise), and then the bound
        // above does not hold and the program does not compile: nothing
        // runs this.
        unreachable!("`faster_inputs` of a value that is not an inputs function")
    }
}

/// `F` is what `#[faster::compare_gpu]`'s `inputs = ...` names: a function
/// that makes the cases on the device. `Case` is the case the record
/// functions take, for the message.
#[cfg(feature = "gpu")]
#[diagnostic::on_unimplemented(
    message = "`inputs` takes a function that makes the cases on the device, `fn(&faster::gpu::Gpu) -> impl IntoIterator<Item = {Case}>`, and this is a `{Self}`",
    label = "not a function that makes the cases",
    note = "write `fn cases(gpu: &faster::gpu::Gpu) -> Vec<{Case}>` creating their buffers on `gpu.device()`, and name it in `inputs`"
)]
pub trait GpuInputsFunction<Case: ?Sized> {}

#[cfg(feature = "gpu")]
#[diagnostic::do_not_recommend]
impl<F, It, Case: ?Sized> GpuInputsFunction<Case> for F
where
    F: FnOnce(&Gpu) -> It,
    It: IntoIterator,
{
}

/// The first route of [`Inputs`] for kernels: a function that makes the
/// cases on the device.
#[cfg(feature = "gpu")]
pub trait GpuInputsByFunction<'g, F, It: IntoIterator> {
    /// Calls `make` with `gpu` and collects its cases, catching a panic in
    /// it.
    fn faster_gpu_inputs(&self, make: F, gpu: &'g Gpu) -> Result<Vec<It::Item>, Error>;
}

#[cfg(feature = "gpu")]
impl<'g, F, It, Case: ?Sized> GpuInputsByFunction<'g, F, It> for &Inputs<F, Case>
where
    F: FnOnce(&'g Gpu) -> It,
    It: IntoIterator,
{
    fn faster_gpu_inputs(&self, make: F, gpu: &'g Gpu) -> Result<Vec<It::Item>, Error> {
        collect_inputs(|| make(gpu))
    }
}

/// The second route of [`Inputs`] for kernels: anything else.
#[cfg(feature = "gpu")]
pub trait GpuInputsOther<F, Case: ?Sized> {
    /// Fails to compile, with [`GpuInputsFunction`]'s message.
    fn faster_gpu_inputs<V>(&self, value: V, gpu: &Gpu) -> Result<Vec<Case>, Error>
    where
        F: GpuInputsFunction<Case>,
        Case: Sized;
}

#[cfg(feature = "gpu")]
impl<F, Case: ?Sized> GpuInputsOther<F, Case> for Inputs<F, Case> {
    fn faster_gpu_inputs<V>(&self, _: V, _: &Gpu) -> Result<Vec<Case>, Error>
    where
        F: GpuInputsFunction<Case>,
        Case: Sized,
    {
        // As for `InputsOther`: the bound above does not hold when this
        // route is taken, so nothing runs this.
        unreachable!("`faster_gpu_inputs` of a value that is not an inputs function")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases() -> Vec<Vec<u64>> {
        vec![vec![1, 2], vec![3]]
    }

    fn generic_cases<T: From<u8>>() -> [T; 2] {
        [T::from(1), T::from(2)]
    }

    #[test]
    fn a_function_s_cases_are_collected_whatever_it_returns() {
        let collected = (&&Inputs::<_, Vec<u64>>::of(&cases)).faster_inputs(cases);
        assert_eq!(collected.unwrap(), cases());
        // An array, instantiated by the type the cases are used as.
        let collected = (&&Inputs::<_, u32>::of(&generic_cases)).faster_inputs(generic_cases);
        let collected: Vec<u32> = collected.unwrap();
        assert_eq!(collected, [1, 2]);
        // A range, through a pointer.
        let range: fn() -> std::ops::Range<u8> = || 0..3;
        let collected = (&&Inputs::<_, u8>::of(&range)).faster_inputs(range);
        assert_eq!(collected.unwrap(), [0, 1, 2]);
    }

    #[test]
    fn a_panic_in_the_inputs_function_is_an_error_of_the_inputs_phase() {
        let panicking = || -> Vec<u64> { panic!("no inputs today") };
        let error = collect_inputs(panicking).unwrap_err();
        assert!(
            matches!(&error, Error::Panicked { during: Phase::Inputs, input: None, message }
                if message.contains("no inputs today")),
            "{error:?}"
        );
    }
}
