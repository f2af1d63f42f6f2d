//! The command line of `cargo faster bisect`: the two ends in `git
//! bisect`'s words (a range `GOOD..BAD`, or `--good` and `--bad`), the
//! functions to bisect (faster's filters), what cargo builds, and every
//! flag of `cargo faster --against` that applies (`--noise-floor`,
//! `--max-time`, ...), parsed as it parses them (see [`crate::options`]).

use crate::options::{BuildFlags, Parsed, parse_beside};
use clap::Parser;
use faster_runtime::__internal::Cli;

/// What `cargo faster bisect --help` says before the flags.
const ABOUT: &str = "\
`cargo faster bisect GOOD..BAD [FUNCTION]...` finds, for each function tracked
with #[faster::track] that is slower at BAD than at GOOD beyond the noise floor,
the first commit on the path from GOOD to BAD (by first parents) where it
became slower. Each commit looked at is compared with GOOD as `cargo faster
--against` compares two revisions: paired, in layouts, judged three ways. A
commit whose compiled code for the function (its timed loop and every callee)
is that of GOOD or of BAD takes that end's answer unmeasured; one still
undecided after measuring again with twice the budget and layouts ends the
search with the range that holds it, never a guess; one that does not build,
or lacks the function, is skipped, as `git bisect skip` does. A regression
made of several steps is searched step by step, each with its size.";

/// What `cargo faster bisect --help` says after the flags.
const AFTER_HELP: &str = "\
Every commit is built once, as a base revision is, and cached under
target/faster/base/; the report is written to target/faster/bisect/
(bisect.json, bisect.md to post on an issue). Exit codes: 0 each regression's
commit found, 1 none slower or a range not narrowed to one commit, 2 a bad
command line, 101 the run failed (GOOD or BAD does not build, a child failed).";

/// The parsed command line of `cargo faster bisect`.
#[derive(Debug, Parser)]
#[command(
    name = "cargo faster bisect",
    bin_name = "cargo faster bisect",
    override_usage = "cargo faster bisect GOOD..BAD [OPTIONS] [FUNCTION]...\n       \
                      cargo faster bisect --good REV --bad REV [OPTIONS] [FUNCTION]...",
    about = ABOUT,
    after_help = AFTER_HELP,
    disable_version_flag = true,
    disable_help_flag = true
)]
pub struct Options {
    /// a revision where the functions were not slower (or GOOD..BAD)
    #[arg(long, value_name = "REV")]
    good: Option<String>,
    /// a later revision where they are slower (or GOOD..BAD)
    #[arg(long, value_name = "REV")]
    bad: Option<String>,
    /// changed outputs are expected: report them, and measure
    #[arg(long)]
    pub accept_changes: bool,
    /// What cargo builds, at every commit.
    #[command(flatten)]
    pub build: BuildFlags,
    /// The filters and flags of faster::main(), which the runtime parses.
    #[arg(skip)]
    harness: Cli,
}

impl Options {
    /// The known-good end.
    pub fn good(&self) -> &str {
        self.good.as_deref().unwrap_or_default()
    }

    /// The known-bad end.
    pub fn bad(&self) -> &str {
        self.bad.as_deref().unwrap_or_default()
    }

    /// The functions to bisect, budget, floor: `faster::main()`'s command
    /// line.
    pub fn harness(&self) -> &Cli {
        &self.harness
    }
}

/// Parses `arguments` (after `bisect`): a one-line error naming what is
/// wrong and what to write.
pub fn parse(arguments: &[String]) -> Result<Parsed<Options>, String> {
    let (mut options, mut harness) =
        match parse_beside::<Options>(arguments, "cargo faster bisect")? {
            Ok(parsed) => parsed,
            Err(help) => return Ok(Parsed::Help(help)),
        };
    // `GOOD..BAD` is the first word that is not a flag, which the
    // runtime's parser took for a filter.
    if let Some((good, bad)) = harness
        .filters
        .first()
        .and_then(|first| first.split_once(".."))
    {
        if options.good.is_some() || options.bad.is_some() {
            return Err("give the ends once: `GOOD..BAD` or `--good REV --bad REV`".into());
        }
        (options.good, options.bad) = (Some(good.to_string()), Some(bad.to_string()));
        harness.filters.remove(0);
    }
    if harness.partition.is_some() {
        return Err("a bisect takes no --partition: it measures one function at a time".into());
    }
    if harness.list {
        return Err(
            "a bisect lists nothing: `cargo faster --against REV --list` lists the \
                    tracked functions"
                .into(),
        );
    }
    let given = |end: &Option<String>| end.as_deref().is_some_and(|end| !end.trim().is_empty());
    if !given(&options.good) || !given(&options.bad) {
        return Err(
            "name both ends: `cargo faster bisect v1.2.0..main` (or `--good v1.2.0 \
                    --bad main`)"
                .into(),
        );
    }
    options.harness = harness;
    Ok(Parsed::Run(Box::new(options)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn parse(words: &[&str]) -> Result<Options, String> {
        crate::options::parse_words(super::parse, words)
    }

    #[test]
    fn a_range_or_two_flags_name_the_ends_and_the_rest_are_functions() {
        let options = parse(&["v1..main", "parse", "--noise-floor", "0.02", "-p", "demo"]).unwrap();
        assert_eq!((options.good(), options.bad()), ("v1", "main"));
        assert_eq!(options.harness().filters, ["parse"]);
        assert_eq!(options.harness().settings.noise_floor, Some(0.02));
        assert_eq!(options.build.cargo_flags(), ["-p", "demo"]);

        let options = parse(&["--good", "v1", "--bad=HEAD", "--max-time", "2s"]).unwrap();
        assert_eq!((options.good(), options.bad()), ("v1", "HEAD"));
        assert!(options.harness().filters.is_empty());
        assert_eq!(
            options.harness().settings.max_time,
            Some(Duration::from_secs(2))
        );
    }

    #[test]
    fn missing_or_doubled_ends_and_a_partition_are_usage_errors() {
        assert!(parse(&[]).unwrap_err().contains("name both ends"));
        assert!(
            parse(&["--good", "v1"])
                .unwrap_err()
                .contains("name both ends")
        );
        assert!(parse(&["v1.."]).unwrap_err().contains("name both ends"));
        assert!(
            parse(&["v1..main", "--good", "v0"])
                .unwrap_err()
                .contains("once")
        );
        assert!(
            parse(&["v1..main", "--list"])
                .unwrap_err()
                .contains("--list")
        );
        assert!(
            parse(&["v1..main", "--partition", "hash:1/2"])
                .unwrap_err()
                .contains("--partition")
        );
        assert_eq!(
            parse(&["v1..main", "--goood", "x"]).unwrap_err(),
            "unknown flag --goood; did you mean --good? (see --help)"
        );
        assert_eq!(parse(&["--help"]).unwrap_err(), "help");
    }
}
