//! Making ready, before the clock starts, what a call consumes (nothing for
//! a `Copy` argument, the value a [`PerCall`] makes, a clone of any other),
//! and the owned value an output that borrows is compared as.

use super::PerCall;
use std::marker::PhantomData;

/// A part of an input case that one call consumes — the argument of a
/// parameter taken by value or by `&mut` — as it is made ready before the
/// clock starts. The expansion writes `(&&Prepare(&part)).faster_prepare()`,
/// and method resolution picks the first of these routes whose bounds hold:
///
/// 1. [`PrepareCopy`]: the part is `Copy`: [`Later`], nothing, and the
///    call copies the part itself, as any call copies its arguments; so an
///    `i64` taken by value never makes anything else of the case cloned.
///    Next, [`PrepareMade`], for a [`PerCall`] part (never `Copy`):
///    [`Made`], the value it makes.
/// 2. [`PrepareClone`]: any other type: [`Cloned`], a clone of it, or, for
///    a type that cannot be cloned, [`ClonedPerCall`]'s message.
///
/// The call then takes its argument with [`Take::faster_take`].
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

/// A value a [`PerCall`] made, before the clock starts, for one call.
pub struct Made<T>(T);

/// The first route of [`Prepare`] for a [`PerCall`] part.
pub trait PrepareMade<T> {
    /// The value it makes.
    fn faster_prepare(&self) -> Made<T>;
}

// At the step after `PrepareCopy`'s (an autoref of its receiver): a part
// whose type is not known yet when the call is read (a generic `inputs`
// function's) takes the `Copy` route, as it always has.
impl<T> PrepareMade<T> for &&Prepare<'_, PerCall<T>> {
    #[inline(always)]
    fn faster_prepare(&self) -> Made<T> {
        Made(self.0.make())
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
    message = "the function takes `{Self}` by value or by `&mut`, so every call gets its own `{Self}`, cloned from the input's, and `{Self}` does not implement `Clone`",
    label = "cloned for every call",
    note = "derive or implement `Clone` for it; or, where it cannot be (a trait fixes the parameter, another crate owns the type), make one per call: put `faster::PerCall::new(|| ...)` in the input case, whose function makes the `{Self}` each call consumes"
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

/// The argument a call takes for a part of the case, `Part`, from what
/// [`Prepare`] made: the part copied, the value a [`PerCall`] made, or a
/// clone.
pub trait Take<Part> {
    /// The argument's type: the part's, or what a [`PerCall`] makes.
    type Argument;

    /// The argument.
    fn faster_take(self, part: &Part) -> Self::Argument;
}

impl<T: Copy> Take<T> for Later<T> {
    type Argument = T;

    #[inline(always)]
    fn faster_take(self, part: &T) -> T {
        *part
    }
}

impl<T> Take<T> for Cloned<T> {
    type Argument = T;

    #[inline(always)]
    fn faster_take(self, _: &T) -> T {
        self.0
    }
}

impl<T> Take<PerCall<T>> for Made<T> {
    type Argument = T;

    #[inline(always)]
    fn faster_take(self, _: &PerCall<T>) -> T {
        self.0
    }
}

/// The type of the argument a part of the case gives, read off the part
/// alone: the calls are read before what [`Prepare`] made for them (the
/// closure that makes it is passed after them), so its type cannot say.
/// The expansion writes `(&&ArgumentOf(&part)).faster_argument()`, and
/// method resolution picks the first of these routes whose bounds hold:
///
/// 1. [`ArgumentClone`]: a `Clone` (or `Copy`) part, or one whose type is
///    not known yet (a generic `inputs` function's): its own type.
/// 2. [`ArgumentMade`]: a [`PerCall`]: the type it makes.
/// 3. [`ArgumentOther`]: any other part: its own type, which [`Prepare`]
///    then refuses with [`ClonedPerCall`]'s message.
///
/// [`taken`] then hands the argument over as that type.
pub struct ArgumentOf<'a, T>(pub &'a T);

/// The type `A` of an argument, as [`ArgumentOf`] found it.
pub struct ArgumentType<A>(PhantomData<fn() -> A>);

/// The first route of [`ArgumentOf`].
pub trait ArgumentClone<T> {
    /// The part's own type.
    fn faster_argument(&self) -> ArgumentType<T>;
}

impl<T: Clone> ArgumentClone<T> for &ArgumentOf<'_, T> {
    #[inline(always)]
    fn faster_argument(&self) -> ArgumentType<T> {
        ArgumentType(PhantomData)
    }
}

/// The second route of [`ArgumentOf`].
pub trait ArgumentMade<T> {
    /// What the [`PerCall`] makes.
    fn faster_argument(&self) -> ArgumentType<T>;
}

impl<T> ArgumentMade<T> for &&ArgumentOf<'_, PerCall<T>> {
    #[inline(always)]
    fn faster_argument(&self) -> ArgumentType<T> {
        ArgumentType(PhantomData)
    }
}

/// The third route of [`ArgumentOf`].
pub trait ArgumentOther<T> {
    /// The part's own type.
    fn faster_argument(&self) -> ArgumentType<T>;
}

impl<T> ArgumentOther<T> for ArgumentOf<'_, T> {
    #[inline(always)]
    fn faster_argument(&self) -> ArgumentType<T> {
        ArgumentType(PhantomData)
    }
}

/// The argument `prepared` gives for `part`, as the type `ArgumentOf`
/// found, so that the call's code knows it before it uses it.
#[inline(always)]
pub fn taken<Part, A, P: Take<Part, Argument = A>>(
    prepared: P,
    part: &Part,
    _: ArgumentType<A>,
) -> A {
    prepared.faster_take(part)
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
