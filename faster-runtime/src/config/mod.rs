//! How a comparison is measured and judged: [`Config`] with its defaults
//! and range checks, [`Settings`] (the same options, each maybe given, from
//! one source: the attribute, the environment or the command line) and the
//! one precedence rule that merges them.

mod settings;

pub use settings::Settings;
pub(crate) use settings::resolve;

use crate::error::Error;
use crate::stats::verdict::{Expect, Undecided};
use crate::time::TimerKind;
use std::time::Duration;

/// How one comparison is measured and judged.
///
/// `Default` gives the documented defaults and never reads the environment;
/// [`Config::from_env`] applies the `FASTER_*` variables and the CI floor.
/// Where settings come from several places, they meet in [`Settings`]
/// (see [`Settings::overwrite`] for the precedence).
///
/// ```
/// let config = faster::Config::default();
/// assert_eq!(config.noise_floor, 0.05);
/// assert_eq!(config.max_time, std::time::Duration::from_secs(3));
/// ```
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    /// The smallest relative difference that counts (0.05 = 5%; 1.0: the
    /// candidate must be at least 2x faster). Any finite fraction above 0.
    pub noise_floor: f64,
    /// The time budget for measuring this pair, warm-up included.
    pub max_time: Duration,
    /// What the comparison must show to pass.
    pub expect: Expect,
    /// What a verdict that did not decide the expectation does to the run
    /// (see [`Verdict::decides`](crate::Verdict::decides)): passes, shown as
    /// undecided (the default), or fails. `FASTER_UNDECIDED=fail`
    /// (`--undecided fail`) asks for failure.
    #[serde(default)]
    pub if_undecided: Undecided,
    /// Measure at least this many rounds before stopping on convergence.
    pub min_rounds: usize,
    /// Measure exactly this many cycles of rounds (every batch size in both
    /// orders, in every placement of the measuring loop) and stop, instead
    /// of stopping on convergence: how each slice of a replicated
    /// comparison is measured, whose precision comes from the interval over
    /// the slices rather than from inside one. `None` (the default):
    /// until convergence.
    #[serde(default)]
    pub cycles: Option<usize>,
    /// Stop once the 99% interval of the speedup is this narrow: its
    /// half-width relative to the estimate (0.01 = ±1%).
    pub target_precision: f64,
    /// The longest warm-up; it ends earlier once per-call times settle.
    pub max_warm_up: Duration,
    /// The timing source.
    pub timer: TimerKind,
    /// Measure a registered comparison in at least this many slices, each
    /// in another process (a server kept for the run), each process in a
    /// layout of the binary of its own where [`layouts`](Config::layouts)
    /// can be varied, and judge the spread between them; more follow while
    /// the verdict is undecided and the budget lasts. 1 measures in this
    /// process only. (A
    /// [`compare_fns`](crate::compare_fns) call always measures in its own
    /// process: its closures cannot be run again elsewhere.)
    pub processes: usize,
    /// Run each process in a layout of the binary of its own (the same code
    /// linked in another order), where the binary was linked through
    /// `faster-link`, so the verdict is about the code and not about one
    /// link's luck. `FASTER_LAYOUTS=off` (`--layouts off`) turns it off.
    pub layouts: bool,
    /// A half-width added in quadrature to every interval (0.005 = ±0.5%),
    /// for what no measurement inside one process can see: where code and
    /// data landed in memory, how long the timed batches were. Measured by
    /// the accuracy suite, whose reference measurements of the same pair
    /// differ from the engine's by up to about that much at every scale,
    /// while the statistical part alone shrinks to ±0.01%. More rounds do not
    /// shrink it; `processes = N` measures that variation directly.
    pub systematic_allowance: f64,
    /// Where the shorter function's call (summed over inputs) is under this
    /// time, the rounds take turns in several placements of the measuring
    /// loop, and the interval covers what another placement would measure;
    /// at and above it, one loop, as for every longer call. At a few
    /// nanoseconds a ratio belongs to the loop as much as to the functions:
    /// measured on this project's 2-core VM (`accuracy --placement
    /// --spread`, every run in all eight placements), the placements of a
    /// ≈ 1.3 ns call read about 20% apart (median of 60 runs), those of
    /// 4 to 100 ns calls 0.1–0.3%, no more than the statistical noise of
    /// one placement's own figure. Zero turns placements off.
    pub placement_threshold: Duration,
    /// Shift the stack the measuring loop runs on from round to round, so an
    /// alignment that happens to favour one function is averaged out rather
    /// than baked into the estimate. Off by default (measured in the
    /// guide's "Trusting the environment", `guide/environment.md`).
    pub randomize_layout: bool,
    /// Turn a verdict into `within noise` when the noise floor is too close
    /// to what this machine resolves right now (the noise probe's estimate).
    pub strict: bool,
    /// Enforce the timing verdict in a build with `debug_assertions` too,
    /// where unoptimized code is timed and the verdict is otherwise only
    /// reported.
    pub enforce_in_debug: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            noise_floor: 0.05,
            max_time: Duration::from_secs(3),
            expect: Expect::Faster,
            if_undecided: Undecided::Pass,
            min_rounds: 5,
            cycles: None,
            target_precision: 0.01,
            max_warm_up: Duration::from_millis(50),
            timer: TimerKind::Wall,
            processes: 4,
            layouts: true,
            systematic_allowance: 0.005,
            placement_threshold: PLACEMENT_THRESHOLD,
            randomize_layout: false,
            strict: false,
            enforce_in_debug: false,
        }
    }
}

/// The default [`Config::placement_threshold`]: twice the shortest call at
/// which the placements measured here agreed (≈ 4–5 ns), three times the
/// ≈ 3 ns call whose ratio issue 15 saw a placement move, and five times
/// under the 50 ns from which nothing may change (see the guide's
/// "Nanosecond functions: where the measuring loop lands",
/// `guide/measuring.md`).
pub const PLACEMENT_THRESHOLD: Duration = Duration::from_nanos(10);

/// The noise floor on CI runners, whose neighbours are noisier than a desk's.
pub const CI_NOISE_FLOOR: f64 = 0.10;

impl Config {
    /// The defaults adjusted by the environment: a 10% floor when `CI` or
    /// `GITHUB_ACTIONS` is set, then the `FASTER_*` variables (see
    /// [`Settings::from_vars`]).
    pub fn from_env() -> Result<Config, Error> {
        Ok(Config::default().with(&Settings::from_env()?))
    }

    /// This configuration with every setting `settings` gives replaced.
    pub fn with(mut self, settings: &Settings) -> Config {
        let Settings {
            expect,
            if_undecided,
            noise_floor,
            max_time,
            processes,
            layouts,
            timer,
            randomize_layout,
            strict,
            enforce_in_debug,
        } = *settings;
        self.expect = expect.unwrap_or(self.expect);
        self.if_undecided = if_undecided.unwrap_or(self.if_undecided);
        self.noise_floor = noise_floor.unwrap_or(self.noise_floor);
        self.max_time = max_time.unwrap_or(self.max_time);
        self.processes = processes.unwrap_or(self.processes);
        self.layouts = layouts.unwrap_or(self.layouts);
        self.timer = timer.unwrap_or(self.timer);
        self.randomize_layout = randomize_layout.unwrap_or(self.randomize_layout);
        self.strict = strict.unwrap_or(self.strict);
        self.enforce_in_debug = enforce_in_debug.unwrap_or(self.enforce_in_debug);
        self
    }

    /// Checks that every setting is in range.
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |reason: String| Err(Error::InvalidConfig(reason));
        if !usable_noise_floor(self.noise_floor) {
            return invalid(format!(
                "noise_floor is {}, but must be a fraction above 0 (0.05 = 5%; 1.0 = at least 2x)",
                self.noise_floor
            ));
        }
        if self.max_time.is_zero() {
            return invalid("max_time must be more than zero".into());
        }
        if !(self.target_precision > 0.0 && self.target_precision.is_finite()) {
            return invalid(format!(
                "target_precision is {}, but must be a positive fraction",
                self.target_precision
            ));
        }
        if !(self.systematic_allowance >= 0.0 && self.systematic_allowance < 1.0) {
            return invalid(format!(
                "systematic_allowance is {}, but must be a fraction from 0 to 1",
                self.systematic_allowance
            ));
        }
        if !(1..=MAX_PROCESSES).contains(&self.processes) {
            return invalid(format!(
                "processes is {}, but must be from 1 to {MAX_PROCESSES}",
                self.processes
            ));
        }
        if self.min_rounds < 2 {
            return invalid("min_rounds must be at least 2 (one round of each order)".into());
        }
        Ok(())
    }
}

/// Parses a noise floor given as a fraction above 0, e.g. `0.05` (5%), or
/// `1.0` (the candidate must be at least 2x faster).
pub fn parse_noise_floor(text: &str) -> Result<f64, String> {
    let floor: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number; write a fraction such as 0.05 for 5%"))?;
    if usable_noise_floor(floor) {
        Ok(floor)
    } else {
        Err(format!(
            "`{text}` is out of range; write a fraction above 0, such as 0.05 for 5% (1.0 for \
             at least 2x)"
        ))
    }
}

/// Whether `floor` can be a noise floor: a finite fraction above 0. There
/// is no upper bound: 1.0 asks for at least 2x, 3.0 for at least 4x.
fn usable_noise_floor(floor: f64) -> bool {
    floor > 0.0 && floor.is_finite()
}

/// Parses a process count for replication: a whole number from 1 to 100.
pub fn parse_processes(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(count @ 1..=MAX_PROCESSES) => Ok(count),
        _ => Err(format!(
            "`{text}` is not a process count; write a whole number from 1 to {MAX_PROCESSES}"
        )),
    }
}

/// Parses a switch: `on`, `1`, `true` or `yes`; `off`, `0`, `false` or `no`.
pub fn parse_switch(text: &str) -> Result<bool, String> {
    match text.trim() {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(format!(
            "`{text}` is neither on nor off; write `on` or `off`"
        )),
    }
}

/// The most processes a comparison may be replicated in.
pub const MAX_PROCESSES: usize = 100;

/// Parses a duration such as `500ms`, `3s`, `1.5s`, `2m` or `750us`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let nanos_per_unit = match unit.trim() {
        "ns" => 1e0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" | "min" => 60e9,
        _ => {
            return Err(format!(
                "`{text}` has no known unit; write e.g. \"500ms\" or \"3s\""
            ));
        }
    };
    let amount: f64 = number.parse().map_err(|_| {
        format!("`{text}` does not start with a number; write e.g. \"500ms\" or \"3s\"")
    })?;
    let nanos = amount * nanos_per_unit;
    if nanos >= 1.0 && nanos < u64::MAX as f64 {
        Ok(Duration::from_nanos(nanos as u64))
    } else {
        Err(format!(
            "`{text}` is not a usable duration; write e.g. \"500ms\" or \"3s\""
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_every_unit() {
        assert_eq!(parse_duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("750us"), Ok(Duration::from_micros(750)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("3").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("0s").is_err());
    }

    #[test]
    fn validation_rejects_out_of_range_settings() {
        let mut config = Config::default();
        assert!(config.validate().is_ok());
        for unusable in [0.0, -0.05, f64::NAN, f64::INFINITY] {
            config.noise_floor = unusable;
            let error = config.validate().unwrap_err().to_string();
            assert!(error.contains("a fraction above 0"), "{unusable}: {error}");
        }
        config.noise_floor = 0.05;
        config.max_time = Duration::ZERO;
        assert!(config.validate().is_err());
    }

    #[test]
    fn a_floor_of_one_or_more_asks_for_a_multiple() {
        for floor in [1.0, 1.5, 3.0] {
            let config = Config {
                noise_floor: floor,
                ..Config::default()
            };
            assert!(config.validate().is_ok(), "{floor}");
        }
        assert_eq!(parse_noise_floor("1.0"), Ok(1.0));
        assert_eq!(parse_noise_floor("2"), Ok(2.0));
        assert_eq!(parse_noise_floor(" 0.05 "), Ok(0.05));
        for unusable in ["0", "-0.1", "NaN", "inf", "-inf"] {
            let error = parse_noise_floor(unusable).unwrap_err();
            assert!(
                error.starts_with(&format!(
                    "`{unusable}` is out of range; write a fraction above 0"
                )),
                "{error}"
            );
        }
        assert_eq!(
            parse_noise_floor("5%").unwrap_err(),
            "`5%` is not a number; write a fraction such as 0.05 for 5%"
        );
    }
}
