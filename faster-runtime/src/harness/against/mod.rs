//! The run of `cargo faster --against REV`, once both revisions are built:
//! each revision's test binaries started as children serving their tracked
//! functions, the functions matched by name, those the run selects opened
//! and their inputs digested one by one, each one measured in pairs of
//! fresh children (`measuring`), and every outcome handed to the same
//! outputs as `faster::main()`'s, ending in the same exit codes.
//!
//! It is the parent's part of the revision comparison: `#[faster::track]`
//! marks the functions, `crate::revision` is the protocol and the children
//! this run talks to, and `cargo faster --against`, having built both
//! revisions, calls [`run_against`] in its own process.

mod measuring;

use super::lock::lock_across_processes;
use super::run::RunWide;
use super::{Destinations, USAGE_ERROR, exit_code, outputs, step_summary_path};
use crate::config::{Config, Settings};
use crate::engine::replicate;
use crate::harness::cli::Cli;
use crate::layout::Binaries;
use crate::layout::paired::{Hot, Paired};
use crate::output::files::ReportFiles;
use crate::output::run_file::RunFile;
use crate::output::style::Progress;
use crate::output::terminal::Harness;
use crate::output::{Outputs, Summary};
use crate::report::CompiledCode;
use crate::report::RUN_FILE;
use crate::report::run::toolchain_name;
use crate::revision::child::{Endpoint, Server, ServerCommand, digest_listed};
use crate::revision::compare::{self, Match};
use crate::revision::machine_code::{self, LoopCode, ReadCode};
use crate::revision::protocol::{Listing, Request, Response};
use crate::stats::verdict::Expect;
use measuring::Measuring;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// One revision, built: how to start the children that serve it.
#[derive(Debug, Clone)]
pub struct Revision {
    /// How reports name it: `origin/main (1a2b3c4)`, `the working tree`.
    pub name: String,
    /// One per test binary holding tracked functions.
    pub servers: Vec<ServerCommand>,
}

/// A comparison of two built revisions.
#[derive(Debug, Clone)]
pub struct Against {
    /// The base revision: the original of every comparison.
    pub base: Revision,
    /// The current code: the candidate.
    pub current: Revision,
    /// A changed output is expected: reported, not failed.
    pub accept_changes: bool,
    /// `<target>/faster`: report files go to its folder `reports`, and
    /// runs take turns on its lock.
    pub output: PathBuf,
    /// The folder of `output` the report files and the run's document go
    /// to: [`AGAINST_REPORTS`], or a bisect's steps' own, so that a bisect
    /// leaves the last guard's reports be.
    pub reports: &'static str,
    /// How many times its budget and processes (within their bound) each
    /// function is measured with, its attribute's own included: 1, or more
    /// for a bisect's second look at an undecided commit.
    pub effort: u32,
    /// Reads the code at given places in a binary and what it calls, where
    /// the caller can read its format: then a function whose compiled code
    /// changed while its source did not is said so.
    pub read_code: Option<ReadCode>,
    /// The crates whose sources differ between the revisions, by library
    /// name, as far as the caller can tell: a callee of theirs whose code
    /// changed is said to have been edited, not blamed on code generation.
    pub edited_crates: Vec<String>,
    /// The toolchain that built both revisions (`rustc -vV`), which the
    /// run's document records.
    pub toolchain: Option<String>,
    /// When the whole run began, before either revision was built, where
    /// this comparison is one: its summary then says how long it all took.
    pub began: Option<Instant>,
}

/// The exit code of a run that could not compare: a child did not start or
/// spoke another version of faster, two functions share a name.
pub const COULD_NOT_RUN: u8 = 1;

/// The folder of `<target>/faster` that `cargo faster --against` writes its
/// reports to.
pub const AGAINST_REPORTS: &str = "against";

/// A comparison across revisions is a regression guard unless told
/// otherwise: it fails only when the current code is slower.
const REGRESSION_GUARD: Settings = Settings {
    expect: Some(Expect::NotSlower),
    ..Settings::NONE
};

/// Compares every tracked function `cli` selects and returns the exit code:
/// 0 when all passed, 101 when one failed, 2 for a bad setting, 1 when the
/// comparison could not run.
pub fn run_against(against: &Against, cli: &Cli) -> u8 {
    let environment = match Settings::from_env() {
        Ok(environment) => environment,
        Err(error) => {
            eprintln!("faster: {error}");
            return USAGE_ERROR;
        }
    };
    let run_wide = RunWide {
        environment: REGRESSION_GUARD.overwrite(environment),
        command_line: cli.settings,
    };
    let run_config = run_wide.config_with(Settings::NONE);
    if let Err(error) = run_config.validate() {
        eprintln!("faster: {error}");
        return USAGE_ERROR;
    }
    let started = (
        Started::start(&against.base, &run_config),
        Started::start(&against.current, &run_config),
    );
    let (mut base, mut current) = match started {
        (Ok(base), Ok(current)) => (base, current),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("faster: {error}");
            return COULD_NOT_RUN;
        }
    };
    // From the names alone, which ran no user code: only the functions the
    // run measures are then opened and their inputs digested, each on its
    // own, so one that never returns fails alone and one outside the
    // selection never runs.
    let to_digest = match select(&base.listings, &current.listings, cli) {
        Ok((_, selected)) if cli.list => {
            print_list(&selected);
            return 0;
        }
        Ok((_, selected)) => to_digest(&selected),
        Err(error) => {
            eprintln!("faster: {error}");
            return COULD_NOT_RUN;
        }
    };
    let digested = base
        .digest(&to_digest[0])
        .and_then(|()| current.digest(&to_digest[1]));
    let (total, selected) =
        match digested.and_then(|()| select(&base.listings, &current.listings, cli)) {
            Ok(selected) => selected,
            Err(error) => {
                eprintln!("faster: {error}");
                return COULD_NOT_RUN;
            }
        };
    let outputs = outputs_of(cli, against);
    // The children that listed the functions served this binary as built;
    // every measuring pair runs in layouts of its own.
    drop((base.servers, current.servers));
    let (loop_code, binaries) =
        code_and_binaries(against, [&base.listings, &current.listings], &run_config);
    let scope = measuring::scope_of(&binaries);
    let _turn = lock_across_processes(&against.output);
    let mut run = Measuring {
        against,
        run_wide: &run_wide,
        binaries,
        scope,
        servers: [Vec::new(), Vec::new()],
        listings: [&base.listings, &current.listings],
        loop_code,
        outputs,
    };
    let started = Instant::now();
    let outcomes = run.all(&selected);
    let summary = Summary {
        binary: "cargo faster",
        against: Some(&against.base.name),
        outcomes: &outcomes,
        filtered_out: total - selected.len(),
        elapsed: started.elapsed(),
        whole_run: against.began.map(|began| began.elapsed()),
        // The two revisions' servers work all through the run, and are not
        // another's load; each comparison says its own.
        load: None,
    };
    run.outputs.end(&summary);
    exit_code(&summary, run.outputs.unwritten())
}

/// Per revision (base, current): each function's timed loop and what it
/// calls in its binaries as built, and the binaries its pairs run — their
/// layouts, placing that code alike in both where it was read (see
/// [`pairing`]), where `config` varies them.
fn code_and_binaries(
    against: &Against,
    listings: [&[Listing]; 2],
    config: &Config,
) -> ([LoopCode; 2], [Vec<Binaries>; 2]) {
    let revisions = [&against.base, &against.current];
    let loop_code = [0, 1].map(|side| loop_code_of(against, revisions[side], listings[side]));
    let paired = pairing(&loop_code);
    let binaries = revisions.map(|revision| {
        revision
            .servers
            .iter()
            .map(|command| Binaries::of(command.program.clone(), config.layouts, paired.as_ref()))
            .collect()
    });
    (loop_code, binaries)
}

/// Each function's timed loop and what it calls in `revision`'s binaries
/// as built, which listed `listings`; none where `against` cannot read it.
fn loop_code_of(against: &Against, revision: &Revision, listings: &[Listing]) -> LoopCode {
    let binaries: Vec<&std::path::Path> = revision
        .servers
        .iter()
        .map(|command| command.program.as_path())
        .collect();
    against
        .read_code
        .map(|read| LoopCode::read(&binaries, listings, read))
        .unwrap_or_default()
}

/// What the compiled code of every function both revisions of `against`
/// have says, nothing measured: each function's name and its
/// [`CompiledCode`], `None` where it could not be read (`cargo faster
/// bisect`, which takes a commit whose code is that of a known end as that
/// end, unmeasured). Each function is opened and its inputs digested, as a
/// run does, which is where its child says where its timed loop is.
pub fn compiled_code_against(
    against: &Against,
) -> Result<Vec<(String, Option<CompiledCode>)>, String> {
    let config = Config::default();
    let mut base = Started::start(&against.base, &config)?;
    let mut current = Started::start(&against.current, &config)?;
    let to_digest = to_digest(&compare::pair_up(&base.listings, &current.listings)?);
    base.digest(&to_digest[0])?;
    current.digest(&to_digest[1])?;
    // The listings are all it needs of the children now.
    drop((base.servers, current.servers));
    let code = [
        loop_code_of(against, &against.base, &base.listings),
        loop_code_of(against, &against.current, &current.listings),
    ];
    let matches = compare::pair_up(&base.listings, &current.listings)?;
    Ok(matches
        .into_iter()
        .filter_map(|(name, matched)| match matched {
            Match::Both { base, current } => Some((
                name.to_string(),
                machine_code::compiled_code(
                    (base, current),
                    (&code[0], &code[1]),
                    &against.edited_crates,
                ),
            )),
            Match::OnlyBase(_) | Match::OnlyCurrent(_) => None,
        })
        .collect())
}

/// How many of the functions each timed loop reaches (breadth first, the
/// nearest first) the layouts place alike: the loop's code reaches the
/// standard library's formatting and panicking too, thousands of
/// functions a run rarely executes.
const HOT_FUNCTIONS: usize = 64;

/// How layout `k` of both revisions places the code their timed loops
/// run, where `cargo faster` read it in both (see `layout::paired`): the
/// first [`HOT_FUNCTIONS`] each loop reaches, the nearest to it.
fn pairing([base, current]: &[LoopCode; 2]) -> Option<Paired> {
    fn hot(code: &LoopCode) -> Vec<Hot<'_>> {
        code.nearest(HOT_FUNCTIONS)
            .map(|function| Hot {
                symbol: &function.symbol,
                digest: function.digest,
                bytes: function.bytes,
            })
            .collect()
    }
    let [base, current] = [hot(base), hot(current)];
    if base.is_empty() || current.is_empty() {
        return None;
    }
    Paired::of(base, current)
}

/// The outputs of a run across revisions: those of a `faster::main()` run
/// with `cli`, its report files in the `against/` folder, and the run's
/// document there, for `cargo faster merge`.
fn outputs_of<'a>(cli: &Cli, against: &Against) -> Outputs<'a> {
    let mut outputs = outputs(
        cli.format,
        cli.junit.clone(),
        Harness::Faster,
        Destinations {
            stdout: Box::new(std::io::stdout()),
            style: cli.color.for_stdout(),
            progress: Progress::on_stderr(),
            files: ReportFiles::new(against.output.clone(), against.reports),
            step_summary: step_summary_path(),
        },
    );
    outputs.add(RunFile::new(
        against.output.join(against.reports).join(RUN_FILE),
        "against",
        cli.partition,
        against.toolchain.as_deref().and_then(toolchain_name),
    ));
    outputs
}

/// `--list`: every selected function and where it is.
fn print_list(selected: &[(&str, Match)]) {
    let mut stdout = std::io::stdout().lock();
    for (name, matched) in selected {
        let place = match matched {
            Match::Both { .. } => "both",
            Match::OnlyBase(_) => "base only",
            Match::OnlyCurrent(_) => "current only",
        };
        let _ = writeln!(stdout, "{name}: {place}");
    }
}

/// Functions matched by name, each with where the revisions have it.
type Selected<'a> = Vec<(&'a str, Match<'a>)>;

/// How many functions either revision has, matched by name, and those
/// `cli` selects (its filters, and its shard where it has one).
fn select<'a>(
    base: &'a [Listing],
    current: &'a [Listing],
    cli: &Cli,
) -> Result<(usize, Selected<'a>), String> {
    let matches = compare::pair_up(base, current)?;
    let total = matches.len();
    let names: Vec<&str> = matches.iter().map(|(name, _)| *name).collect();
    let shares = cli.shares(&names);
    let selected = matches
        .into_iter()
        .zip(shares)
        .filter_map(|(matched, shared)| shared.then_some(matched))
        .collect();
    Ok((total, selected))
}

/// Per revision (base, current), the functions of `selected` to open and
/// digest the inputs of: those both revisions have (a function one lacks is
/// not measured), by the index of the child serving it and its name.
fn to_digest(selected: &[(&str, Match)]) -> [Vec<(usize, String)>; 2] {
    let mut wanted = [Vec::new(), Vec::new()];
    for (name, matched) in selected {
        if let Match::Both { base, current } = matched {
            wanted[0].push((base.server, name.to_string()));
            wanted[1].push((current.server, name.to_string()));
        }
    }
    wanted
}

/// One revision's children, started, with what each serves.
struct Started {
    servers: Vec<Server>,
    listings: Vec<Listing>,
}

impl Started {
    /// Starts every child of `revision` and asks each for its listing,
    /// which runs no user code.
    fn start(revision: &Revision, config: &Config) -> Result<Started, String> {
        let mut servers = Started::spawn(revision, 1, config)?;
        let mut listings = Vec::with_capacity(servers.len());
        for (server, command) in servers.iter_mut().zip(&revision.servers) {
            let failed = |message: String| {
                format!(
                    "{} ({}): {message}",
                    revision.name,
                    command.program.display()
                )
            };
            match server.request(&Request::List).map_err(failed)? {
                Response::Listing(listing) => listings.push(listing),
                other => return Err(failed(format!("it answered the listing with {other:?}"))),
            }
        }
        Ok(Started { servers, listings })
    }

    /// Opens the functions `wanted` names (see [`to_digest`]) and digests
    /// their inputs, filling in their listings; a function whose child
    /// stops answering gets the error, and its child is started again for
    /// the next.
    fn digest(&mut self, wanted: &[(usize, String)]) -> Result<(), String> {
        digest_listed(&mut self.servers, &mut self.listings, wanted)
    }

    /// Fresh children of `revision` in slot `slot`, configured with
    /// `config` and asked nothing else yet.
    /// A child of another version of faster fails here, on its first
    /// request, its frame refused naming both versions (`process::wire`).
    fn spawn(revision: &Revision, slot: u32, config: &Config) -> Result<Vec<Server>, String> {
        let timeout = replicate::child_timeout(config.max_time);
        revision
            .servers
            .iter()
            .map(|command| {
                Server::start(&revision.name, (command, slot), config, timeout).map_err(|why| {
                    format!("{} ({}): {why}", revision.name, command.program.display())
                })
            })
            .collect()
    }
}
