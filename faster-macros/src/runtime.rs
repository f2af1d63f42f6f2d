//! How an expansion names the runtime: `::faster::__private`, the facade's
//! hidden re-exports, or, under `crate = path`, `path::__private`, for a
//! crate that depends on `faster-test` under another name (`my_faster = {
//! package = "faster-test", ... }`) or reaches it through a re-export.
//!
//! The expansion is written with `::faster::__private` throughout, as its
//! snapshots show it, and renamed here in one pass over the finished
//! tokens: the runtime's path is written in some fifty places, and a pass
//! over the result leaves none of them to miss it and no function of the
//! expansion to carry it.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::Path;

/// The name the facade's library has unless renamed, which every
/// expansion writes.
const FACADE: &str = "faster";

/// The module of the facade every runtime item of an expansion is under.
const PRIVATE: &str = "__private";

/// The path of the crate `faster-test` where an attribute is written: the
/// `crate = path` option, where given.
#[derive(Clone, Copy)]
pub(crate) struct Runtime<'a> {
    renamed: Option<&'a Path>,
}

impl<'a> Runtime<'a> {
    /// The runtime at `renamed` (`crate = renamed`), or at `::faster`.
    pub fn at(renamed: Option<&'a Path>) -> Runtime<'a> {
        Runtime { renamed }
    }

    /// `expansion` with every `::faster::__private` it writes under the
    /// renamed path instead; unchanged where the crate is not renamed.
    /// Each renamed path takes the span of the `faster` it replaces, so an
    /// error rustc reports at a runtime item stays where it was.
    pub fn named_in(self, expansion: TokenStream) -> TokenStream {
        match self.renamed {
            Some(renamed) => renamed_in(expansion, renamed),
            None => expansion,
        }
    }
}

/// `tokens` with each `::faster::__private` written `renamed::__private`
/// instead, in groups too. Of the user's tokens in an expansion (paths,
/// types), none names the facade's hidden `__private` module, so every
/// one the pass finds is the expansion's own.
fn renamed_in(tokens: TokenStream, renamed: &Path) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut written = TokenStream::new();
    let mut at = 0;
    while at < trees.len() {
        if let Some(facade) = facade_at(&trees[at..]) {
            written.extend(respanned(renamed.to_token_stream(), facade));
            // The `::` before `faster` and `faster` itself.
            at += 3;
            continue;
        }
        match &trees[at] {
            TokenTree::Group(group) => {
                let mut renamed_group =
                    Group::new(group.delimiter(), renamed_in(group.stream(), renamed));
                renamed_group.set_span(group.span());
                written.extend([TokenTree::Group(renamed_group)]);
            }
            other => written.extend([other.clone()]),
        }
        at += 1;
    }
    written
}

/// The span of `faster` where `trees` begin with `::faster::__private`.
fn facade_at(trees: &[TokenTree]) -> Option<Span> {
    match trees {
        [
            TokenTree::Punct(colon1),
            TokenTree::Punct(colon2),
            TokenTree::Ident(facade),
            TokenTree::Punct(colon3),
            TokenTree::Punct(colon4),
            TokenTree::Ident(private),
            ..,
        ] if [colon1, colon2, colon3, colon4]
            .iter()
            .all(|colon| colon.as_char() == ':')
            && facade == FACADE
            && private == PRIVATE =>
        {
            Some(facade.span())
        }
        _ => None,
    }
}

/// `tokens` at `span`, in groups too.
fn respanned(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let TokenTree::Group(group) = &tree {
                let mut inner = Group::new(group.delimiter(), respanned(group.stream(), span));
                inner.set_span(span);
                tree = TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::tokens_as_written;
    use quote::quote;

    fn renamed(path: TokenStream, expansion: TokenStream) -> String {
        let path: Path = syn::parse2(path).expect("a path");
        tokens_as_written(Runtime::at(Some(&path)).named_in(expansion))
    }

    #[test]
    fn every_runtime_path_is_renamed_in_groups_too() {
        let expansion = quote! {
            const C: ::faster::__private::Comparison = ::faster::__private::Comparison {
                run: |config: &::faster::__private::Config| { ::faster::__private::parts(config) },
            };
        };
        let written = renamed(quote!(my_faster), expansion);
        assert!(!written.contains("::faster"), "{written}");
        assert_eq!(
            written.matches("my_faster::__private::").count(),
            4,
            "{written}"
        );
        assert_eq!(
            renamed(quote!(::my_faster), quote!(::faster::__private::Eq)),
            "::my_faster::__private::Eq"
        );
        assert_eq!(
            renamed(
                quote!(crate::reexports::faster),
                quote!(&::faster::__private::Eq)
            ),
            "&crate::reexports::faster::__private::Eq"
        );
    }

    #[test]
    fn only_the_runtime_path_is_renamed() {
        // A user's module called `faster`, and a path without the facade's
        // private module, are the user's.
        let expansion = quote!(::faster::compare_fns; faster::__private::X; ::faster::X);
        let written = renamed(quote!(my_faster), expansion.clone());
        assert_eq!(written, tokens_as_written(expansion));
    }

    #[test]
    fn without_the_option_the_expansion_is_unchanged() {
        let expansion = quote!(::faster::__private::Eq);
        let written = Runtime::at(None).named_in(expansion.clone());
        assert_eq!(written.to_string(), expansion.to_string());
    }
}
