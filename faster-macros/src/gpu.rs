//! `#[faster::compare_gpu]`: the same comparison for two wgpu compute
//! kernels, each given by a record function `fn(&mut wgpu::ComputePass<'_>,
//! &Case)`. It takes `#[faster::compare]`'s options but `types`, plus
//! `cache_flush` (all read by `attr`), registers and tests the same way
//! (`expand`), and checks here what differs: the record function's shape and
//! what a kernel comparison needs of its options.

use crate::attr::{Attribute, Check, Options, Value};
use crate::expand::{Names, check_tokens, checked_callee, expansion_or_errors, registration};
use crate::validate;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, Ident, ItemFn, ReturnType, Type};

/// The shape the attribute goes on, for errors.
const SHAPE: &str = "`#[faster::compare_gpu]` goes on a kernel's record function, \
     `fn kernel(pass: &mut wgpu::ComputePass<'_>, case: &Case)`, that sets the kernel's \
     pipeline and bind groups and dispatches it";

/// The attribute's expansion, or the function unchanged followed by the
/// errors.
pub(crate) fn compare_gpu(args: TokenStream, item: TokenStream) -> TokenStream {
    expansion_or_errors(item, |item| try_compare_gpu(args, item))
}

fn try_compare_gpu(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let attribute = Span::call_site();
    let function: ItemFn =
        syn::parse2(item).map_err(|error| syn::Error::new(error.span(), SHAPE))?;
    validate::outside_blocks(&function, "compare_gpu", &args)?;
    let (mut options, params) = match (
        Options::parse(args, Attribute::CompareGpu, attribute),
        record_function(&function),
    ) {
        (Ok(options), Ok(params)) => (options, params),
        (Err(mut errors), Err(more)) => {
            errors.combine(more);
            return Err(errors);
        }
        (Err(errors), _) | (_, Err(errors)) => return Err(errors),
    };
    kernel_options(&options, attribute)?;
    // Kernels run on the GPU, where the CPU code's layout does not move
    // them, and every process would set the device up again: one process
    // unless the attribute asks for more.
    options.default_setting("processes", Value::Count(1));
    Ok(expansion(&function, &options, &params))
}

/// The parameter types of a record function `fn(&mut ComputePass<'_>,
/// &Case)`, as written.
fn record_function(function: &ItemFn) -> syn::Result<[Type; 2]> {
    let sig = &function.sig;
    let not_this = |spanned: &dyn ToTokens, what: &str| {
        syn::Error::new_spanned(spanned, format!("{SHAPE}; {what}"))
    };
    if let Some(asyncness) = &sig.asyncness {
        return Err(not_this(asyncness, "it cannot be `async`"));
    }
    if let Some(unsafety) = &sig.unsafety {
        return Err(not_this(unsafety, "it cannot be `unsafe`"));
    }
    if let Some(param) = sig.generics.type_params().next() {
        return Err(not_this(param, "it cannot be generic"));
    }
    if let ReturnType::Type(_, output) = &sig.output {
        return Err(not_this(output, "it records, and returns nothing"));
    }
    let params: Vec<&Type> = sig
        .inputs
        .iter()
        .map(|input| match input {
            FnArg::Typed(typed) => Ok(&*typed.ty),
            FnArg::Receiver(receiver) => Err(not_this(receiver, "not a method")),
        })
        .collect::<syn::Result<_>>()?;
    match params.as_slice() {
        [Type::Reference(pass), Type::Reference(case)]
            if pass.mutability.is_some() && case.mutability.is_none() =>
        {
            Ok([Type::Reference(pass.clone()), Type::Reference(case.clone())])
        }
        _ => Err(not_this(
            &sig.inputs,
            "its parameters are the pass (`&mut`) and the case (`&`)",
        )),
    }
}

/// What a kernel comparison needs of its options: `inputs` (the cases are
/// made on the device), and no check function.
fn kernel_options(options: &Options, attribute: Span) -> syn::Result<()> {
    if options.inputs().is_none() {
        return Err(syn::Error::new(
            attribute,
            "`#[faster::compare_gpu]` needs the cases to run on: add `inputs = path::to::cases`, \
             a `fn(&faster::gpu::Gpu) -> Vec<Case>` that makes their buffers on the device",
        ));
    }
    if let Check::With(path) = options.check() {
        return Err(syn::Error::new_spanned(
            path,
            "kernels' outputs are compared with `check = eq`, `check = approx(REL, ABS)` or \
             `check = skip`",
        ));
    }
    Ok(())
}

/// The function, unchanged, and its comparison.
fn expansion(function: &ItemFn, options: &Options, params: &[Type; 2]) -> TokenStream {
    let ident = &function.sig.ident;
    let names = Names::of(options, ident, None, None);
    let run = run_closure(options, params, &names.label, ident);
    // Kernels run on the device: where their host code starts says nothing.
    let registered = registration(
        names.descriptor(run, quote!(::core::option::Option::None)),
        options,
    );
    quote! {
        #function
        #registered
    }
}

/// The descriptor's `run`: make the cases on the shared device, compare the
/// two record functions on them, add the throughput counts.
fn run_closure(
    options: &Options,
    params: &[Type; 2],
    label: &str,
    candidate: &Ident,
) -> TokenStream {
    let hygienic = |name: &str| Ident::new(name, Span::mixed_site());
    let cache_flush = options.cache_flush();
    let (config, gpu, inputs, result) = (
        hygienic("config"),
        hygienic("gpu"),
        hygienic("inputs"),
        hygienic("result"),
    );
    let cases = options
        .inputs()
        .expect("`kernel_options` requires `inputs`")
        .path;
    let at_cases = Span::mixed_site().located_at(cases.span());
    // Through the runtime's `Inputs` routes: anything but a function that
    // makes the cases is one error at `inputs = ...`, naming the case.
    let case = match &params[1] {
        Type::Reference(case) => &*case.elem,
        other => other,
    };
    let collected = quote_spanned! {at_cases=>
        {
            use ::faster::__private::{GpuInputsByFunction as _, GpuInputsOther as _};
            (&&::faster::__private::Inputs::<_, #case>::of(&#cases))
                .faster_gpu_inputs(#cases, #gpu)
        }
    };
    // `kernel_options` has refused a check function.
    let check = check_tokens(options.check(), Span::call_site());
    let original = record_closure(
        options.original().to_token_stream(),
        options.original().span(),
        params,
    );
    let candidate = record_closure(candidate.to_token_stream(), candidate.span(), params);
    let count = |path: Option<&syn::ExprPath>| match path {
        Some(path) => {
            let at_path = Span::mixed_site().located_at(path.span());
            let case = Ident::new("case", at_path);
            quote!(::core::option::Option::Some(|#case| #path(#case)))
        }
        None => quote!(::core::option::Option::None),
    };
    let (flops, bytes) = (count(options.flops()), count(options.bytes()));
    quote! {
        |#config: &::faster::__private::Config|
         -> ::core::result::Result<::faster::__private::Measurement, ::faster::__private::Error> {
            let #gpu = ::faster::__private::Gpu::shared()?;
            let #inputs = #collected?;
            let #result = ::faster::__private::gpu_kernels(
                #label,
                #gpu,
                &#inputs,
                ::faster::__private::KernelOptions { check: #check, cache_flush: #cache_flush },
                #original,
                #candidate,
                #config,
            );
            ::faster::__private::with_throughput(#result, &#inputs, #flops, #bytes)
        }
    }
}

/// One side as a closure over the pass and a case, calling the record
/// function as `#[faster::compare]` calls its functions (see
/// `expand::checked_callee`), so that an original of another signature is
/// one error at its path, naming both.
fn record_closure(path: TokenStream, at_path: Span, params: &[Type; 2]) -> TokenStream {
    let (pass, case) = (
        Ident::new("pass", Span::mixed_site()),
        Ident::new("case", Span::mixed_site()),
    );
    let [pass_type, case_type] = params;
    let (function, callee) =
        checked_callee(&path, at_path, quote!((#pass_type, #case_type)), quote!(()));
    let call = quote_spanned!(at_path=> #callee.call((#pass, #case)));
    quote! {
        |#pass, #case| {
            #function
            #call
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn error_of(args: TokenStream, item: TokenStream) -> String {
        match try_compare_gpu(args, item) {
            Ok(expansion) => panic!("expected an error, got {expansion}"),
            Err(errors) => errors
                .into_iter()
                .map(|error| error.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    fn record() -> TokenStream {
        quote!(
            fn tiled(pass: &mut wgpu::ComputePass<'_>, case: &Matmul) {}
        )
    }

    #[test]
    fn cache_flush_turns_the_flush_off() {
        let expansion = |args| try_compare_gpu(args, record()).unwrap().to_string();
        let warm = expansion(quote!(
            original = naive,
            cache_flush = false,
            inputs = cases
        ));
        assert!(warm.contains("cache_flush : false"), "{warm}");
        let flushed = expansion(quote!(original = naive, inputs = cases));
        assert!(
            flushed.contains("cache_flush : true"),
            "caches are flushed unless turned off: {flushed}"
        );
    }

    #[test]
    fn a_misspelt_or_misused_cache_flush_says_what_to_write() {
        let error =
            |args: TokenStream| error_of(quote!(original = naive, inputs = cases, #args), record());
        assert!(error(quote!(flush = false)).contains("did you mean `cache_flush`?"));
        assert!(error(quote!(cache_flush = "off")).contains("write `cache_flush = false`"));
        assert!(error(quote!(cache_flush = false, cache_flush = true)).contains("given twice"));
        // Not an option of `#[faster::compare]`.
        let error = crate::expand::compare(
            quote!(original = naive, cache_flush = false),
            quote!(
                fn fast() {}
            ),
        )
        .to_string();
        assert!(
            error.contains("`cache_flush` is an option of `#[faster::compare_gpu]`"),
            "{error}"
        );
    }

    #[test]
    fn the_record_function_shape_is_checked() {
        let options = quote!(original = naive, inputs = cases);
        for (item, says) in [
            (
                quote!(
                    fn tiled(case: &Matmul) {}
                ),
                "its parameters are the pass (`&mut`) and the case (`&`)",
            ),
            (
                quote!(
                    fn tiled(pass: &mut ComputePass<'_>, case: &Matmul) -> u32 {
                        0
                    }
                ),
                "it records, and returns nothing",
            ),
            (
                quote!(
                    async fn tiled(pass: &mut ComputePass<'_>, case: &Matmul) {}
                ),
                "it cannot be `async`",
            ),
            (
                quote!(
                    fn tiled<T>(pass: &mut ComputePass<'_>, case: &T) {}
                ),
                "it cannot be generic",
            ),
        ] {
            let error = error_of(options.clone(), item);
            assert!(error.contains(says), "{error}");
            assert!(
                error.contains("goes on a kernel's record function"),
                "{error}"
            );
        }
    }

    #[test]
    fn options_kernels_cannot_use_are_refused() {
        assert!(
            error_of(quote!(original = naive), record()).contains("add `inputs = path::to::cases`")
        );
        assert!(
            error_of(
                quote!(original = naive, inputs = cases, types = [u32]),
                record()
            )
            .contains(
                "`types` is an option of `#[faster::compare]`; `#[faster::compare_gpu]` compares \
                 two kernels' record functions, which are not generic"
            )
        );
        assert!(
            error_of(
                quote!(original = naive, inputs = cases, check = my::close),
                record()
            )
            .contains("`check = eq`, `check = approx(REL, ABS)` or `check = skip`")
        );
        // The shared options keep their own errors.
        assert!(
            error_of(quote!(orignal = naive, inputs = cases), record())
                .contains("did you mean `original`?")
        );
    }

    #[test]
    fn an_accepted_function_is_kept_and_registered() {
        let expansion = try_compare_gpu(
            quote!(original = naive, inputs = cases, check = approx(1e-4, 1e-5)),
            record(),
        )
        .unwrap()
        .to_string();
        assert!(expansion.starts_with("fn tiled"), "{expansion}");
        assert!(expansion.contains("gpu_kernels"), "{expansion}");
        assert!(expansion.contains("faster_tiled"), "{expansion}");
        assert!(expansion.contains("cache_flush : true"), "{expansion}");
    }
}
