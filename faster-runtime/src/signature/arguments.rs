//! Taking an input case apart into one argument per parameter, with one
//! message where the case is not a tuple of as many.

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
