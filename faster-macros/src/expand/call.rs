//! One side's call as a closure over a borrowed input case: what is made
//! ready before the clock starts (clones of the parts a call consumes),
//! taking the case apart into arguments, the `Fit` routes that word a
//! mismatch between the cases and the parameters, the call itself (through
//! the `Fn` traits or a pointer), and what the check compares and the clock
//! times.

use crate::attr::InputsOption;
use crate::validate::{Candidate, OwnedForm, Param, Passing};
use proc_macro2::{Group, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, ReturnType, Type};

/// One side's call as a closure over an input case:
/// `|input, ()| { let callee = callee(&path).checked::<_, &[u64], u64>();
/// let arguments: &[u64] = input; callee.call(arguments) }`, each argument
/// passed through the check of its parameter (see below). The call is
/// spanned `at_path`, where an error about the function belongs (its locals
/// keep mixed-site hygiene: `original = arguments` still names the user's
/// function).
///
/// `checked` (in the runtime) reads `path`'s parameters and output off its
/// `Fn` implementation and requires them to be the candidate's, which are
/// named here: when the original has another signature, the one error is
/// at `path`, and says which types differ. It is the closure's first
/// statement, so that this error comes before any about the input cases
/// (which may fit the original and not the candidate). The candidate goes
/// through the same shape so both sides cost the same; in an optimized
/// build `call` inlines to a direct call. A candidate that does not
/// implement the `Fn` traits (`unsafe`, `extern`, `#[target_feature]`,
/// more than 12 parameters) is called, with the original, through a
/// pointer of its type instead, `let function: fn(&[u64]) -> u64 = path;`
/// (first too), and rustc words a mismatch.
///
/// Several parameters are taken apart with the runtime's `arguments_ref`, whose
/// error says so when the input case is not a tuple of that many. Each
/// argument goes through `Fit`, whose error says so when an input case of a
/// plain type (`Vec<u32>` for `&[u64]`) cannot be the argument. Both are
/// spanned at `inputs = ...`: a mismatch between the input cases and the
/// parameters is the user's to fix there.
///
/// The closure takes the case by reference and, second, what
/// [`prepare_closure`] made ready for the call: `|input, (prepared1,)|`.
/// A parameter by reference borrows its part of the case; one by value or
/// by `&mut` takes its part through the runtime's `Take`, copied by the
/// call where it is `Copy`, else what was made before the clock started
/// (the value of a `PerCall`, or a clone).
///
/// It returns what the check compares: the output, or with `&mut`
/// parameters whose state is compared, the arguments after the call (after
/// the output, when it is not `()`); an output that borrows from the input
/// is made owned first. [`timed_closure`] is the one the clock times.
pub(crate) fn call_closure(
    path: TokenStream,
    at_path: Span,
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
) -> TokenStream {
    let call = Call::of(path, at_path, inputs, candidate);
    let output = Ident::new("output", Span::mixed_site());
    let compared: Vec<&Ident> = candidate
        .mutated()
        .map(|(position, _)| &call.bindings[position])
        .collect();
    let value = &call.call;
    let output_value = if candidate.output_borrows {
        // After the call, before the check: never timed.
        quote!(::faster::__private::owned(&*#value))
    } else {
        quote!(#value)
    };
    let body = match (candidate.returns_value(), compared.as_slice()) {
        (_, []) => output_value,
        (false, [one]) => quote!({ #value; #one }),
        (false, several) => quote!({ #value; (#(#several),*) }),
        (true, several) => quote! {{
            let #output = #output_value;
            (#output, #(#several),*)
        }},
    };
    call.closure(body)
}

/// The closure the clock times, over the same arguments as
/// [`call_closure`]'s: it returns the output and every `&mut` argument, so
/// that they are dropped after the clock stops; an output that borrows
/// from the input goes through `black_box` instead, and is not returned.
pub(crate) fn timed_closure(
    path: TokenStream,
    at_path: Span,
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
) -> TokenStream {
    let call = Call::of(path, at_path, inputs, candidate);
    let output = Ident::new("output", Span::mixed_site());
    let mutable: Vec<&Ident> = candidate
        .params
        .iter()
        .zip(&call.bindings)
        .filter(|(param, _)| param.passing == Passing::Mutable)
        .map(|(_, binding)| binding)
        .collect();
    let value = &call.call;
    let body = if candidate.output_borrows {
        quote! {{
            let #output = #value;
            ::core::hint::black_box(#output);
            (#(#mutable,)*)
        }}
    } else if mutable.is_empty() {
        quote!(#value)
    } else {
        quote! {{
            let #output = #value;
            (#output, #(#mutable,)*)
        }}
    };
    call.closure(body)
}

/// Where the function at `path` starts in memory, as a block of the
/// descriptor's `addresses` (see [`Call::address`]): its offset in a cache
/// line moves from one layout of the binary to the next.
pub(crate) fn address(
    path: TokenStream,
    at_path: Span,
    inputs: Option<InputsOption<'_>>,
    candidate: &Candidate,
) -> TokenStream {
    Call::of(path, at_path, inputs, candidate).address()
}

/// The span of `inputs = ...`, where a mismatch between the cases and the
/// parameters is the user's to fix (the attribute where there is none).
pub(super) fn at_inputs(inputs: Option<InputsOption<'_>>) -> Span {
    let inputs_span = inputs.map_or_else(Span::call_site, |given| given.path.span());
    Span::mixed_site().located_at(inputs_span)
}

/// The parameters' types as one type, `(&[u64], usize)` (the one type for
/// one parameter), their lifetimes left to inference; and each type.
pub(super) fn params_type(candidate: &Candidate) -> (TokenStream, Vec<Type>) {
    let param_types: Vec<Type> = candidate
        .params
        .iter()
        .map(|param| candidate.without_lifetimes(&param.ty))
        .collect();
    let params_type = match param_types.as_slice() {
        [single] => quote!(#single),
        several => quote!((#(#several),*)),
    };
    (params_type, param_types)
}

/// For several parameters, the statement that takes the borrowed case
/// apart with the runtime's `arguments_ref`, whose error says so when the
/// case is not a tuple of that many.
pub(super) fn take_apart(
    candidate: &Candidate,
    case: &Ident,
    params_type: &TokenStream,
    at_inputs: Span,
) -> TokenStream {
    match candidate.params.len() {
        0 | 1 => TokenStream::new(),
        count => {
            let count = Literal::usize_unsuffixed(count);
            quote_spanned! {at_inputs=>
                let #case = ::faster::__private::arguments_ref::<#count, #params_type, _, _>(#case);
            }
        }
    }
}

/// A borrow of the case's part for the parameter at `position`.
pub(super) fn part(
    candidate: &Candidate,
    case: &Ident,
    position: usize,
    at_inputs: Span,
) -> TokenStream {
    if candidate.params.len() == 1 {
        quote!(#case)
    } else {
        let field = Literal::usize_unsuffixed(position);
        quote_spanned!(at_inputs=> &#case.#field)
    }
}

/// One side's call over a borrowed case and what was prepared for it: the
/// statements before it, the call, and the arguments' locals.
struct Call {
    /// `|input, (prepared1,)|`.
    pattern: TokenStream,
    /// The check of the function against the candidate's signature.
    function: TokenStream,
    /// The traits of the `Fit` routes, brought into scope where an
    /// argument goes through them.
    imports: TokenStream,
    /// Taking the case apart into arguments.
    setup: TokenStream,
    /// The call itself.
    call: TokenStream,
    /// Where the function starts, after `function`: a `usize`.
    address: TokenStream,
    /// Each parameter's local: a borrow of its part for one by reference,
    /// the argument itself for one by value or by `&mut`.
    bindings: Vec<Ident>,
}

impl Call {
    fn of(
        path: TokenStream,
        at_path: Span,
        inputs: Option<InputsOption<'_>>,
        candidate: &Candidate,
    ) -> Call {
        let at_inputs = at_inputs(inputs);
        let case = Ident::new("input", at_inputs);
        let params = &candidate.params;
        let bindings: Vec<Ident> = (0..params.len())
            .map(|position| Ident::new(&format!("input{position}"), at_inputs))
            .collect();
        let prepared: Vec<Ident> = params
            .iter()
            .enumerate()
            .filter(|(_, param)| param.passing != Passing::Shared)
            .map(|(position, _)| Ident::new(&format!("prepared{position}"), at_inputs))
            .collect();
        let (params_type, param_types) = params_type(candidate);
        let pattern = quote!(#case, (#(#prepared,)*));

        let mut setup = take_apart(candidate, &case, &params_type, at_inputs);
        let mut prepared = prepared.iter();
        for (position, (param, binding)) in params.iter().zip(&bindings).enumerate() {
            let part = part(candidate, &case, position, at_inputs);
            setup.extend(match param.passing {
                Passing::Shared => quote_spanned!(at_inputs=> let #binding = #part;),
                passing => {
                    let ready = prepared
                        .next()
                        .expect("one prepared value per consumed part");
                    let mutability = (passing == Passing::Mutable).then(|| quote!(mut));
                    let argument = taken(ready, &part, at_inputs);
                    quote_spanned!(at_inputs=> let #mutability #binding = #argument;)
                }
            });
        }

        let mut checked = false;
        let arguments: Vec<TokenStream> = params
            .iter()
            .zip(&bindings)
            .zip(&param_types)
            .map(|((param, binding), param_type)| {
                let (argument, fitted) = argument(param, binding, param_type, at_inputs);
                checked |= fitted;
                argument
            })
            .collect();
        let imports = if checked {
            quote!(
                use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            )
        } else {
            TokenStream::new()
        };

        // The function is checked against the candidate's signature first,
        // in the closure's first statement: rustc then reports a mismatch of
        // the signatures before what it causes (cases that fit one function
        // and not the other).
        let (function, mut call, address) = if candidate.calls_through_fn_traits() {
            let output_type = match &candidate.output {
                ReturnType::Default => quote!(()),
                ReturnType::Type(_, ty) => candidate.without_lifetimes(ty).to_token_stream(),
            };
            let arguments =
                one_argument(&arguments, &params_type, (at_path, at_inputs), &mut setup);
            let (function, callee) = checked_callee(&path, at_path, params_type, output_type);
            (
                function,
                quote_spanned!(at_path=> #callee.call(#arguments)),
                quote_spanned!(at_path=> #callee.function() as *const () as usize),
            )
        } else {
            let function = Ident::new("function", Span::mixed_site());
            let pointer_type = candidate.pointer_type();
            (
                quote!(let #function: #pointer_type = #path;),
                quote_spanned!(at_inputs=> #function(#(#arguments),*)),
                quote_spanned!(at_path=> #function as *const () as usize),
            )
        };
        if candidate.unsafety {
            // The annotation on an `unsafe fn` vouches that every input case
            // meets its safety contract (see the attribute's documentation).
            call = quote!(unsafe { #call });
        }
        Call {
            pattern,
            function,
            imports,
            setup,
            call,
            address,
            bindings,
        }
    }

    /// Where the function starts, as a block: the check's statement again,
    /// which instantiates a generic original, then its address. With the
    /// closures' imports too: a block with an item is a scope of its own,
    /// where rustc words a path it cannot resolve otherwise (it suggests an
    /// import); the same tokens in the same scope make the same errors,
    /// which rustc reports once.
    fn address(self) -> TokenStream {
        let Call {
            function,
            imports,
            address,
            ..
        } = self;
        quote!({
            #function
            #imports
            #address
        })
    }

    /// The closure whose body, after the setup, is `body`.
    fn closure(self, body: TokenStream) -> TokenStream {
        let Call {
            pattern,
            function,
            imports,
            setup,
            ..
        } = self;
        quote! {
            |#pattern| {
                #function
                #imports
                #setup
                #body
            }
        }
    }
}

/// The arguments as the one value `Checked::call` takes: `()` for none,
/// else a local `arguments` of the parameters' type (a tuple for several),
/// whose statement goes to `setup`, so that each argument coerces to its
/// parameter (`&Vec<u64>` to `&[u64]`) as in any call.
/// rustc blames a parameter mismatch on the turbofish and this value:
/// both are spanned at the path (the first of `at`), where it belongs.
fn one_argument(
    arguments: &[TokenStream],
    params_type: &TokenStream,
    (at_path, at_inputs): (Span, Span),
    setup: &mut TokenStream,
) -> TokenStream {
    let value = match arguments {
        [] => return quote_spanned!(at_path=> ()),
        [single] => single.clone(),
        several => quote!((#(#several),*)),
    };
    let local = Ident::new("arguments", Span::mixed_site().located_at(at_path));
    let params_type = respan(params_type.clone(), at_inputs);
    setup.extend(quote_spanned!(at_inputs=> let #local: #params_type = #value;));
    quote!(#local)
}

/// `let callee = callee(&path).checked::<_, Params, Output>();`: the
/// function at `path`, checked to take `params_type` and return
/// `output_type` (see [`call_closure`]), and the local's name, to call it
/// with `callee.call(arguments)`. All of it is spanned at `at_path`, where
/// a mismatch is the user's to fix.
pub(crate) fn checked_callee(
    path: &TokenStream,
    at_path: Span,
    params_type: TokenStream,
    output_type: TokenStream,
) -> (TokenStream, Ident) {
    let params_type = respan(params_type, at_path);
    let output_type = respan(output_type, at_path);
    // Bound at the path's own span, not a hygienic one: rustc reports a
    // bound of a generic original that the candidate's types break (the
    // local's type names the instantiated function) once, at the path,
    // where it reports it for naming the function. Nothing the user wrote
    // is evaluated after it, so it cannot shadow a name of theirs.
    let callee = Ident::new("callee", at_path);
    let statement = quote_spanned! {at_path=>
        let #callee =
            ::faster::__private::callee(&#path).checked::<_, #params_type, #output_type>();
    };
    (statement, callee)
}

/// One argument of the call: the value handed over, wrapped (when the
/// parameter's type can be read) in `Fit`, whose routes make a mismatch
/// between the input case and the parameter an error in our words; and
/// whether it was wrapped.
fn argument(
    param: &Param,
    binding: &Ident,
    param_type: &Type,
    at_inputs: Span,
) -> (TokenStream, bool) {
    // The value handed over, and a borrow of it to read its type from.
    let (value, borrowed) = match param.passing {
        // A borrow of the case's part already.
        Passing::Shared => (quote!(#binding), quote!(#binding)),
        Passing::Mutable => (
            quote_spanned!(at_inputs=> &mut #binding),
            quote_spanned!(at_inputs=> &#binding),
        ),
        Passing::Owned => (quote!(#binding), quote_spanned!(at_inputs=> &#binding)),
    };
    if param.takes_dyn() {
        // A reference to a type coerces to `&dyn Trait` without
        // borrowing as it: the call's coercion alone can judge.
        return (value, false);
    }
    let mode = match param.passing {
        Passing::Shared => quote_spanned!(at_inputs=> ByRef),
        Passing::Mutable => quote_spanned!(at_inputs=> ByMut),
        Passing::Owned => quote_spanned!(at_inputs=> ByValue),
    };
    let owned = owned_type(param_type);
    let fitted = quote_spanned! {at_inputs=>
        (&&&::faster::__private::Fit::<_, ::faster::__private::#mode, #param_type, #owned>
            ::of(#borrowed)).faster_argument(#value)
    };
    (fitted, true)
}

/// What an input case holds for a parameter of type `param_type` (see
/// [`OwnedForm`]), as a type the expansion can name.
pub(super) fn owned_type(param_type: &Type) -> TokenStream {
    match OwnedForm::of(param_type) {
        OwnedForm::Vec(element) => quote!(::faster::__private::Vec<#element>),
        OwnedForm::String => quote!(::faster::__private::String),
        OwnedForm::Same(owned) => quote!(#owned),
    }
}

/// `tokens`, every one of them (inside groups too) spanned at `span`.
pub(super) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut respanned = Group::new(group.delimiter(), respan(group.stream(), span));
                respanned.set_span(span);
                TokenTree::Group(respanned)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// The argument a call takes for the case's `part` from `ready`, what
/// `prepare` made for it: `taken(ready, part, type)`, the type read off
/// the part by the runtime's `ArgumentOf` (the part's own, or what a
/// `PerCall` makes), as rustc reads the calls before `prepare`.
fn taken(ready: &Ident, part: &TokenStream, at_inputs: Span) -> TokenStream {
    quote_spanned! {at_inputs=> {
        use ::faster::__private::{ArgumentClone as _, ArgumentMade as _, ArgumentOther as _};
        let argument_type = (&&::faster::__private::ArgumentOf(#part)).faster_argument();
        ::faster::__private::taken(#ready, #part, argument_type)
    }}
}
