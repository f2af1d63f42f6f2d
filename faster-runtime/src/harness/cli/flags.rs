//! The flags of `faster::main()` that are not settings of a comparison (those
//! are [`SETTINGS`](crate::config::SETTINGS)): selecting, listing, the
//! output's format and colour, and the flags cargo, libtest and nextest
//! pass; and the variables read elsewhere that have no flag. Each declared
//! once, here: the parser, the usage, `cargo faster`'s command line and the
//! guide's table of settings (checked by a test) are all read from these.

use crate::layout::LINKER_VARIABLE;
use crate::options::Keyword;
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
    /// The flag named `name`, one of its [`names`](Flag::names).
    pub fn named(name: &str) -> Option<&'static Flag> {
        FLAGS.iter().find(|flag| flag.names.contains(&name))
    }

    /// Its line of usage, with its variable: `what to print on stdout
    /// [FASTER_FORMAT]`.
    pub fn help(&self) -> String {
        match self.variable {
            Some(variable) => format!("{}  [{variable}]", self.usage),
            None => self.usage.to_string(),
        }
    }

    /// Whether only cargo, libtest or nextest pass it, and it changes
    /// nothing.
    pub fn from_test_runners(&self) -> bool {
        self.action == Action::FromTestRunners
    }
}
