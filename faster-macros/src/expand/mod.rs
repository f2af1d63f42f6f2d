//! Code generation: turns the candidate function and its options into the
//! function itself (unchanged), a registered `Comparison` descriptor and a
//! `#[test]` that runs it.
//!
//! Every runtime item is named by an absolute path (`::faster::__private::...`,
//! `::core::...`) so that user items called `Result`, `core` or `faster` in
//! the annotated module cannot capture the expansion. Local variables use
//! mixed-site hygiene for the same reason: `original = input` must still
//! mean the user's function called `input`.

mod call;
mod inputs;
mod prepare;
mod registration;

pub(crate) use call::checked_callee;
pub(crate) use inputs::collected_inputs;
pub(crate) use prepare::prepare_closure;

use call::{call_closure, timed_closure};
pub(crate) use registration::{Descriptor, Names, registration, tracked_names};

use registration::distinct_test_names;

use crate::attr::{Attribute, Check, InputsOption, Options};
use crate::owner::Owner;
use crate::validate::{self, Candidate};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ExprPath, Ident, ItemFn, ReturnType, Type};

/// The attribute's expansion, or the function unchanged followed by the
/// errors.
pub(crate) fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    expansion_or_errors(item, |item| try_compare(args, item))
}

/// What each of the crate's attributes writes: `expand(item)`, or, where
/// the attribute is misused, the item unchanged followed by the errors (so
/// that the code calling the function does not pile further errors on top).
pub(crate) fn expansion_or_errors(
    item: TokenStream,
    expand: impl FnOnce(TokenStream) -> syn::Result<TokenStream>,
) -> TokenStream {
    match expand(item.clone()) {
        Ok(expansion) => expansion,
        Err(errors) => {
            let mut unchanged = item;
            unchanged.extend(errors.to_compile_error());
            unchanged
        }
    }
}

/// Adds `error` to `errors`, so that one compile reports them all.
pub(crate) fn combine(errors: &mut Option<syn::Error>, error: syn::Error) {
    match errors {
        Some(errors) => errors.combine(error),
        None => *errors = Some(error),
    }
}

fn try_compare(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let function: ItemFn = syn::parse2(item).map_err(|error| {
        syn::Error::new(
            error.span(),
            "`#[faster::compare]` goes on the candidate function: \
             `#[faster::compare(original = old_fn)] fn new_fn(...) { ... }`",
        )
    })?;
    validate::outside_blocks(&function, "compare", &args)?;
    // For an attribute macro the call site is the whole `#[...]`.
    let comparisons = comparisons(&function, args, None, Span::call_site())?;
    Ok(quote! {
        #function
        #comparisons
    })
}

/// The comparisons `#[faster::compare(args)]` on `function` adds next to
/// it: one (descriptor, registration and test) for a plain function, one
/// per type of `types = [...]` for a generic one. `owner` is the `impl`
/// block of a method (see [`crate::methods`]); `attribute` the span of the
/// attribute, where errors about it as a whole go.
pub(crate) fn comparisons(
    function: &ItemFn,
    args: TokenStream,
    owner: Option<&Owner>,
    attribute: Span,
) -> syn::Result<TokenStream> {
    let described = match owner {
        None => validate::signature(function),
        Some(owner) => validate::method_signature(function, owner),
    };
    let (mut options, candidate) = match (
        Options::parse(args, Attribute::Compare, attribute),
        described,
    ) {
        (Ok(options), Ok(candidate)) => (options, candidate),
        (Err(mut errors), Err(more)) => {
            errors.combine(more);
            return Err(errors);
        }
        (Err(errors), _) | (_, Err(errors)) => return Err(errors),
    };
    if let Some(owner) = owner {
        options.without_self(&owner.qualified);
    }
    let mut errors: Option<syn::Error> = None;
    for check in [
        validate::implementors_match(options.implementors(), &candidate, owner),
        validate::types_match(options.types(), &candidate, "compare"),
        validate::inputs_match(options.inputs(), &candidate, attribute, "the comparison"),
        match owner {
            None => validate::no_self_paths(&options, &candidate),
            Some(_) => Ok(()),
        },
        distinct_test_names(&options),
    ] {
        if let Err(error) = check {
            match &mut errors {
                Some(errors) => errors.combine(error),
                None => errors = Some(error),
            }
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    let comparisons: Vec<TokenStream> = match options.types() {
        None => vec![comparison(&options, &candidate, None, owner)],
        Some(types) => types
            .types
            .iter()
            .map(|concrete| {
                comparison(
                    &options,
                    &candidate.instantiated(concrete),
                    Some(concrete),
                    owner,
                )
            })
            .collect(),
    };
    Ok(quote!(#(#comparisons)*))
}

/// One comparison: the descriptor, its registration and its test.
/// `concrete` is the type this one instantiates the candidate at, for a
/// generic candidate (which `candidate` already has substituted); `owner`
/// the `impl` block of a method.
fn comparison(
    options: &Options,
    candidate: &Candidate,
    concrete: Option<&Type>,
    owner: Option<&Owner>,
) -> TokenStream {
    let names = Names::of(options, &candidate.ident, concrete, owner);
    let candidate_path = callee_path(&candidate.ident, concrete, owner);
    // A bound of the candidate that its instantiation breaks, rustc reports
    // at the type in `types = [...]`, where the path names it; calling it
    // there, with that very span, keeps the report to one.
    let candidate_span = concrete.map_or_else(|| candidate.ident.span(), Spanned::span);
    let addresses = addresses(options, candidate, (candidate_path.clone(), candidate_span));
    let run = run_closure(
        options,
        candidate,
        &names.label,
        (candidate_path, candidate_span),
    );
    registration(names.descriptor(run, addresses), options)
}

/// The descriptor's `addresses`: a non-capturing closure that says where
/// the original and the candidate start, each function named as its calls
/// name it (see [`call::address`]).
fn addresses(
    options: &Options,
    candidate: &Candidate,
    (candidate_path, candidate_span): (TokenStream, Span),
) -> TokenStream {
    let inputs = options.inputs();
    let original = options.original();
    let original = call::address(
        original.to_token_stream(),
        original.span(),
        inputs,
        candidate,
    );
    let candidate = call::address(candidate_path, candidate_span, inputs, candidate);
    quote!(::core::option::Option::Some(|| [#original, #candidate]))
}

/// How the expansion names the function `ident`: `ident`, `ident::<u32>`
/// at a type of `types = [...]`, `<Buffer>::ident::<u32>` for a method.
pub(crate) fn callee_path(
    ident: &Ident,
    concrete: Option<&Type>,
    owner: Option<&Owner>,
) -> TokenStream {
    let owner = owner.map(|owner| {
        let qualified = &owner.qualified;
        quote!(#qualified::)
    });
    match concrete {
        Some(ty) => quote!(#owner #ident::<#ty>),
        None => quote!(#owner #ident),
    }
}

/// The descriptor's `run`: a non-capturing closure (so it coerces to the
/// `fn(&Config) -> ...` pointer even in a const) that collects the inputs,
/// hands both functions to the runtime, and adds the throughput counts and
/// the rendering of a mismatching input to the result. The candidate comes
/// as its path and the span its call takes.
fn run_closure(
    options: &Options,
    candidate: &Candidate,
    label: &str,
    (candidate_path, candidate_span): (TokenStream, Span),
) -> TokenStream {
    let hygienic = |name: &str| Ident::new(name, Span::mixed_site());
    let config = hygienic("config");
    let inputs = hygienic("inputs");
    let result = hygienic("result");
    let input = hygienic("input");

    let collect = match options.inputs() {
        Some(given) => {
            let collected = collected_inputs(given, candidate);
            quote!(let #inputs = #collected?;)
        }
        // Zero parameters: a single input case, the empty tuple.
        None => quote!(let #inputs = [()];),
    };
    // At the path's own span, so that a bound of a generic original that the
    // candidate's types break is one report, the one rustc makes at the
    // path for naming it.
    let inputs_option = options.inputs();
    let original = side(
        options.original().to_token_stream(),
        options.original().span(),
        inputs_option,
        candidate,
    );
    let candidate_calls = side(candidate_path, candidate_span, inputs_option, candidate);
    let prepare = prepare_closure(inputs_option, candidate);
    let compared = match compared_legend(candidate) {
        Some(legend) => quote!(::core::option::Option::Some(#legend)),
        None => quote!(::core::option::Option::None),
    };
    // The closures are passed directly so that rustc infers their parameter
    // type from `inputs`.
    let compare = match options.check() {
        Check::With(path) => {
            let (agree, show) = check_function(path);
            quote! {
                ::faster::__private::parts_with(
                    #label, &#inputs, #compared, #original, #candidate_calls, #agree, #show,
                    #prepare, #config,
                )
            }
        }
        check => {
            let check = check_expression(check, candidate);
            quote! {
                ::faster::__private::parts(
                    #label, &#inputs, #check, #compared, #original, #candidate_calls, #prepare,
                    #config,
                )
            }
        }
    };
    let throughput = throughput(options, candidate, &result, &inputs);
    // A function without parameters has one input, `()`: nothing to show.
    let finish = if candidate.params.is_empty() {
        quote!(#result)
    } else {
        quote! {
            ::faster::__private::show_input(#result, &#inputs, |#input| {
                // `Debug` where the input has it, a placeholder where not.
                use ::faster::__private::{ShowAny as _, ShowDebug as _};
                (&&::faster::__private::Shown(#input)).show()
            })
        }
    };

    quote! {
        |#config: &::faster::__private::Config|
         -> ::core::result::Result<::faster::__private::Measurement, ::faster::__private::Error> {
            #collect
            let #result = #compare;
            #throughput
            #finish
        }
    }
}

/// One side as the runtime's `parts` takes it: the call the check sees and
/// the call the clock times, `(check, timed)`.
pub(crate) fn side(
    path: TokenStream,
    at_path: Span,
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
) -> TokenStream {
    let check = call_closure(path.clone(), at_path, inputs, candidate);
    let timed = timed_closure(path, at_path, inputs, candidate);
    quote!((#check, #timed))
}

/// The statement that adds the `flops` and `bytes` counts to the result,
/// when either is given.
fn throughput(
    options: &Options,
    candidate: &Candidate,
    result: &Ident,
    inputs: &Ident,
) -> TokenStream {
    if options.flops().is_none() && options.bytes().is_none() {
        return TokenStream::new();
    }
    let flops = count_function(options.flops(), candidate);
    let bytes = count_function(options.bytes(), candidate);
    quote! {
        let #result = ::faster::__private::with_throughput(#result, &#inputs, #flops, #bytes);
    }
}

/// What a failure message says was compared, when it is not simply the
/// output: the `&mut` arguments after the call, after the output if any.
fn compared_legend(candidate: &Candidate) -> Option<String> {
    let mutated: Vec<&str> = candidate
        .mutated()
        .map(|(_, param)| param.name.as_str())
        .collect();
    let after = match mutated.as_slice() {
        [] => return None,
        [one] => format!("{one} after the call"),
        several => format!("{} after the call", several.join(", ")),
    };
    Some(match (candidate.returns_value(), mutated.len()) {
        (false, 1) => after,
        (false, _) => format!("({after})"),
        (true, _) => format!("(the output, {after})"),
    })
}

/// `check = path`: the closure that asks `path` whether two outputs agree,
/// spanned at `path` so that a function of the wrong type is reported
/// there, with the output type it should take; and the closure that shows
/// an output (`Debug` where it has one).
fn check_function(path: &ExprPath) -> (TokenStream, TokenStream) {
    let at_path = Span::mixed_site().located_at(path.span());
    let original = Ident::new("original", at_path);
    let candidate = Ident::new("candidate", at_path);
    let agree = quote_spanned! {at_path=>
        |#original, #candidate| -> bool { #path(#original, #candidate) }
    };
    let value = Ident::new("value", Span::mixed_site());
    let show = quote! {
        |#value| {
            use ::faster::__private::{ShowAny as _, ShowDebug as _};
            (&&::faster::__private::Shown(#value)).show()
        }
    };
    (agree, show)
}

/// `flops = path` or `bytes = path` as the runtime's optional
/// `fn(&Input) -> u64`. The closure in between lets the count function take
/// what the candidate takes (`&[f64]` for a `Vec<f64>` case, by deref
/// coercion), and lets a function without parameters count with a plain
/// `fn() -> u64`. The call is spanned at `path`, where a count function of
/// the wrong type is the user's to fix.
fn count_function(path: Option<&syn::ExprPath>, candidate: &Candidate) -> TokenStream {
    let Some(path) = path else {
        return quote!(::core::option::Option::None);
    };
    let at_path = Span::mixed_site().located_at(path.span());
    let input = Ident::new("input", at_path);
    let counter = if candidate.params.is_empty() {
        quote_spanned!(at_path=> |_| #path())
    } else {
        quote_spanned!(at_path=> |#input| #path(#input))
    };
    quote!(::core::option::Option::Some(#counter))
}

/// `eq`, `approx(...)` or `skip`, spanned where a compared value that does
/// not fit the check is the user's to fix: the output type, or for a
/// function returning `()`, its first `&mut` parameter.
fn check_expression(check: &Check, candidate: &Candidate) -> TokenStream {
    let span = match &candidate.output {
        ReturnType::Type(_, ty) if candidate.returns_value() => ty.span(),
        // `Tally` in `&mut Tally`: the type that must be comparable.
        _ => candidate.mutated().next().map_or_else(
            || candidate.ident.span(),
            |(_, param)| match &param.ty {
                Type::Reference(reference) => reference.elem.span(),
                other => other.span(),
            },
        ),
    };
    check_tokens(check, span)
}

/// The runtime's check for `eq`, `approx(...)` or `skip`, spanned at
/// `span`. A check function is no value: `compare` calls it through an
/// entry point of its own, and `compare_gpu` refuses it.
pub(crate) fn check_tokens(check: &Check, span: Span) -> TokenStream {
    match check {
        Check::Eq => quote_spanned!(span=> ::faster::__private::Eq),
        Check::Skip => quote_spanned!(span=> ::faster::__private::Skip),
        Check::Approx { rel, abs } => {
            let (rel, abs) = (Literal::f64_suffixed(*rel), Literal::f64_suffixed(*abs));
            quote_spanned!(span=> ::faster::__private::Approx { rel: #rel, abs: #abs })
        }
        Check::With(_) => unreachable!("a check function is no value of the runtime's"),
    }
}
