//! One tracked function (`#[faster::track]`) with its inputs, as the process
//! that serves it in a comparison across revisions holds it: called twice on
//! every input for digests of what it takes and returns
//! ([`Served::digest_inputs`]), and timed in batches on request
//! ([`Served::time_batch`]) by the same measuring loop as a comparison's
//! sides. User code runs here, so panics are caught here.

use super::routine::Routine;
use crate::check::truncate;
use crate::error::{Error, Phase, guarded, panic_message};
use crate::time::Timer;
use serde::{Deserialize, Serialize};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A value as it can cross to another process: a digest where the type
/// allows one, and a rendering for messages.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// Its digest (see `check::digest`), `None` where the type has neither
    /// `Hash` nor `Debug`.
    pub digest: Option<u64>,
    /// Its `Debug` rendering, or a placeholder naming the type.
    pub shown: String,
}

/// One input of a tracked function, digested: what it is and what the
/// function returns for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestedInput {
    /// The input's digest, where its type has one.
    pub input_digest: Option<u64>,
    /// The input, rendered and cut to a readable length.
    pub input_shown: String,
    /// The output's digest: `None` where its type has none, or where two
    /// calls on the same input returned different digests.
    pub output_digest: Option<u64>,
    /// The output, rendered and cut to a readable length.
    pub output_shown: String,
    /// Two calls on this input returned outputs with different digests (a
    /// `HashMap`'s order, a random result): the output cannot be compared.
    pub output_varies: bool,
    /// The largest batch worth preparing for this input (see
    /// [`Subject::max_batch`](super::sampler::Subject::max_batch)).
    pub max_batch: u64,
}

/// A tracked function and its inputs, behind a face that does not depend
/// on their types.
pub trait Served {
    /// How many inputs there are.
    fn input_count(&self) -> usize;

    /// Calls the function twice on every input, in order: what each input
    /// is and returns. A panic is the error, naming the input.
    fn digest_inputs(&mut self) -> Result<Vec<DigestedInput>, Error>;

    /// Runs `batch` calls on input `input` and returns their nanoseconds on
    /// `timer`. A panic is the error, naming the input.
    fn time_batch(&mut self, timer: &Timer, input: usize, batch: u64) -> Result<f64, Error>;

    /// The address of the machine code [`Served::time_batch`] times: the
    /// measuring loop compiled for this function, which inlines it (see
    /// `revision::machine_code`).
    fn timed_loop(&self) -> usize;
}

/// [`Served`] for a function called as the routine `R` says, with the
/// expansion's closures that describe an input (`D`) and an output (`E`).
pub(crate) struct TrackedFn<I, R, D, E> {
    pub inputs: Vec<I>,
    pub routine: R,
    pub describe_input: D,
    pub describe_output: E,
}

impl<I, O, R, D, E> Served for TrackedFn<I, R, D, E>
where
    R: Routine<I, Output = O>,
    D: Fn(&I) -> Described,
    E: Fn(&O) -> Described,
{
    fn input_count(&self) -> usize {
        self.inputs.len()
    }

    fn digest_inputs(&mut self) -> Result<Vec<DigestedInput>, Error> {
        let mut digested = Vec::with_capacity(self.inputs.len());
        for (index, input) in self.inputs.iter().enumerate() {
            let first = guarded(Phase::Function, index, || self.routine.call(input))?;
            let second = guarded(Phase::Function, index, || self.routine.call(input))?;
            let (first, second) = (
                (self.describe_output)(&first),
                (self.describe_output)(&second),
            );
            let input_described = (self.describe_input)(input);
            let output_varies = first.digest != second.digest;
            digested.push(DigestedInput {
                input_digest: input_described.digest,
                input_shown: truncate(&input_described.shown, None),
                output_digest: first.digest.filter(|_| !output_varies),
                output_shown: truncate(&first.shown, None),
                output_varies,
                max_batch: self.routine.max_batch(input),
            });
        }
        Ok(digested)
    }

    fn time_batch(&mut self, timer: &Timer, input: usize, batch: u64) -> Result<f64, Error> {
        let Some(value) = self.inputs.get(input) else {
            return Err(Error::InvalidConfig(format!(
                "input {input} does not exist: there are {}",
                self.inputs.len()
            )));
        };
        let routine = &mut self.routine;
        // The one loop, placement 0: across revisions each side runs in a
        // binary of its own, whose copies of the loop are not the other's,
        // so taking turns among them would compare nothing like for like.
        //
        // One call first, untimed: since this process last ran, the other
        // side's ran on the same CPU, and whichever call comes first refills
        // what it evicted. Timed, that refill cost the two processes unequal
        // amounts (a 16 KiB run-length encoder against its own commit read
        // 0.96x in the rounds the base went first and 1.07x where it went
        // second, 1.007x to 1.026x over all), which alternating the order
        // cannot cancel; untimed, the same runs read 0.993x to 1.002x.
        catch_unwind(AssertUnwindSafe(|| {
            routine.time_batch::<Timer, 0>(timer, value, 1);
            routine.time_batch::<Timer, 0>(timer, value, batch)
        }))
        .map_err(|payload| Error::Panicked {
            during: Phase::Function,
            input: Some(input),
            message: panic_message(payload),
        })
    }

    fn timed_loop(&self) -> usize {
        // The instance `time_batch` above calls: never inlined (see
        // `Routine::time_batch`), one per function, so its symbol is this
        // function's timed code and its size that code's.
        let timed: fn(&mut R, &Timer, &I, u64) -> f64 = R::time_batch::<Timer, 0>;
        timed as usize
    }
}

/// A description made by hand, for the tests of what serves tracked
/// functions.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::Described;

    /// A `u64` as its own digest.
    pub(crate) fn described(value: &u64) -> Described {
        Described {
            digest: Some(*value),
            shown: value.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::routine::{ByRef, Parts};
    use crate::options::TimerKind;
    use crate::time::Timer;
    use std::cell::Cell;

    fn described<T: std::fmt::Debug + std::hash::Hash>(value: &T) -> Described {
        use crate::check::digest::{Digest, DigestHash as _};
        Described {
            digest: (&&&Digest(value)).digest(),
            shown: format!("{value:?}"),
        }
    }

    #[test]
    fn digesting_reads_inputs_and_outputs_and_sees_outputs_that_vary() {
        let calls = Cell::new(0_u64);
        let mut served = TrackedFn {
            inputs: vec![3_u64, 4],
            routine: ByRef(|n: &u64| {
                calls.set(calls.get() + 1);
                // Input 1's output changes from call to call.
                if *n == 4 { calls.get() } else { n * 2 }
            }),
            describe_input: described::<u64>,
            describe_output: described::<u64>,
        };
        let digested = served.digest_inputs().unwrap();
        assert_eq!(calls.get(), 4, "two calls per input");
        assert_eq!(digested[0].input_shown, "3");
        assert_eq!(digested[0].output_shown, "6");
        assert_eq!(digested[0].output_digest, described(&6_u64).digest);
        assert!(!digested[0].output_varies);
        assert_eq!(digested[1].output_digest, None);
        assert!(digested[1].output_varies);
    }

    #[test]
    fn a_timed_batch_follows_one_untimed_call_on_the_same_input() {
        let calls = Cell::new(Vec::new());
        let mut served = TrackedFn {
            inputs: vec![3_u64, 4],
            routine: ByRef(|n: &u64| {
                let mut seen = calls.take();
                seen.push(*n);
                calls.set(seen);
                n * 2
            }),
            describe_input: described::<u64>,
            describe_output: described::<u64>,
        };
        let (timer, _) = Timer::select(TimerKind::Wall);
        served.time_batch(&timer, 1, 3).unwrap();
        assert_eq!(calls.take(), [4; 4], "the untimed call and the batch of 3");
    }

    #[test]
    fn panics_are_errors_naming_the_input() {
        let mut served = TrackedFn {
            inputs: vec![vec![1_u8], vec![]],
            routine: Parts {
                prepare: |v: &Vec<u8>| v.clone(),
                check: |_: &Vec<u8>, v: Vec<u8>| v[0],
                timed: |_: &Vec<u8>, v: Vec<u8>| v[0],
            },
            describe_input: described::<Vec<u8>>,
            describe_output: described::<u8>,
        };
        let error = served.digest_inputs().unwrap_err();
        assert!(
            matches!(
                error,
                Error::Panicked {
                    during: Phase::Function,
                    input: Some(1),
                    ..
                }
            ),
            "{error:?}"
        );
        let (timer, _) = Timer::select(TimerKind::Wall);
        assert!(served.time_batch(&timer, 0, 8).unwrap() >= 0.0);
        let error = served.time_batch(&timer, 1, 8).unwrap_err();
        assert!(error.to_string().contains("on input 1"), "{error}");
        let error = served.time_batch(&timer, 2, 8).unwrap_err();
        assert!(
            error.to_string().contains("input 2 does not exist"),
            "{error}"
        );
    }
}
