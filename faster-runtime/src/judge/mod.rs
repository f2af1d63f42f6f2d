//! The judge: the one place a [`Measurement`] becomes a [`Report`]. It
//! writes the verdict (the interval against the noise floor, by
//! [`NoiseFloor`]'s rule), what the figures say about the measurement
//! (`diagnostics`), what the machine's noise says of the floor and, with
//! `strict`, the verdict a floor too close to that noise is read as.
//! Every path that measures (a comparison in one binary, its slices
//! combined, a function across revisions, [`compare_fns`](crate::compare_fns))
//! ends here, once, on its final figures; nothing else writes a verdict.

pub(crate) mod diagnostics;

use crate::config::Config;
use crate::report::{CompiledCode, Measurement, Report, Scope};
use crate::stats::verdict::{NoiseFloor, Verdict};
use std::time::Duration;

/// What the machine's noise probe found (`engine::probe` measures it, once
/// per run): what the judge holds a floor against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NoiseProbe {
    /// The relative difference an A/A measurement of the probe's length
    /// cannot rule out: its 99% half-width plus its distance from one.
    pub resolvable: f64,
    /// Rounds the probe measured.
    pub rounds: usize,
    /// How long it took.
    pub elapsed: Duration,
}

/// What a harness knows of a comparison besides its measurement, which the
/// report carries and the judge weighs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    /// How far the verdict reaches (the layouts its slices ran in); `None`
    /// where no harness said.
    pub scope: Option<Scope>,
    /// Across revisions, the function's compiled code in each.
    pub compiled_code: Option<CompiledCode>,
    /// The machine's noise as this run's probe measured it; `None` where
    /// it says nothing of the floor (a debug build, `compare_fns`).
    pub probe: Option<NoiseProbe>,
}

/// Judges `measurement` with the settings of `config` and what `context`
/// adds: the report.
pub(crate) fn judge(measurement: Measurement, config: &Config, context: Context) -> Report {
    let floor = NoiseFloor::new(config.noise_floor);
    let verdict = floor.verdict(measurement.ci);
    let settings = (floor.fraction(), config.expect, config.if_undecided);
    let mut report = Report::recorded(measurement, verdict, settings);
    report.scope = context.scope;
    report.compiled_code = context.compiled_code;
    diagnostics::review(&mut report, config);
    if let Some(probe) = context.probe {
        against_the_machine(&mut report, &probe, config.strict);
    }
    report
}

/// A floor under this multiple of [`NoiseProbe::resolvable`] is too close
/// to the machine's noise to trust a verdict against it.
pub const SAFE_MULTIPLE: f64 = 3.0;

/// The warning for a floor too close to the machine's noise, if it is.
pub fn floor_warning(noise_floor: f64, probe: &NoiseProbe) -> Option<String> {
    (noise_floor < SAFE_MULTIPLE * probe.resolvable).then(|| {
        format!(
            "this machine resolves only about {:.2}% right now (noise probe: {} rounds of the same \
             function against itself), and the noise floor of {:.1}% is under {SAFE_MULTIPLE}x that: \
             a verdict may be noise; raise noise_floor or quiet the machine (with FASTER_STRICT=1 \
             such a verdict reads \"within noise\")",
            100.0 * probe.resolvable,
            probe.rounds,
            100.0 * noise_floor,
        )
    })
}

/// Adds the probe's warning to `report` when its floor is too close to the
/// machine's noise; with `strict` (`FASTER_STRICT=1`) such a verdict also
/// reads `within noise`, with the reason.
fn against_the_machine(report: &mut Report, probe: &NoiseProbe, strict: bool) {
    let Some(warning) = floor_warning(report.noise_floor, probe) else {
        return;
    };
    report.warnings.push(warning);
    if strict && report.verdict != Verdict::WithinNoise {
        report.warnings.push(format!(
            "measured \"{}\", reported as \"within noise\" (FASTER_STRICT=1): the floor is too \
             close to this machine's noise",
            report.verdict
        ));
        report.verdict = Verdict::WithinNoise;
        report.downgraded = true;
    }
}

/// Where a stored report's verdict is not the one the judge writes for its
/// interval and floor (allowing a strict run's downgrade to `within
/// noise`): the verdict it should read. A document edited by hand, or
/// written by a faster that judged otherwise, is not believed.
pub(crate) fn misjudged(report: &Report) -> Option<Verdict> {
    let judged = report.floor().verdict(report.ci);
    let downgraded = report.downgraded && report.verdict == Verdict::WithinNoise;
    (report.verdict != judged && !downgraded).then_some(judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use crate::stats::verdict::Expect;

    #[test]
    fn a_floor_near_the_noise_is_called_out_and_a_safe_one_is_not() {
        let probe = NoiseProbe {
            resolvable: 0.02,
            rounds: 300,
            elapsed: Duration::from_millis(60),
        };
        let warning = floor_warning(0.05, &probe).expect("5% < 3 × 2%");
        assert!(
            warning.contains("2.00%") && warning.contains("5.0%"),
            "{warning}"
        );
        assert_eq!(floor_warning(0.10, &probe), None);
    }

    #[test]
    fn the_verdict_is_the_intervals_against_the_floor_of_the_settings() {
        let measured = fixtures::measurement(1.2, (1.1, 1.3));
        let at = |noise_floor| {
            let config = Config {
                noise_floor,
                ..Config::default()
            };
            judge(measured.clone(), &config, Context::default()).verdict
        };
        assert_eq!(at(0.05), Verdict::Faster);
        assert_eq!(at(0.20), Verdict::WithinNoise);
        // A verdict the interval does not read is found out.
        let mut edited = judge(measured.clone(), &Config::default(), Context::default());
        assert_eq!(misjudged(&edited), None);
        edited.verdict = Verdict::WithinNoise;
        assert_eq!(misjudged(&edited), Some(Verdict::Faster));
        let slower = fixtures::measurement(0.8, (0.75, 0.85));
        assert_eq!(
            judge(slower, &Config::default(), Context::default()).verdict,
            Verdict::Slower
        );
    }

    #[test]
    fn strict_mode_turns_a_verdict_too_close_to_the_noise_into_within_noise() {
        let noisy = NoiseProbe {
            resolvable: 0.03,
            rounds: 200,
            elapsed: Duration::from_millis(60),
        };
        let judged = |strict: bool, probe: NoiseProbe| {
            let config = Config {
                strict,
                expect: Expect::Faster,
                ..Config::default()
            };
            let context = Context {
                probe: Some(probe),
                ..Context::default()
            };
            judge(fixtures::measurement(1.2, (1.1, 1.3)), &config, context)
        };
        let relaxed = judged(false, noisy);
        assert_eq!(relaxed.verdict, Verdict::Faster);
        assert!(!relaxed.downgraded);
        assert_eq!(relaxed.warnings.len(), 1);
        let strict = judged(true, noisy);
        assert_eq!(strict.verdict, Verdict::WithinNoise);
        assert!(strict.downgraded);
        assert_eq!(misjudged(&strict), None, "a strict run's downgrade stands");
        assert!(
            strict.warnings[1].contains("reported as \"within noise\" (FASTER_STRICT=1)"),
            "{:?}",
            strict.warnings
        );
        let quiet = judged(
            true,
            NoiseProbe {
                resolvable: 0.001,
                ..noisy
            },
        );
        assert_eq!(quiet.verdict, Verdict::Faster);
        assert!(quiet.warnings.is_empty());
    }
}
