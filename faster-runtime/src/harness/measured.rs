//! What a child that measured a comparison hands back: its measurement
//! (every round of it, as a [`Slice`], with where its two functions start
//! in a cache line), or its error; and a one-shot child that measures once
//! ([`run_once`]). What crosses is known here, where measurements are; how
//! it crosses is `crate::process`'s.

use crate::error::Error;
use crate::process::{Role, Server, command};
use crate::report::Measurement;
use crate::report::document::Slice;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// A measurement's result as it crosses to the parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    /// The measurement.
    Measurement(Box<Slice>),
    /// Its error (a mismatch, a panic, an unknown comparison), as it is.
    Failed(Error),
    /// One round of the functions takes this many nanoseconds, more than the
    /// child's budget; the parent says it again of the whole comparison's.
    BudgetTooShort {
        /// The round's length.
        round_ns: u64,
    },
}

impl Measured {
    /// `result` as it crosses.
    pub fn of(result: &Result<Measurement, Error>) -> Measured {
        match result {
            Ok(measurement) => Measured::Measurement(Box::new(Slice::of(measurement))),
            Err(Error::BudgetTooShort { round, .. }) => Measured::BudgetTooShort {
                round_ns: round.as_nanos() as u64,
            },
            Err(error) => Measured::Failed(error.clone()),
        }
    }

    /// The result again, in the parent, within `budget`: the child's error
    /// is the comparison's (a mismatch in process 3 is the mismatch, not
    /// a failure of process 3, which [`Error::Replication`] says of a
    /// process that could not measure at all).
    pub fn into_result(self, budget: Duration) -> Result<Measurement, Error> {
        match self {
            Measured::Measurement(slice) => Ok(slice.into_measurement()),
            Measured::Failed(error) => Err(error),
            Measured::BudgetTooShort { round_ns } => Err(Error::BudgetTooShort {
                round: Duration::from_nanos(round_ns),
                max_time: budget,
                processes: 1,
            }),
        }
    }
}

/// Runs `executable` with `arguments` once as a one-shot child doing `key`
/// ([`Role::Once`]), process `process` of a comparison with `budget`, and
/// reads the result it [says](crate::process::say) within `timeout`.
pub fn run_once(
    executable: &Path,
    arguments: &[String],
    key: &str,
    (process, budget): (usize, Duration),
    timeout: Duration,
) -> Result<Measurement, Error> {
    let mut once = command::child(executable, Some(&Role::Once(key.to_string())));
    once.args(arguments);
    let failed = |message| Error::Replication { process, message };
    let mut child = Server::start(key, once, timeout).map_err(failed)?;
    child
        .receive::<Measured>()
        .map_err(failed)?
        .into_result(budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::wire;
    use crate::report::fixtures;

    #[test]
    fn a_measurement_and_a_short_budget_cross_intact() {
        let mut measurement = fixtures::measurement(1.25, (1.2, 1.3));
        measurement.processes = vec![crate::report::ProcessSummary {
            speedup: 1.25,
            ci: (1.2, 1.3),
            rounds: 16,
            slot: 65,
            layout: None,
            offsets: None,
        }];
        let line = wire::encode(&Measured::of(&Ok(measurement.clone())));
        let read = wire::decode::<Measured>(&line).unwrap().unwrap();
        let read = read.into_result(Duration::from_secs(1)).unwrap();
        assert_eq!(read, measurement);

        let short = Measured::of(&Err(Error::BudgetTooShort {
            round: Duration::from_millis(600),
            max_time: Duration::from_millis(50),
            processes: 1,
        }));
        let error = short.into_result(Duration::from_millis(50)).unwrap_err();
        assert!(
            matches!(error, Error::BudgetTooShort { round, .. } if round == Duration::from_millis(600)),
            "{error:?}"
        );
        let mismatch = Error::Mismatch {
            input: 2,
            input_debug: Some("\"a,b\"".into()),
            original: "[1, 1]".into(),
            candidate: "[1]".into(),
        };
        let line = wire::encode(&Measured::of(&Err(mismatch.clone())));
        let failed = wire::decode::<Measured>(&line).unwrap().unwrap();
        assert_eq!(failed.into_result(Duration::ZERO), Err(mismatch));
    }

    #[test]
    fn a_slices_offsets_cross_beside_its_measurement_and_none_reads_as_none() {
        let mut measurement = fixtures::measurement(1.25, (1.2, 1.3));
        measurement.offsets = Some([16, 48]);
        let line = wire::encode(&Measured::of(&Ok(measurement.clone())));
        assert!(line.contains("\"offsets\":[16,48]"), "{line}");
        let read = wire::decode::<Measured>(&line).unwrap().unwrap();
        let read = read.into_result(Duration::from_secs(1)).unwrap();
        assert_eq!(read.offsets, Some([16, 48]));

        measurement.offsets = None;
        let line = wire::encode(&Measured::of(&Ok(measurement)));
        assert!(!line.contains("offsets"), "{line}");
        let read = wire::decode::<Measured>(&line).unwrap().unwrap();
        assert_eq!(read.into_result(Duration::ZERO).unwrap().offsets, None);
    }
}
