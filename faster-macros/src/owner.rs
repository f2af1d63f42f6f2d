//! The `impl` block a method belongs to, as what a method's comparisons
//! and tracking need of it: its type for `Self`, the path its methods are
//! called by, its name in test names. Read by every phase (options,
//! checks, expansion); made by `crate::methods`, the block's attribute —
//! for a provided method of a `trait` block, one per type of its
//! `implementors = [...]`, as if the method were written in that type's
//! `impl` of the trait.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::Type;

/// The `impl` block a method belongs to, as its comparisons name it.
pub(crate) struct Owner {
    /// The block's type, `Buffer`, for `Self` in the method's signature
    /// and options.
    pub self_type: Type,
    /// What the method's path starts with: `<Buffer>`, or for a trait's
    /// implementation `<Buffer as Format>`.
    pub qualified: TokenStream,
    /// The type as written, `Buffer`, for headings and names.
    pub written: String,
    /// The trait, as written, where the method is one of its provided
    /// methods measured on this type: `implementors = [...]` belongs there
    /// and nowhere else.
    pub provided_by: Option<String>,
}

impl Owner {
    /// `Buffer` → `buffer`, `HashMap<u8, u8>` → `hash_map_u8_u8`: the type
    /// in a test's name, which is a function's, in snake case.
    pub fn snake_name(&self) -> String {
        let mut snake = String::new();
        let mut previous_lower = false;
        for c in self.written.chars() {
            if c.is_ascii_uppercase() {
                if previous_lower {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
                previous_lower = false;
            } else if c.is_ascii_alphanumeric() {
                snake.push(c);
                previous_lower = true;
            } else if !snake.is_empty() && !snake.ends_with('_') {
                snake.push('_');
                previous_lower = false;
            }
        }
        snake.trim_end_matches('_').to_string()
    }
}

/// `tokens` with every `Self` replaced by `replacement`: a path option
/// written inside the block (`original = Self::format_naive`) as it reads
/// outside it.
pub(crate) fn without_self(tokens: TokenStream, replacement: &TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .flat_map(|token| match token {
            TokenTree::Ident(ident) if ident == "Self" => replacement.clone(),
            TokenTree::Group(group) => {
                let mut replaced = proc_macro2::Group::new(
                    group.delimiter(),
                    without_self(group.stream(), replacement),
                );
                replaced.set_span(group.span());
                TokenTree::Group(replaced).into_token_stream()
            }
            other => other.into_token_stream(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attr::tokens_as_written;

    #[test]
    fn a_type_names_its_tests_in_snake_case() {
        let named = |ty: Type| {
            Owner {
                written: tokens_as_written(ty.to_token_stream()),
                qualified: TokenStream::new(),
                self_type: ty,
                provided_by: None,
            }
            .snake_name()
        };
        assert_eq!(named(syn::parse_quote!(Buffer)), "buffer");
        assert_eq!(named(syn::parse_quote!(HashMap<u8, u8>)), "hash_map_u8_u8");
        assert_eq!(named(syn::parse_quote!(io::BufReader)), "io_buf_reader");
    }
}
