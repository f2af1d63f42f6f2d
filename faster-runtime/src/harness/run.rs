//! The one path a registered comparison runs through, whichever harness
//! started it: its configuration resolved, measured (in several processes
//! if asked), reviewed, judged against the machine's noise, and handed to
//! the outputs as an [`Outcome`].

use super::lock::lock_across_processes;
use super::servers::servers;
use crate::config::{Config, Settings, resolve};
use crate::engine::{compare, probe, replicate};
use crate::error::Error;
use crate::judge::{self, Context};
use crate::layout::Binaries;
use crate::output::files::output_dir;
use crate::output::{Note, Outputs};
use crate::registry::Comparison;
use crate::report::{Measurement, Outcome, Scope, Source};

/// The run-wide settings: the environment's, and the command line's over
/// them (none under libtest).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunWide {
    /// `FASTER_*` and the CI floor.
    pub environment: Settings,
    /// `faster::main()`'s flags.
    pub command_line: Settings,
}

impl RunWide {
    /// `comparison`'s configuration: these settings under its attribute's.
    pub fn config(&self, comparison: &Comparison) -> Config {
        self.config_with(comparison.settings)
    }

    /// The configuration of these settings under an attribute's.
    pub fn config_with(&self, attribute: Settings) -> Config {
        resolve(self.environment, self.command_line, attribute)
    }

    /// Whether a verdict of `comparison` that misses its expectation fails
    /// the run (see [`RunWide::enforces_in`]).
    pub fn enforces(&self, comparison: &Comparison) -> bool {
        self.enforces_in(comparison.debug_build, comparison.settings)
    }

    /// Whether a missed expectation of code built with `debug_build`, under
    /// an attribute's settings `attribute`, fails the run: not in a build
    /// with `debug_assertions`, unless enforced there too.
    pub fn enforces_in(&self, debug_build: bool, attribute: Settings) -> bool {
        !debug_build || self.config_with(attribute).enforce_in_debug
    }
}

/// Runs `comparison` and hands its outcome to `outputs`, taking turns with
/// other processes on the target directory's lock. Returns the outcome and
/// what the outputs noted about it.
pub fn run_comparison(
    comparison: &Comparison,
    run_wide: &RunWide,
    outputs: &mut Outputs<'_>,
) -> (Outcome, Vec<Note>) {
    let config = run_wide.config(comparison);
    outputs.measuring(comparison.test_name(), config.max_time);
    let _turn = lock_across_processes(&output_dir());
    let outcome = outcome(comparison, &config, run_wide.enforces(comparison));
    let notes = outputs.comparison(&outcome);
    (outcome, notes)
}

/// Measures and judges `comparison` with `config`.
fn outcome(comparison: &Comparison, config: &Config, enforced: bool) -> Outcome {
    let result = config.validate().and_then(|()| {
        let (measurement, scope) = measure(comparison, config, enforced)?;
        let context = Context {
            scope,
            compiled_code: None,
            // Unoptimized code says nothing about this machine's noise: the
            // run says once that a debug build is not enforced.
            probe: (!comparison.debug_build).then(probe::probe),
        };
        Ok(judge::judge(measurement, config, context))
    });
    Outcome {
        test: comparison.test_name().to_string(),
        label: comparison.label.to_string(),
        source: Some(Source {
            path: comparison.test.to_string(),
            original: comparison.original.to_string(),
            file: comparison.file.to_string(),
            line: comparison.line,
            debug_assertions: comparison.debug_build,
        }),
        result,
        enforced,
    }
}

/// Measures `comparison`: in slices in this run's servers, each in a
/// layout of its own where it was linked through `faster-link` (see
/// `crate::layout`), or, in a debug build whose timing is not enforced,
/// here only. Returns the measurement and how far its verdict reaches.
fn measure(
    comparison: &Comparison,
    config: &Config,
    enforced: bool,
) -> Result<(Measurement, Option<Scope>), Error> {
    if !enforced || config.processes <= 1 {
        let measurement = (comparison.run)(&Config {
            processes: 1,
            ..config.clone()
        })?;
        // A kernel's time is the GPU's: where the CPU code landed is no
        // part of it.
        let scope = (enforced && measurement.gpu.is_none())
            .then(|| Scope::ThisBuild("measured in this process only (processes = 1)".into()));
        return Ok((measurement, scope));
    }
    let executable = std::env::current_exe().map_err(|error| Error::Replication {
        process: 0,
        message: format!("cannot find this test binary to run it again: {error}"),
    })?;
    let binaries = Binaries::of(executable, config.layouts, None);
    // The processes time for this one: no other thread here may meanwhile.
    let _turn = compare::timing_turn();
    let mut servers = servers();
    let binary = |slot: u32| {
        binaries.binary(slot).map_err(|why| Error::Replication {
            process: slot as usize,
            message: why.to_string(),
        })
    };
    let prepare = |slot| binary(slot).map(drop);
    let mut measurement = replicate::measure(config, comparison.run, prepare, |slice| {
        let binary = binary(slice.slot)?;
        servers.measure(
            (&binary, slice.slot),
            comparison.test_name(),
            &slice.config,
            slice.timeout,
        )
    })?;
    for process in &mut measurement.processes {
        process.layout = binaries.layout(process.slot);
    }
    Ok((measurement, Some(binaries.scope())))
}
