//! `cargo faster merge DIR…`: the command line of the merge of a CI
//! matrix's shards. The merge itself, and every output, is the runtime's
//! (`faster_runtime::__internal::run_merge`).

use clap::Parser;
use clap::error::ErrorKind;
use faster_runtime::__internal::ColorChoice;
use faster_runtime::__internal::{Merge, run_merge};
use faster_runtime::Undecided;
use std::path::PathBuf;

/// The subcommand's name.
pub const SUBCOMMAND: &str = "merge";

/// The merge's command line.
#[derive(Debug, Parser)]
#[command(
    name = "cargo faster merge",
    bin_name = "cargo faster merge",
    about = "Merges the run documents (+run.json) of the shards of `cargo faster --against REV \
             --partition hash:K/N` (or `cargo faster test --partition`) into one result: the \
             table on stdout, a pull-request comment, JUnit and one JSON document in --out, and \
             GitHub's job summary where $GITHUB_STEP_SUMMARY is set.",
    after_help = "Every shard K of N must be there once, found at any depth under the folders \
                  given. Exit codes: 0 passed, 101 a shard or a comparison failed, 1 a shard \
                  missing, doubled or unreadable, 2 a bad command line.",
    disable_version_flag = true
)]
struct Options {
    /// folders holding the shards' +run.json (their downloaded artifacts)
    #[arg(value_name = "DIR", required = true)]
    directories: Vec<PathBuf>,
    /// where comment.md, junit.xml and merged.json are written
    #[arg(long, value_name = "DIR", default_value = "target/faster/merged")]
    out: PathBuf,
    /// what an undecided verdict does to the merge (default: each shard's choice)
    #[arg(long, value_name = "pass|fail", value_parser = Undecided::parse)]
    undecided: Option<Undecided>,
    /// colour the table
    #[arg(long, value_name = "auto|always|never", value_parser = ColorChoice::parse, default_value = "auto")]
    color: ColorChoice,
}

/// Runs the merge with `arguments` (after `merge`): its exit code, or a
/// bad command line's, said.
pub fn run(arguments: &[String]) -> u8 {
    let program = std::iter::once("cargo faster merge".to_string());
    let options = match Options::try_parse_from(program.chain(arguments.iter().cloned())) {
        Ok(options) => options,
        Err(error) if error.kind() == ErrorKind::DisplayHelp => {
            println!("{}", error.render());
            return 0;
        }
        Err(error) => {
            eprintln!(
                "cargo faster merge: {} (see --help)",
                one_line(&error.render().to_string())
            );
            return crate::USAGE_ERROR;
        }
    };
    run_merge(&Merge {
        directories: options.directories,
        out: options.out,
        if_undecided: options.undecided,
        color: options.color,
    })
}

/// clap's error, `rendered`, on one line: its first paragraph, whose
/// following lines name what it is about (the arguments not given, below
/// "the following required arguments were not provided:"), joined.
fn one_line(rendered: &str) -> String {
    rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches("error: ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Options, clap::Error> {
        Options::try_parse_from(std::iter::once("m").chain(arguments.iter().copied()))
    }

    #[test]
    fn folders_are_required_and_flags_read_as_the_runtimes() {
        let options = parse(&["a", "b", "--undecided", "fail", "--out", "o"]).unwrap();
        assert_eq!(
            options.directories,
            [PathBuf::from("a"), PathBuf::from("b")]
        );
        assert_eq!(options.undecided, Some(Undecided::Fail));
        assert_eq!(options.out, PathBuf::from("o"));
        assert!(parse(&[]).is_err());
        assert!(parse(&["a", "--undecided", "maybe"]).is_err());
        assert_eq!(parse(&["a"]).unwrap().undecided, None);
    }

    #[test]
    fn a_bad_command_line_is_one_line_naming_what_is_wrong() {
        let said =
            |arguments: &[&str]| one_line(&parse(arguments).unwrap_err().render().to_string());
        assert_eq!(
            said(&[]),
            "the following required arguments were not provided: <DIR>..."
        );
        let bad = said(&["a", "--undecided", "maybe"]);
        assert!(
            bad.starts_with("invalid value 'maybe' for '--undecided <pass|fail>'")
                && !bad.contains('\n'),
            "{bad}"
        );
    }
}
