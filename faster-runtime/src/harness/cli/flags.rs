//! The flags of `faster::main()` that are not settings of a comparison (those
//! are [`SETTINGS`]'s): selecting, listing, the output's format and colour,
//! and the flags cargo, libtest and nextest pass; the variables read
//! elsewhere that have no flag; and [`Known`], every flag of `faster::main()`
//! whichever table declares it, which is what the rest reads. Each declared
//! once, here or in the settings' table: the parser, the usage, `cargo
//! faster`'s command line and its help, and the guide's table of settings
//! (checked by a test) are all read from these.

use crate::config::{Described, SETTINGS};
use crate::layout::LINKER_VARIABLE;
use crate::options::{Keyword, OptionSpec, ValueName};
use crate::output::files::OUTPUT_DIR_VARIABLE;
use crate::output::github::STEP_SUMMARY_VARIABLE;
use crate::output::style::{ColorChoice, NO_COLOR_VARIABLE};
use crate::partition::PARTITION_VARIABLE;

crate::options::choices! {
    /// What the run prints on stdout.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Format {
        /// Each report, the summary table and libtest's result line.
        Pretty = "pretty",
        /// libtest's `test NAME ... ok` lines and the summary table.
        Terse = "terse",
        /// One `faster/report/v1` JSON document per comparison and line, and
        /// nothing else.
        Json = "json",
        /// libtest's bench lines, `test NAME/original ... bench: N ns/iter
        /// (+/- M)`, for benchmark-tracking tools.
        Bench = "bench",
        /// One JUnit XML document, at the end.
        Junit = "junit",
    }
}

/// What a flag does to the command line it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Filters match whole names.
    Exact,
    /// Leaves out the comparisons its value matches.
    Skip,
    /// Lists instead of running.
    List,
    /// A short budget, unless one is given.
    Quick,
    /// What to print on stdout.
    Format,
    /// Where to write a JUnit report besides.
    Junit,
    /// Whether to colour.
    Color,
    /// The terse format, unless one is given.
    Quiet,
    /// Prints the usage.
    Help,
    /// Selects nothing: no comparison is ignored.
    Ignored,
    /// Measures one shard's share of the comparisons.
    Partition,
    /// Passed by cargo, libtest or nextest; changes nothing here.
    FromTestRunners,
}

/// A flag of `faster::main()` other than a setting's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag {
    /// Its names, the long one first: `--quiet`, `-q`.
    pub names: &'static [&'static str],
    /// What its value looks like, where it takes one.
    pub value: Option<&'static str>,
    /// Its variable, where it has one.
    pub variable: Option<&'static str>,
    /// What it does, in a line of the usage.
    pub usage: &'static str,
    /// What it does to the command line.
    pub action: Action,
}

/// The variable of `--format`.
pub const FORMAT_VARIABLE: &str = "FASTER_FORMAT";

/// Every flag of `faster::main()` other than the settings', in the order of
/// the usage.
pub const FLAGS: &[Flag] = &[
    Flag {
        names: &["--exact"],
        value: None,
        variable: None,
        usage: "FILTER must match a test name exactly",
        action: Action::Exact,
    },
    Flag {
        names: &["--skip"],
        value: Some("FILTER"),
        variable: None,
        usage: "leave out comparisons matching FILTER (repeatable)",
        action: Action::Skip,
    },
    Flag {
        names: &["--list"],
        value: None,
        variable: None,
        usage: "list the comparisons (with --format terse: as nextest reads)",
        action: Action::List,
    },
    Flag {
        names: &["--quick"],
        value: None,
        variable: None,
        usage: "measure each comparison for 0.5 s, unless --max-time says otherwise",
        action: Action::Quick,
    },
    Flag {
        names: &["--format"],
        value: Some(Format::CHOICES.joined),
        variable: Some(FORMAT_VARIABLE),
        usage: "what to print on stdout",
        action: Action::Format,
    },
    Flag {
        names: &["--partition"],
        value: Some("hash:K/N|slice:K/N"),
        variable: Some(PARTITION_VARIABLE),
        usage: "measure only shard K of N (nextest's spelling; hash keeps a function in its shard)",
        action: Action::Partition,
    },
    Flag {
        names: &["--junit"],
        value: Some("PATH"),
        variable: None,
        usage: "also write a JUnit XML report to PATH",
        action: Action::Junit,
    },
    Flag {
        names: &["--color"],
        value: Some(ColorChoice::CHOICES.joined),
        variable: Some(NO_COLOR_VARIABLE),
        usage: "colour the output (any NO_COLOR: never)",
        action: Action::Color,
    },
    Flag {
        names: &["--quiet", "-q"],
        value: None,
        variable: None,
        usage: "the terse format",
        action: Action::Quiet,
    },
    Flag {
        names: &["--help", "-h"],
        value: None,
        variable: None,
        usage: "this text",
        action: Action::Help,
    },
    Flag {
        names: &["--ignored"],
        value: None,
        variable: None,
        usage: "select nothing (no comparison is ignored)",
        action: Action::Ignored,
    },
    Flag {
        names: &[
            "--include-ignored",
            "--bench",
            "--test",
            "--nocapture",
            "--no-capture",
            "--show-output",
            "--report-time",
            "--ensure-time",
            "--shuffle",
            "--force-run-in-process",
            "--exclude-should-panic",
        ],
        value: None,
        variable: None,
        usage: "passed by cargo, libtest and nextest: accepted, ignored",
        action: Action::FromTestRunners,
    },
    Flag {
        names: &["--test-threads", "--logfile", "--shuffle-seed", "-Z"],
        value: Some("VALUE"),
        variable: None,
        usage: "passed by cargo, libtest and nextest: accepted, ignored",
        action: Action::FromTestRunners,
    },
];

/// A variable with no flag and no setting: read where it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: &'static str,
    /// What its value looks like.
    pub value: &'static str,
    /// What it does, in a line of the usage.
    pub usage: &'static str,
}

/// The variables of a run that are neither a setting's nor a flag's.
pub const VARIABLES: &[Variable] = &[
    Variable {
        name: OUTPUT_DIR_VARIABLE,
        value: "DIR",
        usage: "where the report files go",
    },
    Variable {
        name: LINKER_VARIABLE,
        value: "PROGRAM",
        usage: "the linker faster-link runs (default cc), read at link time",
    },
    Variable {
        name: STEP_SUMMARY_VARIABLE,
        value: "PATH",
        usage: "set by GitHub Actions: the job summary gets a table",
    },
];

impl Flag {
    /// Its line of usage, with its variable: `what to print on stdout
    /// [FASTER_FORMAT]`.
    pub fn help(&self) -> String {
        match self.variable {
            Some(variable) => format!("{}  [{variable}]", self.usage),
            None => self.usage.to_string(),
        }
    }
}

/// A flag of `faster::main()`, whichever table declares it: the one
/// description of faster's flags that the parser, the usage and `cargo
/// faster` read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Known {
    /// A setting's flag.
    Setting(&'static OptionSpec),
    /// One of the harness's own, of the table `FLAGS`.
    Flag(&'static Flag),
}

impl Known {
    /// Every flag, the settings' first, in the order of the usage.
    pub fn all() -> impl Iterator<Item = Known> {
        let settings = SETTINGS
            .iter()
            .copied()
            .filter(|setting| setting.flag.is_some());
        settings
            .map(Known::Setting)
            .chain(FLAGS.iter().map(Known::Flag))
    }

    /// The flag named `name`, e.g. `--noise-floor` or `-q`.
    pub fn named(name: &str) -> Option<Known> {
        Known::all().find(|known| known.names().contains(&name))
    }

    /// Its names, the long one first: `--quiet`, `-q`.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Known::Setting(setting) => setting.flag.as_slice(),
            Known::Flag(flag) => flag.names,
        }
    }

    /// What its value looks like (`DURATION`, `on|off`), where it takes
    /// one.
    pub fn value(self) -> Option<&'static str> {
        match self {
            Known::Setting(setting) => Some(setting.kind.value_name()),
            Known::Flag(flag) => flag.value,
        }
    }

    /// Whether it takes a value.
    pub fn takes_value(self) -> bool {
        self.value().is_some()
    }

    /// The variable that gives what it gives, where there is one.
    pub fn variable(self) -> Option<&'static str> {
        match self {
            Known::Setting(setting) => setting.variable,
            Known::Flag(flag) => flag.variable,
        }
    }

    /// Its line of usage, with its default and its variable.
    pub fn help(self) -> String {
        match self {
            Known::Setting(setting) => setting.help(),
            Known::Flag(flag) => flag.help(),
        }
    }

    /// Whether only cargo, libtest or nextest pass it, and it changes
    /// nothing.
    pub fn from_test_runners(self) -> bool {
        matches!(self, Known::Flag(flag) if flag.action == Action::FromTestRunners)
    }
}
