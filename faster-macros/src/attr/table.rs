//! The attributes' side of the table of options ([`OPTIONS`], shared
//! with the runtime): the option a name means, the one a misspelt name
//! probably meant, and the errors that list an attribute's options or say
//! why it does not take another's.

use faster_options::{Attribute, OPTIONS, OptionSpec, closest};

/// Why `attribute` does not take an option that another attribute takes.
fn refuses_because(attribute: Attribute) -> &'static str {
    match attribute {
        Attribute::Compare => "`#[faster::compare]` compares two functions, not GPU kernels",
        Attribute::CompareGpu => {
            "`#[faster::compare_gpu]` compares two kernels' record functions, which are not \
             generic"
        }
        Attribute::Track => {
            "`#[faster::track]` compares the function with itself at another revision"
        }
    }
}

/// The option called `name` that an attribute takes.
pub(super) fn named(name: &str) -> Option<&'static OptionSpec> {
    faster_options::named(name).filter(|option| option.in_attributes())
}

/// Where `option` comes in the table: the options are kept, and the
/// settings written, in this order.
pub(super) fn position(option: &OptionSpec) -> usize {
    OPTIONS
        .iter()
        .position(|other| other.name == option.name)
        .unwrap_or(OPTIONS.len())
}

/// The options `attribute` takes, in order.
fn taken_by(attribute: Attribute) -> impl Iterator<Item = &'static OptionSpec> {
    OPTIONS
        .iter()
        .filter(move |option| option.taken_by.contains(&attribute))
}

/// The option of `attribute` an unknown `name` probably meant.
pub(super) fn suggestion(name: &str, attribute: Attribute) -> Option<&'static OptionSpec> {
    let by_synonym = taken_by(attribute).find(|option| option.synonyms.contains(&name));
    by_synonym
        .or_else(|| closest(name, taken_by(attribute).map(|option| option.name)).and_then(named))
}

/// The error for a `name` no attribute takes: the option it probably
/// meant, or, where none is close, the options `attribute` takes (as rustc
/// lists a struct's fields only where no name is similar).
pub(super) fn unknown(name: &str, attribute: Attribute) -> String {
    match suggestion(name, attribute) {
        Some(option) => format!("unknown option `{name}`: did you mean `{}`?", option.name),
        None => format!(
            "unknown option `{name}`\nthe options are {}",
            listed(attribute)
        ),
    }
}

/// The error for an option of another attribute's given to `attribute`:
/// why it does not apply, so the fix is to remove it.
pub(super) fn refused(option: &OptionSpec, attribute: Attribute) -> String {
    let owner = option
        .taken_by
        .first()
        .map_or("compare", |taker| taker.name());
    format!(
        "`{}` is an option of `#[faster::{owner}]`; {}: remove it",
        option.name,
        refuses_because(attribute),
    )
}

/// The options `attribute` takes, as a list: `` `original`, `inputs` ``.
pub(super) fn listed(attribute: Attribute) -> String {
    taken_by(attribute)
        .map(|option| format!("`{}`", option.name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_options::Field;

    /// The options each attribute's documentation (in `lib.rs`) names: the
    /// rows of its table of options, or for `compare_gpu` its sentence.
    /// The options that set a setting are the guide's (its table of
    /// settings, which `tests/docs` holds to the table of options), which
    /// the documentation points to rather than repeating.
    fn documented_options(attribute: Attribute) -> Vec<&'static str> {
        let source = include_str!("../lib.rs");
        let signature = format!("pub fn {}(", attribute.name());
        let before = &source[..source.find(&signature).expect("the attribute's function")];
        let docs: Vec<&str> = before
            .lines()
            .rev()
            .skip_while(|line| !line.starts_with("///"))
            .take_while(|line| line.starts_with("///"))
            .collect();
        let named = |line: &str| {
            OPTIONS
                .iter()
                .filter(|option| option.in_attributes())
                .filter(|option| {
                    line.contains(&format!("`{} =", option.name))
                        || line.contains(&format!("`{}`", option.name))
                })
                .map(|option| option.name)
                .collect::<Vec<_>>()
        };
        match attribute {
            Attribute::CompareGpu => {
                let sentence: String = docs
                    .iter()
                    .rev()
                    .skip_while(|line| !line.contains("The options are"))
                    .take_while(|line| **line != "///")
                    .copied()
                    .collect();
                named(&sentence)
            }
            _ => docs
                .iter()
                .filter(|line| line.starts_with("/// | `"))
                .flat_map(|row| named(row.split(" | ").nth(1).unwrap_or(row)))
                .collect(),
        }
    }

    #[test]
    fn each_attributes_documentation_lists_its_options_but_the_settings() {
        for attribute in [Attribute::Compare, Attribute::CompareGpu, Attribute::Track] {
            let mut documented = documented_options(attribute);
            documented.sort_unstable();
            documented.dedup();
            let mut taken: Vec<&str> = OPTIONS
                .iter()
                .filter(|option| option.taken_by.contains(&attribute))
                .filter(|option| option.field != Field::Setting)
                .map(|option| option.name)
                .collect();
            taken.sort_unstable();
            assert_eq!(documented, taken, "`#[faster::{}]`", attribute.name());
        }
    }
}
