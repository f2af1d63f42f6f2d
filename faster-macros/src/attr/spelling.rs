//! Tokens in error messages as a user wrote them. (What a misspelt name
//! most likely meant is `faster_options::closest`, the runtime's rule too.)

use proc_macro2::{TokenStream, TokenTree};

/// Tokens as a person writes them: `crate::old::sum`, `Vec::<u8>::len`,
/// `<T as Trait>::f`. A space only separates two words.
pub(crate) fn tokens_as_written(tokens: TokenStream) -> String {
    let mut text = String::new();
    let mut previous_was_word = false;
    for token in tokens {
        let is_word = matches!(token, TokenTree::Ident(_) | TokenTree::Literal(_));
        if is_word && previous_was_word {
            text.push(' ');
        }
        match &token {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Brace => ("{", "}"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                text.push_str(open);
                text.push_str(tokens_as_written(group.stream()).trim_end());
                text.push_str(close);
            }
            other => text.push_str(&other.to_string()),
        }
        // `[f32; 4]`, `HashMap<u8, u8>`: a space after a separator.
        if matches!(&token, TokenTree::Punct(punct) if matches!(punct.as_char(), ',' | ';')) {
            text.push(' ');
        }
        previous_was_word = is_word;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn paths_are_rendered_as_written() {
        assert_eq!(
            tokens_as_written(quote!(crate::old::sum)),
            "crate::old::sum"
        );
        assert_eq!(tokens_as_written(quote!(::other::f)), "::other::f");
        assert_eq!(tokens_as_written(quote!(Vec::<u8>::len)), "Vec::<u8>::len");
        assert_eq!(
            tokens_as_written(quote!(<T as Trait>::f)),
            "<T as Trait>::f"
        );
    }
}
