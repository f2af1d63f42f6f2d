//! How `#[faster::compare]`'s expansion calls the two functions and hands
//! them each input, written so that a signature or input of the wrong type is
//! one compile error in this crate's words, at the attribute's token, instead
//! of rustc's "expected fn pointer, found fn item".
//!
//! - [`Callee::checked`] checks the original (and, for the same cost, the
//!   candidate) through [`Function`], which reads a function's parameters
//!   and output off its `Fn` implementation, and asks [`SameParameters`] and
//!   [`SameOutput`] whether they are the candidate's: each carries the
//!   message that names both types. [`Checked::call`] then calls it.
//! - [`arguments`] and [`arguments_ref`] take an input case apart into one
//!   argument per parameter; [`Arguments`] says so when the case is not a
//!   tuple of that many.
//! - [`Prepare`] makes what a call consumes ready before the clock starts:
//!   nothing for a `Copy` argument, which the call copies, the value a
//!   [`PerCall`] makes (the one public item here), a clone of any other;
//!   [`Take`] hands it to the call.
//! - [`Fit`] checks each argument against its parameter by method
//!   resolution: a case that fits, or whose type this crate cannot judge, is
//!   handed over unchanged (the call coerces it, `&Vec<u64>` to `&[u64]`, as
//!   any call does); one of a plain type that does not fit fails with
//!   [`Matches`]'s message.
//!
//! Not a public API: reached through `faster::__private`, and free to change
//! in any release together with the macro.

use std::marker::PhantomData;

mod arguments;
mod fit;
mod per_call;
mod prepare;

pub use arguments::{Arguments, arguments, arguments_ref};
pub use fit::{ByMut, ByRef, ByValue, Fit, FitMatching, FitOther, FitPlain, Matches, Plain};
pub use per_call::PerCall;
pub use prepare::{
    ArgumentClone, ArgumentMade, ArgumentOf, ArgumentOther, ArgumentType, Cloned, ClonedPerCall,
    Later, Made, OwnedOutput, Prepare, PrepareClone, PrepareCopy, PrepareMade, Take, owned, taken,
};

// The owned inputs the messages suggest (`Vec<u64>` for `&[u64]`), named
// through `faster::__private` so that the expansion resolves them in a
// `no_std` crate's tests too.
pub use std::string::String;
pub use std::vec::Vec;

/// A function the expansion can call for the candidate: its parameters and
/// output, read off its `Fn` implementation. Implemented for every safe
/// function of the Rust ABI with at most 12 parameters; `Args` is the tuple
/// of its parameter types, which rustc infers from the one implementation
/// whose arity fits.
#[diagnostic::on_unimplemented(
    message = "the original must be a safe Rust function like the candidate, and it is `{Self}`",
    label = "not a safe Rust function",
    note = "an `unsafe fn` original needs an `unsafe fn` candidate: annotating it vouches that every input meets the original's safety contract",
    note = "for an `extern` or `#[target_feature]` original, or one of more than 12 parameters, compare with a safe Rust function that calls it"
)]
pub trait Function<Args> {
    /// The parameters as the expansion passes them: the one parameter's type
    /// for a function of one, a tuple for several, `()` for none.
    type Params;
    /// The output type.
    type Output;

    /// Calls the function.
    fn call(&self, params: Self::Params) -> Self::Output;
}

/// The candidate's parameters `Self` are the original's `P`. Implemented
/// only when they are the same type.
///
/// `Self` is the candidate's, known from its signature, so that an original
/// generic over a parameter (`std::cmp::max`) is instantiated with it.
#[diagnostic::on_unimplemented(
    message = "the original takes `{P}`, and the candidate takes `{Self}`: both must take the same parameters",
    label = "takes `{P}`",
    note = "both are called with the same inputs; to compare functions whose parameters differ, compare the candidate with a wrapper that takes its parameters and calls the original (several parameters show as a tuple, none as `()`)"
)]
pub trait SameParameters<P> {
    /// The candidate's arguments, as the original's.
    fn into_original(self) -> P;
}

// `do_not_recommend`: rustc then reports this trait's message rather than
// explaining that the blanket impl wants `Self == P`.
#[diagnostic::do_not_recommend]
impl<T> SameParameters<T> for T {
    #[inline(always)]
    fn into_original(self) -> T {
        self
    }
}

/// The candidate's output `Self` is the original's `O`. Implemented only
/// when they are the same type.
#[diagnostic::on_unimplemented(
    message = "the original returns `{O}`, and the candidate returns `{Self}`: both must return the same type",
    label = "returns `{O}`",
    note = "the outputs are compared with each other; to compare functions whose outputs differ, compare the candidate with a wrapper that calls the original and converts its output"
)]
pub trait SameOutput<O> {
    /// The original's output, as the candidate's.
    fn from_original(output: O) -> Self;
}

#[diagnostic::do_not_recommend]
impl<T> SameOutput<T> for T {
    #[inline(always)]
    fn from_original(output: T) -> T {
        output
    }
}

/// A function to call as the candidate is called: [`callee`], then
/// [`Callee::checked`], then [`Checked::call`].
pub struct Callee<'f, F>(&'f F);

/// Starts a call of `function`; see [`Callee::checked`].
#[inline(always)]
pub fn callee<F>(function: &F) -> Callee<'_, F> {
    Callee(function)
}

impl<'f, F> Callee<'f, F> {
    /// Checks that the function takes the candidate's parameters `P` and
    /// returns its output `O`, to call it with them.
    ///
    /// The expansion names `P` and `O` from the candidate's signature and
    /// lets rustc infer `Args` from the function, whose type is known by
    /// then (it is the receiver's): the function's own parameters and output
    /// are read off its `Fn` implementation before they are compared, so a
    /// function of another signature fails one bound, [`SameParameters`] or
    /// [`SameOutput`], whose message names both types, and a generic one is
    /// instantiated at the candidate's types.
    ///
    /// The expansion checks in the first statement of each call's closure,
    /// before it takes the input case apart into arguments: rustc then
    /// reports a mismatch of the signatures before what it causes (input
    /// cases that fit the original and not the candidate).
    #[inline(always)]
    pub fn checked<Args, P, O>(self) -> Checked<'f, F, Args, P, O>
    where
        F: Function<Args>,
        P: SameParameters<F::Params>,
        O: SameOutput<F::Output>,
    {
        Checked {
            function: self.0,
            signature: PhantomData,
        }
    }
}

/// A function checked to take the candidate's parameters `P` and return
/// its output `O` (its own parameters are `Args`).
pub struct Checked<'f, F, Args, P, O> {
    function: &'f F,
    signature: PhantomData<fn(Args, P) -> O>,
}

impl<F, Args, P, O> Checked<'_, F, Args, P, O> {
    /// Calls the function with `params` and returns its output, as the
    /// candidate's types. Both functions are called through it, so that
    /// both pay the same (in an optimized build, nothing: it inlines to a
    /// direct call).
    ///
    /// The bounds are [`Callee::checked`]'s again: when they fail there,
    /// rustc reports them once, at the same token.
    #[inline(always)]
    pub fn call(self, params: P) -> O
    where
        F: Function<Args>,
        P: SameParameters<F::Params>,
        O: SameOutput<F::Output>,
    {
        O::from_original(self.function.call(params.into_original()))
    }

    /// The function itself, for the expansion to take its address once
    /// rustc has instantiated it (a generic original at the candidate's
    /// types, which a cast of its bare path could not be).
    #[inline(always)]
    pub fn function(&self) -> F
    where
        F: Copy,
    {
        *self.function
    }
}

#[diagnostic::do_not_recommend]
impl<F, O> Function<()> for F
where
    F: Fn() -> O,
{
    type Params = ();
    type Output = O;

    #[inline(always)]
    fn call(&self, (): ()) -> O {
        self()
    }
}

#[diagnostic::do_not_recommend]
impl<F, A, O> Function<(A,)> for F
where
    F: Fn(A) -> O,
{
    // A function of one parameter takes it bare, as the candidate's
    // signature names it, and as messages show it.
    type Params = A;
    type Output = O;

    #[inline(always)]
    fn call(&self, param: A) -> O {
        self(param)
    }
}

/// `Function` for two parameters and more: `$param` names their types,
/// `$at` the tuple fields they are passed in.
macro_rules! function {
    ($($param:ident $at:tt),*) => {
        #[diagnostic::do_not_recommend]
        impl<F, $($param,)* O> Function<($($param,)*)> for F
        where
            F: Fn($($param),*) -> O,
        {
            type Params = ($($param,)*);
            type Output = O;

            #[inline(always)]
            fn call(&self, params: Self::Params) -> O {
                self($(params.$at),*)
            }
        }
    };
}

function!(A 0, B 1);
function!(A 0, B 1, C 2);
function!(A 0, B 1, C 2, D 3);
function!(A 0, B 1, C 2, D 3, E 4);
function!(A 0, B 1, C 2, D 3, E 4, G 5);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7, J 8);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7, J 8, K 9);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7, J 8, K 9, L 10);
function!(A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7, J 8, K 9, L 10, M 11);

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(v: &[u64]) -> u64 {
        v.iter().sum()
    }

    fn scale(v: &[u64], k: u64) -> Vec<u64> {
        v.iter().map(|x| x * k).collect()
    }

    fn answer() -> u32 {
        42
    }

    #[test]
    fn calls_functions_of_each_arity_with_the_candidates_types() {
        let input = vec![1_u64, 2, 3];
        // `&Vec<u64>` coerces to the named parameter type `&[u64]`.
        assert_eq!(callee(&sum).checked::<_, &[u64], u64>().call(&input), 6);
        assert_eq!(
            callee(&scale)
                .checked::<_, (&[u64], u64), Vec<u64>>()
                .call((&input, 2)),
            [2, 4, 6]
        );
        assert_eq!(callee(&answer).checked::<_, (), u32>().call(()), 42);
        type Twelve = (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8);
        let all = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        assert_eq!(callee(&twelve).checked::<_, Twelve, u32>().call(all), 78);
    }

    #[allow(clippy::too_many_arguments)] // The most `Function` supports.
    fn twelve(
        a: u8,
        b: u8,
        c: u8,
        d: u8,
        e: u8,
        f: u8,
        g: u8,
        h: u8,
        i: u8,
        j: u8,
        k: u8,
        l: u8,
    ) -> u32 {
        [a, b, c, d, e, f, g, h, i, j, k, l]
            .iter()
            .map(|&x| u32::from(x))
            .sum()
    }

    #[test]
    fn generic_originals_are_instantiated_by_the_candidates_types() {
        assert_eq!(
            callee(&std::cmp::max)
                .checked::<_, (u32, u32), u32>()
                .call((3, 7)),
            7
        );
        let double = |x: u64| x * 2;
        assert_eq!(callee(&double).checked::<_, u64, u64>().call(4), 8);
    }

    #[test]
    fn cases_are_taken_apart_by_value_or_by_reference() {
        let case = (vec![1_u64, 2], 3_usize);
        let parts: &(Vec<u64>, usize) = arguments_ref::<2, (&[u64], usize), _, _>(&case);
        assert_eq!(parts.1, 3);
        let parts = arguments::<2, (&[u64], usize), _, _>(case.clone());
        assert_eq!(parts, case);
    }

    #[test]
    // The references choose the route, as in the expansion; clippy sees
    // only that the route taken here needs none.
    #[allow(clippy::needless_borrow)]
    fn every_route_hands_the_value_over_unchanged() {
        // Borrows as the parameter's type: the first route.
        let owned = vec![1_u64, 2];
        let lent = (&&&Fit::<_, ByRef, &[u64], Vec<u64>>::of(&owned)).faster_argument(&owned);
        assert_eq!(sum(lent), 3);
        // A type of the user's that derefs to it: the third route, and the
        // call's coercion.
        struct Wrapper(Vec<u64>);
        impl std::ops::Deref for Wrapper {
            type Target = [u64];
            fn deref(&self) -> &[u64] {
                &self.0
            }
        }
        let wrapped = Wrapper(vec![4, 5]);
        let lent = (&&&Fit::<_, ByRef, &[u64], Vec<u64>>::of(&wrapped)).faster_argument(&wrapped);
        assert_eq!(sum(lent), 9);
        // By `&mut` and by value.
        let mut buffer = [3_u64, 1, 2];
        let lent =
            (&&&Fit::<_, ByMut, &mut [u64], Vec<u64>>::of(&buffer)).faster_argument(&mut buffer);
        lent.sort_unstable();
        assert_eq!(buffer, [1, 2, 3]);
        let given = (&&&Fit::<_, ByValue, u64, u64>::of(&7_u64)).faster_argument(7_u64);
        assert_eq!(given, 7);
    }

    #[test]
    // The references choose the route, as in the expansion.
    #[allow(clippy::needless_borrow)]
    fn copy_parts_are_copied_by_the_call_and_others_cloned_before() {
        let needle = 7_i64;
        let later = (&&Prepare(&needle)).faster_prepare();
        assert_eq!(size_of_val(&later), 0);
        assert_eq!(Take::faster_take(later, &needle), 7);
        let haystack = vec![1_i64, 2];
        let cloned = (&&Prepare(&haystack)).faster_prepare();
        assert_eq!(Take::faster_take(cloned, &haystack), haystack);
        assert_eq!(owned("text"), "text".to_string());
    }
}
