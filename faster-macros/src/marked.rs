//! A method's `#[faster::compare(...)]` or `#[faster::track(...)]` as the
//! block's attribute, `#[faster::methods]`, finds it — also inside
//! `#[cfg_attr(condition, ...)]` — takes it off the method, and writes
//! what it adds after the block, under the conditions the method exists
//! on (the `cfg_attr`'s, and the method's own `#[cfg(...)]`).

use crate::attr::tokens_as_written;
use crate::expand;
use crate::owner::Owner;
use crate::track;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Attribute, ItemFn, Meta, Token};

/// Which attribute a method carries.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Compare,
    Track,
}

/// A method's `#[faster::compare(...)]` or `#[faster::track(...)]`, also
/// inside `#[cfg_attr(condition, ...)]`.
pub(crate) struct Marked {
    pub kind: Kind,
    /// Its options.
    pub args: TokenStream,
    /// Where it is written, for errors about it as a whole.
    pub span: Span,
    /// The `cfg_attr`'s condition, kept on what it adds.
    condition: Option<TokenStream>,
    /// The `cfg_attr`'s other attributes, which stay on the method.
    rest: Option<Attribute>,
}

/// Takes the marks off `attrs`, leaving every other attribute (and the
/// rest of a `cfg_attr` that holds a mark), and returns them.
pub(crate) fn take_marks(attrs: &mut Vec<Attribute>) -> Vec<Marked> {
    let mut kept = Vec::new();
    let mut found = Vec::new();
    for attribute in std::mem::take(attrs) {
        match Marked::of(&attribute) {
            Some(marked) => {
                kept.extend(marked.rest.clone());
                found.push(marked);
            }
            None => kept.push(attribute),
        }
    }
    *attrs = kept;
    found
}

impl Marked {
    /// What the mark adds for `function` (the method, its marks taken off)
    /// of `owner`, each item under the mark's condition and under the
    /// method's own `#[cfg(...)]`: it names the method, which exists only
    /// where they hold.
    pub fn expand(&self, function: &ItemFn, owner: &Owner) -> syn::Result<TokenStream> {
        let items = match self.kind {
            Kind::Compare => {
                expand::comparisons(function, self.args.clone(), Some(owner), self.span)
            }
            Kind::Track => track::tracked(function, self.args.clone(), Some(owner), self.span),
        }?;
        let mut conditions: Vec<Attribute> = function
            .attrs
            .iter()
            .filter(|attribute| attribute.path().is_ident("cfg"))
            .cloned()
            .collect();
        if let Some(condition) = &self.condition {
            conditions.insert(0, syn::parse_quote!(#[cfg(#condition)]));
        }
        Ok(under_conditions(items, &conditions))
    }

    fn of(attribute: &Attribute) -> Option<Marked> {
        let args = arguments(&attribute.meta);
        if let Some(kind) = kind(attribute.path(), &args) {
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
            let args = arguments(&part);
            match kind(part.path(), &args) {
                Some(kind) if found.is_none() => {
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

/// `items`, each under `conditions` (`#[cfg(...)]` attributes): what a
/// method's `#[cfg_attr(condition, faster::compare(...))]` adds exists
/// where the condition holds. (Not grouped in a block: libtest would not
/// see the tests.)
fn under_conditions(items: TokenStream, conditions: &[Attribute]) -> TokenStream {
    if conditions.is_empty() {
        return items;
    }
    let Ok(file) = syn::parse2::<syn::File>(items.clone()) else {
        return items;
    };
    file.items
        .into_iter()
        .map(|mut item| {
            if let syn::Item::Const(syn::ItemConst { attrs, .. })
            | syn::Item::Fn(ItemFn { attrs, .. })
            | syn::Item::Macro(syn::ItemMacro { attrs, .. }) = &mut item
            {
                attrs.splice(0..0, conditions.iter().cloned());
            }
            item.into_token_stream()
        })
        .collect()
}

/// Where errors about an attribute as a whole go: its name, `compare` of
/// `faster::compare` (a span cannot cover the whole attribute on stable
/// Rust, and its first token, `#`, would say little).
fn name_span(path: &syn::Path) -> Span {
    path.segments
        .last()
        .map_or_else(Span::call_site, |segment| segment.ident.span())
}

/// An attribute's arguments: what is between its parentheses.
fn arguments(meta: &Meta) -> TokenStream {
    match meta {
        Meta::List(list) => list.tokens.clone(),
        _ => TokenStream::new(),
    }
}

/// `faster::compare` or `faster::track`, or the same under a renamed
/// crate, `my_faster::compare(crate = my_faster, ...)`: the mark is the
/// crate's where what comes before its name is `faster` or the path its
/// own `crate` option gives.
fn kind(path: &syn::Path, args: &TokenStream) -> Option<Kind> {
    let name = path.segments.last()?.ident.to_string();
    let kind = match name.as_str() {
        "compare" => Kind::Compare,
        "track" => Kind::Track,
        _ => return None,
    };
    let mut facade = path.clone();
    facade.segments.pop();
    let facade = tokens_as_written(facade.to_token_stream());
    let facade = from_the_root(&facade);
    let named = facade == "faster"
        || crate_option(args).is_some_and(|given| from_the_root(&given) == facade);
    named.then_some(kind)
}

/// A path as written with the `::` around it dropped: `::faster::compare`
/// is `faster::compare`, and `crate = ::my_faster` names `my_faster`.
fn from_the_root(path: &str) -> &str {
    path.trim_start_matches("::").trim_end_matches("::")
}

/// The path a mark's `crate = path` option gives, as written, where it has
/// one. Read off the tokens, since its other options need not parse as
/// one kind of syntax (`types = [Vec<u8>]` is no expression).
fn crate_option(args: &TokenStream) -> Option<String> {
    let mut tokens = args.clone().into_iter().peekable();
    while let Some(token) = tokens.next() {
        let is_crate = matches!(&token, TokenTree::Ident(ident) if ident == "crate");
        let assigned =
            matches!(tokens.peek(), Some(TokenTree::Punct(punct)) if punct.as_char() == '=');
        if is_crate && assigned {
            tokens.next();
            let value: TokenStream = tokens
                .take_while(
                    |token| !matches!(token, TokenTree::Punct(punct) if punct.as_char() == ','),
                )
                .collect();
            return Some(tokens_as_written(value));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

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

    #[test]
    fn a_mark_under_a_renamed_crate_is_found_by_its_crate_option() {
        let renamed: Attribute = syn::parse_quote!(
            #[my_faster::compare(original = old, crate = my_faster, types = [Vec<u8>])]
        );
        let marked = Marked::of(&renamed).expect("a mark of the renamed crate");
        assert!(matches!(marked.kind, Kind::Compare));
        let nested: Attribute = syn::parse_quote!(
            #[cfg_attr(test, deps::faster::track(crate = deps::faster))]
        );
        assert!(matches!(
            Marked::of(&nested).map(|marked| marked.kind),
            Some(Kind::Track)
        ));
        for from_the_root in [
            quote!(#[::faster::compare(original = old)]),
            quote!(#[::my_faster::compare(original = old, crate = my_faster)]),
            quote!(#[my_faster::compare(original = old, crate = ::my_faster)]),
        ] {
            let attribute = syn::parse::Parser::parse2(Attribute::parse_outer, from_the_root)
                .expect("an attribute")
                .remove(0);
            assert!(
                Marked::of(&attribute).is_some(),
                "{}",
                attribute.to_token_stream()
            );
        }
        // Another crate's `compare`, or one whose `crate` names another.
        for other in [
            quote!(#[other::compare(original = old)]),
            quote!(#[my_faster::compare(original = old, crate = faster_test)]),
            quote!(#[compare(original = old)]),
        ] {
            let other = syn::parse::Parser::parse2(Attribute::parse_outer, other)
                .expect("an attribute")
                .remove(0);
            assert!(Marked::of(&other).is_none(), "{}", other.to_token_stream());
        }
    }

    #[test]
    fn what_a_mark_adds_exists_where_the_method_does() {
        let items = quote!(
            const A: u8 = 0;
            fn t() {}
        );
        let conditions: Vec<Attribute> = vec![
            syn::parse_quote!(#[cfg(test)]),
            syn::parse_quote!(#[cfg(feature = "alloc")]),
        ];
        let written = tokens_as_written(under_conditions(items, &conditions));
        assert_eq!(
            written,
            "#[cfg(test)]#[cfg(feature=\"alloc\")]const A:u8=0; \
             #[cfg(test)]#[cfg(feature=\"alloc\")]fn t(){}"
        );
    }
}
