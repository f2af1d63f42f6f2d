//! `#[faster::track]`: registers one function, with the inputs to call it
//! on, for comparisons with itself at another git revision (`cargo faster
//! --against REV`). Its options are read by `attr`, as every attribute's
//! are; it accepts the signatures `#[faster::compare]` accepts (but generic
//! ones), and writes the function unchanged, a registered `Tracked`
//! descriptor and a `#[test]` that checks the function runs on every input
//! (and serves it, when `cargo faster` starts the test binary to).
//!
//! It marks what the revision comparison measures; the rest of that
//! feature is the runtime's: its `revision/` (the protocol, and serving the
//! marked functions from the test binary) and `harness/against/` (the run
//! in `cargo faster`, the parent).

use crate::attr::{Attribute, Options, tokens_as_written};
use crate::expand::{
    Descriptor, callee_path, collected_inputs, expansion_or_errors, prepare_closure, registration,
    side, tracked_names,
};
use crate::owner::Owner;
use crate::validate::{self, Candidate};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Ident, ItemFn, Type};

/// The attribute's expansion, or the function unchanged followed by the
/// errors.
pub(crate) fn track(args: TokenStream, item: TokenStream) -> TokenStream {
    expansion_or_errors(item, |item| try_track(args, item))
}

fn try_track(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let function: ItemFn = syn::parse2(item).map_err(|error| {
        syn::Error::new(
            error.span(),
            "`#[faster::track]` goes on a function: \
             `#[faster::track(inputs = parse_inputs)] fn parse(...) { ... }`",
        )
    })?;
    validate::outside_blocks(&function, "track", &args)?;
    let tracked = tracked(&function, args, None, Span::call_site())?;
    Ok(quote! {
        #function
        #tracked
    })
}

/// What `#[faster::track(args)]` on `function` adds next to it: one
/// registered descriptor and test, or one per type of `types = [...]`.
/// `owner` is the `impl` block of a method (see [`crate::methods`]);
/// `attribute` the span of the attribute.
pub(crate) fn tracked(
    function: &ItemFn,
    args: TokenStream,
    owner: Option<&Owner>,
    attribute: Span,
) -> syn::Result<TokenStream> {
    let options = Options::parse(args, Attribute::Track, attribute);
    // A function may also carry a `#[faster::compare]`: what that attribute
    // accepts, this one does too.
    let mut bare = function.clone();
    bare.attrs
        .retain(|attribute| !validate::is_compare_attribute(attribute));
    let candidate = match owner {
        None => validate::signature(&bare),
        Some(owner) => validate::method_signature(&bare, owner),
    }
    .map_err(for_track);
    let (mut options, candidate) = match (options, candidate) {
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
    validate::implementors_match(options.implementors(), &candidate, owner)?;
    validate::types_match(options.types(), &candidate, "track")?;
    validate::inputs_match(options.inputs(), &candidate, attribute, "tracking it")?;
    let source_digest = crate::source_digest::source_digest(function);
    Ok(match options.types() {
        None => expansion(&options, &candidate, None, owner, source_digest),
        Some(types) => types
            .types
            .iter()
            .map(|concrete| {
                expansion(
                    &options,
                    &candidate.instantiated(concrete),
                    Some(concrete),
                    owner,
                    source_digest,
                )
            })
            .collect(),
    })
}

/// The shared signature checks speak of `#[faster::compare]`; here they
/// are about this attribute.
fn for_track(errors: syn::Error) -> syn::Error {
    errors
        .into_iter()
        .map(|error| {
            let message = error
                .to_string()
                .replace("#[faster::compare]", "#[faster::track]")
                .replace("cannot be compared", "cannot be tracked");
            syn::Error::new(error.span(), message)
        })
        .reduce(|mut all, error| {
            all.combine(error);
            all
        })
        .expect("an error holds at least one message")
}

/// One tracked instantiation: its descriptor, registered, and its test.
/// `concrete` is the type a generic function is instantiated at here
/// (which `candidate` already has substituted); `owner` the `impl` block
/// of a method; `source_digest` the digest of the function's own source.
fn expansion(
    options: &Options,
    candidate: &Candidate,
    concrete: Option<&Type>,
    owner: Option<&Owner>,
    source_digest: u64,
) -> TokenStream {
    let (constant, test, function) = tracked_names(&candidate.ident, concrete, owner);
    // What matches it across revisions: its path, and its type.
    let instantiation = concrete.map_or_else(String::new, |ty| {
        format!("::<{}>", tokens_as_written(ty.to_token_stream()))
    });
    let name = match options.name() {
        Some(name) => {
            let name = format!("{}{instantiation}", name.value());
            quote!(#name)
        }
        None => {
            let tail = format!("::{function}{instantiation}");
            quote!(::core::concat!(::core::module_path!(), #tail))
        }
    };
    let open = open_closure(
        options,
        candidate,
        callee_path(&candidate.ident, concrete, owner),
    );
    let descriptor = Descriptor {
        kind: "Tracked",
        constant,
        test,
        identity: quote!(name: #name,),
        body: quote!(source_digest: #source_digest, open: #open,),
        runner: "run_tracked_test",
    };
    registration(descriptor, options)
}

/// The descriptor's `open`: a non-capturing closure that collects the
/// inputs and hands them to the runtime with the function and the closures
/// that digest and render an input and an output.
fn open_closure(options: &Options, candidate: &Candidate, path: TokenStream) -> TokenStream {
    let inputs = Ident::new("inputs", Span::mixed_site());
    let collect = match options.inputs() {
        Some(given) => {
            let collected = collected_inputs(given, candidate);
            quote!(let #inputs = #collected?;)
        }
        None => quote!(let #inputs = ::faster::__private::collect_inputs(|| [()])?;),
    };
    let calls = side(path, candidate.ident.span(), options.inputs(), candidate);
    let prepare = prepare_closure(options.inputs(), candidate);
    let describe = describe_closure();
    quote! {
        || -> ::faster::__private::Opened {
            #collect
            ::faster::__private::track_parts(#inputs, #calls, #prepare, #describe, #describe)
        }
    }
}

/// `|value| Described { digest, shown }`: the value's digest (by `Hash`,
/// else by `Debug`, else none) and its rendering (by `Debug`, else a
/// placeholder), chosen by its type.
fn describe_closure() -> TokenStream {
    let value = Ident::new("value", Span::mixed_site());
    quote! {
        |#value| {
            use ::faster::__private::{DigestDebug as _, DigestHash as _, DigestNone as _};
            use ::faster::__private::{ShowAny as _, ShowDebug as _};
            ::faster::__private::Described {
                digest: (&&&::faster::__private::Digest(#value)).digest(),
                shown: (&&::faster::__private::Shown(#value)).show(),
            }
        }
    }
}
