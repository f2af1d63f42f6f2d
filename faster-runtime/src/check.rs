//! Output comparison: does the candidate return what the original returns?
//!
//! Every input is checked before any timing. The check is a type chosen by
//! the attribute's `check = ...` option; it turns two outputs into either
//! agreement or two `Debug` renderings for the failure message.

use std::fmt::Debug;

/// How the outputs of the original and the candidate are compared.
#[diagnostic::on_unimplemented(
    message = "outputs of type `{O}` cannot be compared with `{Self}`",
    label = "the function's output type must implement `PartialEq` and `Debug` for `check = eq`",
    note = "derive `PartialEq` and `Debug` on the output type, or write `check = skip` to time without checking outputs"
)]
pub trait OutputCheck<O> {
    /// `Ok` when the outputs agree; otherwise both outputs, rendered.
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)>;

    /// Whether outputs are compared at all (`false` for [`Skip`]).
    fn checks(&self) -> bool {
        true
    }
}

/// `check = eq`: the outputs must be equal by `PartialEq`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Eq;

impl<O: PartialEq + Debug> OutputCheck<O> for Eq {
    fn verify(&self, original: &O, candidate: &O) -> Result<(), (String, String)> {
        if original == candidate {
            Ok(())
        } else {
            Err((format!("{original:?}"), format!("{candidate:?}")))
        }
    }
}

/// `check = skip`: outputs are not compared (for nondeterministic results);
/// the report says so.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skip;

impl<O> OutputCheck<O> for Skip {
    fn verify(&self, _: &O, _: &O) -> Result<(), (String, String)> {
        Ok(())
    }

    fn checks(&self) -> bool {
        false
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
            Err(("[1, 2]".to_string(), "[1, 3]".to_string()))
        );
    }

    #[test]
    fn skip_accepts_anything_and_says_so() {
        assert_eq!(OutputCheck::<f64>::verify(&Skip, &1.0, &2.0), Ok(()));
        assert!(!OutputCheck::<f64>::checks(&Skip));
    }
}
