//! `#[faster::track]`: registers one function, with the inputs to call it
//! on, for comparisons with itself at another git revision (`cargo faster
//! --against REV`). Reads its options, accepts the signatures
//! `#[faster::compare]` accepts (but generic ones), and writes the function
//! unchanged, a registered `Tracked` descriptor and a `#[test]` that checks
//! the function runs on every input (and serves it, when `cargo faster`
//! starts the test binary to).

use crate::attr::{self, Expect, InputsOption, TypesOption, tokens_as_written};
use crate::expand::{
    callee_path, collected_inputs, expansion_or_errors, prepare_closure, settings, side,
    type_suffix,
};
use crate::owner::Owner;
use crate::validate::{self, Candidate};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use std::time::Duration;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, Ident, ItemFn, LitStr, Token, Type};

/// The options, in the order the guide documents them (`guide/revisions.md`).
const OPTION_NAMES: [&str; 6] = [
    "inputs",
    "name",
    "expect",
    "noise_floor",
    "max_time",
    "types",
];

/// Options of `#[faster::compare]` that mean nothing here.
const COMPARE_ONLY: [&str; 5] = ["original", "check", "flops", "bytes", "processes"];

/// The parsed `#[faster::track(...)]` options.
#[derive(Default)]
struct Options {
    inputs: Option<InputsOption>,
    name: Option<LitStr>,
    expect: Option<Expect>,
    noise_floor: Option<f64>,
    max_time: Option<Duration>,
    types: Option<TypesOption>,
}

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
    let options = (|input: ParseStream| parse_options(input)).parse2(args);
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
    if let Some(owner) = owner
        && let Some(inputs) = &mut options.inputs
    {
        let replaced = crate::owner::without_self(inputs.path.to_token_stream(), &owner.qualified);
        if let Ok(path) = syn::parse2(replaced) {
            inputs.path = path;
        }
    }
    validate::types_match(options.types.as_ref(), &candidate, "track")?;
    validate::inputs_match(
        options.inputs.as_ref(),
        &candidate,
        attribute,
        "tracking it",
    )?;
    let source_digest = crate::source_digest::source_digest(function);
    Ok(match &options.types {
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

fn parse_options(input: ParseStream) -> syn::Result<Options> {
    let mut options = Options::default();
    let mut seen: Vec<String> = Vec::new();
    let mut errors: Option<syn::Error> = None;
    while !input.is_empty() {
        let key = Ident::parse_any(input)?;
        let key_name = key.unraw().to_string();
        if !input.peek(Token![=]) {
            return Err(syn::Error::new(
                key.span(),
                format!("`{key_name}` needs a value: write `{key_name} = ...`"),
            ));
        }
        input.parse::<Token![=]>()?;
        let set = if key_name == "types" {
            // Types are not expressions (`Vec<u8>`): read as `compare` reads them.
            attr::types_value(input).and_then(|types| {
                if seen.contains(&key_name) {
                    return Err(twice(&key, &key_name));
                }
                options.types = Some(TypesOption {
                    key: key.clone(),
                    types,
                });
                Ok(())
            })
        } else {
            let value: Expr = input.parse()?;
            if seen.contains(&key_name) {
                Err(twice(&key, &key_name))
            } else {
                set_option(&mut options, &key, &key_name, value)
            }
        };
        if let Err(error) = set {
            match &mut errors {
                Some(errors) => errors.combine(error),
                None => errors = Some(error),
            }
        }
        seen.push(key_name);
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    errors.map_or(Ok(options), Err)
}

fn twice(key: &Ident, key_name: &str) -> syn::Error {
    syn::Error::new(
        key.span(),
        format!("`{key_name}` is given twice: keep only one `{key_name} = ...`"),
    )
}

fn set_option(options: &mut Options, key: &Ident, key_name: &str, value: Expr) -> syn::Result<()> {
    match key_name {
        "inputs" => {
            options.inputs = Some(InputsOption {
                key: key.clone(),
                path: attr::function_path(key_name, value)?,
            });
        }
        "name" => options.name = Some(attr::name(value)?),
        "expect" => options.expect = Some(attr::expect(value)?),
        "noise_floor" => options.noise_floor = Some(attr::noise_floor(value)?),
        "max_time" => options.max_time = Some(attr::max_time(value)?),
        _ => return Err(unknown_option(key, key_name)),
    }
    Ok(())
}

fn unknown_option(key: &Ident, key_name: &str) -> syn::Error {
    let valid = OPTION_NAMES.map(|name| format!("`{name}`")).join(", ");
    let message = if COMPARE_ONLY.contains(&key_name) {
        format!(
            "`{key_name}` is an option of `#[faster::compare]`; `#[faster::track]` compares the \
             function with itself at another revision\nthe options are {valid}"
        )
    } else if let Some(option) = attr::closest(key_name, &OPTION_NAMES) {
        format!("unknown option `{key_name}`: did you mean `{option}`?\nthe options are {valid}")
    } else {
        format!("unknown option `{key_name}`\nthe options are {valid}")
    };
    syn::Error::new(key.span(), message)
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
    let bare_ident = candidate.ident.unraw();
    let suffix = concrete.map_or_else(String::new, |ty| format!("_{}", type_suffix(ty)));
    let (stem, function) = match owner {
        Some(owner) => (
            format!("{}_{bare_ident}", owner.snake_name()),
            format!("{}::{bare_ident}", owner.written),
        ),
        None => (bare_ident.to_string(), bare_ident.to_string()),
    };
    let descriptor = format_ident!("__FASTER_TRACK_{}{}", stem, suffix);
    let test = format_ident!("faster_track_{}{}", stem, suffix);
    // What matches it across revisions: its path, and its type.
    let instantiation = concrete.map_or_else(String::new, |ty| {
        format!("::<{}>", tokens_as_written(ty.to_token_stream()))
    });
    let name = match &options.name {
        Some(name) => {
            let name = format!("{}{instantiation}", name.value());
            quote!(#name)
        }
        None => {
            let tail = format!("::{function}{instantiation}");
            quote!(::core::concat!(::core::module_path!(), #tail))
        }
    };
    let test_suffix = format!("::{test}");
    let settings = settings(options.expect, options.noise_floor, options.max_time, None);
    let open = open_closure(
        options,
        candidate,
        callee_path(&candidate.ident, concrete, owner),
    );
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, clippy::needless_update)]
        const #descriptor: ::faster::__private::Tracked = ::faster::__private::Tracked {
            name: #name,
            test: ::core::concat!(::core::module_path!(), #test_suffix),
            file: ::core::file!(),
            line: ::core::line!(),
            settings: #settings,
            debug_build: ::core::cfg!(debug_assertions),
            source_digest: #source_digest,
            open: #open,
        };

        ::faster::__private::inventory::submit! { #descriptor }

        #[::core::prelude::v1::test]
        fn #test() {
            ::faster::__private::run_tracked_test(&#descriptor)
        }
    }
}

/// The descriptor's `open`: a non-capturing closure that collects the
/// inputs and hands them to the runtime with the function and the closures
/// that digest and render an input and an output.
fn open_closure(options: &Options, candidate: &Candidate, path: TokenStream) -> TokenStream {
    let inputs = Ident::new("inputs", Span::mixed_site());
    let collect = match &options.inputs {
        Some(given) => {
            let collected = collected_inputs(given, candidate);
            quote!(let #inputs = #collected?;)
        }
        None => quote!(let #inputs = ::faster::__private::collect_inputs(|| [()])?;),
    };
    let calls = side(
        path,
        candidate.ident.span(),
        options.inputs.as_ref(),
        candidate,
    );
    let prepare = prepare_closure(options.inputs.as_ref(), candidate);
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
