//! Output comparison: does the candidate return what the original returns?
//!
//! Every input is checked before any timing. The check is a type chosen by
//! the attribute's `check = ...` option — [`Eq`](struct@Eq), [`Approx`], [`Skip`], or
//! a function of the user's — and turns two outputs into either agreement or
//! two renderings for the failure message: cut to a readable length, the
//! candidate's followed by where the two first differ.
//!
//! The traits the checks need ([`EqComparable`], [`ApproxEq`]) carry their
//! own compile-time messages, so a user whose output type does not fit is
//! told which derive to add or which other check to write, at the output
//! type, rather than reading about a blanket impl deep inside the runtime.

mod approx;
pub mod digest;
mod render;

pub use approx::{Approx, ApproxEq, Difference};

use std::fmt::Debug;

pub(crate) use render::truncate;

/// How the outputs of the original and the candidate are compared.
#[diagnostic::on_unimplemented(
    message = "outputs of type `{O}` cannot be compared with `{Self}`",
    label = "the outputs cannot be compared this way",
    note = "`check = eq` needs `PartialEq` and `Debug`; `check = approx(...)` needs `faster::ApproxEq`; `check = skip` compares nothing"
)]
pub trait OutputCheck<O: ?Sized> {
    /// `Ok` when the outputs agree; otherwise both outputs, rendered for the
    /// failure message (the candidate's followed by a line saying where the
    /// two first differ, when that can be told).
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)>;

    /// Whether outputs are compared at all (`false` for [`Skip`]).
    fn checks(&self) -> bool {
        true
    }
}

/// `check = eq`: the outputs must be equal by `PartialEq`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Eq;

impl<O: EqComparable + ?Sized> OutputCheck<O> for Eq {
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)> {
        if original.equals(candidate) {
            return Ok(());
        }
        let (original, candidate) = (original.render(), candidate.render());
        let identical = original == candidate;
        let mut shown = mismatch_of_renderings(original, candidate);
        if identical {
            shown.1.push_str(
                "\n  the two print the same, but `==` says they differ; NaN is never equal to \
                 itself: `check = approx(...)` counts NaN as equal to NaN",
            );
        }
        Err(shown)
    }
}

/// What `check = eq` needs of an output type: `PartialEq` to compare and
/// `Debug` to show a mismatch. Implemented for every such type; not meant to
/// be implemented by hand.
#[diagnostic::on_unimplemented(
    message = "`check = eq` compares outputs with `==` and shows a mismatch with `{{:?}}`, so `{Self}` must implement `PartialEq` and `Debug`",
    label = "`{Self}` does not implement both `PartialEq` and `Debug`",
    note = "derive them on the type: `#[derive(PartialEq, Debug)]`",
    note = "or choose another check: `check = approx(1e-9)` for floating-point results, `check = path::to::fn` for a comparison of your own `fn(&T, &T) -> bool`, `check = skip` to time without checking outputs"
)]
pub trait EqComparable {
    /// `self == other`.
    fn equals(&self, other: &Self) -> bool;

    /// `format!("{self:?}")`.
    fn render(&self) -> String;
}

// `do_not_recommend`: when an output type lacks `PartialEq`, rustc reports
// this trait's message (say what to derive, or which check to write) instead
// of looking through the impl and reporting the bare `PartialEq` bound.
#[diagnostic::do_not_recommend]
impl<T: PartialEq + Debug + ?Sized> EqComparable for T {
    fn equals(&self, other: &Self) -> bool {
        self == other
    }

    fn render(&self) -> String {
        format!("{self:?}")
    }
}

/// `check = skip`: outputs are not compared (for nondeterministic results);
/// the report says so.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skip;

impl<O: ?Sized> OutputCheck<O> for Skip {
    fn verify(&self, _: &O, _: &O) -> Result<(), (String, String)> {
        Ok(())
    }

    fn checks(&self) -> bool {
        false
    }
}

/// A user's check function, `check = path::to::fn`: `agree` says whether two
/// outputs agree, `show` renders one for the failure message.
pub(crate) struct CheckWith<F, S>(pub F, pub S);

impl<O, F, S> OutputCheck<O> for CheckWith<F, S>
where
    F: Fn(&O, &O) -> bool,
    S: Fn(&O) -> String,
{
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)> {
        if (self.0)(original, candidate) {
            Ok(())
        } else {
            Err(mismatch_of_renderings(
                (self.1)(original),
                (self.1)(candidate),
            ))
        }
    }
}

/// Applies `K`, and says in a failure what was compared when it is not
/// simply the output: the expansion's calls with `&mut` parameters return
/// the arguments after the call too.
pub(crate) struct Legend<K> {
    pub check: K,
    /// What the compared value is, when it is not simply the output
    /// (`(the output, `v` after the call)`), for the failure message.
    pub compared: Option<&'static str>,
}

impl<O, K: OutputCheck<O>> OutputCheck<O> for Legend<K> {
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)> {
        self.check
            .verify(original, candidate)
            .map_err(|(original, mut candidate)| {
                if let Some(compared) = self.compared {
                    candidate.push_str(&format!("\n  compared:  {compared}"));
                }
                (original, candidate)
            })
    }

    fn checks(&self) -> bool {
        self.check.checks()
    }
}

/// Two `Debug` renderings that differ, cut to a readable length (around
/// their first difference), the candidate's followed by where they differ.
pub(crate) fn mismatch_of_renderings(original: String, candidate: String) -> (String, String) {
    let difference = render::first_difference(&original, &candidate);
    let focus = difference
        .as_ref()
        .and_then(|difference| difference.top_index);
    let mut candidate_shown = truncate(&candidate, focus);
    if let Some(line) = difference.and_then(|difference| difference.describe()) {
        candidate_shown.push_str(&format!("\n  {line}"));
    }
    (truncate(&original, focus), candidate_shown)
}

/// A value shown for a failure message by the expansion, which picks
/// `Debug` where the type has it and a placeholder naming the type where it
/// does not (autoref specialization: the expansion calls
/// `(&&Shown(value)).show()`, which resolves to [`ShowDebug`] when
/// `T: Debug` and to [`ShowAny`] otherwise).
#[doc(hidden)]
pub struct Shown<'a, T: ?Sized>(pub &'a T);

/// `show` with `Debug`; see [`Shown`].
#[doc(hidden)]
pub trait ShowDebug {
    /// The value's `Debug` rendering.
    fn show(&self) -> String;
}

impl<T: Debug + ?Sized> ShowDebug for &Shown<'_, T> {
    fn show(&self) -> String {
        format!("{:?}", self.0)
    }
}

/// `show` without `Debug`; see [`Shown`].
#[doc(hidden)]
pub trait ShowAny {
    /// A placeholder naming the type.
    fn show(&self) -> String;
}

impl<T: ?Sized> ShowAny for Shown<'_, T> {
    fn show(&self) -> String {
        format!(
            "(a `{}`, which does not implement `Debug`)",
            std::any::type_name::<T>()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq_renders_both_outputs_on_mismatch() {
        assert_eq!(Eq.verify(&vec![1, 2], &vec![1, 2]), Ok(()));
        assert_eq!(
            Eq.verify(&vec![1, 2], &vec![1, 3]),
            Err((
                "[1, 2]".to_string(),
                "[1, 3]\n  first difference at [1]: 2 vs 3".to_string()
            ))
        );
        // Scalars: the outputs are the difference.
        assert_eq!(Eq.verify(&4, &5), Err(("4".to_string(), "5".to_string())));
    }

    #[test]
    fn eq_explains_values_that_print_the_same() {
        let (_, candidate) = Eq.verify(&vec![f64::NAN], &vec![f64::NAN]).unwrap_err();
        assert!(
            candidate.contains("NaN is never equal to itself"),
            "{candidate}"
        );
    }

    #[test]
    fn eq_cuts_huge_outputs_around_the_difference() {
        let original: Vec<u64> = (0..100_000).collect();
        let mut candidate = original.clone();
        candidate[70_000] = 1;
        let (original, candidate) = Eq.verify(&original, &candidate).unwrap_err();
        assert!(
            original.starts_with("[… (69998 before), 69998, 69999, 70000, "),
            "{original}"
        );
        assert!(
            candidate.starts_with("[… (69998 before), 69998, 69999, 1, "),
            "{candidate}"
        );
        assert!(
            candidate.ends_with("first difference at [70000]: 70000 vs 1"),
            "{candidate}"
        );
        assert!(original.len() < 300, "{original}");
    }

    #[test]
    fn skip_accepts_anything_and_says_so() {
        assert_eq!(OutputCheck::<f64>::verify(&Skip, &1.0, &2.0), Ok(()));
        assert!(!OutputCheck::<f64>::checks(&Skip));
    }

    #[test]
    fn a_check_function_decides_and_outputs_are_shown() {
        let check = CheckWith(
            |a: &f64, b: &f64| (a - b).abs() < 0.5,
            |x: &f64| format!("{x:.1}"),
        );
        assert_eq!(check.verify(&1.0, &1.2), Ok(()));
        assert_eq!(
            check.verify(&1.0, &2.0),
            Err(("1.0".to_string(), "2.0".to_string()))
        );
    }

    #[test]
    fn a_legend_says_what_was_compared() {
        let check = Legend {
            check: Eq,
            compared: Some("`v` after the call"),
        };
        assert_eq!(check.verify(&1, &1), Ok(()));
        let (_, candidate) = check.verify(&1, &2).unwrap_err();
        assert_eq!(candidate, "2\n  compared:  `v` after the call");
    }

    #[test]
    // The expansion's exact form: the two borrows are what picks `Debug`
    // where the type has it (autoref specialization).
    #[allow(clippy::needless_borrow)]
    fn shown_uses_debug_where_there_is_one() {
        struct Opaque;
        assert_eq!((&&Shown(&[1, 2])).show(), "[1, 2]");
        assert!(
            (&&Shown(&Opaque))
                .show()
                .contains("does not implement `Debug`")
        );
    }
}
