//! The name a misspelt one most likely meant, for the "did you mean" of
//! every error about a name people type: an attribute's option or a
//! keyword's value (`faster-macros`), a flag of `faster::main()` or of
//! `cargo faster` (the runtime). One rule for all of them, so a typo is
//! caught, or not, the same wherever it is made.

/// The one of `choices` nearest to a misspelt `given`, where one is near
/// enough to be what was meant: at most one edit (a character added,
/// removed or replaced, or two neighbours swapped) in three characters of
/// the longer of the two words, case aside (`orignal`, `eqq`,
/// `--proceses`; not `-x` for `-q`). Failing that, the first choice that
/// `given` begins, where it has three letters or more (`noise` for
/// `noise_floor`, `--max` for `--max-time`).
pub fn closest<'a>(given: &str, choices: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let given = given.to_ascii_lowercase();
    let choices: Vec<&str> = choices.into_iter().collect();
    let length = |word: &str| word.chars().count();
    let near = choices
        .iter()
        .map(|choice| (edit_distance(&given, choice), *choice))
        .filter(|(edits, choice)| edits * 3 <= length(&given).max(length(choice)))
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, choice)| choice);
    let letters = given.chars().filter(|c| c.is_alphanumeric()).count();
    near.or_else(|| {
        let begun = choices.iter().find(|choice| choice.starts_with(&given));
        begun.copied().filter(|_| letters >= 3)
    })
}

/// The edits from `a` to `b`, counting a swap of neighbours as one (the
/// optimal string alignment distance), so `orignal` and `oirginal` are
/// both one edit from `original`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // `rows[i][j]`: the edits from `a`'s first `i` characters to `b`'s
    // first `j`.
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let replaced = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + replaced);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_of_neighbours_is_one_edit() {
        assert_eq!(edit_distance("orignal", "original"), 1);
        assert_eq!(edit_distance("oirginal", "original"), 1);
        assert_eq!(edit_distance("input", "inputs"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn a_name_one_edit_in_three_away_is_suggested() {
        let options = ["original", "inputs", "noise_floor", "max_time", "types"];
        assert_eq!(closest("orignal", options), Some("original"));
        assert_eq!(closest("Original", options), Some("original"));
        assert_eq!(closest("input", options), Some("inputs"));
        assert_eq!(closest("type", options), Some("types"));
        // The nearest wins, whatever the order.
        assert_eq!(
            closest("maxtime", ["max_times", "max_time"]),
            Some("max_time")
        );
        // Two edits in five letters are too many.
        assert_eq!(closest("typo", options), None);
        assert_eq!(closest("colour", options), None);
    }

    #[test]
    fn short_words_count_the_longer_ones_letters() {
        // One edit in three letters (`eqq`), not in two (`-x`).
        assert_eq!(closest("eqq", ["eq", "skip", "approx"]), Some("eq"));
        assert_eq!(closest("-x", ["-q", "-h", "--quiet"]), None);
        assert_eq!(
            closest("--proceses", ["--processes", "--noise-floor"]),
            Some("--processes")
        );
        assert_eq!(
            closest("--noise_floor", ["--processes", "--noise-floor"]),
            Some("--noise-floor")
        );
    }

    #[test]
    fn a_beginning_of_three_letters_names_what_it_begins() {
        let options = ["original", "noise_floor", "max_time"];
        assert_eq!(closest("noise", options), Some("noise_floor"));
        assert_eq!(closest("max", options), Some("max_time"));
        assert_eq!(closest("ma", options), None);
        assert_eq!(closest("--max", ["--max-time"]), Some("--max-time"));
        // Dashes are not letters.
        assert_eq!(closest("--m", ["--max-time"]), None);
    }
}
