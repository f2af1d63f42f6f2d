//! The commits of a bisect's path, for real: each built once, as a base
//! revision is (see [`crate::build::Base::alone`]), and held until the
//! bisect ends so no pruning takes one mid-search; two compared by their
//! compiled code, nothing measured (the runtime's
//! `compiled_code_against`), or measured as `cargo faster --against`
//! measures (`run_against`), the verdict read back from the run's
//! document and judged by the runtime's rule for a regression guard.

use super::search::{Measured, Oracle, Ratio};
use crate::build::Builds;
use crate::cache::prune::InUse;
use crate::cargo::Cargo;
use crate::executable::Executable;
use crate::git;
use crate::{discover, edited, machine_code};
use faster_runtime::__internal::{
    Against, COULD_NOT_RUN, Cli, Document, Format, RUN_FILE, Revision, RunDocument,
    compiled_code_against, run_against,
};
use faster_runtime::report::CompiledCode;
use faster_runtime::{Error, Expect, Report, Verdict};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The folder of `<target>/faster` a bisect's steps write their reports
/// to: their own, so a bisect leaves the last `cargo faster --against`'s
/// reports (`against/`) as they were.
const STEPS: &str = "bisect/steps";

/// One commit of the path.
#[derive(Debug, Clone)]
pub struct Commit {
    /// Its full hash.
    pub hash: String,
    /// Its subject line.
    pub subject: String,
    /// Its committer date, ISO 8601.
    pub date: String,
}

impl Commit {
    /// Its short hash, as reports name it.
    pub fn short(&self) -> String {
        git::name(&self.hash, &self.hash)
    }
}

/// What every build and comparison of a bisect shares.
pub struct Setup<'a> {
    /// What builds every commit: the current workspace's target directory
    /// holds them all.
    pub builds: Builds<'a>,
    /// How cargo runs.
    pub cargo: &'a Cargo,
    /// Where cargo runs for the current code.
    pub directory: &'a Path,
    /// A changed output is expected.
    pub accept_changes: bool,
    /// faster's command line, as given.
    pub harness: &'a Cli,
}

/// The functions' compiled code at two commits, by name.
type CodeOf = Vec<(String, Option<CompiledCode>)>;

/// The path's commits, built on demand, with every comparison made so far.
pub struct Commits<'a> {
    setup: Setup<'a>,
    /// The path, from the good end to the bad one.
    pub path: Vec<Commit>,
    built: HashMap<usize, Result<Vec<Executable>, String>>,
    holds: Vec<InUse>,
    code: HashMap<(usize, usize), CodeOf>,
    measured: HashMap<(usize, usize, u32), Vec<Document>>,
}

impl<'a> Commits<'a> {
    /// The path `path`, nothing built yet.
    pub fn new(setup: Setup<'a>, path: Vec<Commit>) -> Commits<'a> {
        Commits {
            setup,
            path,
            built: HashMap::new(),
            holds: Vec::new(),
            code: HashMap::new(),
            measured: HashMap::new(),
        }
    }

    /// How many commits were built (or found built in the cache).
    pub fn built(&self) -> usize {
        self.built.values().filter(|built| built.is_ok()).count()
    }

    /// Every function `only` names (else those faster's filters select)
    /// measured at `current` against `base`, with `effort`: their
    /// documents, cached; or why `current` does not build.
    pub fn measure_all(
        &mut self,
        (base, current): (usize, usize),
        effort: u32,
        only: Option<&str>,
    ) -> Result<Compared<'_>, String> {
        // A known-good base that does not build is a failed run; a commit
        // measured against it, one to skip.
        self.executables(base)?;
        if let Err(why) = self.executables(current) {
            return Ok(Compared::DoesNotBuild(why.to_string()));
        }
        let key = (base, current, effort);
        let has = |documents: &Vec<Document>| {
            only.is_none_or(|name| documents.iter().any(|document| document.name() == name))
        };
        if !self.measured.get(&key).is_some_and(has) {
            let documents = self.run(base, current, effort, only)?;
            self.measured.entry(key).or_default().extend(documents);
        }
        Ok(Compared::Documents(&self.measured[&key]))
    }

    /// The test binaries of the commit `index`, built now where they are
    /// not yet: why not, where it does not build.
    fn executables(&mut self, index: usize) -> Result<&[Executable], String> {
        if !self.built.contains_key(&index) {
            let commit = &self.path[index].hash;
            let name = self.path[index].short();
            let setup = &self.setup;
            let built = setup
                .builds
                .base(commit, &name)
                .alone(setup.cargo, setup.directory)
                .map(|(built, hold)| {
                    self.holds.push(hold);
                    built
                });
            self.built.insert(index, built);
        }
        self.built[&index].as_deref().map_err(String::clone)
    }

    /// The comparison of the commits `base` and `current`, both built.
    fn against(&mut self, base: usize, current: usize) -> Result<Against, String> {
        let revision = |commits: &mut Self, index: usize| -> Result<Revision, String> {
            let name = commits.path[index].short();
            let servers = discover::servers(commits.executables(index)?)?;
            Ok(Revision { name, servers })
        };
        let edited_crates = edited::edited_crates(
            self.setup.builds.repository,
            &self.path[base].hash,
            Some(&self.path[current].hash),
        );
        let base = revision(self, base)?;
        let current = revision(self, current)?;
        Ok(Against {
            base,
            current,
            accept_changes: self.setup.accept_changes,
            output: self.output(),
            reports: STEPS,
            effort: 1,
            read_code: Some(machine_code::timed_code),
            edited_crates,
            toolchain: Some(self.setup.builds.version.to_string()),
            // A step of the bisect, whose report says how long it all took.
            began: None,
        })
    }

    /// `<target>/faster`, where every run of `cargo faster` takes turns.
    fn output(&self) -> PathBuf {
        self.setup.builds.workspace.target.join("faster")
    }

    /// Measures `current` against `base` (both built) with `effort`,
    /// `only` that function where one is named, else those faster's filters
    /// select: the run's documents.
    fn run(
        &mut self,
        base: usize,
        current: usize,
        effort: u32,
        only: Option<&str>,
    ) -> Result<Vec<Document>, String> {
        let against = Against {
            effort,
            ..self.against(base, current)?
        };
        let cli = step_cli(self.setup.harness, only);
        if run_against(&against, &cli) == COULD_NOT_RUN {
            return Err(format!(
                "comparing {} with {} could not run",
                against.current.name, against.base.name
            ));
        }
        let file = self.output().join(STEPS).join(RUN_FILE);
        Ok(RunDocument::read(&file)?.comparisons)
    }

    /// Whether `name`'s compiled code is the same at `one` and `other`:
    /// its timed loop and every callee; `false` where either does not
    /// build or its code could not be read.
    fn same_code(&mut self, name: &str, (one, other): (usize, usize)) -> bool {
        let key = (one.min(other), one.max(other));
        if !self.code.contains_key(&key) {
            let code = match self.against(key.0, key.1) {
                // Both built: a failure to read their code is said, and
                // the commit measured instead.
                Ok(against) => compiled_code_against(&against).unwrap_or_else(|why| {
                    eprintln!(
                        "cargo faster bisect: the compiled code of {} and {} could not be \
                         compared, so it is measured: {why}",
                        against.base.name, against.current.name
                    );
                    Vec::new()
                }),
                // One does not build: measuring it says so.
                Err(_) => Vec::new(),
            };
            self.code.insert(key, code);
        }
        self.code[&key].iter().any(|(function, code)| {
            function == name && code.as_ref().is_some_and(CompiledCode::same)
        })
    }
}

/// What measuring a commit against another came to.
pub enum Compared<'d> {
    /// Every function measured, its document.
    Documents(&'d [Document]),
    /// The commit measured does not build: why.
    DoesNotBuild(String),
}

/// faster's command line for one step: `only` that function, exactly,
/// where one is named; its comparisons' lines tersely unless a format was
/// chosen.
fn step_cli(harness: &Cli, only: Option<&str>) -> Cli {
    let mut cli = harness.clone();
    if let Some(name) = only {
        cli.filters = vec![name.to_string()];
        cli.exact = true;
        cli.skips.clear();
    }
    cli.junit = None;
    cli.format = Some(cli.format.unwrap_or(Format::Terse));
    cli
}

/// The answer a run's document gives for its function: absent where one
/// revision lacks it, skipped where it could not be compared (its outputs
/// differ, it panicked), else its report judged.
pub fn measured_of(document: &Document) -> Measured {
    match document.to_outcome().result {
        Ok(report) => judged(&report),
        Err(Error::OneSided { .. }) => Measured::Absent,
        Err(error) => Measured::Skipped(error.to_string()),
    }
}

/// `report` as a regression guard judges it, by the runtime's one rule
/// ([`faster_runtime::report::NoiseFloor::decides`]): slower, not slower
/// (faster or within the floor), or undecided; with the ratio of times,
/// current over base.
fn judged(report: &Report) -> Measured {
    let ratio = Ratio {
        ratio: 1.0 / report.speedup,
        interval: (1.0 / report.ci.1, 1.0 / report.ci.0),
    };
    if !report
        .floor()
        .decides(report.verdict, report.ci, Expect::NotSlower)
    {
        return Measured::Undecided(ratio);
    }
    match report.verdict {
        Verdict::Slower => Measured::Slower(ratio),
        verdict => Measured::NotSlower {
            ratio,
            faster: verdict == Verdict::Faster,
        },
    }
}

/// The path's commits as one function's [`Oracle`].
pub struct Function<'c, 'a> {
    /// The commits.
    pub commits: &'c mut Commits<'a>,
    /// The function's name.
    pub name: &'c str,
}

impl Oracle for Function<'_, '_> {
    fn same_code(&mut self, one: usize, other: usize) -> bool {
        self.commits.same_code(self.name, (one, other))
    }

    fn measure(&mut self, base: usize, current: usize, effort: u32) -> Result<Measured, String> {
        let compared = self
            .commits
            .measure_all((base, current), effort, Some(self.name))?;
        Ok(match compared {
            Compared::DoesNotBuild(why) => Measured::DoesNotBuild(why),
            Compared::Documents(documents) => documents
                .iter()
                .find(|document| document.name() == self.name)
                .map_or(Measured::Absent, measured_of),
        })
    }
}
