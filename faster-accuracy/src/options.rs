//! The command line.

use std::time::Duration;

pub const USAGE: &str = "\
usage: accuracy [options]

Runs the accuracy matrix (scale × true speedup × noise) through the engine
and, side by side, the traditional sequential method; prints a table, the
stop rule against a fixed length, and the cells that miss the targets.

options:
  --runs N             runs per cell with a true difference (default 50);
                       cells with the same function on both sides get 4 N
  --identical-runs N   runs per identical-function (1.00) cell (default 4 × runs)
  --filter TEXT        only cells whose key contains TEXT, `*` standing for any
                       text (e.g. 1us/1.25/quiet, 2ms/, /1.00/, 1us/*/load);
                       repeat or separate by commas for any of several
  --quick              10 runs (40 identical), a 0.5 s reference: a fast look
  --reference-time D   length of each cell's reference measurement (default 5s):
                       a quarter before the runs, the rest spread between them
  --reference-batch D  length of the reference's batches per side (default 250us)
  --csv PATH           one row per cell, every figure
  --runs-csv PATH      one row per run, every figure
  --markdown PATH      the tables in Markdown (for the README)
  --combine A.csv,...  measure nothing: combine --csv files of earlier runs
                       (split with --filter) into the Markdown tables and the
                       list of missed targets
  --no-sequential      skip the sequential method
  --no-fixed           skip the fixed-length engine runs on identical functions
  --list               print the cell keys and exit
  --help               this text

The reference configuration is the default: 200 runs per 1.00 cell, 50 per
other cell. Split it across invocations with --filter.

other modes (checks of the environment features, each with --runs N, --load):
  --replication        single-process against replicated intervals at ≈ 3 ns
                       and ≈ 50 ns per call (--processes N, default 5)
  --probe-check        the noise probe's estimate against the A/A spread of
                       runs of its own length
  --layout-check       coverage and error with layout randomization off and on
  --placement          in N fresh processes (--processes, default 30), chains
                       at ≈ 2, 5, 10 and 20 ns per call against each process's
                       own reference loop; --spread: every run in all the
                       engine's placements, ≈ 2 to 100 ns, and their spread
  --parallel [--runs N]
                       a suite of comparisons under cargo test and cargo nextest run,
                       several at a time and one at a time
  --revisions          cargo faster --against on a fixture repository with known
                       commits, quiet and under the load (--runs N, default 20;
                       --keep keeps the fixture)
  --layouts            real functions (parsing, UTF-8, search, hashing, sorting,
                       a tokenizer) against a copy of themselves, against
                       themselves run twice, and against themselves run
                       again on a twentieth of their input (about 5%, with a
                       second copy, both at a 2% floor), in a fixture crate
                       built in several layouts, under `cargo test --release`:
                       --builds N (default 5; build k: k unrelated functions
                       and link order --shuffle-sections=*=k), --runs N per
                       build (default 4), --faster PATH (the faster workspace
                       the fixture depends on; default this one), --linker PATH
                       (every build of the fixture links through it),
                       --markdown (the tables in Markdown), --csv FILE (every
                       comparison), --keep (keep the fixture)
  --suite-cost         a crate of comparisons (--comparisons N, default 100:
                       chains of 0.1 to 1 µs, a third a real 2x, the rest
                       identical work) linked through faster-link, built once,
                       then `cargo test --release` --runs N times (default 3)
                       in each of: the defaults, FASTER_LAYOUTS=off and
                       FASTER_PROCESSES=1, interleaved; wall times, passes,
                       the layouts' size on disk; --faster PATH, --linker PATH
                       (default: faster-link on PATH, or the faster
                       workspace's target/release/faster-link), --keep";

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
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
    pub help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runs: 50,
            identical_runs: None,
            filters: Vec::new(),
            reference: Duration::from_secs(5),
            reference_batch: crate::reference::BATCH,
            csv: None,
            runs_csv: None,
            markdown: None,
            combine: Vec::new(),
            sequential: true,
            fixed: true,
            list: false,
            help: false,
        }
    }
}

impl Options {
    /// Runs per identical-function cell.
    pub fn identical_runs(&self) -> usize {
        self.identical_runs.unwrap_or(4 * self.runs)
    }
}

pub fn parse(arguments: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut arguments = arguments.into_iter();
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| {
            arguments
                .next()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match argument.as_str() {
            "--runs" => options.runs = count(&value("--runs")?)?,
            "--identical-runs" => {
                options.identical_runs = Some(count(&value("--identical-runs")?)?)
            }
            "--filter" => options.filters.extend(
                value("--filter")?
                    .split(',')
                    .filter(|part| !part.is_empty())
                    .map(str::to_string),
            ),
            "--quick" => {
                options.runs = 10;
                options.reference = Duration::from_millis(500);
            }
            "--reference-time" => options.reference = duration(&value("--reference-time")?)?,
            "--reference-batch" => {
                options.reference_batch = duration(&value("--reference-batch")?)?
            }
            "--csv" => options.csv = Some(value("--csv")?),
            "--runs-csv" => options.runs_csv = Some(value("--runs-csv")?),
            "--markdown" => options.markdown = Some(value("--markdown")?),
            "--combine" => options.combine.extend(
                value("--combine")?
                    .split(',')
                    .filter(|part| !part.is_empty())
                    .map(str::to_string),
            ),
            "--no-sequential" => options.sequential = false,
            "--no-fixed" => options.fixed = false,
            "--list" => options.list = true,
            "--help" | "-h" => options.help = true,
            // What `cargo bench` passes.
            "--bench" => {}
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    Ok(options)
}

fn count(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{text}` is not a positive count"))
}

/// `2s`, `500ms`, `1.5s`, `250us`.
fn duration(text: &str) -> Result<Duration, String> {
    let (number, scale) = if let Some(number) = text.strip_suffix("us") {
        (number, 1e-6)
    } else if let Some(number) = text.strip_suffix("ms") {
        (number, 1e-3)
    } else if let Some(number) = text.strip_suffix('s') {
        (number, 1.0)
    } else {
        return Err(format!(
            "`{text}` has no unit; write e.g. 2s, 500ms or 250us"
        ));
    };
    number
        .parse::<f64>()
        .ok()
        .filter(|n| *n > 0.0)
        .map(|n| Duration::from_secs_f64(n * scale))
        .ok_or_else(|| format!("`{text}` is not a duration; write e.g. 2s, 500ms or 250us"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(args: &[&str]) -> Result<Options, String> {
        parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn defaults_are_the_reference_configuration() {
        let options = parse_all(&[]).unwrap();
        assert_eq!((options.runs, options.identical_runs()), (50, 200));
        assert_eq!(options.reference, Duration::from_secs(5));
    }

    #[test]
    fn flags() {
        let options = parse_all(&[
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
        ])
        .unwrap();
        assert_eq!((options.runs, options.identical_runs()), (5, 20));
        assert_eq!(options.filters, vec!["1us/", "2ms/", "/load"]);
        assert_eq!(options.reference, Duration::from_millis(500));
        assert_eq!(options.csv.as_deref(), Some("out.csv"));
        assert!(!options.fixed && options.sequential);
        let quick = parse_all(&["--quick", "--identical-runs", "7"]).unwrap();
        assert_eq!((quick.runs, quick.identical_runs()), (10, 7));
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(
            parse_all(&["--runs"])
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            parse_all(&["--runs", "0"])
                .unwrap_err()
                .contains("positive")
        );
        assert!(
            parse_all(&["--reference-time", "2"])
                .unwrap_err()
                .contains("unit")
        );
        assert!(
            parse_all(&["--frobnicate"])
                .unwrap_err()
                .contains("unknown argument")
        );
    }
}
