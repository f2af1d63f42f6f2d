//! Whether each argument fits its parameter, judged by method resolution:
//! a plain type that cannot fit is one message naming both types; any
//! other is handed to the call's own coercion.

use std::borrow::{Borrow, BorrowMut};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;

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
