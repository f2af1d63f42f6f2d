//! The cases of `inputs = path`, collected through the runtime's `Inputs`
//! routes, and the type a case is named by in the errors about them.

use super::call::{owned_type, respan};
use crate::attr::InputsOption;
use crate::validate::{Candidate, OwnedForm, Passing};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

/// The cases of `inputs = path`, collected: an expression of type
/// `Result<Vec<Case>, Error>`. It goes through the runtime's `Inputs`
/// routes, spanned at `path`: a static, a constant or a function of
/// another shape is one error there, naming the case the candidate takes.
pub(crate) fn collected_inputs(given: InputsOption<'_>, candidate: &Candidate) -> TokenStream {
    let path = &given.path;
    let at_inputs = Span::mixed_site().located_at(path.span());
    let case = respan(case_type(candidate), at_inputs);
    quote_spanned! {at_inputs=>
        {
            use ::faster::__private::{InputsByFunction as _, InputsOther as _};
            (&&::faster::__private::Inputs::<_, #case>::of(&#path)).faster_inputs(#path)
        }
    }
}

/// The type of an input case, for messages: what each parameter borrows
/// from (`Vec<u64>` for `&[u64]`), a tuple of them for several. A tuple's
/// parts but the last must be sized, which the parts a reference borrows
/// from need not be (`Path` for `&Path`): unless each part is a `Vec`, a
/// `String` or a parameter by value, the case of several is named by the
/// parameters' own types (`(&[u64], &Path)`), which items may be too.
fn case_type(candidate: &Candidate) -> TokenStream {
    let param_types: Vec<Type> = candidate
        .params
        .iter()
        .map(|param| candidate.without_lifetimes(&param.ty))
        .collect();
    if let [single] = param_types.as_slice() {
        return owned_type(single);
    }
    let surely_sized = candidate.params.iter().all(|param| {
        param.passing == Passing::Owned
            || match OwnedForm::of(&param.ty) {
                OwnedForm::Vec(_) | OwnedForm::String => true,
                OwnedForm::Same(borrowed) => surely_sized(borrowed),
            }
    });
    if surely_sized {
        let owned = param_types.iter().map(owned_type);
        quote!((#(#owned),*))
    } else {
        quote!((#(#param_types),*))
    }
}

/// Whether `ty` is sized whatever its arguments: a primitive number,
/// `bool` or `char`, one of the standard library's owning types, or an
/// array, a tuple, a reference or a pointer.
fn surely_sized(ty: &Type) -> bool {
    const SIZED: [&str; 28] = [
        "bool", "char", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16",
        "u32", "u64", "u128", "usize", "Vec", "String", "Box", "Rc", "Arc", "Option", "Result",
        "HashMap", "HashSet", "BTreeMap", "BTreeSet", "VecDeque",
    ];
    match ty {
        Type::Array(_) | Type::Tuple(_) | Type::Reference(_) | Type::Ptr(_) => true,
        Type::Paren(paren) => surely_sized(&paren.elem),
        Type::Path(path) => {
            path.qself.is_none()
                && path
                    .path
                    .segments
                    .last()
                    .is_some_and(|last| SIZED.iter().any(|sized| last.ident == sized))
        }
        _ => false,
    }
}
