//! Digests of values, for comparing outputs across processes: two builds of
//! a function cannot hand each other their outputs, but each can hand the
//! parent a 64-bit digest of its own.
//!
//! The expansion of `#[faster::track]` picks the digest by the value's type
//! with `(&&&Digest(value)).digest()`: its `Hash` where it has one, else the
//! hash of its `Debug` rendering, else none (the output is then not
//! compared). Both sides are built by the same toolchain, so the same value
//! hashes alike in both.

use std::fmt::Debug;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A value to digest; see the module's documentation.
#[doc(hidden)]
pub struct Digest<'a, T: ?Sized>(pub &'a T);

/// `digest` by `Hash`; see [`Digest`].
#[doc(hidden)]
pub trait DigestHash {
    /// The value's hash.
    fn digest(&self) -> Option<u64>;
}

impl<T: Hash + ?Sized> DigestHash for &&Digest<'_, T> {
    fn digest(&self) -> Option<u64> {
        // `DefaultHasher::new()` has fixed keys: the same value gives the
        // same digest in every process of one toolchain.
        let mut hasher = DefaultHasher::new();
        self.0.hash(&mut hasher);
        Some(hasher.finish())
    }
}

/// `digest` by `Debug`, for types without `Hash` (floating-point values);
/// see [`Digest`].
#[doc(hidden)]
pub trait DigestDebug {
    /// The hash of the value's `Debug` rendering.
    fn digest(&self) -> Option<u64>;
}

impl<T: Debug + ?Sized> DigestDebug for &Digest<'_, T> {
    fn digest(&self) -> Option<u64> {
        let mut hasher = DefaultHasher::new();
        format!("{:?}", self.0).hash(&mut hasher);
        Some(hasher.finish())
    }
}

/// No digest, for types with neither `Hash` nor `Debug`; see [`Digest`].
#[doc(hidden)]
pub trait DigestNone {
    /// Always `None`.
    fn digest(&self) -> Option<u64>;
}

impl<T: ?Sized> DigestNone for Digest<'_, T> {
    fn digest(&self) -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Opaque;

    #[test]
    #[allow(clippy::needless_borrow)] // The borrows choose the digest.
    fn hash_then_debug_then_nothing() {
        let by_hash = (&&&Digest(&vec![1_u32, 2])).digest();
        assert_eq!(by_hash, (&&&Digest(&vec![1_u32, 2])).digest());
        assert_ne!(by_hash, (&&&Digest(&vec![2_u32, 1])).digest());
        // `f64` has `Debug` and no `Hash`: its rendering is exact.
        let by_debug = (&&&Digest(&0.1_f64)).digest();
        assert!(by_debug.is_some());
        assert_ne!(by_debug, (&&&Digest(&0.2_f64)).digest());
        assert_eq!((&&&Digest(&Opaque)).digest(), None);
    }
}
