//! `#[faster::methods]`: the `impl` block's attribute that lets its methods
//! and associated functions carry `#[faster::compare]` and
//! `#[faster::track]`.
//!
//! An attribute on a method can only write items of the `impl` block, and
//! libtest runs only the `#[test]` functions a module holds: one nested in
//! a function body or in an associated constant's block is never run
//! (rustc's "cannot test inner items"; checked with rustc 1.95). So the
//! block's own attribute does it: it takes the attributes off its methods,
//! writes the block unchanged but for them, and after the block, at module
//! level, each method's comparisons and tests as for a free function,
//! calling the method by its path (`<Buffer>::format::<u32>`), with the
//! receiver as the first argument of each input case.
//!
//! Being the block's attribute, it expands before its methods' attributes:
//! rustc hands it the block with them unexpanded, `#[cfg_attr(test,
//! faster::compare(...))]` included, whose condition it keeps on what it
//! writes.

use crate::attr::tokens_as_written;
use crate::expand::{self, expansion_or_errors};
use crate::owner::Owner;
use crate::track;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, ImplItem, ItemFn, ItemImpl, Meta, Token};

/// The attribute's expansion, or the block unchanged followed by the
/// errors.
pub(crate) fn methods(args: TokenStream, item: TokenStream) -> TokenStream {
    expansion_or_errors(item, |item| try_methods(args, item))
}

fn try_methods(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if let Some(token) = args.into_iter().next() {
        return Err(syn::Error::new(
            token.span(),
            "`#[faster::methods]` takes no options: the options go on each method's \
             `#[faster::compare(...)]` or `#[faster::track(...)]`",
        ));
    }
    let mut block: ItemImpl = syn::parse2(item).map_err(|error| {
        syn::Error::new(
            error.span(),
            "`#[faster::methods]` goes on an `impl` block whose methods carry \
             `#[faster::compare]` or `#[faster::track]`",
        )
    })?;
    let owner = match owner(&block) {
        Ok(owner) => owner,
        Err(error) => {
            // Without the methods' attributes, which would each say again
            // that they cannot go there.
            for item in &mut block.items {
                if let ImplItem::Fn(method) = item {
                    method.attrs = std::mem::take(&mut method.attrs)
                        .into_iter()
                        .filter_map(|attribute| match Marked::of(&attribute) {
                            Some(found) => found.rest,
                            None => Some(attribute),
                        })
                        .collect();
                }
            }
            let error = error.to_compile_error();
            return Ok(quote!(#block #error));
        }
    };
    let mut generated = TokenStream::new();
    let mut errors: Option<syn::Error> = None;
    let mut marked = 0;
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else {
            continue;
        };
        let mut kept = Vec::new();
        let mut found_here = Vec::new();
        for attribute in std::mem::take(&mut method.attrs) {
            match Marked::of(&attribute) {
                Some(found) => {
                    kept.extend(found.rest.clone());
                    found_here.push(found);
                }
                None => kept.push(attribute),
            }
        }
        method.attrs = kept;
        marked += found_here.len();
        for found in found_here {
            let function = ItemFn {
                attrs: method.attrs.clone(),
                vis: method.vis.clone(),
                sig: method.sig.clone(),
                block: Box::new(method.block.clone()),
            };
            let expansion = match found.kind {
                Kind::Compare => {
                    expand::comparisons(&function, found.args, Some(&owner), found.span)
                }
                Kind::Track => track::tracked(&function, found.args, Some(&owner), found.span),
            };
            match expansion {
                Ok(items) => generated.extend(match &found.condition {
                    Some(condition) => under_condition(items, condition),
                    None => items,
                }),
                Err(error) => match &mut errors {
                    Some(errors) => errors.combine(error),
                    None => errors = Some(error),
                },
            }
        }
    }
    if marked == 0 {
        errors = Some(syn::Error::new(
            Span::call_site(),
            format!(
                "no method of this `impl {}` block carries `#[faster::compare]` or \
                 `#[faster::track]`: put one on the method to measure, or remove \
                 `#[faster::methods]`",
                owner.written
            ),
        ));
    }
    // The block goes out without the attributes it took, errors or not:
    // left on, each would expand again on its own and say it needs this one.
    let errors = errors.map(|errors| errors.to_compile_error());
    Ok(quote! {
        #block
        #generated
        #errors
    })
}

/// `items`, each under `#[cfg(condition)]`: what a method's `#[cfg_attr(
/// condition, faster::compare(...))]` adds exists where the condition
/// holds. (Not grouped in a block: libtest would not see the tests.)
fn under_condition(items: TokenStream, condition: &TokenStream) -> TokenStream {
    let Ok(file) = syn::parse2::<syn::File>(items.clone()) else {
        return items;
    };
    let attribute: Attribute = syn::parse_quote!(#[cfg(#condition)]);
    file.items
        .into_iter()
        .map(|mut item| {
            if let syn::Item::Const(syn::ItemConst { attrs, .. })
            | syn::Item::Fn(ItemFn { attrs, .. })
            | syn::Item::Macro(syn::ItemMacro { attrs, .. }) = &mut item
            {
                attrs.insert(0, attribute.clone());
            }
            item.into_token_stream()
        })
        .collect()
}

/// The block's type and trait, refused where a comparison cannot name
/// them: a generic block.
fn owner(block: &ItemImpl) -> syn::Result<Owner> {
    if let Some(param) = block.generics.params.first() {
        return Err(syn::Error::new_spanned(
            param,
            "`#[faster::methods]` needs a block of a concrete type, and this one is generic: \
             write the methods to measure in a block of the type at the parameters you care \
             about (`impl Parser<u8> { ... }`), or annotate free functions that call them",
        ));
    }
    let self_type = (*block.self_ty).clone();
    let qualified = match &block.trait_ {
        Some((_, trait_path, _)) => quote!(<#self_type as #trait_path>),
        None => quote!(<#self_type>),
    };
    Ok(Owner {
        written: tokens_as_written(self_type.to_token_stream()),
        self_type,
        qualified,
    })
}

/// Which attribute a method carries.
#[derive(Clone, Copy)]
enum Kind {
    Compare,
    Track,
}

/// A method's `#[faster::compare(...)]` or `#[faster::track(...)]`, also
/// inside `#[cfg_attr(condition, ...)]`.
struct Marked {
    kind: Kind,
    /// Its options.
    args: TokenStream,
    /// Where it is written, for errors about it as a whole.
    span: Span,
    /// The `cfg_attr`'s condition, kept on what it adds.
    condition: Option<TokenStream>,
    /// The `cfg_attr`'s other attributes, which stay on the method.
    rest: Option<Attribute>,
}

impl Marked {
    fn of(attribute: &Attribute) -> Option<Marked> {
        if let Some(kind) = kind(attribute.path()) {
            let args = match &attribute.meta {
                Meta::List(list) => list.tokens.clone(),
                _ => TokenStream::new(),
            };
            return Some(Marked {
                kind,
                args,
                span: name_span(attribute.path()),
                condition: None,
                rest: None,
            });
        }
        if !attribute.path().is_ident("cfg_attr") {
            return None;
        }
        let Meta::List(list) = &attribute.meta else {
            return None;
        };
        let parts = Punctuated::<Meta, Token![,]>::parse_terminated
            .parse2(list.tokens.clone())
            .ok()?;
        let mut parts = parts.into_iter();
        let condition = parts.next()?.to_token_stream();
        let (mut found, mut rest) = (None, Vec::new());
        for part in parts {
            match kind(part.path()) {
                Some(kind) if found.is_none() => {
                    let args = match &part {
                        Meta::List(list) => list.tokens.clone(),
                        _ => TokenStream::new(),
                    };
                    found = Some((kind, args, name_span(part.path())));
                }
                _ => rest.push(part),
            }
        }
        let (kind, args, span) = found?;
        let rest = (!rest.is_empty()).then(|| {
            let mut kept = attribute.clone();
            kept.meta = syn::parse_quote!(cfg_attr(#condition, #(#rest),*));
            kept
        });
        Some(Marked {
            kind,
            args,
            span,
            condition: Some(condition),
            rest,
        })
    }
}

/// Where errors about an attribute as a whole go: its name, `compare` of
/// `faster::compare` (a span cannot cover the whole attribute on stable
/// Rust, and its first token, `#`, would say little).
fn name_span(path: &syn::Path) -> Span {
    path.segments
        .last()
        .map_or_else(Span::call_site, |segment| segment.ident.span())
}

/// `faster::compare` or `faster::track`.
fn kind(path: &syn::Path) -> Option<Kind> {
    let segments: Vec<String> = path
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    match segments.as_slice() {
        [faster, compare] if faster == "faster" && compare == "compare" => Some(Kind::Compare),
        [faster, track] if faster == "faster" && track == "track" => Some(Kind::Track),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cfg_attr_keeps_its_condition_and_other_attributes() {
        let attribute: Attribute = syn::parse_quote!(
            #[cfg_attr(test, inline, faster::compare(original = old))]
        );
        let marked = Marked::of(&attribute).expect("found inside cfg_attr");
        assert!(matches!(marked.kind, Kind::Compare));
        assert_eq!(marked.args.to_string(), "original = old");
        assert_eq!(tokens_as_written(marked.condition.unwrap()), "test");
        assert_eq!(
            tokens_as_written(marked.rest.unwrap().to_token_stream()),
            "#[cfg_attr(test, inline)]"
        );
        let other: Attribute = syn::parse_quote!(#[cfg_attr(test, inline)]);
        assert!(Marked::of(&other).is_none());
    }
}
