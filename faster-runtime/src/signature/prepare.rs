//! Making ready, before the clock starts, what a call consumes (nothing for
//! a `Copy` argument, a clone of any other), and the owned value an output
//! that borrows is compared as.

use std::marker::PhantomData;

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
