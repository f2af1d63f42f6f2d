//! The command line, through clap: at most one mode flag (none: the
//! accuracy matrix) and the options, each mode reading those it takes with
//! its own defaults ([`Matrix`] for the matrix; the other modes in their
//! modules).

use clap::{Args, Parser};
use faster_runtime::__internal::parse_duration;
use std::time::Duration;

/// What the command line asked for.
#[derive(Debug, Parser)]
#[command(
    name = "accuracy",
    about = "Runs the accuracy matrix (scale × true speedup × noise) through the engine and, \
             side by side, the traditional sequential method; prints a table, the stop rule \
             against a fixed length, and the cells that miss the targets. The reference \
             configuration is the default: 200 runs per 1.00 cell, 50 per other cell; split it \
             across invocations with --filter. A mode flag runs another check instead.",
    disable_version_flag = true
)]
pub struct Options {
    /// The mode, where one is given.
    #[command(flatten)]
    modes: Modes,
    /// runs per cell with a true difference (default 50; cells with the same function on
    /// both sides get 4 N); in the other modes, runs per case (the default is each mode's)
    #[arg(long, value_name = "N", value_parser = count)]
    pub runs: Option<usize>,
    /// runs per identical-function (1.00) cell (default 4 × runs)
    #[arg(long, value_name = "N", value_parser = count)]
    identical_runs: Option<usize>,
    /// only cells whose key contains TEXT, `*` standing for any text (e.g. 1us/1.25/quiet,
    /// 2ms/, /1.00/, 1us/*/load); repeat or separate by commas for any of several
    #[arg(long, value_name = "TEXT", value_delimiter = ',')]
    filter: Vec<String>,
    /// 10 runs (40 identical), a 0.5 s reference: a fast look
    #[arg(long)]
    quick: bool,
    /// length of each cell's reference measurement (default 5s): a quarter before the
    /// runs, the rest spread between them
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    reference_time: Option<Duration>,
    /// length of the reference's batches per side (default 250us)
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    reference_batch: Option<Duration>,
    /// one row per cell (per comparison with --layouts), every figure
    #[arg(long, value_name = "PATH")]
    pub csv: Option<String>,
    /// one row per run, every figure
    #[arg(long, value_name = "PATH")]
    runs_csv: Option<String>,
    /// the tables in Markdown: to PATH (for the README); with --layouts, on stdout
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    markdown: Option<Option<String>>,
    /// measure nothing: combine --csv files of earlier runs (split with --filter) into the
    /// Markdown tables and the list of missed targets
    #[arg(long, value_name = "A.csv,...", value_delimiter = ',')]
    combine: Vec<String>,
    /// skip the sequential method
    #[arg(long)]
    no_sequential: bool,
    /// skip the fixed-length engine runs on identical functions
    #[arg(long)]
    no_fixed: bool,
    /// print the cell keys and exit
    #[arg(long)]
    list: bool,
    /// processes per run (--replication: default 5; --placement: fresh processes, default
    /// 30; at least 2)
    #[arg(long, value_name = "N", value_parser = count)]
    pub processes: Option<usize>,
    /// under a background load (--replication, --probe-check, --stack-check, --placement)
    #[arg(long)]
    pub load: bool,
    /// with --placement: every run in all the engine's placements, ≈ 2 to 100 ns, and their
    /// spread
    #[arg(long, requires = "placement")]
    pub spread: bool,
    /// with --layouts: builds (default 5; build k: k unrelated functions and link order
    /// --shuffle-sections=*=k)
    #[arg(long, value_name = "N", value_parser = count, requires = "layouts")]
    pub builds: Option<usize>,
    /// with --suite-cost: comparisons in the crate (default 100: chains of 0.1 to 1 µs, a
    /// third a real 2x, the rest identical work)
    #[arg(long, value_name = "N", value_parser = count, requires = "suite_cost")]
    pub comparisons: Option<usize>,
    /// with --layouts and --suite-cost: the faster workspace the fixture depends on
    /// (default this one)
    #[arg(long, value_name = "PATH")]
    pub faster: Option<String>,
    /// with --layouts and --suite-cost: the linker every build of the fixture links through
    /// (--suite-cost: default faster-link on PATH, or the faster workspace's
    /// target/release/faster-link)
    #[arg(long, value_name = "PATH")]
    pub linker: Option<String>,
    /// with --layouts, --suite-cost, --revisions and --coverage: keep the fixture (--layouts: and
    /// each run's reports, in reports/build-B-run-R/ beside it)
    #[arg(long)]
    pub keep: bool,
    /// with --coverage: the noise floors each run compares at (default 0.02,0.05)
    #[arg(long, value_name = "F,...", value_delimiter = ',', value_parser = fraction, requires = "coverage")]
    pub floors: Vec<f64>,
    /// with --coverage: only these commits (comment, added-here, added-elsewhere, removed,
    /// statics, description; default all)
    #[arg(
        long,
        value_name = "NAME,...",
        value_delimiter = ',',
        requires = "coverage"
    )]
    pub commits: Vec<String>,
    /// What `cargo bench` passes.
    #[arg(long, hide = true)]
    bench: bool,
}

/// The mode flags, at most one.
#[derive(Debug, Args)]
#[group(multiple = false)]
struct Modes {
    /// single-process against replicated intervals at ≈ 3 ns and ≈ 50 ns per call
    #[arg(long)]
    replication: bool,
    /// the noise probe's estimate against the A/A spread of runs of its own length
    #[arg(long)]
    probe_check: bool,
    /// coverage and error with the measuring loop's stack offset fixed and varied by round
    #[arg(long)]
    stack_check: bool,
    /// `--stack-check`'s old name, an error naming it: it varies the stack,
    /// where `--layouts` relinks the binary.
    #[arg(
        long,
        hide = true,
        num_args = 0,
        default_missing_value = "",
        value_parser = renamed_stack_check
    )]
    layout_check: Option<()>,
    /// in N fresh processes, chains at ≈ 2, 5, 10 and 20 ns per call against each
    /// process's own reference loop
    #[arg(long)]
    placement: bool,
    /// a suite of comparisons under cargo test and cargo nextest run, several at a time and
    /// one at a time
    #[arg(long)]
    parallel: bool,
    /// cargo faster --against on a fixture repository with known commits, quiet and under
    /// the load (--runs default 20)
    #[arg(long)]
    revisions: bool,
    /// cargo faster bisect on histories of 32 and 64 commits of the hex crate's encode with
    /// a slowdown at a known commit (--runs histories per case, default 20)
    #[arg(long)]
    bisect: bool,
    /// a crate of comparisons linked through faster-link, built once, then cargo test
    /// --release --runs N times (default 3) with the defaults, FASTER_LAYOUTS=off and
    /// FASTER_PROCESSES=1, interleaved: wall times, passes, the layouts' size on disk
    #[arg(long)]
    suite_cost: bool,
    /// real functions against copies of themselves, themselves run twice and run again on a
    /// twentieth of their input, in a fixture crate built in several layouts, under cargo
    /// test --release (--runs per build, default 4)
    #[arg(long)]
    layouts: bool,
    /// how often cargo faster --against's interval holds 1.00 for tracked functions of real
    /// work that commits did not touch (--runs per floor, default: 300 intervals per floor)
    #[arg(long)]
    coverage: bool,
    /// the stop rule's looks on simulated comparisons: how often the final interval holds the
    /// truth (--runs per cell, default 2000)
    #[arg(long)]
    looks: bool,
}

/// Which check a command line runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The accuracy matrix (no mode flag).
    Matrix,
    /// `--replication`.
    Replication,
    /// `--probe-check`.
    ProbeCheck,
    /// `--stack-check`.
    StackCheck,
    /// `--placement`.
    Placement,
    /// `--parallel`.
    Parallel,
    /// `--revisions`.
    Revisions,
    /// `--bisect`.
    Bisect,
    /// `--suite-cost`.
    SuiteCost,
    /// `--layouts`.
    Layouts,
    /// `--coverage`.
    Coverage,
    /// `--looks`.
    Looks,
}

/// What the accuracy matrix runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    pub runs: usize,
    pub identical_runs: Option<usize>,
    pub filters: Vec<String>,
    pub reference: Duration,
    pub reference_batch: Duration,
    pub csv: Option<String>,
    pub runs_csv: Option<String>,
    pub markdown: Option<String>,
    pub combine: Vec<String>,
    pub sequential: bool,
    pub fixed: bool,
    pub list: bool,
}

impl Options {
    /// The check these options run.
    pub fn mode(&self) -> Mode {
        let modes = &self.modes;
        [
            (modes.replication, Mode::Replication),
            (modes.probe_check, Mode::ProbeCheck),
            (modes.stack_check, Mode::StackCheck),
            (modes.placement, Mode::Placement),
            (modes.parallel, Mode::Parallel),
            (modes.revisions, Mode::Revisions),
            (modes.bisect, Mode::Bisect),
            (modes.suite_cost, Mode::SuiteCost),
            (modes.layouts, Mode::Layouts),
            (modes.coverage, Mode::Coverage),
            (modes.looks, Mode::Looks),
        ]
        .into_iter()
        .find_map(|(given, mode)| given.then_some(mode))
        .unwrap_or(Mode::Matrix)
    }

    /// `--markdown` given, with or without a path.
    pub fn markdown(&self) -> bool {
        self.markdown.is_some()
    }

    /// The accuracy matrix's settings: the reference configuration unless
    /// told otherwise.
    pub fn matrix(&self) -> Result<Matrix, String> {
        let quick = self.quick;
        let markdown = match &self.markdown {
            Some(None) => return Err("--markdown needs a PATH here".into()),
            Some(Some(path)) => Some(path.clone()),
            None => None,
        };
        Ok(Matrix {
            runs: self.runs.unwrap_or(if quick { 10 } else { 50 }),
            identical_runs: self.identical_runs,
            filters: self
                .filter
                .iter()
                .filter(|f| !f.is_empty())
                .cloned()
                .collect(),
            reference: self.reference_time.unwrap_or(if quick {
                Duration::from_millis(500)
            } else {
                Duration::from_secs(5)
            }),
            reference_batch: self.reference_batch.unwrap_or(crate::reference::BATCH),
            csv: self.csv.clone(),
            runs_csv: self.runs_csv.clone(),
            markdown,
            combine: self
                .combine
                .iter()
                .filter(|f| !f.is_empty())
                .cloned()
                .collect(),
            sequential: !self.no_sequential,
            fixed: !self.no_fixed,
            list: self.list,
        })
    }
}

impl Matrix {
    /// Runs per identical-function cell.
    pub fn identical_runs(&self) -> usize {
        self.identical_runs.unwrap_or(4 * self.runs)
    }
}

/// `--layout-check` given: always an error, naming the flag it became.
fn renamed_stack_check(_: &str) -> Result<(), String> {
    Err("the flag is now --stack-check".into())
}

/// A fraction above 0 and below 1: a noise floor.
fn fraction(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|floor| *floor > 0.0 && *floor < 1.0)
        .ok_or_else(|| format!("`{text}` is not a fraction above 0 and below 1 (0.05: 5%)"))
}

/// A count above 0.
fn count(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{text}` is not a whole number above 0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::try_parse_from(std::iter::once("accuracy").chain(args.iter().copied()))
            .map_err(|error| error.to_string())
    }

    #[test]
    fn defaults_are_the_reference_configuration() {
        let options = parse(&[]).unwrap();
        assert_eq!(options.mode(), Mode::Matrix);
        let matrix = options.matrix().unwrap();
        assert_eq!((matrix.runs, matrix.identical_runs()), (50, 200));
        assert_eq!(matrix.reference, Duration::from_secs(5));
        assert!(matrix.sequential && matrix.fixed);
    }

    #[test]
    fn flags() {
        let matrix = parse(&[
            "--runs",
            "5",
            "--filter",
            "1us/,2ms/",
            "--filter",
            "/load",
            "--reference-time",
            "500ms",
            "--csv",
            "out.csv",
            "--no-fixed",
            "--markdown",
            "t.md",
            "--bench",
        ])
        .unwrap()
        .matrix()
        .unwrap();
        assert_eq!((matrix.runs, matrix.identical_runs()), (5, 20));
        assert_eq!(matrix.filters, vec!["1us/", "2ms/", "/load"]);
        assert_eq!(matrix.reference, Duration::from_millis(500));
        assert_eq!(matrix.csv.as_deref(), Some("out.csv"));
        assert_eq!(matrix.markdown.as_deref(), Some("t.md"));
        assert!(!matrix.fixed && matrix.sequential);
        let quick = parse(&["--quick", "--identical-runs", "7"]).unwrap();
        let quick = quick.matrix().unwrap();
        assert_eq!((quick.runs, quick.identical_runs()), (10, 7));
    }

    #[test]
    fn modes_and_their_options() {
        let layouts = parse(&["--layouts", "--builds", "10", "--markdown", "--keep"]).unwrap();
        assert_eq!(layouts.mode(), Mode::Layouts);
        assert_eq!(layouts.builds, Some(10));
        assert!(layouts.markdown() && layouts.keep);
        let placement = parse(&["--placement", "--spread", "--processes", "3"]).unwrap();
        assert_eq!(placement.mode(), Mode::Placement);
        assert!(placement.spread);
        assert_eq!(placement.processes, Some(3));
        assert_eq!(parse(&["--suite-cost"]).unwrap().mode(), Mode::SuiteCost);
        assert_eq!(parse(&["--probe-check"]).unwrap().mode(), Mode::ProbeCheck);
        assert_eq!(parse(&["--stack-check"]).unwrap().mode(), Mode::StackCheck);
        let coverage = parse(&["--coverage", "--floors", "0.02,0.1", "--commits", "a,b"]).unwrap();
        assert_eq!(coverage.mode(), Mode::Coverage);
        assert_eq!(coverage.floors, [0.02, 0.1]);
        assert_eq!(coverage.commits, ["a", "b"]);
        assert_eq!(
            parse(&["--looks", "--runs", "50"]).unwrap().mode(),
            Mode::Looks
        );
        let renamed = parse(&["--layout-check"]).unwrap_err();
        assert!(
            renamed.contains("the flag is now --stack-check"),
            "{renamed}"
        );
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(
            parse(&["--runs"])
                .unwrap_err()
                .contains("a value is required")
        );
        assert!(parse(&["--runs", "0"]).unwrap_err().contains("above 0"));
        assert!(
            parse(&["--reference-time", "2"])
                .unwrap_err()
                .contains("unit")
        );
        assert!(
            parse(&["--frobnicate"])
                .unwrap_err()
                .contains("unexpected argument")
        );
        assert!(
            parse(&["--layouts", "--revisions"])
                .unwrap_err()
                .contains("cannot be used")
        );
        assert!(parse(&["--builds", "2"]).unwrap_err().contains("--layouts"));
        assert!(
            parse(&["--floors", "0.05"])
                .unwrap_err()
                .contains("--coverage")
        );
        assert!(
            parse(&["--coverage", "--floors", "5"])
                .unwrap_err()
                .contains("fraction")
        );
        assert!(
            parse(&["--markdown"])
                .unwrap()
                .matrix()
                .unwrap_err()
                .contains("PATH")
        );
    }
}
