//! What every comparison registers, whatever it compares: the names it
//! goes by (its descriptor, its test `faster_<fn>[_<type>]` and its
//! heading), the settings its attribute sets, and the descriptor, its
//! `inventory` entry and the `#[test]` that runs it.

use crate::attr::{Expect, Options, tokens_as_written};
use crate::owner::Owner;
use proc_macro2::{Literal, TokenStream};
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
    let Some(types) = &options.types else {
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
        let bare_ident = ident.unraw();
        let suffix = concrete.map_or_else(String::new, |ty| format!("_{}", type_suffix(ty)));
        let concrete_written = concrete.map(|ty| tokens_as_written(ty.to_token_stream()));
        let mut original_as_written = tokens_as_written(options.original.to_token_stream());
        // A method's test is `faster_<type>_<method>`: two blocks of one
        // module may both have a `new`.
        let (function, stem) = match owner {
            Some(owner) => {
                // `Self::old` was made `<Buffer>::old` to be called; it
                // reads `Buffer::old`.
                if let Some(rest) =
                    original_as_written.strip_prefix(&format!("<{}>::", owner.written))
                {
                    original_as_written = format!("{}::{rest}", owner.written);
                }
                (
                    format!("{}::{bare_ident}", owner.written),
                    format!("{}_{bare_ident}", owner.snake_name()),
                )
            }
            None => (bare_ident.to_string(), bare_ident.to_string()),
        };
        let display_name = match (&options.name, &concrete_written) {
            (Some(name), Some(ty)) => format!("{} ({ty})", name.value()),
            (Some(name), None) => name.value(),
            (None, Some(ty)) => format!("{function}::<{ty}>"),
            (None, None) => function,
        };
        Names {
            descriptor: format_ident!("__FASTER_{}{}", stem, suffix),
            test: format_ident!("faster_{}{}", stem, suffix),
            label: format!("{display_name} vs {original_as_written}"),
            original_as_written,
        }
    }
}

/// The descriptor `names` name, with the settings `options` set, its
/// registration and the test that runs it: the same for every kind of
/// comparison, whatever its `run`.
pub(crate) fn registration(names: &Names, options: &Options, run: &TokenStream) -> TokenStream {
    let Names {
        descriptor,
        test,
        original_as_written,
        label,
    } = names;
    let settings = settings(
        options.expect,
        options.noise_floor,
        options.max_time,
        options.processes,
    );
    let test_suffix = format!("::{test}");
    quote! {
        #[doc(hidden)]
        // `..Settings::NONE` is needless when every option is given, and
        // necessary for settings a newer runtime adds.
        #[allow(non_upper_case_globals, clippy::needless_update)]
        const #descriptor: ::faster::__private::Comparison = ::faster::__private::Comparison {
            // The generated test's path: libtest's name for it, with the
            // crate first (the runtime strips it, a const cannot).
            test: ::core::concat!(::core::module_path!(), #test_suffix),
            label: #label,
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
            // `run_test` is `#[track_caller]` and this call has the
            // attribute's span (the call site): a failure's `panicked at`
            // is the attribute in the user's file, the line `line!()`
            // above names, not the runtime.
            ::faster::__private::run_test(&#descriptor)
        }
    }
}

/// The options the attribute sets; the others come from `Settings::NONE`,
/// so a setting the runtime adds later does not break this expansion.
pub(crate) fn settings(
    expect: Option<Expect>,
    noise_floor: Option<f64>,
    max_time: Option<std::time::Duration>,
    processes: Option<u64>,
) -> TokenStream {
    let mut fields = Vec::new();
    if let Some(expect) = expect {
        let variant = match expect {
            Expect::Faster => quote!(Faster),
            Expect::NotSlower => quote!(NotSlower),
            Expect::Report => quote!(Report),
        };
        fields.push(quote! {
            expect: ::core::option::Option::Some(::faster::__private::Expect::#variant)
        });
    }
    if let Some(fraction) = noise_floor {
        let fraction = Literal::f64_suffixed(fraction);
        fields.push(quote!(noise_floor: ::core::option::Option::Some(#fraction)));
    }
    if let Some(duration) = max_time {
        let nanos = u64::try_from(duration.as_nanos())
            .expect("`max_time` is parsed from a nanosecond count that fits in a u64");
        let nanos = Literal::u64_suffixed(nanos);
        fields.push(quote! {
            max_time: ::core::option::Option::Some(::core::time::Duration::from_nanos(#nanos))
        });
    }
    if let Some(processes) = processes {
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
