//! The command line of `cargo faster`: its own flags (the base revision,
//! what to build, whether changed outputs are expected), declared here for
//! clap; and `faster::main()`'s filters and flags, which the runtime alone
//! describes and parses (`Known`, `Cli::parse_beside`, from
//! `faster_runtime::__internal`). The runtime's parser reads the whole line,
//! applying faster's flags and setting these aside for clap, so no flag of
//! faster's is declared or read twice; the help shows both, faster's
//! generated from the runtime's description of each.

use crate::cargo::Cargo;
use clap::builder::StyledStr;
use clap::{Arg, ArgAction, Args, Command, CommandFactory, Parser};
use faster_runtime::__internal::{Beside, Cli, Known, Own};
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
                      cargo faster bisect GOOD..BAD [OPTIONS] [FUNCTION]...\n       \
                      cargo faster merge [--undecided fail] [--out DIR] DIR...\n       \
                      cargo faster clean [--manifest-path PATH]",
    about = ABOUT,
    after_help = AFTER_HELP,
    disable_version_flag = true,
    // `--help` is faster's flag, read by the runtime's parser.
    disable_help_flag = true
)]
pub struct Options {
    /// the base revision (required): a branch, a tag or a commit
    #[arg(long, value_name = "REV")]
    against: Option<String>,
    /// changed outputs are expected: report them, and measure
    #[arg(long)]
    pub accept_changes: bool,
    /// What cargo builds, at every revision.
    #[command(flatten)]
    pub build: BuildFlags,
    /// The filters and flags of faster::main(), which the runtime parses.
    #[arg(skip)]
    harness: Cli,
}

/// The flags that say what cargo builds and how, the same at every
/// revision a command builds.
#[derive(Debug, Args)]
pub struct BuildFlags {
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
}

impl Options {
    /// The base revision: a branch, a tag or a commit.
    pub fn against(&self) -> &str {
        self.against.as_deref().unwrap_or_default()
    }

    /// The filters, budget, formats: `faster::main()`'s command line.
    pub fn harness(&self) -> &Cli {
        &self.harness
    }
}

impl BuildFlags {
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

    /// How cargo is run for these flags, linking through `linker`
    /// (see [`crate::toolchain::layout_linker`]).
    pub fn cargo(&self, linker: Option<(String, PathBuf)>) -> Cargo {
        Cargo {
            program: std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
            profile: self.profile().to_string(),
            flags: self.cargo_flags(),
            manifest_path: self.manifest_path.clone(),
            linker,
        }
    }
}

/// What parsing a command line came to: its options `T` (`cargo
/// faster`'s, `cargo faster bisect`'s), or help.
#[derive(Debug)]
pub enum Parsed<T> {
    /// Options to run with.
    Run(Box<T>),
    /// `--help`'s text, to print and exit 0.
    Help(StyledStr),
}

/// The options `parse` makes of `words`, where they are options to run
/// with: the tests' way to read a command line, help an error `"help"`.
#[cfg(test)]
pub fn parse_words<T>(
    parse: fn(&[String]) -> Result<Parsed<T>, String>,
    words: &[&str],
) -> Result<T, String> {
    let arguments: Vec<String> = words.iter().map(|word| word.to_string()).collect();
    match parse(&arguments)? {
        Parsed::Run(options) => Ok(*options),
        Parsed::Help(_) => Err("help".into()),
    }
}

/// Parses `arguments` (without the program name, nor cargo's `faster`):
/// a one-line error naming what is wrong.
pub fn parse(arguments: &[String]) -> Result<Parsed<Options>, String> {
    let (mut options, harness) = match parse_beside::<Options>(arguments, "cargo faster")? {
        Ok(parsed) => parsed,
        Err(help) => return Ok(Parsed::Help(help)),
    };
    options.harness = harness;
    match options.against.as_deref().map(str::trim) {
        Some("") => Err("--against needs a revision: a branch, a tag or a commit".into()),
        None => Err("name the base revision: `cargo faster --against origin/main`".into()),
        Some(_) => Ok(Parsed::Run(Box::new(options))),
    }
}

/// Parses `arguments` of the command `program` (`cargo faster`, `cargo
/// faster bisect`): its own flags, `T`, by clap, and faster's by the
/// runtime, with the environment's; or `--help`'s text.
pub fn parse_beside<T: Parser>(
    arguments: &[String],
    program: &str,
) -> Result<Result<(T, Cli), StyledStr>, String> {
    let own = own_flags::<T>();
    let beside = Beside {
        own: Own::Flags(&own),
        takes,
    };
    let (harness, own_arguments) = Cli::parse_beside(arguments, beside)?;
    if harness.help {
        return Ok(Err(command::<T>().render_help()));
    }
    let program = std::iter::once(program.to_string());
    let options =
        T::try_parse_from(program.chain(own_arguments)).map_err(|error| one_line(&error))?;
    let harness = harness.with_env(|name| std::env::var(name).ok())?;
    Ok(Ok((options, harness)))
}

/// Whether `cargo faster` takes the flag of faster's `known`: every one but
/// those only cargo, libtest and nextest pass a test binary, which nothing
/// passes it.
fn takes(known: Known) -> bool {
    !known.from_test_runners()
}

/// `cargo faster`'s own flags, for the runtime's parser to set aside: each
/// name, and whether it takes a value.
fn own_flags<T: CommandFactory>() -> Vec<(String, bool)> {
    let mut command = T::command();
    command.build();
    command
        .get_arguments()
        .flat_map(|argument| {
            let takes_value = argument.get_action().takes_values();
            let long = argument.get_long().map(|long| format!("--{long}"));
            let short = argument.get_short().map(|short| format!("-{short}"));
            long.into_iter()
                .chain(short)
                .map(move |name| (name, takes_value))
        })
        .collect()
}

/// `cargo faster`'s command as its help shows it: its own flags, then
/// faster's filters and the flags of faster's it takes, each from the
/// runtime's description (the runtime parses them, never clap).
fn command<T: CommandFactory>() -> Command {
    let filters = Arg::new("FILTER")
        .num_args(0..)
        .action(ArgAction::Append)
        .help("compare the functions whose name contains it");
    let faster = Known::all().filter(|known| takes(*known)).map(argument);
    T::command().arg(filters).args(faster)
}

/// The flag of faster's `known` as clap shows it: its names, its value and
/// its line of usage.
fn argument(known: Known) -> Arg {
    let names = known.names();
    let mut argument = Arg::new(names[0]).help(known.help());
    for name in names {
        argument = match name.strip_prefix("--") {
            Some(long) => argument.long(long),
            None => argument.short(name.chars().nth(1).unwrap_or_default()),
        };
    }
    match known.value() {
        Some(value) => argument.value_name(value),
        None => argument.action(ArgAction::SetTrue),
    }
}

/// A clap error about `cargo faster`'s own flags in one line: its first,
/// then where to look.
fn one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    format!("{} (see --help)", first.trim_start_matches("error: "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_runtime::__internal::{Action, Format, QUICK_MAX_TIME};
    use faster_runtime::Undecided;
    use std::time::Duration;

    fn parse(words: &[&str]) -> Result<Options, String> {
        parse_words(super::parse, words)
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
            options.build.cargo_flags(),
            ["-p", "demo", "--features", "simd", "--workspace"]
        );
        assert_eq!(options.build.profile(), "bench");
        let harness = options.harness();
        assert_eq!(harness.filters, ["parse"]);
        assert_eq!(harness.skips, ["slow"]);
        assert_eq!(harness.settings.max_time, Some(Duration::from_secs(1)));
        assert_eq!(harness.settings.if_undecided, Some(Undecided::Fail));
        // `-q` gives way to the format given.
        assert_eq!(harness.format, Some(Format::Json));
    }

    #[test]
    fn every_flag_of_faster_main_but_the_test_runners_is_taken() {
        let defaults = faster_runtime::Config::default().settings();
        for known in Known::all() {
            let value = match known {
                Known::Setting(setting) => defaults.text(setting.name),
                Known::Flag(flag) => flag.value.map(|_| match flag.action {
                    Action::Format => "json".to_string(),
                    Action::Color => "never".to_string(),
                    Action::Partition => "slice:2/3".to_string(),
                    _ => "x".to_string(),
                }),
            };
            for name in known.names() {
                let mut arguments = vec!["--against", "main", *name];
                arguments.extend(value.as_deref());
                let parsed = parse(&arguments);
                match parsed {
                    Ok(options) if takes(known) => {
                        if let Known::Setting(setting) = known {
                            let given = options.harness().settings.text(setting.name);
                            assert_eq!(given, value, "{name}");
                        }
                    }
                    Err(error) if !takes(known) => {
                        let unknown = format!("unknown flag {name}");
                        assert!(error.starts_with(&unknown), "{error}");
                    }
                    // `--help` is taken, and is help.
                    Err(error) if error == "help" => assert_eq!(known.names()[0], "--help"),
                    parsed => panic!("{name}: {parsed:?}"),
                }
            }
        }
        let quick = parse(&["--against", "main", "--quick"]).unwrap();
        assert_eq!(quick.harness().settings.max_time, Some(QUICK_MAX_TIME));
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
        assert_eq!(
            parse(&["--agianst", "main"]).unwrap_err(),
            "unknown flag --agianst; did you mean --against? (see --help)"
        );
        assert_eq!(
            parse(&["--against", "main", "-p"]).unwrap_err(),
            "a value is required for '--package <SPEC>' but none was supplied (see --help)"
        );
        let demo = parse(&["--against", "main", "-pdemo", "--package=cli"]).unwrap();
        assert_eq!(demo.build.cargo_flags(), ["-p", "demo", "-p", "cli"]);
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
        assert_eq!(
            parse(&["--against", "v1"]).unwrap().build.profile(),
            "release"
        );
        assert_eq!(
            parse(&["--against", "v1", "--profile", "dev", "--release"])
                .unwrap()
                .build
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
        for known in Known::all().filter(|known| takes(*known)) {
            for name in known.names().iter().chain(&known.variable()) {
                assert!(help.contains(name), "{name}");
            }
        }
        assert!(!help.contains("--nocapture"), "{help}");
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
