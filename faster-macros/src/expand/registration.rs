//! What every attribute registers, whatever it registers: the names a
//! comparison or a tracked function goes by (its descriptor, its test
//! `faster_<fn>[_<type>]` or `faster_track_<fn>[_<type>]`, its heading),
//! the settings its attribute sets, and the descriptor, its `inventory`
//! entry and the `#[test]` that runs it.

use crate::attr::{Options, Value, tokens_as_written};
use crate::owner::Owner;
use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::ext::IdentExt;
use syn::{Ident, Type};

/// `u32` → `u32`, `Vec<u8>` → `vec_u8`, `[f32; 4]` → `f32_4`: a type as
/// the end of a test's name.
pub(crate) fn type_suffix(concrete: &Type) -> String {
    let written = tokens_as_written(concrete.to_token_stream()).to_lowercase();
    let mut suffix = String::new();
    for c in written.chars() {
        if c.is_ascii_alphanumeric() {
            suffix.push(c);
        } else if !suffix.is_empty() && !suffix.ends_with('_') {
            suffix.push('_');
        }
    }
    suffix.trim_end_matches('_').to_string()
}

/// Two types of `types = [...]` must not name the same test.
pub(crate) fn distinct_test_names(options: &Options) -> syn::Result<()> {
    let Some(types) = options.types() else {
        return Ok(());
    };
    for (position, concrete) in types.types.iter().enumerate() {
        let suffix = type_suffix(concrete);
        if let Some(earlier) = types.types[..position]
            .iter()
            .find(|earlier| type_suffix(earlier) == suffix)
        {
            return Err(syn::Error::new_spanned(
                concrete,
                format!(
                    "`{}` and `{}` would both name the test `..._{suffix}`: compare one of \
                     them through a type alias with another name",
                    tokens_as_written(earlier.to_token_stream()),
                    tokens_as_written(concrete.to_token_stream()),
                ),
            ));
        }
    }
    Ok(())
}

/// The function `ident` as a heading writes it (`Buffer::format` for a
/// method), and the stem of the names its registration goes by:
/// `format`, `buffer_format` for a method, with `_u32` at a type of
/// `types = [...]`. A method's stem has its type: two blocks of one module
/// may both have a `new`.
fn stem(ident: &Ident, concrete: Option<&Type>, owner: Option<&Owner>) -> (String, String) {
    let bare_ident = ident.unraw();
    let suffix = concrete.map_or_else(String::new, |ty| format!("_{}", type_suffix(ty)));
    match owner {
        Some(owner) => (
            format!("{}::{bare_ident}", owner.written),
            format!("{}_{bare_ident}{suffix}", owner.snake_name()),
        ),
        None => (bare_ident.to_string(), format!("{bare_ident}{suffix}")),
    }
}

/// The names one comparison goes by, for `compare` and `compare_gpu` alike.
pub(crate) struct Names {
    /// The registered descriptor's constant.
    descriptor: Ident,
    /// The generated test: `faster_<fn>`, or `faster_<fn>_<type>` for a
    /// generic candidate, the names the README, `--list` and `--exact` use.
    test: Ident,
    /// The original's path as the user wrote it.
    original_as_written: String,
    /// The report's heading: `sum_fast vs sum_naive`, `name = ...` in
    /// place of the candidate's name where given.
    pub label: String,
}

impl Names {
    /// The names of the comparison of the candidate `ident`, instantiated
    /// at `concrete` where it is generic.
    pub(crate) fn of(
        options: &Options,
        ident: &Ident,
        concrete: Option<&Type>,
        owner: Option<&Owner>,
    ) -> Names {
        let concrete_written = concrete.map(|ty| tokens_as_written(ty.to_token_stream()));
        let (function, stem) = stem(ident, concrete, owner);
        let mut original_as_written = tokens_as_written(options.original().to_token_stream());
        if let Some(owner) = owner {
            // `Self::old` was made `<Buffer>::old` to be called; it reads
            // `Buffer::old`.
            if let Some(rest) = original_as_written.strip_prefix(&format!("<{}>::", owner.written))
            {
                original_as_written = format!("{}::{rest}", owner.written);
            }
        }
        let display_name = match (options.name(), &concrete_written) {
            (Some(name), Some(ty)) => format!("{} ({ty})", name.value()),
            (Some(name), None) => name.value(),
            (None, Some(ty)) => format!("{function}::<{ty}>"),
            (None, None) => function,
        };
        Names {
            descriptor: format_ident!("__FASTER_{}", stem),
            test: format_ident!("faster_{}", stem),
            label: format!("{display_name} vs {original_as_written}"),
            original_as_written,
        }
    }

    /// The comparison's descriptor, whose `run` is `run` and whose
    /// `addresses` is `addresses` (an `Option`).
    pub(crate) fn descriptor(self, run: TokenStream, addresses: TokenStream) -> Descriptor {
        let Names {
            descriptor,
            test,
            original_as_written,
            label,
        } = self;
        Descriptor {
            kind: "Comparison",
            constant: descriptor,
            test,
            identity: quote!(label: #label, original: #original_as_written,),
            body: quote!(addresses: #addresses, run: #run,),
            runner: "run_test",
        }
    }
}

/// The names a tracked function goes by, `__FASTER_TRACK_<stem>` and
/// `faster_track_<stem>`, and the function as written (see [`stem`]).
pub(crate) fn tracked_names(
    ident: &Ident,
    concrete: Option<&Type>,
    owner: Option<&Owner>,
) -> (Ident, Ident, String) {
    let (function, stem) = stem(ident, concrete, owner);
    (
        format_ident!("__FASTER_TRACK_{}", stem),
        format_ident!("faster_track_{}", stem),
        function,
    )
}

/// A descriptor to register, of a comparison or of a tracked function.
pub(crate) struct Descriptor {
    /// Its type in `faster::__private`: `Comparison`, `Tracked`.
    pub kind: &'static str,
    /// The constant that holds it.
    pub constant: Ident,
    /// The generated test that runs it.
    pub test: Ident,
    /// The fields that say what it is (its heading, its name), each
    /// followed by a comma.
    pub identity: TokenStream,
    /// The fields that run it, each followed by a comma.
    pub body: TokenStream,
    /// The runtime's function its test calls with it.
    pub runner: &'static str,
}

/// The descriptor, with the settings `options` set, its registration and
/// the test that runs it: the same for every attribute, whatever it
/// registers, each runtime item named where `crate = path` says.
pub(crate) fn registration(descriptor: Descriptor, options: &Options) -> TokenStream {
    let Descriptor {
        kind,
        constant,
        test,
        identity,
        body,
        runner,
    } = descriptor;
    let kind = Ident::new(kind, Span::call_site());
    let runner = Ident::new(runner, Span::call_site());
    let settings = settings(options);
    let test_suffix = format!("::{test}");
    let registered = quote! {
        #[doc(hidden)]
        // `..Settings::NONE` is needless when every option is given, and
        // necessary for settings a newer runtime adds. A `#[deprecated]`
        // function is still measured: its callers are warned, not the
        // measurement the attribute asked for.
        #[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
        const #constant: ::faster::__private::#kind = ::faster::__private::#kind {
            // The generated test's path: libtest's name for it, with the
            // crate first (the runtime strips it, a const cannot).
            test: ::core::concat!(::core::module_path!(), #test_suffix),
            #identity
            file: ::core::file!(),
            line: ::core::line!(),
            settings: #settings,
            debug_build: ::core::cfg!(debug_assertions),
            #body
        };

        ::faster::__private::inventory::submit! { #constant }

        #[::core::prelude::v1::test]
        fn #test() {
            // The runner is `#[track_caller]` and this call has the
            // attribute's span (the call site): a failure's `panicked at`
            // is the attribute in the user's file, the line `line!()`
            // above names, not the runtime.
            ::faster::__private::#runner(&#constant)
        }
    };
    // Every attribute's expansion is in the descriptor, its registration
    // and its test: named here under `crate = path`, it is named so
    // throughout.
    options.runtime().named_in(registered)
}

/// The `Settings` the attribute's options set; the others come from
/// `Settings::NONE`, so a setting the runtime adds later does not break
/// this expansion.
fn settings(options: &Options) -> TokenStream {
    let fields = options.settings().map(|(field, value)| {
        let value = setting_value(field, value);
        let field = Ident::new(field, Span::call_site());
        quote!(#field: ::core::option::Option::Some(#value))
    });
    quote! {
        ::faster::__private::Settings {
            #(#fields,)*
            ..::faster::__private::Settings::NONE
        }
    }
}

/// An option's value as the `Settings` field `field` holds it.
fn setting_value(field: &str, value: &Value) -> TokenStream {
    match value {
        Value::Keyword(choice) => {
            let setting = Ident::new(field, Span::call_site());
            let variant = Ident::new(choice.variant, Span::call_site());
            quote!(::faster::__private::setting_types::#setting::#variant)
        }
        Value::Fraction(fraction) => Literal::f64_suffixed(*fraction).into_token_stream(),
        Value::Duration(duration) => {
            let nanos = u64::try_from(duration.as_nanos())
                .expect("a duration is parsed from a nanosecond count that fits in a u64");
            let nanos = Literal::u64_suffixed(nanos);
            quote!(::core::time::Duration::from_nanos(#nanos))
        }
        Value::Count(count) => Literal::usize_suffixed(*count).into_token_stream(),
        Value::Switch(switch) => quote!(#switch),
        Value::Text(text) => quote!(#text),
        Value::Path(path) => quote!(#path),
        Value::Check(_) | Value::Types(_) | Value::Crate(_) => {
            unreachable!("no `Settings` field holds a check, types or a crate")
        }
    }
}
