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
//!   nothing for a `Copy` argument, which the call copies, a clone of any
//!   other; [`Take`] hands it to the call.
//! - [`Fit`] checks each argument against its parameter by method
//!   resolution: a case that fits, or whose type this crate cannot judge, is
//!   handed over unchanged (the call coerces it, `&Vec<u64>` to `&[u64]`, as
//!   any call does); one of a plain type that does not fit fails with
//!   [`Matches`]'s message.
//!
//! Not a public API: reached through `faster::__private`, and free to change
//! in any release together with the macro.

use std::borrow::{Borrow, BorrowMut};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;

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

/// An input case of a function of `N` parameters `Params` is a tuple of `N`
/// arguments, `Parts`.
#[diagnostic::on_unimplemented(
    message = "`inputs` yields `{Self}`, and the candidate takes {N} parameters, `{Params}`: each item must be a tuple of {N} arguments",
    label = "yields `{Self}`",
    note = "each item is one input case, its arguments in the candidate's order: for the parameters `(&[u64], usize)`, a `(Vec<u64>, usize)`"
)]
pub trait Arguments<const N: usize, Params, Parts> {
    /// The case by value, for parameters taken by value or by `&mut`.
    fn into_parts(self) -> Parts;

    /// The case borrowed, for parameters that are all shared references.
    fn as_parts(&self) -> &Parts;
}

/// Takes an owned input case apart. `Parts` is the case itself when it is a
/// tuple of `N`; when it is not, the bound fails with [`Arguments`]'s message
/// and `Parts` stays unknown, so rustc reports nothing more about the
/// arguments taken from it.
#[inline(always)]
pub fn arguments<const N: usize, Params, T, Parts>(case: T) -> Parts
where
    T: Arguments<N, Params, Parts>,
{
    case.into_parts()
}

/// [`arguments`] for a borrowed case.
#[inline(always)]
pub fn arguments_ref<const N: usize, Params, T, Parts>(case: &T) -> &Parts
where
    T: Arguments<N, Params, Parts>,
{
    case.as_parts()
}

macro_rules! arguments {
    ($count:literal; $($part:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($part,)* Params> Arguments<$count, Params, ($($part,)*)> for ($($part,)*) {
            #[inline(always)]
            fn into_parts(self) -> Self {
                self
            }

            #[inline(always)]
            fn as_parts(&self) -> &Self {
                self
            }
        }
    };
}

arguments!(2; A, B);
arguments!(3; A, B, C);
arguments!(4; A, B, C, D);
arguments!(5; A, B, C, D, E);
arguments!(6; A, B, C, D, E, G);
arguments!(7; A, B, C, D, E, G, H);
arguments!(8; A, B, C, D, E, G, H, I);
arguments!(9; A, B, C, D, E, G, H, I, J);
arguments!(10; A, B, C, D, E, G, H, I, J, K);
arguments!(11; A, B, C, D, E, G, H, I, J, K, L);
arguments!(12; A, B, C, D, E, G, H, I, J, K, L, M);

/// A parameter taken by shared reference, `&T`.
pub struct ByRef;
/// A parameter taken by `&mut T`.
pub struct ByMut;
/// A parameter taken by value.
pub struct ByValue;

/// An input value of type `Self` fits a parameter of type `Param`, taken
/// the way `M` says: for `&T`, `Self` borrows as `T` (`Vec<u64>` for
/// `&[u64]`, `String` for `&str`, `T` itself); for `&mut T`, it borrows
/// mutably as `T`; by value, it is `Param`. `Owned` is the value to suggest.
///
/// For the types of [`Plain`] that is exactly when the call compiles; for
/// others (a type of the user's with `Deref`, a `Box` to unsize) the call's
/// own coercion decides, and this trait is not asked.
#[diagnostic::on_unimplemented(
    message = "`inputs` yields `{Self}` where the candidate takes `{Param}`: yield `{Owned}` instead",
    label = "yields `{Self}`",
    note = "an input for a parameter `&T` or `&mut T` is a `T`, or what borrows as one (a `Vec<T>` for `&[T]`, a `String` for `&str`); for a parameter `T`, a `T`; with several parameters, a tuple with one per parameter"
)]
pub trait Matches<Param, M, Owned: ?Sized> {}

#[diagnostic::do_not_recommend]
impl<'a, X, T, Owned> Matches<&'a T, ByRef, Owned> for X
where
    X: Borrow<T> + ?Sized,
    T: ?Sized + 'a,
    Owned: ?Sized,
{
}

#[diagnostic::do_not_recommend]
impl<'a, X, T, Owned> Matches<&'a mut T, ByMut, Owned> for X
where
    X: BorrowMut<T> + ?Sized,
    T: ?Sized + 'a,
    Owned: ?Sized,
{
}

#[diagnostic::do_not_recommend]
impl<X, Owned: ?Sized> Matches<X, ByValue, Owned> for X {}

/// Types that never deref or unsize into anything but what `Borrow` and
/// `BorrowMut` already say (`Vec<T>` into `[T]`, `[T; N]` into `[T]`,
/// `String` into `str`, each type into itself): for them a mismatch with a
/// parameter is certain, and [`Fit`] reports it. Parameters of `dyn Trait`
/// type, the one other coercion of a reference to these, are not checked.
pub trait Plain {}

macro_rules! plain {
    ($($ty:ty),* $(,)?) => {
        $(impl Plain for $ty {})*
    };
}

plain!(
    (),
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    String,
);
impl<T> Plain for Vec<T> {}
impl<T, const N: usize> Plain for [T; N] {}
impl<T> Plain for Option<T> {}
impl<T, E> Plain for Result<T, E> {}
impl<T> Plain for VecDeque<T> {}
impl<T> Plain for LinkedList<T> {}
impl<T> Plain for BinaryHeap<T> {}
impl<T, S> Plain for HashSet<T, S> {}
impl<K, V, S> Plain for HashMap<K, V, S> {}
impl<T> Plain for BTreeSet<T> {}
impl<K, V> Plain for BTreeMap<K, V> {}

macro_rules! plain_tuples {
    ($(($($part:ident),*)),* $(,)?) => {
        $(impl<$($part),*> Plain for ($($part,)*) {})*
    };
}

plain_tuples!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, G),
    (A, B, C, D, E, G, H),
    (A, B, C, D, E, G, H, I),
    (A, B, C, D, E, G, H, I, J),
    (A, B, C, D, E, G, H, I, J, K),
    (A, B, C, D, E, G, H, I, J, K, L),
    (A, B, C, D, E, G, H, I, J, K, L, M),
);

/// One argument, of type `X`, for a parameter of type `Param` taken the way
/// `M` says. The expansion writes
/// `(&&&Fit::<_, M, Param, Owned>::of(&value)).faster_argument(value)`, and
/// method resolution picks the first of three routes whose bounds hold,
/// from the most references down:
///
/// 1. [`FitMatching`]: `X` [`Matches`] `Param`: the value as it is.
/// 2. [`FitPlain`]: `X` is [`Plain`], so it cannot fit: the bound of its
///    method fails with [`Matches`]'s message. It returns a `Param`, so the
///    call has nothing more to report.
/// 3. [`FitOther`]: any other type: the value as it is, for the call's
///    coercion to judge (and rustc to report, if it does not fit).
///
/// A value whose type is not known yet (an `inputs` function generic over
/// its item) takes the first route, and the call's coercion infers it.
pub struct Fit<X: ?Sized, M, Param, Owned: ?Sized>(Types<X, M, Param, Owned>);

/// All a [`Fit`] holds: its types.
type Types<X, M, Param, Owned> = PhantomData<fn(&X, &Owned) -> (M, Param)>;

impl<X: ?Sized, M, Param, Owned: ?Sized> Fit<X, M, Param, Owned> {
    /// The check for `value`'s type.
    #[inline(always)]
    pub fn of(_: &X) -> Self {
        Fit(PhantomData)
    }
}

/// The first route of [`Fit`]: the value fits.
pub trait FitMatching {
    /// `value`, unchanged.
    fn faster_argument<V>(&self, value: V) -> V;
}

impl<X, M, Param, Owned> FitMatching for &&Fit<X, M, Param, Owned>
where
    X: Matches<Param, M, Owned> + ?Sized,
    Owned: ?Sized,
{
    #[inline(always)]
    fn faster_argument<V>(&self, value: V) -> V {
        value
    }
}

/// The second route of [`Fit`]: a [`Plain`] value that does not fit.
pub trait FitPlain<X: ?Sized, M, Param, Owned: ?Sized> {
    /// Fails to compile, with [`Matches`]'s message.
    fn faster_argument<V>(&self, value: V) -> Param
    where
        X: Matches<Param, M, Owned>;
}

impl<X, M, Param, Owned> FitPlain<X, M, Param, Owned> for &Fit<X, M, Param, Owned>
where
    X: Plain + ?Sized,
    Owned: ?Sized,
{
    fn faster_argument<V>(&self, _: V) -> Param
    where
        X: Matches<Param, M, Owned>,
    {
        // Method resolution reaches this route only when `X` does not match
        // (the first route wins otherwise), and then the bound above does
        // not hold and the program does not compile: nothing runs this.
        unreachable!("`faster_argument` of a value that does not fit its parameter")
    }
}

/// The third route of [`Fit`]: a type this crate cannot judge.
pub trait FitOther {
    /// `value`, unchanged.
    fn faster_argument<V>(&self, value: V) -> V;
}

impl<X, M, Param, Owned> FitOther for Fit<X, M, Param, Owned>
where
    X: ?Sized,
    Owned: ?Sized,
{
    #[inline(always)]
    fn faster_argument<V>(&self, value: V) -> V {
        value
    }
}

/// A part of an input case that one call consumes — the argument of a
/// parameter taken by value or by `&mut` — as it is made ready before the
/// clock starts. The expansion writes `(&&Prepare(&part)).faster_prepare()`,
/// and method resolution picks the first of two routes whose bounds hold:
///
/// 1. [`PrepareCopy`]: the part is `Copy`: [`Later`], nothing, and the
///    call copies the part itself, as any call copies its arguments; so an
///    `i64` taken by value never makes anything else of the case cloned.
/// 2. [`PrepareClone`]: any other type: [`Cloned`], a clone of it, or, for
///    a type that cannot be cloned, [`ClonedPerCall`]'s message.
///
/// The call then takes its argument with [`Take::take`].
pub struct Prepare<'a, T>(pub &'a T);

/// A `Copy` part, copied by the call itself: of no size, so a case whose
/// consumed parts are all `Copy` prepares nothing.
pub struct Later<T>(PhantomData<fn() -> T>);

/// A clone of a part, made before the clock starts, for one call.
pub struct Cloned<T>(T);

/// The first route of [`Prepare`]: a `Copy` part.
pub trait PrepareCopy<T> {
    /// Nothing: the call copies the part.
    fn faster_prepare(&self) -> Later<T>;
}

impl<T: Copy> PrepareCopy<T> for &Prepare<'_, T> {
    #[inline(always)]
    fn faster_prepare(&self) -> Later<T> {
        Later(PhantomData)
    }
}

/// The second route of [`Prepare`]: a part to clone.
pub trait PrepareClone<T> {
    /// A clone of the part.
    fn faster_prepare(&self) -> Cloned<T>
    where
        T: ClonedPerCall;
}

impl<T> PrepareClone<T> for Prepare<'_, T> {
    #[inline(always)]
    fn faster_prepare(&self) -> Cloned<T>
    where
        T: ClonedPerCall,
    {
        Cloned(self.0.clone_for_call())
    }
}

/// A part taken by value or by `&mut` is cloned for every call, so that
/// every call starts from the same input.
#[diagnostic::on_unimplemented(
    message = "the candidate takes `{Self}` by value or by `&mut`, so every call gets its own clone of the input's `{Self}`, and `{Self}` does not implement `Clone`",
    label = "cloned for every call",
    note = "derive or implement `Clone` for it, or take the parameter by shared reference (`&{Self}`), which every call borrows from the input"
)]
pub trait ClonedPerCall: Sized {
    /// A clone of `self`.
    fn clone_for_call(&self) -> Self;
}

#[diagnostic::do_not_recommend]
impl<T: Clone> ClonedPerCall for T {
    #[inline(always)]
    fn clone_for_call(&self) -> T {
        self.clone()
    }
}

/// The argument a call takes for a part of the case from what
/// [`Prepare`] made: the part copied, or its clone.
pub trait Take<T> {
    /// The argument.
    fn take(self, part: &T) -> T;
}

impl<T: Copy> Take<T> for Later<T> {
    #[inline(always)]
    fn take(self, part: &T) -> T {
        *part
    }
}

impl<T> Take<T> for Cloned<T> {
    #[inline(always)]
    fn take(self, _: &T) -> T {
        self.0
    }
}

/// What an output that borrows from the input (`&str` from a method's
/// buffer) is compared as: the value it points to, owned, made after the
/// call and before the check, never in the timed region.
#[diagnostic::on_unimplemented(
    message = "the output is a reference to `{Self}`, which is compared after the call as an owned value, and `{Self}` cannot be made owned",
    label = "compared as an owned `{Self}`",
    note = "implement `Clone` for it (or `ToOwned`), or return an owned value from a wrapper and annotate the wrapper"
)]
pub trait OwnedOutput {
    /// The owned value.
    type Owned;

    /// An owned copy of the value.
    fn owned_output(&self) -> Self::Owned;
}

#[diagnostic::do_not_recommend]
impl<T: ToOwned + ?Sized> OwnedOutput for T {
    type Owned = T::Owned;

    #[inline(always)]
    fn owned_output(&self) -> T::Owned {
        self.to_owned()
    }
}

/// The owned value of an output that borrows; see [`OwnedOutput`].
#[inline(always)]
pub fn owned<T: OwnedOutput + ?Sized>(output: &T) -> T::Owned {
    output.owned_output()
}

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
        assert_eq!(Take::take(later, &needle), 7);
        let haystack = vec![1_i64, 2];
        let cloned = (&&Prepare(&haystack)).faster_prepare();
        assert_eq!(Take::take(cloned, &haystack), haystack);
        assert_eq!(owned("text"), "text".to_string());
    }
}
