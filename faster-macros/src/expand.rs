//! Code generation: turns the candidate function and its options into the
//! function itself (unchanged), a registered `Comparison` descriptor and a
//! `#[test]` that runs it.
//!
//! Every runtime item is named by an absolute path (`::faster::__private::...`,
//! `::core::...`) so that user items called `Result`, `core` or `faster` in
//! the annotated module cannot capture the expansion. Local variables use
//! mixed-site hygiene for the same reason: `original = input` must still
//! mean the user's function called `input`.

use crate::attr::{Check, Expect, Options, tokens_as_written};
use crate::validate::{self, Candidate, Passing};
use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, ReturnType};

/// The attribute's expansion, or the function unchanged followed by the
/// errors (so that its callers do not pile further errors on top).
pub(crate) fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    match try_compare(args, item.clone()) {
        Ok(expansion) => expansion,
        Err(errors) => {
            let mut unchanged = item;
            unchanged.extend(errors.to_compile_error());
            unchanged
        }
    }
}

fn try_compare(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    // For an attribute macro the call site is the whole `#[...]`.
    let attribute = Span::call_site();
    let function: ItemFn = syn::parse2(item).map_err(|error| {
        syn::Error::new(
            error.span(),
            "`#[faster::compare]` goes on the candidate function: \
             `#[faster::compare(original = old_fn)] fn new_fn(...) { ... }`",
        )
    })?;
    let (options, candidate) = match (
        Options::parse(args, attribute),
        validate::signature(&function),
    ) {
        (Ok(options), Ok(candidate)) => (options, candidate),
        (Err(mut errors), Err(more)) => {
            errors.combine(more);
            return Err(errors);
        }
        (Err(errors), _) | (_, Err(errors)) => return Err(errors),
    };
    validate::inputs_match(&options, &candidate, attribute)?;
    Ok(expansion(&function, &options, &candidate))
}

fn expansion(function: &ItemFn, options: &Options, candidate: &Candidate) -> TokenStream {
    let bare_ident = candidate.ident.unraw();
    let descriptor = format_ident!("__FASTER_{}", bare_ident);
    let test = format_ident!("faster_{}", bare_ident);

    let original_as_written = tokens_as_written(options.original.to_token_stream());
    let (name, named, display_name) = match &options.name {
        Some(name) => (quote!(#name), true, name.value()),
        None => {
            let ident = bare_ident.to_string();
            // `module_path!()` includes the crate's name; the runtime strips
            // it for display (a const cannot), see `Comparison::display_name`.
            let name = quote!(::core::concat!(::core::module_path!(), "::", #ident));
            (name, false, ident)
        }
    };
    let label = format!("{display_name} vs {original_as_written}");
    let settings = settings(options);
    let run = run_closure(options, candidate, &label);

    quote! {
        #function

        #[doc(hidden)]
        // `..Settings::NONE` is needless when every option is given, and
        // necessary for settings a newer runtime adds.
        #[allow(non_upper_case_globals, clippy::needless_update)]
        const #descriptor: ::faster::__private::Comparison = ::faster::__private::Comparison {
            name: #name,
            named: #named,
            original: #original_as_written,
            file: ::core::file!(),
            line: ::core::line!(),
            settings: #settings,
            debug_build: ::core::cfg!(debug_assertions),
            run: #run,
        };

        ::faster::__private::inventory::submit! { #descriptor }

        #[::core::prelude::v1::test]
        fn #test() {
            ::faster::__private::run_test(&#descriptor)
        }
    }
}

/// The options the attribute sets; the others come from `Settings::NONE`,
/// so a setting the runtime adds later does not break this expansion.
fn settings(options: &Options) -> TokenStream {
    let mut fields = Vec::new();
    if let Some(expect) = options.expect {
        let variant = match expect {
            Expect::Faster => quote!(Faster),
            Expect::NotSlower => quote!(NotSlower),
            Expect::Report => quote!(Report),
        };
        fields.push(quote! {
            expect: ::core::option::Option::Some(::faster::__private::Expect::#variant)
        });
    }
    if let Some(fraction) = options.noise_floor {
        let fraction = Literal::f64_suffixed(fraction);
        fields.push(quote!(noise_floor: ::core::option::Option::Some(#fraction)));
    }
    if let Some(duration) = options.max_time {
        let nanos = u64::try_from(duration.as_nanos())
            .expect("`max_time` is parsed from a nanosecond count that fits in a u64");
        let nanos = Literal::u64_suffixed(nanos);
        fields.push(quote! {
            max_time: ::core::option::Option::Some(::core::time::Duration::from_nanos(#nanos))
        });
    }
    if let Some(processes) = options.processes {
        let processes = Literal::usize_suffixed(
            usize::try_from(processes).expect("`processes` is at most 100"),
        );
        fields.push(quote!(processes: ::core::option::Option::Some(#processes)));
    }
    quote! {
        ::faster::__private::Settings {
            #(#fields,)*
            ..::faster::__private::Settings::NONE
        }
    }
}

/// The descriptor's `run`: a non-capturing closure (so it coerces to the
/// `fn(&Config) -> ...` pointer even in a const) that collects the inputs
/// and hands both functions to the runtime.
fn run_closure(options: &Options, candidate: &Candidate, label: &str) -> TokenStream {
    let hygienic = |name: &str| Ident::new(name, Span::mixed_site());
    let config = hygienic("config");
    let inputs = hygienic("inputs");

    let collect = match &options.inputs {
        Some(given) => {
            let path = &given.path;
            quote!(let #inputs = ::faster::__private::collect_inputs(#path)?;)
        }
        // Zero parameters: a single input case, the empty tuple.
        None => quote!(let #inputs = [()];),
    };
    let compare = if candidate.consumes_inputs() {
        quote!(compare_by_value)
    } else {
        quote!(compare_by_ref)
    };
    let check = check_expression(options.check, candidate);
    let original = call_closure(options.original.to_token_stream(), options, candidate);
    let candidate_call = call_closure(candidate.ident.to_token_stream(), options, candidate);
    // The closures are passed directly so that rustc infers their parameter
    // type from `inputs`.
    let compared = quote! {
        ::faster::__private::#compare(
            #label,
            &#inputs,
            #check,
            #original,
            #candidate_call,
            #config,
        )
    };
    let reported = if options.flops.is_none() && options.bytes.is_none() {
        compared
    } else {
        let flops = count_function(options.flops.as_ref(), candidate);
        let bytes = count_function(options.bytes.as_ref(), candidate);
        quote!(::faster::__private::with_throughput(#compared, &#inputs, #flops, #bytes))
    };

    quote! {
        |#config: &::faster::__private::Config|
         -> ::core::result::Result<::faster::__private::Report, ::faster::__private::Error> {
            #collect
            #reported
        }
    }
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

/// `eq` or `skip`, spanned at the candidate's return type: when the output
/// type cannot be compared with `==`, that is where the error belongs.
fn check_expression(check: Check, candidate: &Candidate) -> TokenStream {
    let span = match &candidate.output {
        ReturnType::Type(_, ty) => ty.span(),
        ReturnType::Default => candidate.ident.span(),
    };
    match check {
        Check::Eq => quote_spanned!(span=> ::faster::__private::Eq),
        Check::Skip => quote_spanned!(span=> ::faster::__private::Skip),
    }
}

/// `|input| { let function: fn(&[u64]) -> u64 = path; function(input) }`.
///
/// The function is called through a pointer of the candidate's signature:
/// when `path` (the original) has another signature, the one error is at
/// `path` with the candidate's signature as the expected type. The pointer is
/// a constant, so an optimized build calls (and inlines) the function
/// directly; the candidate goes through the same shape so both sides cost
/// the same.
///
/// Several parameters are taken apart with a tuple pattern,
/// `|(owned0, owned1)| function(&owned0, owned1)`, so an input case of the
/// wrong shape is one "expected `Vec<u64>`, found `(_, _)`" error. The
/// pattern and the arguments are spanned at `inputs = ...`: a mismatch
/// between the input cases and the parameters is the user's to fix there.
fn call_closure(path: TokenStream, options: &Options, candidate: &Candidate) -> TokenStream {
    let function = Ident::new("function", Span::mixed_site());
    let pointer_type = pointer_type(candidate);
    let inputs_span = options
        .inputs
        .as_ref()
        .map_or_else(Span::call_site, |given| given.path.span());
    let at_inputs = Span::mixed_site().located_at(inputs_span);
    // By value, each call receives its own clone of the case; by reference,
    // a borrow of the case.
    let stem = if candidate.consumes_inputs() {
        "owned"
    } else {
        "input"
    };

    let (pattern, arguments): (TokenStream, Vec<TokenStream>) = match candidate.params.as_slice() {
        [] => (quote!(_), Vec::new()),
        [_] => {
            let binding = Ident::new(stem, at_inputs);
            (quote!(#binding), vec![quote!(#binding)])
        }
        params => {
            let bindings: Vec<Ident> = (0..params.len())
                .map(|position| Ident::new(&format!("{stem}{position}"), at_inputs))
                .collect();
            let arguments = params
                .iter()
                .zip(&bindings)
                .map(
                    |(param, binding)| match (param.passing, candidate.consumes_inputs()) {
                        // The owned case's field, lent to a by-reference parameter.
                        (Passing::ByRef, true) => quote_spanned!(at_inputs=> &#binding),
                        // Already a reference (the pattern binds by reference
                        // into a borrowed case) or an owned field to move.
                        (Passing::ByRef, false) | (Passing::ByValue, _) => quote!(#binding),
                    },
                )
                .collect();
            let mut tuple = Group::new(Delimiter::Parenthesis, quote!(#(#bindings),*));
            tuple.set_span(at_inputs);
            (TokenTree::Group(tuple).into(), arguments)
        }
    };
    let call = quote_spanned!(at_inputs=> #function(#(#arguments),*));
    quote! {
        |#pattern| {
            let #function: #pointer_type = #path;
            #call
        }
    }
}

/// The candidate's signature as a function pointer type,
/// `for<'a> extern "C" fn(&'a str) -> usize`, spanned over the candidate's
/// signature so a mismatch error shows it as the expected type.
fn pointer_type(candidate: &Candidate) -> TokenStream {
    let abi = &candidate.abi;
    let parameters = candidate.params.iter().map(|param| &param.ty);
    let output = &candidate.output;
    let lifetimes = &candidate.lifetimes;
    let signature_span = candidate.ident.span();
    let binder = if lifetimes.is_empty() {
        TokenStream::new()
    } else {
        quote_spanned!(signature_span=> for<#(#lifetimes),*>)
    };
    let mut parenthesized = Group::new(Delimiter::Parenthesis, quote!(#(#parameters),*));
    parenthesized.set_span(signature_span);
    let fn_keyword = quote_spanned!(signature_span=> fn);
    let parenthesized = TokenTree::Group(parenthesized);
    quote!(#binder #abi #fn_keyword #parenthesized #output)
}
