//! `#[faster::methods]`: the `impl` block's attribute that lets its methods
//! and associated functions carry `#[faster::compare]` and
//! `#[faster::track]`; on a `trait` block, [`crate::provided`] does the
//! same for its provided methods.
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
use crate::expand::{combine, expansion_or_errors};
use crate::marked::take_marks;
use crate::owner::Owner;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{ImplItem, Item, ItemFn, ItemImpl};

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
    let mut block = match syn::parse2::<Item>(item) {
        Ok(Item::Impl(block)) => block,
        Ok(Item::Trait(block)) => return Ok(crate::provided::provided_methods(block)),
        Ok(other) => return Err(not_a_block(other.span())),
        Err(error) => return Err(not_a_block(error.span())),
    };
    let owner = match owner(&block) {
        Ok(owner) => owner,
        Err(error) => {
            // Without the methods' attributes, which would each say again
            // that they cannot go there.
            for item in &mut block.items {
                if let ImplItem::Fn(method) = item {
                    take_marks(&mut method.attrs);
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
        let found = take_marks(&mut method.attrs);
        marked += found.len();
        let function = ItemFn {
            attrs: method.attrs.clone(),
            vis: method.vis.clone(),
            sig: method.sig.clone(),
            block: Box::new(method.block.clone()),
        };
        for mark in found {
            match mark.expand(&function, &owner) {
                Ok(items) => generated.extend(items),
                Err(error) => combine(&mut errors, error),
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

/// The block as it is but for its methods' marks, which add nothing here:
/// for a library's file an integration test compiles again (see
/// [`crate::recompiled`]).
pub(crate) fn unmarked(item: TokenStream) -> TokenStream {
    let Ok(mut block) = syn::parse2::<Item>(item.clone()) else {
        return item;
    };
    match &mut block {
        Item::Impl(block) => block.items.iter_mut().for_each(|item| {
            if let ImplItem::Fn(method) = item {
                take_marks(&mut method.attrs);
            }
        }),
        Item::Trait(block) => block.items.iter_mut().for_each(|item| {
            if let syn::TraitItem::Fn(method) = item {
                take_marks(&mut method.attrs);
            }
        }),
        _ => {}
    }
    block.into_token_stream()
}

/// The attribute is on something other than an `impl` or `trait` block.
fn not_a_block(at: Span) -> syn::Error {
    syn::Error::new(
        at,
        "`#[faster::methods]` goes on an `impl` block whose methods carry \
         `#[faster::compare]` or `#[faster::track]`, or on a `trait` block whose provided \
         methods do",
    )
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
        provided_by: None,
    })
}
