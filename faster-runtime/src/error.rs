//! Why a comparison could not produce a report, and catching the panics of
//! user code that become such errors.

use crate::indexes::format_inputs;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// Why a comparison failed before a timing verdict could be reached.
///
/// A wrong candidate is an error, not a verdict: timing a function that
/// returns the wrong answer proves nothing.
///
/// It crosses from a child process as it is (serialized), so a mismatch or
/// a panic in a process of a replicated comparison, or in a revision's
/// server, reads as the same error as in this one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Error {
    /// The input set was empty, so there is nothing to check or time.
    NoInputs,
    /// The two functions returned different results for one input.
    Mismatch {
        /// The input's position in the input set (from 0).
        input: usize,
        /// The input itself, rendered with `Debug`, where it could be.
        input_debug: Option<String>,
        /// The original's output, rendered with `Debug`.
        original: String,
        /// The candidate's output, rendered with `Debug`.
        candidate: String,
    },
    /// User code panicked; the panic was caught so the other comparisons run.
    Panicked {
        /// Where it panicked.
        during: Phase,
        /// The input being processed, when there was one.
        input: Option<usize>,
        /// The panic's message.
        message: String,
    },
    /// A setting is out of range or unreadable.
    InvalidConfig(String),
    /// Not even the two rounds a ratio needs (one in each order) fit in the
    /// time budget: one call of each function, on every input, takes too
    /// long for `max_time`.
    BudgetTooShort {
        /// How long one round (each function once on every input) takes.
        round: Duration,
        /// The time budget.
        max_time: Duration,
        /// How many processes share it (each gets its part).
        processes: usize,
    },
    /// Other processes kept taking the measuring's time: slice after slice
    /// lost its budget to them before two rounds were timed, where a pair
    /// of rounds would have fit.
    Disturbed {
        /// How many slices (or pairs of processes across revisions) in all
        /// lost their budget so.
        slices: usize,
        /// The time budget.
        max_time: Duration,
    },
    /// The timer cannot measure this pair (a batch read as no time at all).
    Unmeasurable(String),
    /// A GPU comparison could not run: no adapter, a device or buffer that
    /// does not fit, or wgpu rejected what a kernel recorded.
    Gpu(String),
    /// One process of a replicated comparison (`processes = N`) failed.
    Replication {
        /// Which process (from 1).
        process: usize,
        /// What went wrong in it.
        message: String,
    },
    /// A tracked function returns something else than at the base revision
    /// (`cargo faster --against`): its outputs' digests differ.
    BehaviourChanged {
        /// The first input whose output changed (from 0).
        input: usize,
        /// That input, rendered.
        input_shown: String,
        /// What the base revision returns for it, rendered.
        base: String,
        /// What the current code returns for it, rendered.
        current: String,
        /// The other inputs whose output changed.
        also: Vec<usize>,
    },
    /// A tracked function exists in one revision only, so there is nothing
    /// to compare it with. Reported, never failed.
    OneSided {
        /// The revision that has it.
        only_in: OnlyIn,
    },
    /// A process serving one revision of the tracked functions failed: it
    /// could not start, ended, or did not answer.
    Revision(String),
    /// An error read back from a report document (a shard's, merged by
    /// `cargo faster merge`), as it was written.
    Read(String),
}

/// Which revision alone has a tracked function (`cargo faster --against`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnlyIn {
    /// The base revision: the function is gone from the current code.
    Base,
    /// The current code: the function is new.
    Current,
}

/// Which piece of user code was running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The `inputs` function.
    Inputs,
    /// The original (baseline) function.
    Original,
    /// The candidate function.
    Candidate,
    /// A tracked function (`#[faster::track]`).
    Function,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Inputs => "the inputs function",
            Phase::Original => "the original",
            Phase::Candidate => "the candidate",
            Phase::Function => "the function",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoInputs => f.write_str(
                "the input set is empty: the `inputs` function must yield at least one input",
            ),
            Error::Mismatch {
                input,
                input_debug,
                original,
                candidate,
            } => {
                write!(
                    f,
                    "the candidate returns a different result for input {input}"
                )?;
                if let Some(input_debug) = input_debug {
                    write!(f, "\n  input:     {input_debug}")?;
                }
                write!(f, "\n  original:  {original}\n  candidate: {candidate}")
            }
            Error::Panicked {
                during,
                input: Some(input),
                message,
            } => write!(f, "{during} panicked on input {input}: {message}"),
            Error::Panicked {
                during,
                input: None,
                message,
            } => write!(f, "{during} panicked: {message}"),
            Error::InvalidConfig(reason) => write!(f, "invalid setting: {reason}"),
            Error::BudgetTooShort {
                round,
                max_time,
                processes,
            } => budget_too_short(f, *round, *max_time, *processes),
            Error::Disturbed { slices, max_time } => write!(
                f,
                "other processes took the time of {slices} slices of the measuring: each spent \
                 its part of max_time = \"{}\" getting ready, where its rounds alone would have \
                 fit; run on a quieter machine (other builds and tests stopped), or raise \
                 max_time",
                seconds(*max_time),
            ),
            Error::Unmeasurable(reason) => write!(f, "cannot measure: {reason}"),
            Error::Gpu(reason) => write!(f, "GPU: {reason}"),
            Error::Replication { process, message } => {
                write!(
                    f,
                    "process {process} of the replicated comparison failed: {message}"
                )
            }
            Error::BehaviourChanged {
                input,
                input_shown,
                base,
                current,
                also,
            } => {
                write!(
                    f,
                    "the output changed since the base revision for input {input}\n  \
                     input:   {input_shown}\n  base:    {base}\n  current: {current}"
                )?;
                if !also.is_empty() {
                    write!(f, "\n  changed too: {}", format_inputs(also))?;
                }
                Ok(())
            }
            Error::OneSided {
                only_in: OnlyIn::Current,
            } => f.write_str("new in this revision: nothing to compare against yet"),
            Error::OneSided {
                only_in: OnlyIn::Base,
            } => f.write_str("not in this revision any more: nothing to compare"),
            Error::Revision(message) | Error::Read(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

/// A duration as the attribute's `max_time` takes it, to two significant
/// digits: seconds from a second up, else milliseconds.
/// [`Error::BudgetTooShort`]'s message: in a comparison of several
/// processes, each needs its ten rounds, and one process is a way out.
fn budget_too_short(
    f: &mut fmt::Formatter<'_>,
    round: Duration,
    max_time: Duration,
    processes: usize,
) -> fmt::Result {
    write!(
        f,
        "one round (each function called once on every input) takes {:.2} s, so the two rounds \
         a ratio needs (one in each order) do not fit in max_time = \"{}\"",
        round.as_secs_f64(),
        seconds(max_time),
    )?;
    if processes <= 1 {
        return write!(
            f,
            ": raise max_time to at least \"{}\" (about ten rounds), or give the functions less \
             work per call",
            seconds(10 * round),
        );
    }
    write!(
        f,
        " shared by {processes} processes: raise max_time to at least \"{}\" (about ten rounds \
         in each process), measure in one process (processes = 1), or give the functions less \
         work per call",
        seconds(10 * processes as u32 * round),
    )
}

fn seconds(duration: Duration) -> String {
    let (value, unit) = if duration >= Duration::from_secs(1) {
        (duration.as_secs_f64(), "s")
    } else {
        (duration.as_secs_f64() * 1e3, "ms")
    };
    let exponent = value.max(1.0).log10().floor() as i32 - 1;
    let digits = (value / 10f64.powi(exponent)).round() as u64;
    match u32::try_from(exponent) {
        Ok(exponent) => format!("{}{unit}", digits * 10_u64.pow(exponent)),
        Err(_) => format!("{}{unit}", digits as f64 / 10f64.powi(-exponent)),
    }
}

/// Runs user code, turning a panic into [`Error::Panicked`].
pub(crate) fn guarded<T>(
    during: Phase,
    input: usize,
    call: impl FnOnce() -> T,
) -> Result<T, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).map_err(|payload| {
        Error::Panicked {
            during,
            input: Some(input),
            message: panic_message(payload),
        }
    })
}

/// The text of a panic payload (`panic!("...")` carries a `&str` or `String`).
pub(crate) fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggested_budgets_have_two_significant_digits() {
        let at = |secs: f64| seconds(Duration::from_secs_f64(secs));
        assert_eq!(at(6.003), "6s");
        assert_eq!(at(6.06), "6.1s");
        assert_eq!(at(100.003), "100s");
        assert_eq!(at(123.0), "120s");
        assert_eq!(at(0.0503), "50ms");
        assert_eq!(at(0.0005), "0.5ms");
    }
}
