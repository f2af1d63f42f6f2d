//! The signatures the attribute refuses, and what each refusal shows the
//! user to write instead: generics it cannot instantiate, parameter and
//! return types it cannot pass, and a free-function wrapper for a method or
//! an associated function.

use super::{Errors, OwnedForm};
use crate::attr::tokens_as_written;
use crate::enclosing::Enclosing;
use quote::{ToTokens, quote};
use syn::{
    FnArg, GenericArgument, GenericParam, Ident, Lifetime, Pat, PathArguments, Receiver,
    ReturnType, Signature, Type, TypeReference, WherePredicate,
};

/// Type parameters are instantiated by `types = [...]` (see
/// [`types_match`]); const parameters cannot be, and lifetime bounds cannot
/// be expressed in the pointer type's `for<'a> fn(...)`.
pub(super) fn check_generics(sig: &Signature, errors: &mut Errors) {
    for param in &sig.generics.params {
        match param {
            GenericParam::Const(constant) => errors.push(syn::Error::new_spanned(
                constant,
                format!(
                    "`#[faster::compare]` needs concrete values for const parameters, and `{}` \
                     is generic over `{}`: write a wrapper that calls it with a value, such as \
                     `fn {ident}_8(...) {{ {ident}::<8>(...) }}`, and annotate the wrapper",
                    sig.ident,
                    constant.ident,
                    ident = sig.ident
                ),
            )),
            GenericParam::Lifetime(lifetime) if !lifetime.bounds.is_empty() => {
                errors.push(syn::Error::new_spanned(
                    lifetime,
                    "lifetime bounds are not supported: write the signature with unbounded \
                     lifetimes (or elided ones) in a wrapper and annotate it",
                ));
            }
            GenericParam::Lifetime(_) | GenericParam::Type(_) => {}
        }
    }
    if let Some(where_clause) = &sig.generics.where_clause {
        for predicate in &where_clause.predicates {
            if let WherePredicate::Lifetime(bound) = predicate {
                errors.push(syn::Error::new_spanned(
                    bound,
                    "lifetime bounds are not supported: write the signature with unbounded \
                     lifetimes (or elided ones) in a wrapper and annotate it",
                ));
            }
        }
    }
}

pub(super) fn unsupported_parameter_type(
    ty: &Type,
    pat: &Pat,
    function: &Ident,
) -> Option<syn::Error> {
    if let Some(Type::ImplTrait(impl_trait)) = find_type(ty, &|ty| matches!(ty, Type::ImplTrait(_)))
    {
        let bounds = tokens_as_written(impl_trait.bounds.to_token_stream());
        let with_param = tokens_as_written(ty.to_token_stream()).replacen(
            &tokens_as_written(impl_trait.to_token_stream()),
            "T",
            1,
        );
        let name = tokens_as_written(pat.to_token_stream());
        return Some(syn::Error::new_spanned(
            impl_trait,
            format!(
                "`impl Trait` parameters make `{function}` generic over a type that cannot be \
                 named: write a type parameter instead, `fn {function}<T: {bounds}>({name}: \
                 {with_param})`, and add `types = [...]` listing the types to compare it at; or \
                 annotate a wrapper with a concrete parameter type"
            ),
        ));
    }
    // `&mut T` itself is fine (taken apart below); a `&mut` inside another
    // type cannot be made from an input case.
    let inner = match ty {
        Type::Reference(reference) => &*reference.elem,
        other => other,
    };
    let is_mut_reference =
        |ty: &Type| matches!(ty, Type::Reference(reference) if reference.mutability.is_some());
    if let Some(Type::Reference(reference)) = find_type(inner, &is_mut_reference) {
        let TypeReference {
            and_token,
            mutability,
            elem,
            ..
        } = reference;
        return Some(syn::Error::new_spanned(
            quote!(#and_token #mutability),
            format!(
                "a `&mut` inside another type cannot be made from an input case: take the value \
                 itself by `&mut` (`{}: &mut {}`) or by value",
                tokens_as_written(pat.to_token_stream()),
                tokens_as_written(elem.to_token_stream()),
            ),
        ));
    }
    None
}

pub(super) fn unsupported_return_type(output: &Type) -> Option<syn::Error> {
    if let Some(impl_trait) = find_type(output, &|ty| matches!(ty, Type::ImplTrait(_))) {
        return Some(syn::Error::new_spanned(
            impl_trait,
            "`impl Trait` return types cannot be compared: the original and the candidate \
             return different hidden types; return a concrete type (for an iterator, collect it \
             into a `Vec`)",
        ));
    }
    let borrows = |ty: &Type| match ty {
        Type::Reference(reference) => !is_static(reference.lifetime.as_ref()),
        Type::Path(path) => path.path.segments.iter().any(|segment| {
            matches!(&segment.arguments, PathArguments::AngleBracketed(arguments)
                if arguments.args.iter().any(|argument| matches!(argument,
                    GenericArgument::Lifetime(lifetime) if !is_static(Some(lifetime)))))
        }),
        _ => false,
    };
    // A reference is compared as the value it points to, made owned after
    // the call (see `borrowed_output`); a borrow inside it, or inside
    // another type, cannot be.
    let pointee = match output {
        Type::Reference(reference) => &*reference.elem,
        other => other,
    };
    find_type(pointee, &borrows).map(|borrowed| {
        syn::Error::new_spanned(
            borrowed,
            "the output borrows from the input inside another type, and outputs must outlive \
             the call to be compared: return a reference (compared as the value it points \
             to) or an owned value (such as `.to_vec()`, `.to_owned()` or an index), from a \
             wrapper if need be, and annotate that",
        )
    })
}

/// Whether the output is a reference that borrows (not `&'static`): it is
/// compared as an owned copy of what it points to, made after the call,
/// and the timed call only passes it through `black_box`.
pub(super) fn borrowed_output(output: &ReturnType) -> bool {
    matches!(output, ReturnType::Type(_, ty)
        if matches!(&**ty, Type::Reference(reference) if !is_static(reference.lifetime.as_ref())))
}

pub(super) fn is_static(lifetime: Option<&Lifetime>) -> bool {
    lifetime.is_some_and(|lifetime| lifetime.ident == "static")
}

/// The first type inside `ty` (itself included, outermost first) that
/// `wanted` accepts.
pub(super) fn find_type<'a>(ty: &'a Type, wanted: &dyn Fn(&Type) -> bool) -> Option<&'a Type> {
    if wanted(ty) {
        return Some(ty);
    }
    match ty {
        Type::Array(array) => find_type(&array.elem, wanted),
        Type::Group(group) => find_type(&group.elem, wanted),
        Type::Paren(paren) => find_type(&paren.elem, wanted),
        Type::Ptr(pointer) => find_type(&pointer.elem, wanted),
        Type::Reference(reference) => find_type(&reference.elem, wanted),
        Type::Slice(slice) => find_type(&slice.elem, wanted),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(|elem| find_type(elem, wanted)),
        Type::Path(path) => path
            .path
            .segments
            .iter()
            .filter_map(|segment| match &segment.arguments {
                PathArguments::AngleBracketed(arguments) => Some(arguments),
                _ => None,
            })
            .flat_map(|arguments| &arguments.args)
            .find_map(|argument| match argument {
                GenericArgument::Type(ty) => find_type(ty, wanted),
                _ => None,
            }),
        _ => None,
    }
}

/// The owned type an input case holds for a parameter, for examples:
/// `Vec<u64>` for `&[u64]`, `String` for `&str`, `T` for `&T` and for `T`.
pub(super) fn owned_form(ty: &Type) -> String {
    match OwnedForm::of(ty) {
        OwnedForm::Vec(elem) => format!("Vec<{}>", tokens_as_written(elem.to_token_stream())),
        OwnedForm::String => "String".to_string(),
        OwnedForm::Same(ty) => tokens_as_written(ty.to_token_stream()),
    }
}

/// A free function calling the function of `sig`, written inside
/// `enclosing` (in an `impl` of a type it does not know, where `None`), as
/// an example in errors: `fn mean(value: &Samples) -> f64 { value.mean() }`
/// for a method, `fn parse(x: &str) -> u64 { Parser::parse(x) }` for an
/// associated function.
pub(super) fn free_wrapper_example(sig: &Signature, enclosing: Option<&Enclosing>) -> String {
    let type_name = match enclosing {
        Some(Enclosing::Impl {
            self_type: Some(self_type),
            ..
        }) => self_type.as_str(),
        _ => "YourType",
    };
    let (mut params, arguments) = named_parameters(sig);
    let ident = &sig.ident;
    let arguments = arguments.join(", ");
    let call = match (sig.receiver(), enclosing) {
        (Some(receiver), _) => {
            params.insert(0, format!("value: {}", receiver_type(receiver, type_name)));
            format!("value.{ident}({arguments})")
        }
        (
            None,
            Some(Enclosing::Impl {
                of_trait: Some(name),
                ..
            })
            | Some(Enclosing::Trait { name }),
        ) => format!("<{type_name} as {name}>::{ident}({arguments})"),
        (None, _) => format!("{type_name}::{ident}({arguments})"),
    };
    // Its generics as the function declares them: the wrapper's
    // parameters name them (`input: T`).
    let generics = &sig.generics;
    let declared: Vec<String> = generics.params.iter().map(generic_as_written).collect();
    let declared = if declared.is_empty() {
        String::new()
    } else {
        format!("<{}>", declared.join(", "))
    };
    let where_clause = generics
        .where_clause
        .as_ref()
        .map_or_else(String::new, |clause| {
            let predicates: Vec<String> = clause
                .predicates
                .iter()
                .map(|predicate| tokens_as_written(predicate.to_token_stream()))
                .collect();
            format!(" where {}", predicates.join(", "))
        });
    format!(
        "fn {ident}{declared}({}){}{where_clause} {{ {call} }}",
        params.join(", "),
        output_as_written(&sig.output),
    )
}

/// A generic parameter as a declaration writes it: `T: AsRef<[u8]> + Copy`,
/// `'a`, `const N: usize`.
fn generic_as_written(param: &GenericParam) -> String {
    let bounds = |bounds: Vec<String>| {
        if bounds.is_empty() {
            String::new()
        } else {
            format!(": {}", bounds.join(" + "))
        }
    };
    match param {
        GenericParam::Type(param) => format!(
            "{}{}",
            param.ident,
            bounds(
                param
                    .bounds
                    .iter()
                    .map(|bound| tokens_as_written(bound.to_token_stream()))
                    .collect()
            )
        ),
        GenericParam::Lifetime(param) => format!(
            "{}{}",
            param.lifetime,
            bounds(param.bounds.iter().map(ToString::to_string).collect())
        ),
        GenericParam::Const(param) => format!(
            "const {}: {}",
            param.ident,
            tokens_as_written(param.ty.to_token_stream())
        ),
    }
}

/// The type a wrapper takes for a method's receiver: `&Parser` for `&self`,
/// `Box<Parser>` for `self: Box<Self>`.
fn receiver_type(receiver: &Receiver, type_name: &str) -> String {
    if receiver.colon_token.is_some() {
        let written = tokens_as_written(receiver.ty.to_token_stream());
        return written
            .split_inclusive(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(|piece| match piece.strip_prefix("Self") {
                Some(rest) if rest.len() <= 1 => format!("{type_name}{rest}"),
                _ => piece.to_string(),
            })
            .collect();
    }
    match (&receiver.reference, &receiver.mutability) {
        (Some(_), Some(_)) => format!("&mut {type_name}"),
        (Some(_), None) => format!("&{type_name}"),
        (None, _) => type_name.to_string(),
    }
}

/// The typed parameters as `name: Type`, and their names for a call.
pub(super) fn named_parameters(sig: &Signature) -> (Vec<String>, Vec<String>) {
    let mut params = Vec::new();
    let mut arguments = Vec::new();
    for (position, input) in sig.inputs.iter().enumerate() {
        if let FnArg::Typed(typed) = input {
            let name = match &*typed.pat {
                Pat::Ident(pat) => pat.ident.to_string(),
                _ => format!("arg{position}"),
            };
            params.push(format!(
                "{name}: {}",
                tokens_as_written(typed.ty.to_token_stream())
            ));
            arguments.push(name);
        }
    }
    (params, arguments)
}

/// ` -> T` as written, or nothing for unit.
pub(super) fn output_as_written(output: &ReturnType) -> String {
    match output {
        ReturnType::Default => String::new(),
        ReturnType::Type(_, ty) => format!(" -> {}", tokens_as_written(ty.to_token_stream())),
    }
}
