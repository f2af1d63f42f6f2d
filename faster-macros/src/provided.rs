//! `#[faster::methods]` on a `trait` block: its provided methods (those
//! with a body in the block) carry `#[faster::compare]` and
//! `#[faster::track]` where they are written, and `implementors = [...]`
//! in the attribute names the types that implement the trait to measure
//! them on, as `types = [...]` names those a generic function is measured
//! at.
//!
//! A provided method has no code of its own until a type implements the
//! trait: `<GeneralPurpose as Engine>::encode` is what runs. So for each
//! type of `implementors`, after the block, this writes what the
//! attribute writes for a method of that type's `impl` of the trait
//! ([`crate::methods`]): `Self` is the type, each input case starts with
//! the receiver, the tests are `faster_<type>_<method>`. A required
//! method has no body here to mark: it is marked where each type
//! implements it.

use crate::attr::{Attribute, Options, tokens_as_written};
use crate::expand::combine;
use crate::marked::{Kind, Marked, take_marks};
use crate::owner::Owner;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Ident, ItemFn, ItemTrait, TraitItem, Visibility};

/// The block without its methods' marks, followed by what the marks add
/// or by the errors.
pub(crate) fn provided_methods(mut block: ItemTrait) -> TokenStream {
    let name = block.ident.clone();
    let mut generated = TokenStream::new();
    let mut errors: Option<syn::Error> = None;
    let generic = !block.generics.params.is_empty();
    if let Some(param) = block.generics.params.first() {
        combine(
            &mut errors,
            syn::Error::new_spanned(
                param,
                format!(
                    "`#[faster::methods]` needs a trait without parameters, whose methods a \
                     type's path can name, and `{name}` is generic: annotate free functions \
                     that call the methods at the parameters you care about instead"
                ),
            ),
        );
    }
    let mut marked = 0;
    for item in &mut block.items {
        let TraitItem::Fn(method) = item else {
            continue;
        };
        let marks = take_marks(&mut method.attrs);
        marked += marks.len();
        if generic {
            // Its marks are taken off, and said nothing more of.
            continue;
        }
        let Some(body) = &method.default else {
            for mark in marks {
                combine(&mut errors, required(&mark, &method.sig.ident, &name));
            }
            continue;
        };
        let function = ItemFn {
            attrs: method.attrs.clone(),
            vis: Visibility::Inherited,
            sig: method.sig.clone(),
            block: Box::new(body.clone()),
        };
        for mark in marks {
            match implemented(&mark, &function, &name) {
                Ok(items) => generated.extend(items),
                Err(error) => combine(&mut errors, error),
            }
        }
    }
    if marked == 0 {
        combine(
            &mut errors,
            syn::Error::new(
                Span::call_site(),
                format!(
                    "no provided method of `trait {name}` carries `#[faster::compare]` or \
                     `#[faster::track]`: put one on the method to measure, or remove \
                     `#[faster::methods]`"
                ),
            ),
        );
    }
    // The block goes out without the marks, errors or not: left on, each
    // would expand on its own and say it needs this attribute.
    let errors = errors.map(|errors| errors.to_compile_error());
    quote! {
        #block
        #generated
        #errors
    }
}

/// What `mark` adds for the provided method `function` of `trait_name`,
/// for each type of its `implementors`. The first type's errors are the
/// errors: the others' would repeat them.
fn implemented(mark: &Marked, function: &ItemFn, trait_name: &Ident) -> syn::Result<TokenStream> {
    let attribute = match mark.kind {
        Kind::Compare => Attribute::Compare,
        Kind::Track => Attribute::Track,
    };
    let options = Options::parse(mark.args.clone(), attribute, mark.span)?;
    let Some(implementors) = options.implementors() else {
        let ident = &function.sig.ident;
        return Err(syn::Error::new(
            mark.span,
            format!(
                "`{ident}` is a provided method of `trait {trait_name}`, whose code runs as a \
                 type's that implements it: add `implementors = [YourType]` (the types to \
                 measure it on, one {} each)",
                match mark.kind {
                    Kind::Compare => "comparison",
                    Kind::Track => "tracked function",
                }
            ),
        ));
    };
    let mut items = TokenStream::new();
    for self_type in implementors.types {
        items.extend(mark.expand(function, &implementor(self_type, trait_name))?);
    }
    Ok(items)
}

/// The type `self_type` as the owner of `trait_name`'s provided methods,
/// as if they were written in its `impl` of the trait.
fn implementor(self_type: &syn::Type, trait_name: &Ident) -> Owner {
    Owner {
        written: tokens_as_written(self_type.to_token_stream()),
        qualified: quote!(<#self_type as #trait_name>),
        self_type: self_type.clone(),
        provided_by: Some(trait_name.to_string()),
    }
}

/// A required method carries a mark: it has no body to measure here.
fn required(mark: &Marked, ident: &Ident, trait_name: &Ident) -> syn::Error {
    syn::Error::new(
        mark.span,
        format!(
            "`{ident}` is a required method of `trait {trait_name}`, with no body here to \
             measure: mark it where a type implements it, in `impl {trait_name} for YourType`, \
             with `#[cfg_attr(test, faster::methods)]` on that block"
        ),
    )
}
