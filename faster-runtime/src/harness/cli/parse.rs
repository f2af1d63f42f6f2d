//! The one parser of faster's flags ([`Known`]): `faster::main()`'s command
//! line, libtest's shape (filters, and flags written `--name value` or
//! `--name=value`), read one argument at a time; the same for a command
//! line that takes faster's flags beside its own ([`Beside`]): `cargo
//! faster --against`'s, whose own flags it sets aside for clap, and `cargo
//! faster test`'s, cargo's own line with `--partition` picked out of it;
//! and the few display flags a generated `#[test]` reads from libtest's
//! command line, passing over the rest.

use super::flags::{Action, Format, Known};
use super::usage::unknown_flag;
use super::{Cli, format_from_env};
use crate::options::closest;
use crate::output::style::ColorChoice;

/// A command line that takes faster's flags beside arguments of its own:
/// the parser applies the flags of faster's it [`takes`](Beside::takes)
/// and sets [its own](Beside::own) aside, in order, for it to read.
#[derive(Debug, Clone, Copy)]
pub struct Beside<'a> {
    /// Which of its arguments are its own.
    pub own: Own<'a>,
    /// Which of faster's flags it takes: the others are unknown to it.
    pub takes: fn(Known) -> bool,
}

/// Which arguments of a command line are not faster's.
#[derive(Debug, Clone, Copy)]
pub enum Own<'a> {
    /// These flags, each name (`--against`, `-p`) with whether it takes a
    /// value: any other flag is unknown, any other argument a filter.
    Flags(&'a [(String, bool)]),
    /// Every argument but the flags of faster's it takes, and all after
    /// `--`: another tool's command line (`cargo test`'s), whose flags
    /// faster does not know.
    Everything,
}

impl Beside<'_> {
    /// `faster::main()`'s own command line: every flag of faster's, none
    /// besides.
    pub const NOTHING: Beside<'static> = Beside {
        own: Own::Flags(&[]),
        takes: every_flag,
    };

    /// Whether `argument`, named `name`, is its own, to set aside; then,
    /// whether the next argument is its value. A short flag's value may be
    /// attached to it (`-pdemo`), as clap reads it.
    fn sets_aside(&self, argument: &str, name: &str) -> Option<bool> {
        let Own::Flags(own) = self.own else {
            return Some(false);
        };
        let inline = argument.len() > name.len();
        if let Some((_, takes_value)) = own.iter().find(|(own, _)| own == name) {
            return Some(*takes_value && !inline);
        }
        let short = name.get(..2).filter(|_| !name.starts_with("--"))?;
        let attached = own.iter().any(|(own, takes)| own == short && *takes);
        attached.then_some(false)
    }

    /// The error of a flag that is none of these: naming the closest one.
    fn unknown(&self, name: &str) -> String {
        let faster = Known::all()
            .filter(|known| (self.takes)(*known))
            .flat_map(|known| known.names().iter().copied());
        let own: &[(String, bool)] = match self.own {
            Own::Flags(own) => own,
            Own::Everything => &[],
        };
        let own = own.iter().map(|(own, _)| own.as_str());
        unknown_flag(name, closest(name, faster.chain(own)))
    }
}

/// Takes every flag: `faster::main()`'s choice.
fn every_flag(_: Known) -> bool {
    true
}

/// An argument as a command line of faster's reads it.
#[derive(Debug, PartialEq)]
enum Argument<'a> {
    /// Not a flag: a filter, the only positional argument.
    Filter(&'a str),
    /// A flag's name, and the value written after its `=`, if any.
    Flag(&'a str, Option<&'a str>),
}

impl Argument<'_> {
    /// `argument` read: `--max-time=3s` is the flag `--max-time` with
    /// `3s`.
    fn of(argument: &str) -> Argument<'_> {
        if !argument.starts_with('-') {
            return Argument::Filter(argument);
        }
        match argument.split_once('=') {
            Some((name, value)) if name.starts_with("--") => Argument::Flag(name, Some(value)),
            _ => Argument::Flag(argument, None),
        }
    }
}

impl Cli {
    /// Parses `arguments` (without the program name): a one-line error for
    /// a flag that is not one, or a value its flag cannot read, naming it.
    pub fn parse(arguments: &[String]) -> Result<Cli, String> {
        let (cli, _) = Cli::parse_beside(arguments, Beside::NOTHING)?;
        Ok(cli)
    }

    /// Parses `arguments` as [`Cli::parse`] does, taking the flags of
    /// faster's `beside` takes, and setting aside its own with their values
    /// for it to read: the command line, and those arguments, in order.
    pub fn parse_beside(
        arguments: &[String],
        beside: Beside,
    ) -> Result<(Cli, Vec<String>), String> {
        let mut cli = Cli::default();
        let mut set_aside = Vec::new();
        let everything = matches!(beside.own, Own::Everything);
        let mut arguments = arguments.iter().peekable();
        while let Some(argument) = arguments.next() {
            if everything && argument == "--" {
                set_aside.push(argument.clone());
                set_aside.extend(arguments.by_ref().cloned());
                break;
            }
            let (name, inline) = match Argument::of(argument) {
                Argument::Filter(_) if everything => {
                    set_aside.push(argument.clone());
                    continue;
                }
                Argument::Filter(filter) => {
                    cli.filters.push(filter.to_string());
                    continue;
                }
                Argument::Flag(name, inline) => (name, inline),
            };
            if let Some(known) = Known::named(name).filter(|known| (beside.takes)(*known)) {
                let value = match known.value() {
                    Some(shape) => {
                        let value = inline
                            .map(str::to_string)
                            .or_else(|| arguments.next().cloned());
                        Some(value.ok_or_else(|| format!("{name} needs a value: {name} {shape}"))?)
                    }
                    None => None,
                };
                cli.apply(known, value.as_deref())
                    .map_err(|reason| format!("{name}: {reason}"))?;
                continue;
            }
            let value_follows = beside
                .sets_aside(argument, name)
                .ok_or_else(|| beside.unknown(name))?;
            set_aside.push(argument.clone());
            // A flag after it is not its value: clap says the value is
            // missing, as it does without this parser in front of it.
            if value_follows {
                set_aside.extend(arguments.next_if(|next| !next.starts_with('-')).cloned());
            }
        }
        Ok((cli, set_aside))
    }
}

/// The display flags of a libtest command line (`cargo test -- --color
/// never -q`): the colour and the format a generated `#[test]` prints in,
/// `FASTER_FORMAT` where libtest's flags say nothing. Everything else on
/// the line is libtest's.
pub fn libtest_display(
    arguments: impl IntoIterator<Item = String>,
    var: impl Fn(&str) -> Option<String>,
) -> Result<(ColorChoice, Option<Format>), String> {
    let mut arguments = arguments.into_iter();
    let (mut color, mut format) = (ColorChoice::Auto, None);
    while let Some(argument) = arguments.next() {
        let Argument::Flag(name, inline) = Argument::of(&argument) else {
            continue;
        };
        let Some(Known::Flag(flag)) = Known::named(name) else {
            continue;
        };
        let mut value = || inline.map(str::to_string).or_else(|| arguments.next());
        match flag.action {
            Action::Color => {
                if let Some(choice) = value() {
                    color = ColorChoice::parse(&choice).unwrap_or(color);
                }
            }
            Action::Format => {
                // libtest's own `json` and `junit` formats take over its
                // stdout; a report in between would break them.
                format = match value().as_deref() {
                    Some("terse") => Some(Format::Terse),
                    Some("pretty") => Some(Format::Pretty),
                    _ => format,
                };
            }
            Action::Quiet => format = Some(Format::Terse),
            _ => {}
        }
    }
    match format {
        Some(format) => Ok((color, Some(format))),
        None => Ok((color, format_from_env(var)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::cli::flags::Flag;
    use std::time::Duration;

    fn parse(arguments: &[&str]) -> Result<Cli, String> {
        Cli::parse(&strings(arguments))
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| a.to_string()).collect()
    }

    /// A value `flag` reads, where it takes one.
    fn example(flag: &Flag) -> Option<String> {
        let value = match flag.action {
            Action::Format => "json",
            Action::Color => "never",
            Action::Partition => "hash:1/2",
            _ => "x",
        };
        flag.value.map(|_| value.to_string())
    }

    /// `cargo faster --against`'s shape: `--against REV`, `-p SPEC`,
    /// `--workspace`, and faster's flags but those only test runners pass.
    fn beside(arguments: &[&str]) -> Result<(Cli, Vec<String>), String> {
        let own = [
            ("--against".to_string(), true),
            ("-p".to_string(), true),
            ("--package".to_string(), true),
            ("--workspace".to_string(), false),
        ];
        let takes = |known: Known| !known.from_test_runners();
        let beside = Beside {
            own: Own::Flags(&own),
            takes,
        };
        Cli::parse_beside(&strings(arguments), beside)
    }

    #[test]
    fn the_flags_cargo_and_nextest_pass_are_accepted() {
        let cli = parse(&[
            "--bench",
            "--nocapture",
            "--test-threads",
            "1",
            "--show-output",
        ])
        .unwrap();
        assert_eq!(cli, Cli::default());
        let cli = parse(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(cli.list && cli.ignored_only);
        assert_eq!(cli.format, Some(Format::Terse));
        assert_eq!(parse(&["-q"]).unwrap().format, Some(Format::Terse));
        assert!(parse(&["--help"]).unwrap().help && parse(&["-h"]).unwrap().help);
    }

    #[test]
    fn every_flag_in_the_tables_is_accepted() {
        let defaults = crate::config::Config::default().settings();
        for known in Known::all() {
            for name in known.names() {
                let value = match known {
                    Known::Setting(setting) => defaults.text(setting.name),
                    Known::Flag(flag) => example(flag),
                };
                let mut arguments = vec![name.to_string()];
                arguments.extend(value.clone());
                let cli = Cli::parse(&arguments);
                assert!(cli.is_ok(), "{name} is not accepted: {cli:?}");
                if let (Known::Setting(setting), Ok(cli)) = (known, cli) {
                    assert_eq!(cli.settings.text(setting.name), value, "{name}");
                }
            }
        }
    }

    #[test]
    fn a_generated_test_reads_libtests_display_flags() {
        let none = |_: &str| None;
        assert_eq!(
            libtest_display(strings(&["bin", "--color", "never", "-q"]), none).unwrap(),
            (ColorChoice::Never, Some(Format::Terse))
        );
        assert_eq!(
            libtest_display(
                strings(&["bin", "--color=always", "--format=terse", "x"]),
                none
            )
            .unwrap(),
            (ColorChoice::Always, Some(Format::Terse))
        );
        // libtest's own JSON takes its stdout: no report goes in between.
        let json = |name: &str| (name == "FASTER_FORMAT").then(|| "bench".to_string());
        assert_eq!(
            libtest_display(
                strings(&["bin", "--format", "json", "-Zunstable-options"]),
                json
            )
            .unwrap(),
            (ColorChoice::Auto, Some(Format::Bench))
        );
        assert_eq!(
            libtest_display(strings(&["bin", "--nocapture"]), none).unwrap(),
            (ColorChoice::Auto, None)
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        // One line, naming the flag and the closest one where one is close.
        assert_eq!(
            parse(&["--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate (see --help)"
        );
        assert_eq!(
            parse(&["sum", "--noise_floor", "0.1"]).unwrap_err(),
            "unknown flag --noise_floor; did you mean --noise-floor? (see --help)"
        );
        assert_eq!(
            parse(&["--max-time"]).unwrap_err(),
            "--max-time needs a value: --max-time DURATION"
        );
        assert_eq!(
            parse(&["--proceses", "2"]).unwrap_err(),
            "unknown flag --proceses; did you mean --processes? (see --help)"
        );
        assert_eq!(parse(&["-x"]).unwrap_err(), "unknown flag -x (see --help)");
        assert_eq!(
            parse(&["--partition", "hash:1/2", "--partition=hash:2/2"]).unwrap_err(),
            "--partition: given twice (hash:1/2, then hash:2/2): a run measures one shard"
        );
    }

    #[test]
    fn a_command_line_beside_gets_its_own_flags_set_aside() {
        let (cli, own) = beside(&[
            "--against",
            "main",
            "parse",
            "--max-time=1s",
            "-pdemo",
            "--workspace",
            "--package=core",
            "-p",
            "cli",
            "-q",
        ])
        .unwrap();
        assert_eq!(
            own,
            [
                "--against",
                "main",
                "-pdemo",
                "--workspace",
                "--package=core",
                "-p",
                "cli"
            ]
        );
        assert_eq!(cli.filters, ["parse"]);
        assert_eq!(cli.settings.max_time, Some(Duration::from_secs(1)));
        assert_eq!(cli.format, Some(Format::Terse));
        // A flag is no value: left for the command's own parser to say the
        // value is missing.
        let (cli, own) = beside(&["--against", "--list"]).unwrap();
        assert_eq!(own, ["--against"]);
        assert!(cli.list);
    }

    #[test]
    fn a_command_line_beside_knows_only_the_flags_it_takes() {
        assert_eq!(
            beside(&["--against", "main", "--nocapture"]).unwrap_err(),
            "unknown flag --nocapture (see --help)"
        );
        assert_eq!(
            beside(&["--noise-flor", "0.1"]).unwrap_err(),
            "unknown flag --noise-flor; did you mean --noise-floor? (see --help)"
        );
        assert_eq!(
            beside(&["--agaisnt", "main"]).unwrap_err(),
            "unknown flag --agaisnt; did you mean --against? (see --help)"
        );
        let bad_value = beside(&["--max-time", "5"]).unwrap_err();
        assert!(
            bad_value.starts_with("--max-time: `5` has no unit; write a duration"),
            "{bad_value}"
        );
        assert!(beside(&["--help"]).unwrap().0.help);
        // What a test binary takes, and only that.
        assert!(parse(&["--nocapture"]).is_ok());
    }

    #[test]
    fn faster_flags_are_picked_out_of_another_tools_command_line() {
        let beside = Beside {
            own: Own::Everything,
            takes: |known| matches!(known, Known::Flag(flag) if flag.action == Action::Partition),
        };
        let arguments = strings(&[
            "--release",
            "-p",
            "demo",
            "--partition",
            "hash:1/2",
            "--max-time",
            "1s",
            "--",
            "--partition=slice:2/2",
        ]);
        let (cli, kept) = Cli::parse_beside(&arguments, beside).unwrap();
        assert_eq!(
            cli.partition.map(|shard| shard.to_string()),
            Some("hash:1/2".into())
        );
        assert_eq!(
            kept,
            strings(&[
                "--release",
                "-p",
                "demo",
                "--max-time",
                "1s",
                "--",
                "--partition=slice:2/2"
            ])
        );
        let missing = Cli::parse_beside(&strings(&["--partition"]), beside).unwrap_err();
        assert_eq!(
            missing,
            "--partition needs a value: --partition hash:K/N|slice:K/N"
        );
    }
}
