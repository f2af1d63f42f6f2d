//! Every option of the attributes, declared once: its name, the kind of
//! value it takes, the attributes that take it, how to write it (what an
//! error about it shows), and where its value goes, a field of the
//! runtime's `Settings` or a part of [`Options`](super::Options) the
//! expansion reads. The parser, its "did you mean" hints, the lists of
//! options in its errors and the settings the expansion writes all read
//! [`OPTIONS`]: an option that sets a `Settings` field is this one entry.

use super::spelling::closest;

/// The most processes a comparison may be measured in: the runtime's
/// `faster::__private::MAX_PROCESSES` (a test checks they agree), checked
/// here so that a bad count is an error at its token when the crate builds.
pub(super) const MAX_PROCESSES: u64 = 100;

/// The attributes that take options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attribute {
    Compare,
    CompareGpu,
    Track,
}

impl Attribute {
    /// Its name after `faster::`.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Compare => "compare",
            Attribute::CompareGpu => "compare_gpu",
            Attribute::Track => "track",
        }
    }

    /// Why it does not take an option that another attribute takes.
    fn refuses_because(self) -> &'static str {
        match self {
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
}

/// The kind of value an option takes, which says how it is read.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// The path of a function, `path::to::f`.
    Function,
    /// One of `choices`, for an option that sets a `Settings` field: a
    /// variant of that setting's type in the runtime, named by the choice
    /// in upper camel case (`not_slower`: `NotSlower`).
    Keyword { choices: &'static [&'static str] },
    /// A fraction above 0, `0.05`.
    Fraction,
    /// A duration in quotes, `"500ms"`.
    Duration,
    /// A whole number from 1 to `max`.
    Count { max: u64 },
    /// A string that is not empty.
    Text,
    /// `true` or `false`.
    Switch,
    /// `eq`, `approx(...)`, `skip` or the path of a function.
    Check,
    /// A bracketed list of types, `[u32, Vec<u8>]`.
    Types,
}

/// Where an option's value goes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Field {
    /// The field of this name of the runtime's `Settings`, which the
    /// registered descriptor carries.
    Setting(&'static str),
    /// What the expansion reads of [`Options`](super::Options) itself.
    Original,
    Inputs,
    Check,
    Flops,
    Bytes,
    Name,
    Types,
    CacheFlush,
}

/// One option.
pub(super) struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    /// The attributes that take it.
    pub taken_by: &'static [Attribute],
    /// How to write it, for errors about its value.
    pub example: &'static str,
    pub field: Field,
    /// Words people reach for that mean it, for the "did you mean" hint
    /// where spelling distance cannot help.
    pub synonyms: &'static [&'static str],
}

const COMPARISONS: &[Attribute] = &[Attribute::Compare, Attribute::CompareGpu];
const ALL: &[Attribute] = &[Attribute::Compare, Attribute::CompareGpu, Attribute::Track];

/// The options, in the order the documentation lists them.
pub(super) const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "original",
        kind: Kind::Function,
        taken_by: COMPARISONS,
        example: "write `original = path::to::baseline_fn`",
        field: Field::Original,
        synonyms: &["baseline", "reference"],
    },
    OptionSpec {
        name: "inputs",
        kind: Kind::Function,
        taken_by: ALL,
        example: "write `inputs = path::to::inputs_fn`",
        field: Field::Inputs,
        synonyms: &[],
    },
    OptionSpec {
        name: "expect",
        kind: Kind::Keyword {
            choices: &["faster", "not_slower", "report"],
        },
        taken_by: ALL,
        example: "write `expect = faster`, `expect = not_slower` or `expect = report`",
        field: Field::Setting("expect"),
        synonyms: &[],
    },
    OptionSpec {
        name: "noise_floor",
        kind: Kind::Fraction,
        taken_by: ALL,
        example: "write a fraction such as `noise_floor = 0.05` for 5%",
        field: Field::Setting("noise_floor"),
        synonyms: &["threshold", "tolerance"],
    },
    OptionSpec {
        name: "check",
        kind: Kind::Check,
        taken_by: COMPARISONS,
        example: "write `check = eq` (compare outputs with `==`), `check = approx(1e-9)` \
                  (floating-point values within a relative tolerance), `check = path::to::fn` \
                  (a `fn(&T, &T) -> bool` of yours) or `check = skip`",
        field: Field::Check,
        synonyms: &[],
    },
    OptionSpec {
        name: "max_time",
        kind: Kind::Duration,
        taken_by: ALL,
        example: "write a duration such as `max_time = \"3s\"`",
        field: Field::Setting("max_time"),
        synonyms: &["timeout", "budget"],
    },
    OptionSpec {
        name: "processes",
        kind: Kind::Count { max: MAX_PROCESSES },
        taken_by: COMPARISONS,
        example: "write `processes = 3`, or `processes = 1` to measure in the test's own \
                  process only",
        field: Field::Setting("processes"),
        synonyms: &[],
    },
    OptionSpec {
        name: "flops",
        kind: Kind::Function,
        taken_by: COMPARISONS,
        example: "write `flops = path::to::flops_fn`, a `fn(&Input) -> u64`",
        field: Field::Flops,
        synonyms: &[],
    },
    OptionSpec {
        name: "bytes",
        kind: Kind::Function,
        taken_by: COMPARISONS,
        example: "write `bytes = path::to::bytes_fn`, a `fn(&Input) -> u64`",
        field: Field::Bytes,
        synonyms: &[],
    },
    OptionSpec {
        name: "name",
        kind: Kind::Text,
        taken_by: ALL,
        example: "write a string such as `name = \"sum: unrolled\"`",
        field: Field::Name,
        synonyms: &[],
    },
    OptionSpec {
        name: "types",
        kind: Kind::Types,
        taken_by: &[Attribute::Compare, Attribute::Track],
        example: "write the types in brackets: `types = [u32, u64]`",
        field: Field::Types,
        synonyms: &["type", "generics"],
    },
    OptionSpec {
        name: "cache_flush",
        kind: Kind::Switch,
        taken_by: &[Attribute::CompareGpu],
        example: "write `cache_flush = false` for kernels meant to run warm, or leave it out to \
                  flush the caches before every sample",
        field: Field::CacheFlush,
        synonyms: &["flush"],
    },
];

/// The option called `name`, whichever attributes take it.
pub(super) fn named(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|option| option.name == name)
}

/// Where `field` comes in the table: the settings are written in this order.
pub(super) fn position_of_setting(field: &str) -> usize {
    OPTIONS
        .iter()
        .position(|option| matches!(option.field, Field::Setting(named) if named == field))
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
    by_synonym.or_else(|| {
        let names: Vec<&str> = taken_by(attribute).map(|option| option.name).collect();
        closest(name, &names).and_then(named)
    })
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
        attribute.refuses_because(),
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
    use super::super::Attribute;
    use super::*;

    #[test]
    fn the_table_is_consistent() {
        for (position, option) in OPTIONS.iter().enumerate() {
            assert!(
                !option.taken_by.is_empty(),
                "`{}` is taken by no attribute",
                option.name
            );
            assert!(
                OPTIONS[..position]
                    .iter()
                    .all(|earlier| earlier.name != option.name),
                "`{}` is declared twice",
                option.name
            );
            for synonym in option.synonyms {
                assert!(named(synonym).is_none(), "`{synonym}` is an option's name");
            }
            // A `Settings` field holds a plain value, which the expansion writes.
            if let Field::Setting(_) = option.field {
                assert!(
                    !matches!(option.kind, Kind::Check | Kind::Types),
                    "`{}` sets a `Settings` field with a value no field holds",
                    option.name
                );
            }
        }
    }

    #[test]
    fn the_options_that_set_a_setting_are_the_runtimes_attribute_options() {
        let mut ours: Vec<&str> = OPTIONS
            .iter()
            .filter_map(|option| match option.field {
                Field::Setting(field) => Some(field),
                _ => None,
            })
            .collect();
        let mut runtimes: Vec<&str> = faster::__private::SETTINGS
            .iter()
            .filter(|setting| setting.attribute)
            .map(|setting| setting.name)
            .collect();
        ours.sort_unstable();
        runtimes.sort_unstable();
        assert_eq!(ours, runtimes);
    }

    #[test]
    fn max_processes_is_the_runtimes() {
        assert_eq!(
            usize::try_from(MAX_PROCESSES).unwrap(),
            faster::__private::MAX_PROCESSES
        );
    }

    /// The options each attribute's documentation (in `lib.rs`) names: the
    /// rows of its table of options, or for `compare_gpu` its sentence.
    /// The options that set a setting are the guide's (its table of
    /// settings, which `tests/docs` holds to the runtime's), which the
    /// documentation points to rather than repeating: a new one is written
    /// in the runtime's table, this one and the guide's.
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
                .filter(|option| !matches!(option.field, Field::Setting(_)))
                .map(|option| option.name)
                .collect();
            taken.sort_unstable();
            assert_eq!(documented, taken, "`#[faster::{}]`", attribute.name());
        }
    }
}
