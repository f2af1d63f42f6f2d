//! Functions inside `impl` and `trait` blocks, which cannot hold the test
//! and the registration the attributes add: the one refusal, at the
//! attribute, where the source shows the block ([`crate::enclosing`]) —
//! for an `impl` block, that it needs `#[faster::methods]`; for a `trait`,
//! that it needs `#[faster::methods]` and `implementors` — the refusal of
//! `Self::` paths where the source does not show it, and of
//! `implementors = [...]` outside a `trait` block.

use super::Candidate;
use super::refusals::{free_wrapper_example, output_as_written};
use crate::attr::{Options, TypesOption, tokens_as_written};
use crate::enclosing::Enclosing;
use crate::owner::Owner;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{ExprPath, ItemFn};

/// The function is not written inside an `impl` or a `trait` block (as
/// [`crate::enclosing`] finds it in the source): there the test and the
/// registration the attribute adds cannot go, and the one error, at the
/// attribute, shows the free function to put it on instead. `attribute`
/// is the attribute's name (`compare`), `args` its options.
pub(crate) fn outside_blocks(
    function: &ItemFn,
    attribute: &str,
    args: &TokenStream,
) -> syn::Result<()> {
    refuse_inside(
        crate::enclosing::enclosing(&function.sig.ident),
        function,
        attribute,
        args,
    )
}

/// [`outside_blocks`] for the block `enclosing` the function, if any.
fn refuse_inside(
    enclosing: Option<Enclosing>,
    function: &ItemFn,
    attribute: &str,
    args: &TokenStream,
) -> syn::Result<()> {
    let Some(enclosing) = enclosing else {
        return Ok(());
    };
    let example = free_wrapper_example(&function.sig, Some(&enclosing));
    let message = match &enclosing {
        Enclosing::Impl { self_type, .. } => {
            let header = self_type.as_ref().map_or_else(
                || "the `impl` block".to_string(),
                |self_type| format!("`impl {self_type}`"),
            );
            format!(
                "`#[faster::{attribute}]` on a method needs `#[faster::methods]` on its `impl` \
                 block, which writes the test the attribute adds (a block cannot hold one): put \
                 `#[cfg_attr(test, faster::methods)]` above {header}; for a generic block, \
                 which cannot carry it, annotate a free function that calls this one instead, \
                 `{example}`"
            )
        }
        Enclosing::Trait { name } => {
            let self_paths = if names_self(args.clone()) {
                ", with your type's name for `Self::` in its options"
            } else {
                ""
            };
            format!(
                "`#[faster::{attribute}]` on a provided method of a `trait` block needs \
                 `#[faster::methods]` on the block, which writes the test the attribute adds \
                 (a block cannot hold one), and the types implementing `{name}` to measure it \
                 on: put `#[cfg_attr(test, faster::methods)]` above `trait {name}` and add \
                 `implementors = [YourType]` to the attribute; for a generic trait, which \
                 cannot carry it, annotate a free function outside the `trait` that calls this \
                 one instead, `{example}`{self_paths}"
            )
        }
    };
    Err(syn::Error::new(Span::call_site(), message))
}

/// `implementors = [...]` is given only on a provided method of a `trait`
/// block, where [`crate::provided`] read it already to make one `owner`
/// per type (and says so where it is missing).
pub(crate) fn implementors_match(
    implementors: Option<TypesOption<'_>>,
    candidate: &Candidate,
    owner: Option<&Owner>,
) -> syn::Result<()> {
    let Some(implementors) = implementors else {
        return Ok(());
    };
    let ident = &candidate.ident;
    let placed = match owner {
        Some(Owner {
            provided_by: Some(_),
            ..
        }) => return Ok(()),
        Some(owner) => format!(
            "is a method of `impl {}`, measured on that type",
            owner.written
        ),
        None => "is not in a `trait` block".to_string(),
    };
    Err(syn::Error::new_spanned(
        implementors.key,
        format!(
            "`implementors` lists the types a provided method of a `trait` block is measured \
             on, and `{ident}` {placed}: remove `{}`",
            implementors.as_written(),
        ),
    ))
}

/// Whether `tokens` name `Self`.
fn names_self(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|token| match token {
        TokenTree::Ident(ident) => ident == "Self",
        TokenTree::Group(group) => names_self(group.stream()),
        _ => false,
    })
}

/// `Self::...` in a path option means the attribute sits inside an `impl`
/// block, where it cannot register anything. ([`outside_blocks`] says so
/// first, where it can read the source.)
pub(crate) fn no_self_paths(options: &Options, candidate: &Candidate) -> syn::Result<()> {
    let mut paths: Vec<&ExprPath> = vec![options.original()];
    paths.extend(options.inputs().map(|inputs| inputs.path));
    paths.extend(options.flops());
    paths.extend(options.bytes());
    if let crate::attr::Check::With(path) = options.check() {
        paths.push(path);
    }
    let Some(self_path) = paths.into_iter().find(|path| {
        path.qself.is_none()
            && path
                .path
                .segments
                .first()
                .is_some_and(|segment| segment.ident == "Self")
    }) else {
        return Ok(());
    };
    let params: Vec<String> = candidate
        .params
        .iter()
        .map(|param| {
            format!(
                "{}: {}",
                param.binding,
                tokens_as_written(param.ty.to_token_stream())
            )
        })
        .collect();
    let arguments: Vec<&str> = candidate
        .params
        .iter()
        .map(|param| param.binding.as_str())
        .collect();
    Err(syn::Error::new_spanned(
        self_path,
        format!(
            "`#[faster::compare]` cannot register a comparison from inside an `impl` block: \
             write a free function outside it, such as `fn {ident}({}){} {{ YourType::{ident}({}) \
             }}`, annotate that, and name the original by its path (`YourType::...`)",
            params.join(", "),
            output_as_written(&candidate.output),
            arguments.join(", "),
            ident = candidate.ident,
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn inside_a_block_the_refusal_says_what_to_write() {
        let refusal = |enclosing: Enclosing, function: proc_macro2::TokenStream, args| {
            let function: ItemFn = syn::parse2(function).unwrap();
            refuse_inside(Some(enclosing), &function, "compare", &args)
                .unwrap_err()
                .to_string()
        };
        let parser = || Enclosing::Impl {
            self_type: Some("Parser".into()),
            of_trait: None,
        };
        // In an `impl` block: the block's attribute, or, for a generic
        // block, a free function.
        let error = refusal(
            parser(),
            quote!(
                fn parse_fast(x: &str, (a, b): (u8, u8)) -> u64 {
                    0
                }
            ),
            quote!(original = parse_naive),
        );
        assert!(
            error.starts_with(
                "`#[faster::compare]` on a method needs `#[faster::methods]` on its `impl` block"
            ) && error.contains("put `#[cfg_attr(test, faster::methods)]` above `impl Parser`"),
            "{error}"
        );
        assert!(
            error.ends_with(
                "`fn parse_fast(x: &str, arg1: (u8, u8)) -> u64 { Parser::parse_fast(x, arg1) }`"
            ),
            "{error}"
        );
        // Receivers, each as the free function takes it.
        for (receiver, value) in [
            (quote!(&self), "&Parser"),
            (quote!(&mut self), "&mut Parser"),
            (quote!(self), "Parser"),
            (quote!(self: Box<Self>), "Box<Parser>"),
        ] {
            let error = refusal(parser(), quote!(fn len(#receiver) -> usize { 0 }), quote!());
            assert!(
                error.contains(&format!(
                    "`fn len(value: {value}) -> usize {{ value.len() }}`"
                )),
                "{receiver}: {error}"
            );
        }
        let error = refusal(
            Enclosing::Impl {
                self_type: Some("Parser".into()),
                of_trait: Some("Parse".into()),
            },
            quote!(
                fn parse(x: &str) {}
            ),
            quote!(),
        );
        assert!(
            error.contains("`fn parse(x: &str) { <Parser as Parse>::parse(x) }`"),
            "{error}"
        );
        // In a `trait` block: a free function.
        let error = refusal(
            Enclosing::Trait {
                name: "Parse".into(),
            },
            quote!(
                fn parse(x: &str) {}
            ),
            quote!(original = Self::old),
        );
        assert!(
            error.contains("on a provided method of a `trait` block needs `#[faster::methods]`")
                && error.contains("put `#[cfg_attr(test, faster::methods)]` above `trait Parse`")
                && error.contains("add `implementors = [YourType]` to the attribute")
                && error.contains("`fn parse(x: &str) { <YourType as Parse>::parse(x) }`")
                && error.ends_with("with your type's name for `Self::` in its options"),
            "{error}"
        );
        // The free function declares the generics its parameters name.
        let error = refusal(
            Enclosing::Trait {
                name: "Engine".into(),
            },
            quote!(
                fn encode<T: AsRef<[u8]>>(&self, input: T) -> String
                where
                    T: Clone,
                {
                    todo!()
                }
            ),
            quote!(),
        );
        // (Outside a procedural macro, tokens are written without the
        // source's spacing.)
        assert!(
            error.ends_with(
                "`fn encode<T: AsRef<[u8]>>(value: &YourType, input: T) -> String where T:Clone \
                 { value.encode(input) }`"
            ),
            "{error}"
        );
        // Where the source could not be read, nothing is refused here.
        let free: ItemFn = syn::parse_quote!(
            fn parse(x: &str) {}
        );
        assert!(refuse_inside(None, &free, "compare", &quote!()).is_ok());
    }
}
