//! The command line of `cargo faster`, through clap: its own flags (the
//! base revision, what to build, whether changed outputs are expected), and
//! the flags and filters of `faster::main()` composed from the runtime's own
//! tables (`SETTINGS`, `FLAGS`, from `faster_runtime::__internal`): each
//! flag with the runtime's usage line and parser, applied by the runtime's
//! `Cli::apply`, so the two command lines cannot drift apart.

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, CommandFactory, FromArgMatches, Parser};
use faster_runtime::__internal::OptionSpec;
use faster_runtime::__internal::SETTINGS;
use faster_runtime::__internal::{Action, FLAGS, Flag};
use faster_runtime::__internal::{Cli, Known, closest, unknown_flag};
use faster_runtime::Settings;
use std::path::PathBuf;

/// What `cargo faster --help` says before the flags.
const ABOUT: &str = "\
`cargo faster test` is `cargo test`, every binary linked through faster-link
(in target/faster/build/), so each comparison is measured in layouts of its
binary and its verdict is about the code, not this one link.

`cargo faster --against REV` compares every function registered with
#[faster::track] in the current code with the function of the same name at
revision REV (a branch, a tag, a commit), both built with the same toolchain
and profile and linked through faster-link, measured in pairs of processes in
alternating order, each pair in a layout of both binaries of its own (the same
code linked in another order), so a commit that only moves code elsewhere does
not read as a change. Fails when a function became slower beyond the noise
floor, or returns something else on some input.";

/// What `cargo faster --help` says after the flags.
const AFTER_HELP: &str = "\
Both revisions, and `cargo faster test`, are built in target/faster/build/,
what they share compiled once. The base revision is checked out in a git
worktree under target/faster/base/ and built once per commit and build
configuration (compiler, flags, .cargo/config.toml files, RUSTFLAGS and cargo's
variables): a second run against it builds nothing. The three base revisions
used last are kept, older ones removed; `cargo faster clean` removes
target/faster/ whole.
With --partition hash:K/N (or slice:K/N) a run measures one shard of the
functions, both revisions built and measured on this machine, and writes
target/faster/against/+run.json; `cargo faster merge` reads every shard's.
Exit codes: 0 passed (undecided ones too, unless --undecided fail), 101 a
function failed, 2 a bad command line, 1 could not build or run.";

/// The parsed command line.
#[derive(Debug, Parser)]
#[command(
    name = "cargo faster",
    bin_name = "cargo faster",
    override_usage = "cargo faster --against REV [OPTIONS] [FILTER]...\n       \
                      cargo faster test|bench [--partition hash:K/N] [CARGO TEST OR BENCH ARGUMENTS]...\n       \
                      cargo faster merge [--undecided fail] [--out DIR] DIR...\n       \
                      cargo faster clean [--manifest-path PATH]",
    about = ABOUT,
    after_help = AFTER_HELP,
    disable_version_flag = true
)]
pub struct Options {
    /// the base revision (required): a branch, a tag or a commit
    #[arg(long, value_name = "REV")]
    against: Option<String>,
    /// changed outputs are expected: report them, and measure
    #[arg(long)]
    pub accept_changes: bool,
    /// build this package's tests (repeatable), as cargo test -p
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    packages: Vec<String>,
    /// build every workspace member's tests
    #[arg(long)]
    workspace: bool,
    /// as for cargo test, on both revisions
    #[arg(long, value_name = "FEATURES")]
    features: Vec<String>,
    /// as for cargo test, on both revisions
    #[arg(long)]
    all_features: bool,
    /// as for cargo test, on both revisions
    #[arg(long)]
    no_default_features: bool,
    /// the cargo profile of both builds
    #[arg(long, value_name = "NAME", default_value = "release")]
    profile: String,
    /// the release profile (the default)
    #[arg(long)]
    release: bool,
    /// the workspace's Cargo.toml
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// The filters and flags of faster::main().
    #[command(flatten)]
    harness: Harness,
}

impl Options {
    /// The base revision: a branch, a tag or a commit.
    pub fn against(&self) -> &str {
        self.against.as_deref().unwrap_or_default()
    }

    /// The flags that select what cargo builds, passed to both builds.
    pub fn cargo_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        for package in &self.packages {
            flags.extend(["-p".to_string(), package.clone()]);
        }
        for features in &self.features {
            flags.extend(["--features".to_string(), features.clone()]);
        }
        for (given, flag) in [
            (self.workspace, "--workspace"),
            (self.all_features, "--all-features"),
            (self.no_default_features, "--no-default-features"),
        ] {
            if given {
                flags.push(flag.to_string());
            }
        }
        flags
    }

    /// The cargo profile of both builds.
    pub fn profile(&self) -> &str {
        if self.release {
            "release"
        } else {
            &self.profile
        }
    }

    /// The filters, budget, formats: `faster::main()`'s command line.
    pub fn harness(&self) -> &Cli {
        &self.harness.0
    }
}

/// What parsing the command line came to.
#[derive(Debug)]
pub enum Parsed {
    /// Options to run with.
    Run(Box<Options>),
    /// `--help`'s text, to print and exit 0.
    Help(StyledStr),
}

/// Parses `arguments` (without the program name, nor cargo's `faster`):
/// a one-line error naming what is wrong.
pub fn parse(arguments: &[String]) -> Result<Parsed, String> {
    let program = std::iter::once("cargo faster".to_string());
    let options = match Options::try_parse_from(program.chain(arguments.iter().cloned())) {
        Ok(options) => options,
        Err(error) if error.kind() == ErrorKind::DisplayHelp => {
            return Ok(Parsed::Help(error.render()));
        }
        Err(error) => return Err(one_line(&error)),
    };
    match options.against.as_deref().map(str::trim) {
        Some("") => Err("--against needs a revision: a branch, a tag or a commit".into()),
        None => Err("name the base revision: `cargo faster --against origin/main`".into()),
        Some(_) => Ok(Parsed::Run(Box::new(options))),
    }
}

/// A clap error in one line: an unknown flag as `faster::main()` says it,
/// with the closest flag by the same rule; any other, clap's first line;
/// then where to look.
fn one_line(error: &clap::Error) -> String {
    if let (ErrorKind::UnknownArgument, Some(ContextValue::String(flag))) =
        (error.kind(), error.get(ContextKind::InvalidArg))
    {
        let command = Options::command();
        let longs: Vec<String> = command
            .get_arguments()
            .filter_map(|argument| argument.get_long())
            .map(|long| format!("--{long}"))
            .collect();
        let closest = closest(flag, longs.iter().map(String::as_str));
        return unknown_flag(flag, closest);
    }
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    format!("{} (see --help)", first.trim_start_matches("error: "))
}

/// The filters and flags of `faster::main()` that mean something across
/// revisions: every one but `--help` (clap's) and those only cargo, libtest
/// and nextest pass.
#[derive(Debug, Default)]
struct Harness(Cli);

/// The harness's flags `cargo faster` takes.
fn harness_flags() -> impl Iterator<Item = &'static Flag> {
    FLAGS
        .iter()
        .filter(|flag| !flag.from_test_runners() && flag.action != Action::Help)
}

/// The settings that have a flag.
fn setting_flags() -> impl Iterator<Item = (&'static OptionSpec, &'static str)> {
    SETTINGS
        .iter()
        .copied()
        .filter_map(|setting| Some((setting, setting.flag?)))
}

/// The argument of `flag`, named by its names (`--quiet`, `-q`) and
/// identified by the first.
fn flag_argument(flag: &'static Flag) -> Arg {
    let mut argument = Arg::new(flag.names[0]).help(flag.help());
    for name in flag.names {
        argument = match (name.strip_prefix("--"), name.strip_prefix('-')) {
            (Some(long), _) => argument.long(long),
            (None, Some(short)) => argument.short(short.chars().next().unwrap_or_default()),
            (None, None) => argument,
        };
    }
    match flag.value {
        Some(value) => argument.value_name(value).action(ArgAction::Append),
        None => argument.action(ArgAction::SetTrue),
    }
}

impl Args for Harness {
    fn augment_args(command: Command) -> Command {
        let filters = Arg::new("FILTER")
            .num_args(0..)
            .action(ArgAction::Append)
            .help("compare the functions whose name contains it");
        let settings = setting_flags().map(|(setting, flag)| {
            Arg::new(setting.name)
                .long(flag.trim_start_matches('-'))
                .value_name(setting.kind.value_name())
                .help(setting.help())
                .value_parser(move |text: &str| {
                    let mut given = Settings::NONE;
                    given.set(setting.name, text).map(|()| given)
                })
        });
        command
            .arg(filters)
            .args(settings)
            .args(harness_flags().map(flag_argument))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Harness::augment_args(command)
    }
}

impl FromArgMatches for Harness {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut cli = Cli {
            filters: matches
                .get_many::<String>("FILTER")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            ..Cli::default()
        };
        for (setting, _) in setting_flags() {
            if let Some(given) = matches.get_one::<Settings>(setting.name) {
                cli.settings = cli.settings.overwrite(*given);
            }
        }
        for flag in harness_flags() {
            let id = flag.names[0];
            let applied = match flag.value {
                Some(_) => matches
                    .get_many::<String>(id)
                    .into_iter()
                    .flatten()
                    .try_for_each(|value| cli.apply(Known::Flag(flag), Some(value))),
                None if matches.get_flag(id) => cli.apply(Known::Flag(flag), None),
                None => Ok(()),
            };
            applied.map_err(|reason| {
                clap::Error::raw(ErrorKind::InvalidValue, format!("{id}: {reason}\n"))
            })?;
        }
        let cli = cli
            .with_env(|name| std::env::var(name).ok())
            .map_err(|reason| clap::Error::raw(ErrorKind::InvalidValue, format!("{reason}\n")))?;
        Ok(Harness(cli))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Harness::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_runtime::Undecided;
    use std::time::Duration;

    fn parse(arguments: &[&str]) -> Result<Options, String> {
        let arguments: Vec<String> = arguments.iter().map(|a| a.to_string()).collect();
        match super::parse(&arguments)? {
            Parsed::Run(options) => Ok(*options),
            Parsed::Help(_) => Err("help".into()),
        }
    }

    #[test]
    fn own_flags_are_taken_and_the_rest_is_faster_mains() {
        let options = parse(&[
            "--against",
            "origin/main",
            "-p",
            "demo",
            "--features=simd",
            "--workspace",
            "--profile",
            "bench",
            "--accept-changes",
            "parse",
            "--max-time",
            "1s",
            "--format",
            "json",
            "--undecided=fail",
            "-q",
            "--skip",
            "slow",
        ])
        .unwrap();
        assert_eq!(options.against(), "origin/main");
        assert!(options.accept_changes);
        assert_eq!(
            options.cargo_flags(),
            ["-p", "demo", "--features", "simd", "--workspace"]
        );
        assert_eq!(options.profile(), "bench");
        let harness = options.harness();
        assert_eq!(harness.filters, ["parse"]);
        assert_eq!(harness.skips, ["slow"]);
        assert_eq!(harness.settings.max_time, Some(Duration::from_secs(1)));
        assert_eq!(harness.settings.if_undecided, Some(Undecided::Fail));
        // `-q` gives way to the format given.
        assert_eq!(
            harness.format,
            Some(faster_runtime::__internal::Format::Json)
        );
    }

    #[test]
    fn every_setting_and_harness_flag_of_faster_main_is_taken() {
        let defaults = faster_runtime::Config::default().settings();
        for (setting, flag) in setting_flags() {
            let value = defaults.text(setting.name).unwrap();
            let options = parse(&["--against", "main", flag, &value]).unwrap();
            assert_eq!(
                options.harness().settings.text(setting.name),
                Some(value),
                "{flag}"
            );
        }
        for flag in harness_flags() {
            for name in flag.names {
                let mut arguments = vec!["--against", "main", name];
                arguments.extend(flag.value.map(|_| match flag.action {
                    Action::Format => "json",
                    Action::Color => "never",
                    Action::Partition => "slice:2/3",
                    _ => "x",
                }));
                assert!(parse(&arguments).is_ok(), "{name}");
            }
        }
        let quick = parse(&["--against", "main", "--quick"]).unwrap();
        assert_eq!(
            quick.harness().settings.max_time,
            Some(faster_runtime::__internal::QUICK_MAX_TIME)
        );
    }

    #[test]
    fn the_revision_is_required_and_bad_flags_are_one_line_errors() {
        assert!(parse(&[]).unwrap_err().contains("--against origin/main"));
        assert!(
            parse(&["--against"])
                .unwrap_err()
                .contains("a value is required for '--against <REV>'")
        );
        assert!(parse(&["--against", " "]).unwrap_err().contains("a branch"));
        assert_eq!(
            parse(&["--against", "main", "--frobnicate"]).unwrap_err(),
            "unknown flag --frobnicate (see --help)"
        );
        assert_eq!(
            parse(&["--against", "main", "--noise-flor", "0.1"]).unwrap_err(),
            "unknown flag --noise-flor; did you mean --noise-floor? (see --help)"
        );
        let bad_value = parse(&["--against", "main", "--layouts", "maybe"]).unwrap_err();
        assert!(
            bad_value.contains("`maybe` is neither on nor off") && !bad_value.contains('\n'),
            "{bad_value}"
        );
        let bad_format = parse(&["--against", "main", "--format", "xml"]).unwrap_err();
        assert!(
            bad_format.starts_with("--format: `xml` is not a choice") && !bad_format.contains('\n'),
            "{bad_format}"
        );
        assert_eq!(parse(&["--help"]).unwrap_err(), "help");
        assert_eq!(parse(&["--against", "v1"]).unwrap().profile(), "release");
        assert_eq!(
            parse(&["--against", "v1", "--profile", "dev", "--release"])
                .unwrap()
                .profile(),
            "release"
        );
    }

    #[test]
    fn the_help_shows_the_runtimes_usage_lines_and_variables() {
        let arguments = ["--help".to_string()];
        let Ok(Parsed::Help(help)) = super::parse(&arguments) else {
            panic!("--help is help");
        };
        let help = help.to_string();
        for (setting, flag) in setting_flags() {
            assert!(help.contains(flag), "{flag}");
            assert!(help.contains(setting.variable.unwrap()), "{flag}");
        }
        for flag in [
            "--against",
            "--accept-changes",
            "--package",
            "--manifest-path",
        ] {
            assert!(help.contains(flag), "{flag}");
        }
    }
}
