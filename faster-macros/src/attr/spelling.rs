//! Words for error messages: the option a misspelt name most likely
//! meant, and tokens shown as a user wrote them.

use proc_macro2::{TokenStream, TokenTree};

/// The nearest of `choices` to a misspelt `given`, if one is near enough to
/// be what was meant.
pub(crate) fn closest<'a>(given: &str, choices: &[&'a str]) -> Option<&'a str> {
    let given = given.to_ascii_lowercase();
    let by_distance = choices
        .iter()
        .map(|choice| (edit_distance(&given, choice), *choice))
        .filter(|(distance, choice)| *distance <= (choice.len() / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, choice)| choice);
    // A prefix (`noise` for `noise_floor`, `max` for `max_time`).
    by_distance.or_else(|| {
        choices
            .iter()
            .find(|choice| given.len() >= 3 && choice.starts_with(given.as_str()))
            .copied()
    })
}

/// Edit distance counting a swap of neighbours as one edit (the optimal
/// string alignment distance), so `orignal` and `oirginal` are both one
/// edit from `original`.
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitution = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + substitution);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

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

    #[test]
    fn edit_distance_counts_a_swap_as_one() {
        assert_eq!(edit_distance("orignal", "original"), 1);
        assert_eq!(edit_distance("oirginal", "original"), 1);
        assert_eq!(edit_distance("input", "inputs"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
