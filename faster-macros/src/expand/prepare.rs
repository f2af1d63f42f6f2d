//! What a call consumes — the argument of each parameter taken by value
//! or by `&mut` — made ready before the clock starts by the `prepare`
//! closure both sides share; the call's closure takes it back as each
//! argument ([`super::call`]).

use super::call::{at_inputs, params_type, part, take_apart};
use crate::attr::InputsOption;
use crate::validate::{Candidate, Passing};
use proc_macro2::{Ident, TokenStream};
use quote::{quote, quote_spanned};

/// What `prepare` makes ready before the clock starts for one call, shared
/// by both sides: `|input| ((&&Prepare(&input.1)).faster_prepare(),)`, a
/// tuple with one entry per parameter by value or by `&mut` (nothing, of no
/// size, for a `Copy` one; the value of a `PerCall`; a clone for the
/// others), `|_| ()` when there is none.
///
/// rustc reads the calls before this closure (it is passed after them), so
/// there the argument's type (the part's, or what a `PerCall` makes) is
/// read off the part itself, by the runtime's `ArgumentOf`.
pub(crate) fn prepare_closure(
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
) -> TokenStream {
    let at_inputs = at_inputs(inputs);
    let case = Ident::new("input", at_inputs);
    let consumed: Vec<usize> = candidate
        .params
        .iter()
        .enumerate()
        .filter(|(_, param)| param.passing != Passing::Shared)
        .map(|(position, _)| position)
        .collect();
    if consumed.is_empty() {
        return quote!(|_| ());
    }
    let (params_type, _) = params_type(candidate);
    let take_apart = take_apart(candidate, &case, &params_type, at_inputs);
    let prepared = consumed.iter().map(|&position| {
        let part = part(candidate, &case, position, at_inputs);
        quote_spanned!(at_inputs=> (&&::faster::__private::Prepare(#part)).faster_prepare())
    });
    quote! {
        |#case| {
            use ::faster::__private::{PrepareClone as _, PrepareCopy as _, PrepareMade as _};
            #take_apart
            (#(#prepared,)*)
        }
    }
}
