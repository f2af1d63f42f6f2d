//! Measuring a run across revisions in pairs of processes: every selected
//! function in each pair of children (one serving each revision, pair `k`
//! in slot `k`: layout `k` of both revisions' binaries, see
//! `engine::replicate`), again while its verdict is unsettled, and its
//! reports combined into its outcome.

use super::{Against, Revision, Started};
use crate::config::{Config, Plan, Settings};
use crate::engine::budget::RunBudget;
use crate::engine::probe;
use crate::engine::replicate::{self, Replication};
use crate::error::{Error, OnlyIn};
use crate::harness::run::RunWide;
use crate::judge::{self, Context};
use crate::layout::Binaries;
use crate::options::MAX_PROCESSES;
use crate::output::{Outputs, Run};
use crate::report::notice;
use crate::report::{Environment, Measurement, Notice, Outcome, Scope, Source};
use crate::revision::child::{Server, ServerCommand};
use crate::revision::compare::{self, Across, Children, Located, Match};
use crate::revision::machine_code::{self, LoopCode};
use crate::revision::protocol::Listing;
use crate::time::{Calibration, WallClock};
use std::time::Instant;

/// How many cycles of rounds a pair of processes measures a function in,
/// where a slice in one binary measures two: every round here crosses from
/// one process to the other, which makes it noisier, and every pair starts
/// two fresh processes, which makes another pair dearer than a longer one.
/// Against a commit slowing a function by about a tenth, two cycles left it
/// undecided after hundreds of slices where eight decided it in four pairs
/// (the figures are in `guide/layouts.md`, where they were measured).
const PAIR_CYCLES: usize = 8;

/// A run in progress: the binaries of both revisions, the children serving
/// them now, what they serve, and the outputs.
pub(super) struct Measuring<'a> {
    pub(super) against: &'a Against,
    pub(super) run_wide: &'a RunWide,
    /// Per revision (base, current), per test binary: its layouts, or
    /// itself.
    pub(super) binaries: [Vec<Binaries>; 2],
    /// How far every verdict of the run reaches ([`scope_of`]): in layouts
    /// only where every binary of both revisions varies.
    pub(super) scope: Scope,
    pub(super) servers: [Vec<Server>; 2],
    pub(super) listings: [&'a [Listing]; 2],
    /// Per revision, each function's timed loop and what it calls, in the
    /// binaries as built (layouts move code, they do not change it).
    pub(super) loop_code: [LoopCode; 2],
    pub(super) outputs: Outputs<'a>,
}

/// What one function has measured so far: its slices, one per pair of
/// processes, or the error that ended it.
struct Measured {
    slices: Result<Replication, Error>,
    done: bool,
}

impl Measuring<'_> {
    /// Measures every selected function in pairs of fresh children, one
    /// serving each revision, pair `k` in layout `k` of both revisions'
    /// binaries where they can be relinked: every function at least
    /// `config.processes` times, and again in the next pair while its
    /// verdict is undecided and its budget lasts (its [`Replication`]'s
    /// rule, a replicated comparison's); then, while the run's budget (the
    /// sum of theirs) lasts, in further pairs in new layouts, those whose
    /// own budgets left them unsettled and that more of it could settle
    /// ([`Replication::could_use_the_runs_time`]). Hands each outcome to
    /// the outputs once it is done.
    pub(super) fn all(&mut self, selected: &[(&str, Match)]) -> Vec<Outcome> {
        let tests: Vec<&str> = selected.iter().map(|(name, _)| *name).collect();
        self.outputs.begin(&Run {
            tests: &tests,
            environment: Environment::current(),
            debug_build: selected.iter().any(|(_, matched)| !self.enforced(matched)),
        });
        let mut measured: Vec<Measured> = selected
            .iter()
            .map(|(_, matched)| Measured {
                slices: Ok(Replication::new(&self.config_of(matched))),
                done: !matches!(matched, Match::Both { .. }),
            })
            .collect();
        let mut budget = RunBudget::for_run(
            self.run_wide.config_with(Settings::NONE).max_run_time,
            selected.iter().filter_map(|(_, matched)| match matched {
                Match::Both { current, .. } => Some(self.config(*current).max_time),
                _ => None,
            }),
        );
        let mut pair = 0;
        while self.pairs(selected, &mut measured, &mut pair, &mut budget)
            && onto_the_runs_time(&mut measured, &budget)
        {}
        selected
            .iter()
            .zip(measured)
            .map(|((name, matched), function)| {
                let outcome = self.outcome(name, matched, function.slices);
                self.outputs.comparison(&outcome);
                outcome
            })
            .collect()
    }

    /// Pairs of children, from pair `pair` on, measuring every function of
    /// `measured` not done yet, until each is done; each slice's time
    /// spent of `budget`. Returns whether the children could be started
    /// each time.
    fn pairs(
        &mut self,
        selected: &[(&str, Match)],
        measured: &mut [Measured],
        pair: &mut u32,
        budget: &mut RunBudget,
    ) -> bool {
        // Every function still measuring is at the same slice (one a pair,
        // measured again in that pair after a disturbance), so the first's
        // next slot is every one's: pair `k` runs in its replications' slot.
        // On the run's time they may not be (each stopped where its own
        // budget ended it); each records the pair's slot, a new layout of
        // the first's, as its own.
        while let Some(slot) = next_slot(measured) {
            *pair += 1;
            if let Err(error) = self.start_pair(*pair, slot) {
                fail_the_rest(measured, &error);
                return false;
            }
            let mut not_started_again = None;
            for ((name, matched), function) in selected.iter().zip(measured.iter_mut()) {
                let (Match::Both { base, current }, false) = (matched, function.done) else {
                    continue;
                };
                let config = self.config(*current);
                self.outputs.measuring(name, config.max_time);
                let Ok(slices) = &mut function.slices else {
                    function.done = true;
                    continue;
                };
                // Measured again in this pair where another process took a
                // slice's budget: the slice keeps the pair's slot.
                let recorded = loop {
                    let before = slices.summaries().len();
                    let started = Instant::now();
                    let measured = self.measure_once(name, *base, *current, &config);
                    budget.spend(started.elapsed());
                    if let Err(error) = slices.record(slot, measured, started.elapsed()) {
                        break Err(error);
                    }
                    if slices.summaries().len() > before {
                        break Ok(());
                    }
                };
                let failed = recorded.is_err();
                match recorded {
                    Ok(()) => function.done = done_after_a_slice(slices, budget),
                    Err(error) => {
                        function.slices = Err(error);
                        function.done = true;
                    }
                }
                // A child that stopped answering (stopped for overrunning,
                // or ended) serves nothing more: this function has its
                // error, and the pair is started again, in the same
                // layouts, for the functions after it.
                if failed && self.a_child_ended() {
                    if let Err(error) = self.start_pair(*pair, slot) {
                        not_started_again = Some(error);
                        break;
                    }
                }
            }
            if let Some(error) = not_started_again {
                fail_the_rest(measured, &error);
                return false;
            }
        }
        true
    }

    /// Fresh children serving both revisions for pair `pair` (from 1), in
    /// slot `slot`: layout `slot` of each binary where layouts vary, and the
    /// slot's CPU.
    fn start_pair(&mut self, pair: u32, slot: u32) -> Result<(), String> {
        let config = self.run_wide.config_with(Settings::NONE);
        // The old children quit before the new ones start, and the new
        // ones start in an order drawn from the pair: a child takes the
        // memory the children before it gave back, and a side that always
        // started first would always take the same.
        for servers in &mut self.servers {
            servers.clear();
        }
        let order = if first_side(pair) == 0 {
            [0, 1]
        } else {
            [1, 0]
        };
        for side in order {
            let revision = [&self.against.base, &self.against.current][side];
            let binaries = &self.binaries[side];
            let commands = revision
                .servers
                .iter()
                .zip(binaries)
                .map(|(command, binaries)| {
                    let program = match self.scope {
                        Scope::Layouts => binaries
                            .binary(slot)
                            .map_err(|why| format!("{}: {why}", revision.name))?,
                        Scope::ThisBuild(_) => command.program.clone(),
                    };
                    Ok(ServerCommand {
                        program,
                        ..command.clone()
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            self.servers[side] = Started::spawn(
                &Revision {
                    name: revision.name.clone(),
                    servers: commands,
                },
                slot,
                &config,
            )?;
        }
        Ok(())
    }

    /// Whether a child of the current pair has stopped serving.
    fn a_child_ended(&mut self) -> bool {
        self.servers.iter_mut().flatten().any(Server::has_ended)
    }

    /// One measurement of `name` in the current children.
    fn measure_once(
        &mut self,
        name: &str,
        base: Located,
        current: Located,
        config: &Config,
    ) -> Result<Measurement, Error> {
        let [base_listings, current_listings] = self.listings;
        let (base_listing, current_listing) = (
            &base_listings[base.server],
            &current_listings[current.server],
        );
        let slice = replicate::slice_config(config, 0);
        let config = Config {
            plan: Plan {
                cycles: Some(PAIR_CYCLES),
                // Not swapped by slice, unlike in one binary: here every batch
                // follows an untimed call of its own side, and slices taking
                // turns read the run-length encoder 1.007x, 16 of 20 intervals
                // holding 1.00 at 2% (the order unswapped: 1.000x, 20 of 20).
                swap_orders: false,
                ..slice.plan
            },
            ..slice
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
        let mut measurement = compare::measure(
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
        let fallbacks = fallbacks.into_iter().flatten().cloned().map(Notice::Said);
        notice::gather(&mut measurement.notices, fallbacks);
        Ok(measurement)
    }

    /// The outcome of `name`: its slices combined and judged, its error, or
    /// that one revision lacks it (and so it measured no slice).
    fn outcome(
        &self,
        name: &str,
        matched: &Match,
        measured: Result<Replication, Error>,
    ) -> Outcome {
        let (located, result) = match matched {
            Match::Both { base, current } => {
                let config = self.config(*current);
                let result = measured.map(|slices| {
                    let mut measurement = slices.combined();
                    for process in &mut measurement.processes {
                        process.layout = (self.scope == Scope::Layouts).then_some(process.slot);
                    }
                    let [base_code, current_code] = &self.loop_code;
                    let context = Context {
                        scope: Some(self.scope.clone()),
                        compiled_code: machine_code::compiled_code(
                            (*base, *current),
                            (base_code, current_code),
                            &self.against.edited_crates,
                        ),
                        probe: (!current.function.debug_build).then(probe::probe),
                    };
                    judge::judge(measurement, &config, context)
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
        self.config_with(current.function.settings)
    }

    /// The run's settings under `attribute`'s, at the run's effort.
    fn config_with(&self, attribute: Settings) -> Config {
        at_effort(self.run_wide.config_with(attribute), self.against.effort)
    }

    /// The configuration `matched` is measured with: its current code's
    /// where both revisions have it (a one-sided function is measured in
    /// neither).
    fn config_of(&self, matched: &Match) -> Config {
        match matched {
            Match::Both { current, .. } => self.config(*current),
            Match::OnlyBase(_) | Match::OnlyCurrent(_) => self.config_with(Settings::NONE),
        }
    }

    /// Whether a missed expectation fails the run: not for a debug build,
    /// unless enforced there too.
    fn enforced(&self, matched: &Match) -> bool {
        match matched {
            Match::Both { current, .. } => self
                .run_wide
                .enforces_in(current.function.debug_build, current.function.settings),
            Match::OnlyBase(_) | Match::OnlyCurrent(_) => true,
        }
    }
}

/// `config` with `effort` times its budget and processes, within their
/// bound: applied after the attribute's settings, so that a bisect's
/// second look gives a function that sets its own `max_time` more too.
fn at_effort(config: Config, effort: u32) -> Config {
    Config {
        max_time: config.max_time * effort,
        processes: (config.processes * effort as usize).min(MAX_PROCESSES),
        ..config
    }
}

/// The slot the next pair measures in: the next slot of the first function
/// still measuring; `None` once every function is done.
fn next_slot(measured: &[Measured]) -> Option<u32> {
    measured
        .iter()
        .filter(|function| !function.done)
        .find_map(|function| function.slices.as_ref().ok())
        .map(Replication::next_slot)
}

/// Whether a function whose slices so far are `slices` is done: it has
/// enough, or `budget` affords no slice more like its average.
fn done_after_a_slice(slices: &Replication, budget: &RunBudget) -> bool {
    slices.enough() || !budget.affords(slices.per_slice())
}

/// Has the functions of `measured` that more of the run's time could
/// settle, and that `budget` affords another slice of, measure on it
/// (`engine::budget`'s rule, pair by pair here). Returns whether any does.
fn onto_the_runs_time(measured: &mut [Measured], budget: &RunBudget) -> bool {
    let mut any = false;
    for function in measured.iter_mut() {
        let Ok(slices) = &mut function.slices else {
            continue;
        };
        if slices.could_use_the_runs_time() && budget.affords(slices.per_slice()) {
            slices.on_the_runs_time();
            function.done = slices.enough();
            any |= !function.done;
        }
    }
    any
}

/// Ends every function not done yet with `error`: its children could not
/// be started.
fn fail_the_rest(measured: &mut [Measured], error: &str) {
    for function in measured.iter_mut().filter(|function| !function.done) {
        function.slices = Err(Error::Revision(error.to_string()));
        function.done = true;
    }
}

/// Which revision's children pair `pair` starts first: 0 the base's, 1
/// the current code's, drawn from the pair so half the pairs start each.
fn first_side(pair: u32) -> usize {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    ("first side", pair).hash(&mut hasher);
    (hasher.finish() % 2) as usize
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

/// How far the run's verdicts reach, from the binaries of both revisions
/// (base, current): about the code where every one of them varies in
/// layout, else for this build, every binary of both measured as built,
/// saying where one did not vary and why. Never one revision in many
/// layouts against the other in the one its link made: where that link
/// put the code would read as a change (a damaged layout record read a
/// ~1.05x change as 1.33x slower, run after run).
pub(super) fn scope_of([base, current]: &[Vec<Binaries>; 2]) -> Scope {
    let side = |binaries: &[Binaries]| {
        binaries
            .iter()
            .map(Binaries::scope)
            .find(|scope| *scope != Scope::Layouts)
            .unwrap_or(Scope::Layouts)
    };
    both_revisions(side(base), side(current))
}

/// How far a verdict reaches, from how far each revision's binaries vary
/// (`base`, `current`): about the code where both vary in layout, else for
/// this build, saying where they did not and why — once, of both, where
/// neither did for one reason (`--layouts off`), which the base's alone
/// would misplace.
fn both_revisions(base: Scope, current: Scope) -> Scope {
    match (base, current) {
        (Scope::Layouts, Scope::Layouts) => Scope::Layouts,
        (Scope::ThisBuild(base), Scope::ThisBuild(current)) if base == current => {
            Scope::ThisBuild(format!("at both revisions, {base}"))
        }
        (Scope::ThisBuild(why), _) => Scope::ThisBuild(format!("at the base revision, {why}")),
        (_, Scope::ThisBuild(why)) => Scope::ThisBuild(format!("in the current code, {why}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::simulated::{SLICE, Simulated, own_turn};
    use std::time::Duration;

    /// `measured` through pairs, as [`Measuring::all`] takes them, each
    /// function's slice in `simulated`'s layout of the pair's slot, until
    /// neither a pair nor the run's time has more to do. Returns the slots
    /// of the pairs.
    fn through_pairs(
        measured: &mut [Measured],
        simulated: &[Simulated],
        budget: &mut RunBudget,
    ) -> Vec<u32> {
        let mut pairs = Vec::new();
        loop {
            while let Some(slot) = next_slot(measured) {
                pairs.push(slot);
                for (function, simulated) in measured.iter_mut().zip(simulated) {
                    let (Ok(slices), false) = (&mut function.slices, function.done) else {
                        continue;
                    };
                    let (measurement, took) = simulated.slice(slot);
                    budget.spend(took);
                    slices.record(slot, measurement, took).unwrap();
                    function.done = done_after_a_slice(slices, budget);
                }
            }
            if !onto_the_runs_time(measured, budget) {
                return pairs;
            }
        }
    }

    #[test]
    fn effort_multiplies_the_attribute_s_own_budget_and_processes_within_their_bound() {
        let attribute = Settings {
            max_time: Some(Duration::from_secs(1)),
            processes: Some(60),
            ..Settings::NONE
        };
        let config = RunWide::default().config_with(attribute);
        assert_eq!(at_effort(config.clone(), 1), config);
        let twice = at_effort(config.clone(), 2);
        assert_eq!(twice.max_time, Duration::from_secs(2));
        assert_eq!(twice.processes, MAX_PROCESSES);
        assert_eq!(
            Config {
                max_time: config.max_time,
                processes: config.processes,
                ..twice
            },
            config
        );
    }

    #[test]
    fn the_runs_time_goes_in_new_pairs_to_the_functions_it_could_settle() {
        // Identical code read 12% apart (too far for 64 layouts at 2%, not
        // for 128), and 60% apart (too far for any), after their own turns.
        let simulated = [Simulated::new(0.121, 7), Simulated::new(0.6, 3)];
        let mut measured: Vec<Measured> = simulated
            .iter()
            .map(|simulated| Measured {
                slices: Ok(own_turn(simulated)),
                done: true,
            })
            .collect();
        let own = measured.iter().map(|f| f.slices.as_ref().unwrap().spent());
        let spent: Duration = own.sum();
        let mut none_left = RunBudget::new(spent);
        none_left.spend(spent);
        assert!(!onto_the_runs_time(&mut measured, &none_left));
        assert!(measured.iter().all(|function| function.done));

        let mut budget = RunBudget::new(spent + 40 * SLICE + SLICE / 2);
        budget.spend(spent);
        let pairs = through_pairs(&mut measured, &simulated, &mut budget);
        assert_eq!(
            pairs,
            (65..=104).collect::<Vec<u32>>(),
            "new layouts, one a pair"
        );
        let [wide, hopeless] = [0, 1].map(|at| measured[at].slices.as_ref().unwrap());
        assert_eq!(
            wide.summaries().len(),
            104,
            "until the run's time was spent"
        );
        assert_eq!(hopeless.summaries().len(), 64, "no budget would settle it");
        assert!(budget.affords(Duration::ZERO), "within the run's budget");

        let mut budget = RunBudget::new(Duration::from_secs(3600));
        let mut measured = vec![Measured {
            slices: Ok(own_turn(&simulated[0])),
            done: true,
        }];
        through_pairs(&mut measured, &simulated[..1], &mut budget);
        let settled = measured[0].slices.as_ref().unwrap();
        assert_eq!(settled.summaries().len(), 128, "settled at the look at 128");
    }

    #[test]
    fn about_half_the_pairs_start_the_base_first() {
        let base_first = (1..=64).filter(|&pair| first_side(pair) == 0).count();
        assert!((20..=44).contains(&base_first), "{base_first} of 64");
        assert_eq!(
            first_side(7),
            first_side(7),
            "the same pair, the same order"
        );
    }

    #[test]
    fn one_binary_that_cannot_vary_has_both_revisions_measured_as_built() {
        use crate::layout::{Unavailable, fixtures::binaries};
        let varied = || binaries(Ok(()));
        let damaged = || {
            binaries(Err(Unavailable::Damaged(
                "material.json cannot be read".into(),
            )))
        };
        assert_eq!(
            scope_of(&[vec![varied(), varied()], vec![varied()]]),
            Scope::Layouts
        );
        assert_eq!(
            scope_of(&[vec![varied()], vec![varied(), damaged()]]),
            Scope::ThisBuild(
                "in the current code, its layout record is damaged: material.json cannot be read"
                    .into()
            )
        );
        assert!(matches!(
            scope_of(&[vec![damaged()], vec![varied()]]),
            Scope::ThisBuild(why) if why.starts_with("at the base revision, ")
        ));
    }

    #[test]
    fn layouts_turned_off_at_both_revisions_are_said_of_both() {
        let off = || Scope::ThisBuild("layouts are turned off (FASTER_LAYOUTS=off)".into());
        assert_eq!(
            both_revisions(off(), off()),
            Scope::ThisBuild(
                "at both revisions, layouts are turned off (FASTER_LAYOUTS=off)".into()
            )
        );
        assert_eq!(
            both_revisions(off(), Scope::Layouts),
            Scope::ThisBuild(
                "at the base revision, layouts are turned off (FASTER_LAYOUTS=off)".into()
            )
        );
        assert_eq!(
            both_revisions(Scope::Layouts, off()),
            Scope::ThisBuild(
                "in the current code, layouts are turned off (FASTER_LAYOUTS=off)".into()
            )
        );
        assert_eq!(
            both_revisions(Scope::Layouts, Scope::Layouts),
            Scope::Layouts
        );
    }
}
