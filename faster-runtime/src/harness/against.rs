//! The run of `cargo faster --against REV`, once both revisions are built:
//! each revision's test binaries started as children serving their tracked
//! functions, the functions matched by name, each one measured (in fresh
//! child pairs again with `--processes N`), and every outcome handed to the
//! same outputs as `faster::main()`'s, ending in the same exit codes.

use super::lock::lock_across_processes;
use super::run::RunWide;
use super::{Destinations, FAILED, USAGE_ERROR, outputs, step_summary_path};
use crate::config::{Config, Settings};
use crate::engine::{diagnostics, probe, replicate};
use crate::error::{Error, OnlyIn};
use crate::harness::cli::Cli;
use crate::layout::Builds;
use crate::output::style::Progress;
use crate::output::{Outputs, Run, Summary};
use crate::report::{Environment, Outcome, Report, Scope, Source};
use crate::revision::child::{Endpoint, Server, ServerCommand};
use crate::revision::compare::{self, Across, Children, Located, Match};
use crate::revision::protocol::{Listing, PROTOCOL, Request, Response};
use crate::stats::verdict::Expect;
use crate::time::{Calibration, WallClock};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    /// `<target>/faster`: report files go to its `against/` folder, and
    /// runs take turns on its lock.
    pub output: PathBuf,
}

/// The exit code of a run that could not compare: a child did not start or
/// spoke another protocol, two functions share a name.
pub const COULD_NOT_RUN: u8 = 1;

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
    let (base, current) = match started {
        (Ok(base), Ok(current)) => (base, current),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("faster: {error}");
            return COULD_NOT_RUN;
        }
    };
    let matches = match compare::pair_up(&base.listings, &current.listings) {
        Ok(matches) => matches,
        Err(error) => {
            eprintln!("faster: {error}");
            return COULD_NOT_RUN;
        }
    };
    let total = matches.len();
    let selected: Vec<(&str, Match)> = matches
        .into_iter()
        .filter(|(name, _)| cli.selects(name))
        .collect();
    if cli.list {
        print_list(&selected);
        return 0;
    }
    let outputs = outputs(
        cli,
        Destinations {
            stdout: Box::new(std::io::stdout()),
            style: cli.color.for_stdout(),
            progress: Progress::on_stderr(),
            files: against.output.join("against"),
            step_summary: step_summary_path(),
        },
    );
    // The children that listed the functions served this binary as built;
    // every measuring pair runs in layouts of its own.
    drop((base.servers, current.servers));
    let builds_of = |revision: &Revision| -> Vec<Builds> {
        revision
            .servers
            .iter()
            .map(|command| Builds::of(command.program.clone(), run_config.layouts))
            .collect()
    };
    let _turn = lock_across_processes(&against.output);
    let mut run = Measuring {
        against,
        run_wide: &run_wide,
        builds: [builds_of(&against.base), builds_of(&against.current)],
        servers: [Vec::new(), Vec::new()],
        listings: [&base.listings, &current.listings],
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
        // The two revisions' servers work all through the run, and are not
        // another's load; each comparison says its own.
        load: None,
    };
    run.outputs.end(&summary);
    if summary.failed() == 0 { 0 } else { FAILED }
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

/// One revision's children, started, with what each serves.
struct Started {
    servers: Vec<Server>,
    listings: Vec<Listing>,
}

impl Started {
    /// Starts every child of `revision` and asks each for its listing.
    fn start(revision: &Revision, config: &Config) -> Result<Started, String> {
        let mut servers = Started::spawn(revision, config)?;
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
                Response::Listing(listing) if listing.protocol == PROTOCOL => {
                    listings.push(listing)
                }
                Response::Listing(listing) => {
                    return Err(failed(format!(
                        "it speaks protocol {}, this cargo faster {PROTOCOL}: build both with \
                         the same version of faster",
                        listing.protocol
                    )));
                }
                other => return Err(failed(format!("it answered the listing with {other:?}"))),
            }
        }
        Ok(Started { servers, listings })
    }

    /// Fresh children of `revision`, not asked anything yet.
    fn spawn(revision: &Revision, config: &Config) -> Result<Vec<Server>, String> {
        let environment = vec![(
            "FASTER_TIMER".to_string(),
            config.timer.as_str().to_string(),
        )];
        let timeout = replicate::child_timeout(config.max_time);
        revision
            .servers
            .iter()
            .map(|command| Server::start(&revision.name, command, &environment, timeout))
            .collect()
    }
}

/// A run in progress: the builds of both revisions, the children serving
/// them now, what they serve, and the outputs.
struct Measuring<'a> {
    against: &'a Against,
    run_wide: &'a RunWide,
    /// Per revision (base, current), per test binary: its layouts, or
    /// itself.
    builds: [Vec<Builds>; 2],
    servers: [Vec<Server>; 2],
    listings: [&'a [Listing]; 2],
    outputs: Outputs<'a>,
}

/// What one function has measured so far: a report per pair of processes,
/// and the time spent on them.
struct Measured {
    reports: Result<Vec<Report>, Error>,
    elapsed: Duration,
    done: bool,
}

impl Measuring<'_> {
    /// Measures every selected function in pairs of fresh children, one
    /// serving each revision, pair `k` in layout `k` of both revisions'
    /// binaries where they can be relinked: every function at least
    /// `config.processes` times, and again in the next pair while its
    /// verdict is undecided and its budget lasts (the same rule as a
    /// replicated comparison's, `replicate::enough`). Hands each outcome to
    /// the outputs once it is done.
    fn all(&mut self, selected: &[(&str, Match)]) -> Vec<Outcome> {
        let tests: Vec<&str> = selected.iter().map(|(name, _)| *name).collect();
        self.outputs.begin(&Run {
            binary: "cargo faster",
            tests: &tests,
            environment: Environment::current(),
            debug_build: selected.iter().any(|(_, matched)| !self.enforced(matched)),
        });
        let mut measured: Vec<Measured> = selected
            .iter()
            .map(|(_, matched)| Measured {
                reports: Ok(Vec::new()),
                elapsed: Duration::ZERO,
                done: !matches!(matched, Match::Both { .. }),
            })
            .collect();
        let mut pair = 0;
        while measured.iter().any(|function| !function.done) {
            pair += 1;
            if let Err(error) = self.start_pair(pair) {
                for function in measured.iter_mut().filter(|function| !function.done) {
                    function.reports = Err(Error::Revision(error.clone()));
                    function.done = true;
                }
                break;
            }
            for ((name, matched), function) in selected.iter().zip(&mut measured) {
                let (Match::Both { base, current }, false) = (matched, function.done) else {
                    continue;
                };
                let config = self.config(*current);
                self.outputs.measuring(name, config.max_time);
                let started = Instant::now();
                let report = self.measure_once(name, *base, *current, &config);
                function.elapsed += started.elapsed();
                match (&mut function.reports, report) {
                    (Ok(reports), Ok(report)) => {
                        reports.push(report);
                        function.done = replicate::enough(&config, reports, function.elapsed);
                    }
                    (reports, Err(error)) => {
                        *reports = Err(error);
                        function.done = true;
                    }
                    (Err(_), Ok(_)) => function.done = true,
                }
            }
        }
        selected
            .iter()
            .zip(measured)
            .map(|((name, matched), function)| {
                let reports = function.reports.map(|reports| (reports, function.elapsed));
                let outcome = self.outcome(name, matched, reports);
                self.outputs.comparison(&outcome);
                outcome
            })
            .collect()
    }

    /// Fresh children serving both revisions for pair `pair` (from 1): in
    /// layout `pair` of each binary where layouts vary.
    fn start_pair(&mut self, pair: u32) -> Result<(), String> {
        let config = self.run_wide.config_with(Settings::NONE);
        let revisions = [&self.against.base, &self.against.current];
        for ((revision, builds), servers) in revisions
            .into_iter()
            .zip(&self.builds)
            .zip(&mut self.servers)
        {
            let commands = revision
                .servers
                .iter()
                .zip(builds)
                .map(|(command, builds)| {
                    let program = builds
                        .binary(pair)
                        .map_err(|why| format!("{}: {why}", revision.name))?;
                    Ok(ServerCommand {
                        program,
                        ..command.clone()
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            // The old children quit before the new ones start.
            servers.clear();
            *servers = Started::spawn(
                &Revision {
                    name: revision.name.clone(),
                    servers: commands,
                },
                &config,
            )?;
        }
        Ok(())
    }

    /// How far a verdict on a function served by these binaries reaches:
    /// about the code where both revisions' binaries vary in layout.
    fn scope(&self, base: Located, current: Located) -> Scope {
        let [base_builds, current_builds] = &self.builds;
        match (
            base_builds[base.server].scope(),
            current_builds[current.server].scope(),
        ) {
            (Scope::Layouts, Scope::Layouts) => Scope::Layouts,
            (Scope::ThisBuild(why), _) => Scope::ThisBuild(format!("at the base revision, {why}")),
            (_, Scope::ThisBuild(why)) => Scope::ThisBuild(format!("in the current code, {why}")),
        }
    }

    /// One measurement of `name` in the current children.
    fn measure_once(
        &mut self,
        name: &str,
        base: Located,
        current: Located,
        config: &Config,
    ) -> Result<Report, Error> {
        let [base_listings, current_listings] = self.listings;
        let (base_listing, current_listing) = (
            &base_listings[base.server],
            &current_listings[current.server],
        );
        let config = Config {
            max_time: replicate::budget_share(config),
            ..config.clone()
        };
        let calibration = worse(
            base_listing.calibration.into(),
            current_listing.calibration.into(),
        );
        let across = Across {
            label: &label(name, &self.against.base.name),
            base: base.function,
            current: current.function,
            accept_changes: self.against.accept_changes,
        };
        let [base_servers, current_servers] = &mut self.servers;
        let children = Children {
            base: &mut base_servers[base.server],
            current: &mut current_servers[current.server],
        };
        let mut report = compare::measure(
            across,
            children,
            (calibration, &current_listing.timer),
            &WallClock,
            &config,
        )?;
        let fallbacks = [
            &base_listing.timer_fallback,
            &current_listing.timer_fallback,
        ];
        report
            .warnings
            .extend(fallbacks.into_iter().flatten().cloned());
        report.warnings.dedup();
        Ok(report)
    }

    /// The outcome of `name`: its reports of every process combined and
    /// reviewed, its error, or that one revision lacks it.
    fn outcome(
        &self,
        name: &str,
        matched: &Match,
        measured: Result<(Vec<Report>, Duration), Error>,
    ) -> Outcome {
        let (located, result) = match matched {
            Match::Both { base, current } => {
                let config = self.config(*current);
                let result = measured.map(|(reports, elapsed)| {
                    let mut reports = reports.into_iter();
                    let first = reports.next().expect("every process measured it");
                    let mut report = replicate::combine(first, reports.collect());
                    report.elapsed = elapsed;
                    for (pair, process) in (1..).zip(&mut report.processes) {
                        process.layout =
                            (self.scope(*base, *current) == Scope::Layouts).then_some(pair);
                    }
                    report.scope = Some(self.scope(*base, *current));
                    diagnostics::review(&mut report, &config);
                    if !current.function.debug_build {
                        probe::judge(&mut report, &probe::probe(), config.strict);
                    }
                    report
                });
                (current, result)
            }
            Match::OnlyBase(base) => (
                base,
                Err(Error::OneSided {
                    only_in: OnlyIn::Base,
                }),
            ),
            Match::OnlyCurrent(current) => (
                current,
                Err(Error::OneSided {
                    only_in: OnlyIn::Current,
                }),
            ),
        };
        Outcome {
            test: name.to_string(),
            label: label(name, &self.against.base.name),
            source: Some(Source {
                path: name.to_string(),
                original: self.against.base.name.clone(),
                file: located.function.file.clone(),
                line: located.function.line,
                debug_assertions: located.function.debug_build,
            }),
            result,
            enforced: self.enforced(matched),
        }
    }

    /// The configuration of the function `current`: the run's settings
    /// under its attribute's.
    fn config(&self, current: Located) -> Config {
        let function = current.function;
        self.run_wide.config_with(Settings {
            expect: function
                .expect
                .as_deref()
                .and_then(|expect| Expect::parse(expect).ok()),
            noise_floor: function.noise_floor,
            max_time: function.max_time_ns.map(Duration::from_nanos),
            ..Settings::NONE
        })
    }

    /// Whether a missed expectation fails the run: not for a debug build,
    /// unless enforced there too.
    fn enforced(&self, matched: &Match) -> bool {
        match matched {
            Match::Both { current, .. } => {
                !current.function.debug_build || self.config(*current).enforce_in_debug
            }
            Match::OnlyBase(_) | Match::OnlyCurrent(_) => true,
        }
    }
}

/// `demo::parse vs origin/main (1a2b3c4)`.
fn label(name: &str, base: &str) -> String {
    format!("{name} vs {base}")
}

/// The calibration of the costlier timer of two, whose samples must be
/// long enough for both.
fn worse(one: Calibration, other: Calibration) -> Calibration {
    Calibration {
        reading_cost_ns: one.reading_cost_ns.max(other.reading_cost_ns),
        resolution_ns: one.resolution_ns.max(other.resolution_ns),
        empty_call_ns: one.empty_call_ns.max(other.empty_call_ns),
    }
}
