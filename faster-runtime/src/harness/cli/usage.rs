//! The usage of `faster::main()` (`--help`), written from the tables of
//! settings, flags ([`Known`]) and variables, and the one line a flag that
//! is none of them gets, naming the closest one.

use super::flags::{Known, VARIABLES};
use crate::config::{CI_NOISE_FLOOR, Described, SETTINGS};
use crate::options::ValueName;
use crate::output::style;

/// Where the description of a flag starts.
const DESCRIPTION: usize = 29;

/// The usage text of `--help`.
pub fn usage() -> String {
    let mut text = String::from(
        "usage: <test binary> [FILTER...] [OPTIONS]\n\n\
         Runs the comparisons registered with #[faster::compare] in this binary.\n\
         FILTER selects comparisons whose test name contains it (sum::faster_sum_fast).\n\n",
    );
    for known in Known::all() {
        let names: Vec<String> = known
            .names()
            .iter()
            .map(|name| match known.value() {
                Some(value) => format!("{name} {value}"),
                None => name.to_string(),
            })
            .collect();
        text += &entry(&names.join(", "), &known.help());
    }
    text += "\n";
    text += &wrap(
        &format!(
            "Attribute options are stronger than these flags, flags than the variables, \
             the variables than CI's noise floor ({CI_NOISE_FLOOR} where CI or \
             GITHUB_ACTIONS is set). Variables without a flag:"
        ),
        "",
    );
    for setting in SETTINGS.iter().filter(|setting| setting.flag.is_none()) {
        if let Some(variable) = setting.variable {
            text += &entry(
                &format!("{variable}={}", setting.kind.value_name()),
                &setting.described(),
            );
        }
    }
    for variable in VARIABLES {
        text += &entry(
            &format!("{}={}", variable.name, variable.value),
            variable.usage,
        );
    }
    text + "See the guide's \"Running comparisons\" (guide/running.md) for each of them."
}

/// One entry of the usage: `left` in the first column, `description`
/// wrapped in the second (from the next line where `left` is too wide).
fn entry(left: &str, description: &str) -> String {
    let indent = " ".repeat(DESCRIPTION);
    if left.len() + 3 > DESCRIPTION {
        return wrap(left, "  ") + &wrap(description, &indent);
    }
    let first = format!("  {left:width$}", width = DESCRIPTION - 2);
    first.clone() + &wrap(description, &indent)[first.len()..]
}

/// `text` in lines of [`style::wrap`]'s width, each starting with `indent`
/// and ending the line.
fn wrap(text: &str, indent: &str) -> String {
    style::wrap(text, indent, indent).join("\n") + "\n"
}

/// The error of a flag that is not one: one line, naming the flag, the
/// closest one where one is close, and where to look.
pub fn unknown_flag(name: &str, closest: Option<&str>) -> String {
    match closest {
        Some(closest) => format!("unknown flag {name}; did you mean {closest}? (see --help)"),
        None => format!("unknown flag {name} (see --help)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::closest;
    use crate::output::style::WIDTH;

    #[test]
    fn the_usage_names_every_flag_and_variable() {
        let usage = usage();
        for setting in SETTINGS {
            for name in setting.flag.into_iter().chain(setting.variable) {
                assert!(usage.contains(name), "{name} is not in the usage");
            }
        }
        for known in Known::all() {
            for name in known.names().iter().chain(&known.variable()) {
                assert!(usage.contains(name), "{name} is not in the usage");
            }
        }
        for variable in VARIABLES {
            assert!(usage.contains(variable.name), "{}", variable.name);
        }
        assert!(
            usage.lines().all(|line| line.chars().count() <= WIDTH),
            "{usage}"
        );
    }

    #[test]
    fn an_entry_wraps_under_its_description() {
        assert_eq!(
            entry("--list", "list them"),
            format!("  --list{:21}list them\n", "")
        );
        let long = entry("--timer wall|cycles|thread-cpu", "the timing source");
        assert_eq!(
            long,
            format!(
                "  --timer wall|cycles|thread-cpu\n{:29}the timing source\n",
                ""
            )
        );
        let wrapped = entry("-x", &"word ".repeat(30));
        assert!(wrapped.lines().count() > 1, "{wrapped}");
        assert!(
            wrapped
                .lines()
                .skip(1)
                .all(|line| line.starts_with(&" ".repeat(29)))
        );
    }

    #[test]
    fn an_unknown_flag_is_one_line_naming_the_closest() {
        let flags = || Known::all().flat_map(|known| known.names().iter().copied());
        let line = |name| unknown_flag(name, closest(name, flags()));
        assert_eq!(
            line("--noise-flor"),
            "unknown flag --noise-flor; did you mean --noise-floor? (see --help)"
        );
        assert_eq!(
            line("--proceses"),
            "unknown flag --proceses; did you mean --processes? (see --help)"
        );
        assert_eq!(line("-x"), "unknown flag -x (see --help)");
        assert_eq!(
            line("--frobnicate"),
            "unknown flag --frobnicate (see --help)"
        );
    }
}
