//! `check = approx(...)`: outputs agree within a tolerance — [`Approx`],
//! the [`ApproxEq`] trait that reaches through collections, and the
//! [`Difference`] a failure reports.

use super::OutputCheck;
use super::render::{self, truncate};
use std::fmt::{self, Debug};

/// `check = approx(REL)` or `approx(REL, ABS)`: floating-point values agree
/// when they are within a relative or an absolute tolerance of each other,
/// `|a - b| <= max(rel × max(|a|, |b|), abs)`; NaN agrees with NaN (as
/// codeflash compares), an infinity only with the same infinity. Values that
/// are not floating-point (integers, strings, `bool`) must be equal.
///
/// Applies through sequences, arrays, tuples, `Option` and `Result`: every
/// `f64` in a `Vec<(f64, f64)>` is compared this way. Implement [`ApproxEq`]
/// to compare a type of your own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Approx {
    /// The relative tolerance, a fraction (`1e-9`).
    pub rel: f64,
    /// The absolute tolerance, for values near zero, where any relative
    /// tolerance is tiny (`1e-12`); 0 for none.
    pub abs: f64,
}

impl Approx {
    /// Whether `original` and `candidate` agree within the tolerance.
    pub fn close(&self, original: f64, candidate: f64) -> bool {
        if original == candidate || (original.is_nan() && candidate.is_nan()) {
            return true;
        }
        if !original.is_finite() || !candidate.is_finite() {
            return false;
        }
        let difference = (original - candidate).abs();
        difference <= self.abs || difference <= self.rel * original.abs().max(candidate.abs())
    }

    /// The tolerance as the attribute writes it: `approx(1e-9, 1e-12)`,
    /// `approx(0.01)`.
    fn as_written(&self) -> String {
        // The shorter of the plain and the scientific form, as a person
        // writes a tolerance.
        let short = |value: f64| {
            let (plain, scientific) = (format!("{value}"), format!("{value:e}"));
            if plain.len() <= scientific.len() {
                plain
            } else {
                scientific
            }
        };
        if self.abs == 0.0 {
            format!("approx({})", short(self.rel))
        } else {
            format!("approx({}, {})", short(self.rel), short(self.abs))
        }
    }
}

impl<O: ApproxEq + ?Sized> OutputCheck<O> for Approx {
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)> {
        let Some(difference) = original.approx_difference(candidate, self) else {
            return Ok(());
        };
        let focus = difference.top_index();
        let mut candidate_shown = truncate(&format!("{candidate:?}"), focus);
        candidate_shown.push_str(&format!("\n  {}", difference.describe(Some(self))));
        Err((truncate(&format!("{original:?}"), focus), candidate_shown))
    }
}

/// Comparison within a tolerance, for `check = approx(...)`.
///
/// Implemented for `f32` and `f64` (compared within the tolerance); for
/// integers, `bool`, `char`, `str`, `String` and `()` (which must be equal);
/// and through `[T]`, `Vec<T>`, `[T; N]`, `Box<T>`, `&T`, `Option<T>`,
/// `Result<T, E>` and tuples of up to six elements. For a type of your own,
/// compare its fields and say where the first difference is:
///
/// ```
/// use faster::{Approx, ApproxEq, Difference};
///
/// #[derive(Debug)]
/// struct Point { x: f64, y: f64 }
///
/// impl ApproxEq for Point {
///     fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
///         self.x.approx_difference(&other.x, tolerance).map(|d| d.in_field("x"))
///             .or_else(|| self.y.approx_difference(&other.y, tolerance).map(|d| d.in_field("y")))
///     }
/// }
///
/// let tolerance = Approx { rel: 1e-9, abs: 0.0 };
/// let a = Point { x: 1.0, y: 2.0 };
/// assert!(a.approx_difference(&Point { x: 1.0, y: 2.0 + 1e-12 }, &tolerance).is_none());
/// let difference = a.approx_difference(&Point { x: 1.0, y: 2.5 }, &tolerance).unwrap();
/// assert_eq!(difference.path(), ".y");
/// ```
#[diagnostic::on_unimplemented(
    message = "`check = approx(...)` compares floating-point values within a tolerance, and `{Self}` does not implement `faster::ApproxEq`",
    label = "`{Self}` cannot be compared with `approx`",
    note = "`approx` covers `f32`, `f64`, integers, `bool`, `char`, strings, and slices, `Vec`s, arrays, `Option`s, `Result`s and tuples of those",
    note = "for a type of your own, implement `faster::ApproxEq`, or write `check = path::to::fn` with a `fn(&T, &T) -> bool`"
)]
pub trait ApproxEq: Debug {
    /// `None` when `self` and `other` agree within `tolerance`; otherwise
    /// where they first differ.
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference>;
}

/// Where two values first differ, for a mismatch message: a path from the
/// top (`[3]`, `.1`, `.re`), both values there, and why they differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Steps from the outside in.
    path: Vec<Step>,
    original: String,
    candidate: String,
    what: Kind,
}

#[derive(Debug, Clone, PartialEq)]
enum Step {
    Index(usize),
    Field(String),
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Two values that must be equal are not.
    Unequal,
    /// Two floating-point values outside the tolerance.
    OutsideTolerance,
    /// Two sequences of these lengths.
    Lengths(usize, usize),
}

impl Difference {
    /// The values differ here, as a whole: both are rendered with `Debug`.
    pub fn new<T: Debug + ?Sized>(original: &T, candidate: &T) -> Difference {
        Difference {
            path: Vec::new(),
            original: render::cut_element(&format!("{original:?}")),
            candidate: render::cut_element(&format!("{candidate:?}")),
            what: Kind::Unequal,
        }
    }

    /// Two floating-point values outside the tolerance.
    fn outside_tolerance<T: Debug>(original: &T, candidate: &T) -> Difference {
        Difference {
            what: Kind::OutsideTolerance,
            ..Difference::new(original, candidate)
        }
    }

    /// Two sequences of different lengths, equal as far as the shorter goes.
    pub fn lengths(original: usize, candidate: usize) -> Difference {
        Difference {
            path: Vec::new(),
            original: String::new(),
            candidate: String::new(),
            what: Kind::Lengths(original, candidate),
        }
    }

    /// The same difference, seen from the sequence holding it at `index`.
    pub fn at_index(mut self, index: usize) -> Difference {
        self.path.insert(0, Step::Index(index));
        self
    }

    /// The same difference, seen from the value holding it in `field`
    /// (a struct's field name, or a tuple's position such as `"1"`).
    pub fn in_field(mut self, field: &str) -> Difference {
        self.path.insert(0, Step::Field(field.to_string()));
        self
    }

    /// The path from the top: `[3]`, `.1[0]`, `.re`; empty at the top.
    pub fn path(&self) -> String {
        self.path
            .iter()
            .map(|step| match step {
                Step::Index(index) => format!("[{index}]"),
                Step::Field(field) => format!(".{field}"),
            })
            .collect()
    }

    /// The index of the differing top-level element, when the top level is
    /// a sequence: a cut rendering shows the elements around it.
    fn top_index(&self) -> Option<usize> {
        match (self.path.first(), &self.what) {
            (Some(Step::Index(index)), _) => Some(*index),
            (None, Kind::Lengths(original, candidate)) => Some(*original.min(candidate)),
            _ => None,
        }
    }

    /// The line a mismatch message shows; `tolerance` is the one two
    /// floating-point values were outside of, when known.
    fn describe(&self, tolerance: Option<&Approx>) -> String {
        let path = self.path();
        let at = if path.is_empty() {
            String::new()
        } else {
            format!(" at {path}")
        };
        match &self.what {
            Kind::Lengths(original, candidate) => format!(
                "lengths differ{at}: {original} vs {candidate} elements, equal as far as the \
                 shorter goes"
            ),
            Kind::OutsideTolerance if tolerance.is_some() => format!(
                "first difference{at}: {} vs {}, not within {}",
                self.original,
                self.candidate,
                tolerance.map(Approx::as_written).unwrap_or_default()
            ),
            Kind::Unequal | Kind::OutsideTolerance => format!(
                "first difference{at}: {} vs {}",
                self.original, self.candidate
            ),
        }
    }
}

/// `first difference at [3]: 1.0 vs 1.5`, or `lengths differ: 3 vs 2
/// elements, ...`.
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(None))
    }
}

macro_rules! approx_float {
    ($($float:ty),*) => {$(
        impl ApproxEq for $float {
            fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
                if tolerance.close(f64::from(*self), f64::from(*other)) {
                    None
                } else {
                    Some(Difference::outside_tolerance(self, other))
                }
            }
        }
    )*};
}

approx_float!(f32, f64);

macro_rules! approx_exact {
    ($($exact:ty),*) => {$(
        impl ApproxEq for $exact {
            fn approx_difference(&self, other: &Self, _: &Approx) -> Option<Difference> {
                (self != other).then(|| Difference::new(self, other))
            }
        }
    )*};
}

approx_exact!(
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
    bool,
    char,
    str,
    String,
    ()
);

impl<T: ApproxEq> ApproxEq for [T] {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        let differing = self
            .iter()
            .zip(other)
            .enumerate()
            .find_map(|(index, (a, b))| Some(a.approx_difference(b, tolerance)?.at_index(index)));
        differing.or_else(|| {
            (self.len() != other.len()).then(|| Difference::lengths(self.len(), other.len()))
        })
    }
}

impl<T: ApproxEq> ApproxEq for Vec<T> {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        self.as_slice().approx_difference(other, tolerance)
    }
}

impl<T: ApproxEq, const N: usize> ApproxEq for [T; N] {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        self.as_slice().approx_difference(other, tolerance)
    }
}

impl<T: ApproxEq + ?Sized> ApproxEq for Box<T> {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        (**self).approx_difference(other, tolerance)
    }
}

impl<T: ApproxEq + ?Sized> ApproxEq for &T {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        (**self).approx_difference(other, tolerance)
    }
}

impl<T: ApproxEq> ApproxEq for Option<T> {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        match (self, other) {
            (Some(a), Some(b)) => Some(a.approx_difference(b, tolerance)?.in_field("0")),
            (None, None) => None,
            _ => Some(Difference::new(self, other)),
        }
    }
}

impl<T: ApproxEq, E: ApproxEq> ApproxEq for Result<T, E> {
    fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
        match (self, other) {
            (Ok(a), Ok(b)) => Some(a.approx_difference(b, tolerance)?.in_field("0")),
            (Err(a), Err(b)) => Some(a.approx_difference(b, tolerance)?.in_field("0")),
            _ => Some(Difference::new(self, other)),
        }
    }
}

macro_rules! approx_tuple {
    ($(($($name:ident $index:tt),+))*) => {$(
        impl<$($name: ApproxEq),+> ApproxEq for ($($name,)+) {
            fn approx_difference(&self, other: &Self, tolerance: &Approx) -> Option<Difference> {
                None$(.or_else(|| Some(
                    self.$index.approx_difference(&other.$index, tolerance)?
                        .in_field(stringify!($index)),
                )))+
            }
        }
    )*};
}

approx_tuple! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIGHT: Approx = Approx {
        rel: 1e-9,
        abs: 0.0,
    };

    #[test]
    fn approx_compares_within_the_relative_tolerance() {
        assert!(TIGHT.close(1.0, 1.0 + 1e-12));
        assert!(!TIGHT.close(1.0, 1.0 + 1e-6));
        assert!(TIGHT.close(1e20, 1e20 * (1.0 + 1e-10)));
        // Near zero a relative tolerance is tiny: an absolute one helps.
        assert!(!TIGHT.close(0.0, 1e-15));
        assert!(
            Approx {
                rel: 1e-9,
                abs: 1e-12
            }
            .close(0.0, 1e-15)
        );
    }

    #[test]
    fn approx_treats_nan_as_equal_and_infinities_exactly() {
        assert!(TIGHT.close(f64::NAN, f64::NAN));
        assert!(!TIGHT.close(f64::NAN, 1.0));
        assert!(TIGHT.close(f64::INFINITY, f64::INFINITY));
        assert!(!TIGHT.close(f64::INFINITY, f64::NEG_INFINITY));
        assert!(!TIGHT.close(f64::MAX, f64::INFINITY));
        assert!(TIGHT.close(0.0, -0.0));
        assert_eq!(
            TIGHT.verify(&vec![f64::NAN, 1.0], &vec![f64::NAN, 1.0]),
            Ok(())
        );
    }

    #[test]
    fn approx_reaches_through_collections() {
        let a = (vec![1.0_f64, 2.0], [0.5_f32; 3], Some(3.0_f64), 7_u32);
        let mut b = a.clone();
        b.0[1] += 1e-13;
        b.1[2] += 1e-9;
        assert_eq!(
            Approx {
                rel: 1e-6,
                abs: 0.0
            }
            .verify(&a, &b),
            Ok(())
        );
        b.0[1] = 2.5;
        let (_, candidate) = TIGHT.verify(&a, &b).unwrap_err();
        assert!(
            candidate.ends_with("first difference at .0[1]: 2.0 vs 2.5, not within approx(1e-9)"),
            "{candidate}"
        );
        let mut c = a.clone();
        c.3 = 8;
        let (_, candidate) = TIGHT.verify(&a, &c).unwrap_err();
        assert!(
            candidate.ends_with("first difference at .3: 7 vs 8"),
            "{candidate}"
        );
    }

    #[test]
    fn tolerances_read_as_written_and_differences_display() {
        assert_eq!(TIGHT.as_written(), "approx(1e-9)");
        assert_eq!(
            Approx {
                rel: 0.01,
                abs: 0.0
            }
            .as_written(),
            "approx(0.01)"
        );
        assert_eq!(
            Approx {
                rel: 1e-9,
                abs: 1e-12
            }
            .as_written(),
            "approx(1e-9, 1e-12)"
        );
        let difference = vec![1.0, 2.0]
            .approx_difference(&vec![1.0, 2.5], &TIGHT)
            .unwrap();
        assert_eq!(difference.path(), "[1]");
        assert_eq!(
            difference.to_string(),
            "first difference at [1]: 2.0 vs 2.5"
        );
        let long = Difference::new(&vec![0_u8; 500], &vec![1_u8; 500]);
        assert!(long.to_string().len() < 300, "{long}");
    }

    #[test]
    fn approx_names_lengths_variants_and_errors() {
        let (_, candidate) = TIGHT.verify(&vec![1.0, 2.0], &vec![1.0]).unwrap_err();
        assert!(
            candidate
                .ends_with("lengths differ: 2 vs 1 elements, equal as far as the shorter goes"),
            "{candidate}"
        );
        let (_, candidate) = TIGHT.verify(&Some(1.0), &None).unwrap_err();
        assert!(
            candidate.ends_with("first difference: Some(1.0) vs None"),
            "{candidate}"
        );
        let ok: Result<f64, String> = Ok(1.0);
        let err: Result<f64, String> = Err("overflow".into());
        assert!(TIGHT.verify(&ok, &err).is_err());
        assert_eq!(TIGHT.verify(&err, &err.clone()), Ok(()));
    }

    #[test]
    fn approx_cuts_huge_outputs_around_the_difference() {
        let a: Vec<f64> = (0..10_000).map(f64::from).collect();
        let mut b = a.clone();
        b[9_000] = -1.0;
        let (original, candidate) = TIGHT.verify(&a, &b).unwrap_err();
        assert!(
            original.starts_with("[… (8998 before), 8998.0"),
            "{original}"
        );
        assert!(
            candidate.contains("first difference at [9000]: 9000.0 vs -1.0"),
            "{candidate}"
        );
    }
}
