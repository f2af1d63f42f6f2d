//! Which candidate functions can be compared: checks the signature and its
//! agreement with the options, and describes an accepted one as a
//! [`Candidate`] for the code generator.
//!
//! Refusals happen here, at the offending token, with the shape to write
//! instead; anything accepted here must expand to code that compiles whenever
//! the user's own types line up.

mod blocks;
mod candidate;
mod refusals;

pub(crate) use blocks::{implementors_match, no_self_paths, outside_blocks};
pub(crate) use candidate::{Candidate, OwnedForm, Param, Passing};

use crate::attr::{InputsOption, TypesOption};
use crate::owner::Owner;
use proc_macro2::Span;
use refusals::{
    borrowed_output, check_generics, free_wrapper_example, owned_form, unsupported_parameter_type,
    unsupported_return_type,
};
use syn::ext::IdentExt;
use syn::visit_mut::VisitMut;
use syn::{FnArg, ItemFn, Pat, PatType, ReturnType, Signature, Type};

/// Checks the candidate's signature and describes it; every unsupported
/// shape is an error at its token.
pub(crate) fn signature(function: &ItemFn) -> syn::Result<Candidate> {
    let sig = &function.sig;
    let mut errors = Errors::default();

    if let Some(asyncness) = &sig.asyncness {
        errors.push(syn::Error::new(
            asyncness.span,
            "`#[faster::compare]` cannot time an `async fn`: annotate a synchronous function \
             instead, such as a wrapper that runs this one to completion with your executor's \
             `block_on`",
        ));
    }
    if let Some(variadic) = &sig.variadic {
        errors.push(syn::Error::new_spanned(
            variadic,
            "`#[faster::compare]` cannot call a variadic function: write a wrapper with a fixed \
             list of parameters and annotate it",
        ));
    }
    check_generics(sig, &mut errors);

    let mut params = Vec::new();
    for (position, input) in sig.inputs.iter().enumerate() {
        match input {
            FnArg::Receiver(receiver) => errors.push(syn::Error::new_spanned(
                receiver,
                format!(
                    "`#[faster::compare]` on a method needs `#[faster::methods]` on its `impl` \
                     block, which writes the test the attribute adds: put \
                     `#[cfg_attr(test, faster::methods)]` above the block; or annotate a free \
                     function that calls it, such as `{}`",
                    free_wrapper_example(sig, None)
                ),
            )),
            FnArg::Typed(typed) => match param(typed, position, sig) {
                Ok(param) => params.push(param),
                Err(error) => errors.push(error),
            },
        }
    }

    if let ReturnType::Type(_, output) = &sig.output {
        if let Some(error) = unsupported_return_type(output) {
            errors.push(error);
        }
    }

    for attr in &function.attrs {
        if is_compare_attribute(attr) {
            errors.push(syn::Error::new_spanned(
                attr,
                format!(
                    "`{}` already carries a `#[faster::compare]`: a function is compared with \
                     one original; to compare it with another, annotate a thin wrapper that \
                     calls it",
                    sig.ident
                ),
            ));
        }
    }

    errors.finish()?;
    Ok(Candidate {
        ident: sig.ident.clone(),
        params,
        output: sig.output.clone(),
        abi: sig.abi.clone(),
        lifetimes: sig
            .generics
            .lifetimes()
            .map(|param| param.lifetime.clone())
            .collect(),
        unsafety: sig.unsafety.is_some(),
        target_feature: function
            .attrs
            .iter()
            .any(|attr| attr.path().is_ident("target_feature")),
        type_params: sig.generics.type_params().cloned().collect(),
        output_borrows: borrowed_output(&sig.output),
    })
}

/// A method's signature read as a free function's, for
/// `#[faster::methods]`: the receiver is the first parameter (`&mut self`
/// a `&mut Buffer`), and `Self` is the block's type wherever it is written.
/// The state of a `&mut self` after the call is compared only where the
/// method returns nothing: a method that returns a value is compared by it
/// (`Buffer::format` writes into its buffer only to return a `&str` of it).
pub(crate) fn method_signature(function: &ItemFn, owner: &Owner) -> syn::Result<Candidate> {
    let mut free = function.clone();
    let mut receiver = None;
    for input in &mut free.sig.inputs {
        if let FnArg::Receiver(taken) = input {
            receiver = Some(taken.mutability.is_some() && taken.reference.is_some());
            let self_token = taken.self_token;
            *input = FnArg::Typed(PatType {
                attrs: taken.attrs.clone(),
                pat: Box::new(syn::parse_quote_spanned!(self_token.span=> receiver)),
                colon_token: Default::default(),
                ty: taken.ty.clone(),
            });
        }
    }
    SelfIsType(owner).visit_signature_mut(&mut free.sig);
    let mut candidate = signature(&free)?;
    if let Some(mutable) = receiver {
        let returns_value = candidate.returns_value();
        let first = &mut candidate.params[0];
        first.name = "`self`".to_string();
        first.binding = "value".to_string();
        first.compared = !(mutable && returns_value);
    }
    Ok(candidate)
}

/// Replaces `Self` with the block's type: `Self` itself, and `Self::Err`
/// as `<Samples as FromStr>::Err`.
struct SelfIsType<'a>(&'a Owner);

impl VisitMut for SelfIsType<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(path) = ty {
            let segments = &path.path.segments;
            if path.qself.is_none() && segments.first().is_some_and(|first| first.ident == "Self") {
                let rest: Vec<_> = segments.iter().skip(1).collect();
                *ty = if rest.is_empty() {
                    self.0.self_type.clone()
                } else {
                    let qualified = &self.0.qualified;
                    syn::parse_quote!(#qualified::#(#rest)::*)
                };
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// One typed parameter as a [`Param`], or the error its type earns.
fn param(typed: &PatType, position: usize, sig: &Signature) -> syn::Result<Param> {
    let ty = (*typed.ty).clone();
    if let Some(error) = unsupported_parameter_type(&ty, &typed.pat, &sig.ident) {
        return Err(error);
    }
    let passing = match &ty {
        Type::Reference(reference) if reference.mutability.is_some() => Passing::Mutable,
        Type::Reference(_) => Passing::Shared,
        _ => Passing::Owned,
    };
    let (name, binding) = match &*typed.pat {
        Pat::Ident(pat) => {
            let ident = pat.ident.unraw();
            (format!("`{ident}`"), ident.to_string())
        }
        _ => (
            format!("argument {}", position + 1),
            format!("arg{position}"),
        ),
    };
    Ok(Param {
        ty,
        passing,
        name,
        binding,
        compared: true,
    })
}

/// `types = [...]` is given exactly when the candidate has one type
/// parameter. `attribute` is the attribute's name (`compare`, `track`),
/// which also names its tests (`faster_NAME_u32`, `faster_track_NAME_u32`).
pub(crate) fn types_match(
    types: Option<TypesOption<'_>>,
    candidate: &Candidate,
    attribute: &str,
) -> syn::Result<()> {
    let ident = &candidate.ident;
    match (types, candidate.type_params.as_slice()) {
        (None, []) | (Some(_), [_]) => Ok(()),
        (Some(types), []) => Err(syn::Error::new(
            types.key.span(),
            format!(
                "`types` instantiates a generic function, and `{ident}` has no type parameter: \
                 remove `types = [...]`"
            ),
        )),
        (None, [param]) => {
            let tests = match attribute {
                "compare" => format!("faster_{ident}"),
                other => format!("faster_{other}_{ident}"),
            };
            Err(syn::Error::new_spanned(
                param,
                format!(
                    "`#[faster::{attribute}]` needs concrete types, and `{ident}` is generic over \
                     `{}`: add `types = [u32, u64]` (your types) to {attribute} it once per \
                     type, in tests named `{tests}_u32`, `{tests}_u64`",
                    param.ident
                ),
            ))
        }
        (_, [first, second, ..]) => Err(syn::Error::new_spanned(
            second,
            format!(
                "`{ident}` is generic over `{}` and `{}`, and `types = [...]` instantiates one \
                 type parameter: write a wrapper generic over one of them, such as \
                 `fn {ident}_u64<{}>(...) {{ {ident}::<{}, u64>(...) }}`, and annotate it",
                first.ident, second.ident, first.ident, first.ident
            ),
        )),
    }
}

/// `inputs` is required exactly when the function takes parameters; a
/// missing one is said at the `attribute`, as what `purpose` needs
/// ("the comparison", "tracking it").
pub(crate) fn inputs_match(
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
    attribute: Span,
    purpose: &str,
) -> syn::Result<()> {
    let ident = &candidate.ident;
    match (inputs, candidate.params.is_empty()) {
        (Some(inputs), true) => Err(syn::Error::new_spanned(
            inputs.to_option_tokens(),
            format!(
                "`{ident}` takes no parameters, so there are no inputs to give it: remove `{}`",
                inputs.as_written()
            ),
        )),
        (None, false) => {
            let item = match candidate.params.as_slice() {
                [param] => owned_form(&param.ty),
                params => format!(
                    "({})",
                    params
                        .iter()
                        .map(|param| owned_form(&param.ty))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let per_item = if candidate.params.len() == 1 {
                "one argument per item"
            } else {
                "one tuple of arguments per item"
            };
            Err(syn::Error::new(
                attribute,
                format!(
                    "`{ident}` takes parameters, so {purpose} needs inputs to call it with: add \
                     `inputs = {ident}_inputs` and write \
                     `fn {ident}_inputs() -> Vec<{item}>` returning the cases to try, {per_item}",
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Collects every refusal, so one compile lists them all.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// Whether `attr` is another `#[faster::compare(...)]`.
pub(crate) fn is_compare_attribute(attr: &syn::Attribute) -> bool {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    segments == ["faster", "compare"]
}

#[cfg(test)]
mod tests {
    use super::refusals::output_as_written;
    use super::*;
    use crate::attr::tokens_as_written;
    use quote::{ToTokens, quote};

    fn candidate(function: proc_macro2::TokenStream) -> syn::Result<Candidate> {
        signature(&syn::parse2(function).unwrap())
    }

    fn error_of(function: proc_macro2::TokenStream) -> String {
        match candidate(function) {
            Ok(_) => panic!("expected an error"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn describes_parameters_by_how_they_are_taken() {
        let accepted = candidate(quote!(
            fn f(v: &[u64], n: usize, s: &str) -> u64 {
                0
            }
        ))
        .unwrap();
        let passing: Vec<Passing> = accepted.params.iter().map(|param| param.passing).collect();
        assert_eq!(passing, [Passing::Shared, Passing::Owned, Passing::Shared]);

        let by_ref = candidate(quote!(
            fn f(v: &Vec<u8>) {}
        ))
        .unwrap();
        assert!(matches!(by_ref.output, ReturnType::Default));
    }

    #[test]
    fn accepts_const_extern_and_lifetimes() {
        candidate(quote!(
            const fn f(x: u64) -> u64 {
                x
            }
        ))
        .unwrap();
        let external = candidate(quote!(
            extern "C" fn f(x: u64) -> u64 {
                x
            }
        ))
        .unwrap();
        assert!(external.abi.is_some());
        let with_lifetime = candidate(quote!(
            fn f<'a>(x: &'a str) -> usize {
                x.len()
            }
        ))
        .unwrap();
        assert_eq!(with_lifetime.lifetimes.len(), 1);
        candidate(quote!(
            fn f() -> &'static str {
                ""
            }
        ))
        .unwrap();
    }

    #[test]
    fn refuses_unsupported_shapes_with_what_to_write() {
        let error = error_of(quote!(
            async fn f() {}
        ));
        assert!(error.contains("cannot time an `async fn`"), "{error}");
        let error = error_of(quote!(
            fn len(&self) -> usize {
                0
            }
        ));
        assert!(
            error.contains("`fn len(value: &YourType) -> usize { value.len() }`"),
            "{error}"
        );
        let error = error_of(quote!(
            fn f<const N: usize>(x: [u8; N]) {}
        ));
        assert!(error.contains("is generic over `N`"), "{error}");
        let error = error_of(quote!(
            fn f(x: &impl AsRef<[u64]>) {}
        ));
        assert!(error.contains("`impl Trait` parameters"), "{error}");
        for nested in [
            quote!(
                fn f(x: Option<&mut u64>) {}
            ),
            quote!(
                fn f(x: &mut &mut u64) {}
            ),
            quote!(
                fn f(x: &[&mut u64]) {}
            ),
        ] {
            let error = error_of(nested.clone());
            assert!(
                error.contains("a `&mut` inside another type"),
                "{nested}: {error}"
            );
        }
        let error = error_of(quote!(
            fn f<'a, 'b: 'a>(x: &'a u8, y: &'b u8) {}
        ));
        assert!(
            error.contains("lifetime bounds are not supported"),
            "{error}"
        );
        let error = error_of(quote!(
            fn f<'a, 'b>(x: &'a u8, y: &'b u8)
            where
                'b: 'a,
            {
            }
        ));
        assert!(
            error.contains("lifetime bounds are not supported"),
            "{error}"
        );
        let error = error_of(quote!(
            fn f() -> impl Iterator<Item = u64> {
                0..1
            }
        ));
        assert!(error.contains("`impl Trait` return types"), "{error}");
        // A reference is compared as the value it points to.
        let borrowing = candidate(quote!(
            fn f(v: &[u64]) -> &u64 {
                &v[0]
            }
        ))
        .unwrap();
        assert!(borrowing.output_borrows);
        let error = error_of(quote!(
            fn f<'a>(v: &'a [u64]) -> &'a Cow<'a, str> {
                todo!()
            }
        ));
        assert!(
            error.contains("the output borrows from the input inside another type"),
            "{error}"
        );
        let error = error_of(quote!(
            fn f<'a>(v: &'a str) -> Cow<'a, str> {
                v.into()
            }
        ));
        assert!(
            error.contains("the output borrows from the input inside another type"),
            "{error}"
        );
    }

    #[test]
    fn accepts_mut_unsafe_and_generic_shapes() {
        let sorting = candidate(quote!(
            fn sort(v: &mut [u64], k: usize, scratch: &Vec<u8>) -> bool {
                true
            }
        ))
        .unwrap();
        let passing: Vec<Passing> = sorting.params.iter().map(|param| param.passing).collect();
        assert_eq!(passing, [Passing::Mutable, Passing::Owned, Passing::Shared]);
        assert_eq!(sorting.mutated().map(|(at, _)| at).collect::<Vec<_>>(), [0]);
        assert_eq!(sorting.params[0].name, "`v`");
        assert!(sorting.returns_value());

        let unsafe_fn = candidate(quote!(
            unsafe fn first(v: &[u64]) -> u64 {
                0
            }
        ))
        .unwrap();
        assert!(unsafe_fn.unsafety);

        let generic = candidate(quote!(
            fn largest<T: Ord + Copy>(v: &[T]) -> Option<T>
            where
                T: Default,
            {
                None
            }
        ))
        .unwrap();
        assert_eq!(generic.type_params.len(), 1);
        let at_u32 = generic.instantiated(&syn::parse_quote!(u32));
        assert_eq!(
            tokens_as_written(at_u32.params[0].ty.to_token_stream()),
            "&[u32]"
        );
        assert_eq!(output_as_written(&at_u32.output), " -> Option<u32>");
        assert!(at_u32.type_params.is_empty());

        let unit = candidate(quote!(
            fn f(v: &mut Vec<u8>) -> () {}
        ))
        .unwrap();
        assert!(!unit.returns_value());
    }

    #[test]
    fn a_methods_receiver_is_its_first_parameter_and_self_its_type() {
        let owner = Owner {
            self_type: syn::parse_quote!(Buffer),
            qualified: quote!(<Buffer as Format>),
            written: "Buffer".into(),
            provided_by: None,
        };
        let method = |function: proc_macro2::TokenStream| {
            method_signature(&syn::parse2(function).unwrap(), &owner).unwrap()
        };
        let format = method(quote!(
            fn format<I: Integer>(&mut self, i: I) -> &str {
                ""
            }
        ));
        let written: Vec<String> = format
            .params
            .iter()
            .map(|param| tokens_as_written(param.ty.to_token_stream()))
            .collect();
        assert_eq!(written, ["&mut Buffer", "I"]);
        assert_eq!(format.params[0].name, "`self`");
        // It returns a value: that is what is compared, not the buffer.
        assert!(format.output_borrows && format.mutated().next().is_none());
        let clear = method(quote!(
            fn clear(&mut self) {}
        ));
        assert_eq!(clear.mutated().count(), 1);
        let parse = method(quote!(
            fn parse(text: &str) -> Result<Self, Self::Err> {
                todo!()
            }
        ));
        assert_eq!(
            output_as_written(&parse.output),
            " -> Result<Buffer, <Buffer as Format>::Err>"
        );
    }

    #[test]
    fn a_second_compare_attribute_is_refused() {
        let error = error_of(quote!(
            #[faster::compare(original = g)]
            fn f() {}
        ));
        assert!(
            error.contains("already carries a `#[faster::compare]`"),
            "{error}"
        );
    }

    #[test]
    fn only_safe_rust_functions_are_called_through_the_fn_traits() {
        let safe = candidate(quote!(
            fn f(v: &[u64]) -> u64 {
                0
            }
        ))
        .unwrap();
        assert!(safe.calls_through_fn_traits());
        for refused in [
            quote!(
                unsafe fn f(v: &[u64]) -> u64 {
                    0
                }
            ),
            quote!(
                extern "C" fn f(v: u64) -> u64 {
                    v
                }
            ),
            quote!(
                #[target_feature(enable = "avx2")]
                fn f(v: &[u64]) -> u64 {
                    0
                }
            ),
            quote!(
                fn f(
                    a: u8,
                    b: u8,
                    c: u8,
                    d: u8,
                    e: u8,
                    f: u8,
                    g: u8,
                    h: u8,
                    i: u8,
                    j: u8,
                    k: u8,
                    l: u8,
                    m: u8,
                ) {
                }
            ),
        ] {
            let through_pointer = candidate(refused.clone()).unwrap();
            assert!(!through_pointer.calls_through_fn_traits(), "{refused}");
        }
    }

    #[test]
    fn types_in_the_expansion_leave_the_functions_lifetimes_to_inference() {
        let with_lifetime = candidate(quote!(
            fn f<'a>(x: &'a str, y: &'static str, z: &str) -> usize {
                0
            }
        ))
        .unwrap();
        let written: Vec<String> = with_lifetime
            .params
            .iter()
            .map(|param| {
                tokens_as_written(with_lifetime.without_lifetimes(&param.ty).to_token_stream())
            })
            .collect();
        assert_eq!(written, ["&'_ str", "&'static str", "&str"]);
    }

    #[test]
    fn dyn_parameters_are_told_apart() {
        let takes =
            |function: proc_macro2::TokenStream| candidate(function).unwrap().params[0].takes_dyn();
        assert!(takes(quote!(
            fn f(x: &dyn Debug) {}
        )));
        assert!(takes(quote!(
            fn f(x: &mut (dyn Write + Send)) {}
        )));
        assert!(!takes(quote!(
            fn f(x: &[u64]) {}
        )));
        assert!(!takes(quote!(
            fn f(x: Box<dyn Debug>) {}
        )));
    }

    #[test]
    fn owned_forms_name_what_inputs_yield() {
        let owned = |ty: proc_macro2::TokenStream| owned_form(&syn::parse2(ty).unwrap());
        assert_eq!(owned(quote!(&[u64])), "Vec<u64>");
        assert_eq!(owned(quote!(&str)), "String");
        assert_eq!(owned(quote!(&Matrix)), "Matrix");
        assert_eq!(owned(quote!(usize)), "usize");
    }
}
