//! [`PerCall`]: an argument that each call consumes, made for that call by
//! a function of the user's, where the input case cannot hold a value to
//! clone: a parameter whose type the signature fixes (a trait's method)
//! and that is not `Clone`.

use std::fmt;
use std::hash::{Hash, Hasher};

/// An argument made for each call, in an input case: the part of the case
/// for a parameter taken by value or by `&mut` whose type is not `Clone`
/// (and cannot be made so: a trait fixes it, it is another crate's). Before
/// each call, outside the timed region, [`PerCall::new`]'s function makes
/// the value that call consumes, as a clone would be made for a type that
/// is `Clone`.
///
/// ```
/// # struct Estimate(usize);
/// // `decode(&self, input: &[u8], estimate: Estimate)`: `Estimate` is not
/// // `Clone`, so each case makes one per call.
/// fn cases() -> Vec<(Vec<u8>, faster::PerCall<Estimate>)> {
///     [4, 4_096]
///         .into_iter()
///         .map(|len| (vec![b'A'; len], faster::PerCall::new(move || Estimate(len))))
///         .collect()
/// }
/// # assert_eq!(cases()[1].1.make().0, 4_096);
/// ```
///
/// The input's rendering (its `Debug`, where a mismatch shows the input)
/// and its digest (its `Hash`, for `cargo faster`) are those of a value it
/// makes.
pub struct PerCall<T> {
    make: Box<dyn Fn() -> T>,
}

impl<T> PerCall<T> {
    /// The argument `make` makes, once per call.
    pub fn new(make: impl Fn() -> T + 'static) -> PerCall<T> {
        PerCall {
            make: Box::new(make),
        }
    }

    /// A value for one call.
    pub fn make(&self) -> T {
        (self.make)()
    }
}

impl<T: fmt::Debug> fmt::Debug for PerCall<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.make().fmt(f)
    }
}

impl<T: Hash> Hash for PerCall<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.make().hash(state);
    }
}
