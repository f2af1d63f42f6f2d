//! What a child that measured a comparison hands back: its report (as the
//! `faster/report/v1` document, so it keeps every round, with where its
//! two functions start in a cache line beside it), or its error; and a
//! one-shot child that measures once ([`run_once`]). What crosses is
//! known here, where reports are; how it crosses is `crate::process`'s.

use crate::error::Error;
use crate::process::{Role, Server, command};
use crate::report::{Document, Report};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// A measurement's result as it crosses to the parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    /// The report.
    Report(Box<Slice>),
    /// Its error's text (a mismatch, a panic, an unknown comparison).
    Failed(String),
    /// One round of the functions takes this many nanoseconds, more than the
    /// child's budget; the parent says it again of the whole comparison's.
    BudgetTooShort {
        /// The round's length.
        round_ns: u64,
    },
}

/// A report as it crosses: the document's fields, and beside them the
/// offsets of the child's functions ([`Report::offsets`]), which the
/// document does not have. A reader that does not know them skips them,
/// and a frame without them reads as `None`, so the framing's version
/// stands.
#[derive(Debug, Serialize, Deserialize)]
pub struct Slice {
    #[serde(flatten)]
    document: Document,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offsets: Option<[u8; 2]>,
}

impl Measured {
    /// `result` as it crosses.
    pub fn of(result: &Result<Report, Error>) -> Measured {
        match result {
            Ok(report) => Measured::Report(Box::new(Slice {
                document: Document::of_report(report),
                offsets: report.offsets,
            })),
            Err(Error::BudgetTooShort { round, .. }) => Measured::BudgetTooShort {
                round_ns: round.as_nanos() as u64,
            },
            Err(error) => Measured::Failed(error.to_string()),
        }
    }

    /// The result again, in the parent: process `process` (from 1) of the
    /// comparison measured it, within `budget`.
    pub fn into_result(self, process: usize, budget: Duration) -> Result<Report, Error> {
        let failed = |message| Error::Replication { process, message };
        match self {
            Measured::Report(slice) => {
                let Slice { document, offsets } = *slice;
                let report = document.into_report().map_err(failed)?;
                Ok(Report { offsets, ..report })
            }
            Measured::Failed(message) => Err(failed(message)),
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
) -> Result<Report, Error> {
    let mut once = command::child(executable, Some(&Role::Once(key.to_string())));
    once.args(arguments);
    let failed = |message| Error::Replication { process, message };
    let mut child = Server::start(key, once, timeout).map_err(failed)?;
    child
        .receive::<Measured>()
        .map_err(failed)?
        .into_result(process, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::wire;
    use crate::report::fixtures;
    use crate::stats::verdict::{Expect, Verdict};

    #[test]
    fn a_report_and_a_short_budget_cross_intact() {
        let report = fixtures::report(1.25, (1.2, 1.3), Verdict::Faster, Expect::Faster);
        let line = wire::encode(&Measured::of(&Ok(report.clone())));
        let read = wire::decode::<Measured>(&line).unwrap().unwrap();
        let read = read.into_result(1, Duration::from_secs(1)).unwrap();
        assert_eq!(read.speedup, report.speedup);
        assert_eq!(read.inputs[0].round_ns, report.inputs[0].round_ns);

        let short = Measured::of(&Err(Error::BudgetTooShort {
            round: Duration::from_millis(600),
            max_time: Duration::from_millis(50),
            processes: 1,
        }));
        let error = short.into_result(2, Duration::from_millis(50)).unwrap_err();
        assert!(
            matches!(error, Error::BudgetTooShort { round, .. } if round == Duration::from_millis(600)),
            "{error:?}"
        );
        let failed = Measured::of(&Err(Error::NoInputs)).into_result(3, Duration::ZERO);
        assert!(matches!(failed, Err(Error::Replication { process: 3, .. })));
    }

    #[test]
    fn a_slices_offsets_cross_beside_its_document_and_a_frame_without_them_reads_as_none() {
        let mut report = fixtures::report(1.25, (1.2, 1.3), Verdict::Faster, Expect::Faster);
        report.offsets = Some([16, 48]);
        let line = wire::encode(&Measured::of(&Ok(report.clone())));
        let read = wire::decode::<Measured>(&line).unwrap().unwrap();
        let read = read.into_result(1, Duration::from_secs(1)).unwrap();
        assert_eq!(read.offsets, Some([16, 48]));
        assert_eq!(read.speedup, report.speedup);

        // A frame of the document alone, as a child that takes no
        // addresses (or an earlier faster) writes it.
        let document = serde_json::to_string(&Document::of_report(&report)).unwrap();
        let bare = format!("faster-frame/{} {{\"report\":{document}}}", wire::VERSION);
        let read = wire::decode::<Measured>(&bare).unwrap().unwrap();
        let read = read.into_result(1, Duration::from_secs(1)).unwrap();
        assert_eq!(read.offsets, None);
        assert_eq!(read.speedup, report.speedup);
    }
}
