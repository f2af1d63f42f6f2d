//! What a measurement observed that the reader should know, as data: each
//! kind a variant, said in words by its `Display`. Code that combines
//! slices or compares observations reads the variants, never the words;
//! the judge renders them into the report's warnings.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One observation made while measuring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Notice {
    /// The functions spent `share` of the measurement asleep or waiting
    /// (for a timer, I/O, a lock, another thread) rather than computing.
    Asleep {
        /// The share of the measurement, from 0 to 1.
        share: f64,
    },
    /// Outputs were not compared before timing (`check = skip`).
    ChecksSkipped,
    /// Anything else, in the words of the part that observed it (a timer
    /// that fell back, inputs or outputs that differ across revisions, a
    /// device without timestamps).
    Said(String),
}

/// How the words that outputs were not compared start, wherever they are
/// said (for `check = skip`; across revisions, where no digest could
/// compare them).
pub const UNCHECKED: &str = "outputs were not checked";

impl Notice {
    /// `self` and `other` as one notice where they are of one kind, as the
    /// slices of one comparison each make them: the larger share asleep;
    /// the same words once. `None` where they are of different kinds.
    pub fn merged(&self, other: &Notice) -> Option<Notice> {
        match (self, other) {
            (Notice::Asleep { share }, Notice::Asleep { share: theirs }) => Some(Notice::Asleep {
                share: share.max(*theirs),
            }),
            (ours, theirs) if ours == theirs => Some(ours.clone()),
            _ => None,
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Asleep { share } => write!(
                f,
                "the functions spent {:.0}% of the measurement asleep or waiting (for a timer, \
                 I/O, a lock, another thread) rather than computing: the wall clock counts that \
                 time, as a caller would feel it; if only their computation matters, time CPU \
                 instead (FASTER_TIMER=thread-cpu)",
                100.0 * share,
            ),
            Notice::ChecksSkipped => write!(f, "{UNCHECKED} (check = skip)"),
            Notice::Said(words) => f.write_str(words),
        }
    }
}

/// `notices` with each of `more` added, merged into one of its kind where
/// there is one ([`Notice::merged`]): several slices that each saw the
/// functions wait say it once.
pub fn gather(notices: &mut Vec<Notice>, more: impl IntoIterator<Item = Notice>) {
    for notice in more {
        match notices.iter_mut().find_map(|seen| {
            let merged = seen.merged(&notice)?;
            Some((seen, merged))
        }) {
            Some((seen, merged)) => *seen = merged,
            None => notices.push(notice),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_that_saw_the_same_say_it_once_and_the_largest_share_stands() {
        let mut notices = vec![Notice::Asleep { share: 0.6 }, Notice::ChecksSkipped];
        gather(
            &mut notices,
            [
                Notice::Asleep { share: 0.7 },
                Notice::ChecksSkipped,
                Notice::Said("steal was high".into()),
                Notice::Said("steal was high".into()),
            ],
        );
        assert_eq!(
            notices,
            [
                Notice::Asleep { share: 0.7 },
                Notice::ChecksSkipped,
                Notice::Said("steal was high".into()),
            ]
        );
        assert!(
            notices[0]
                .to_string()
                .starts_with("the functions spent 70% of")
        );
        assert_eq!(
            notices[1].to_string(),
            "outputs were not checked (check = skip)"
        );
    }

    #[test]
    fn a_notice_crosses_a_process_as_data() {
        for notice in [
            Notice::Asleep { share: 0.55 },
            Notice::ChecksSkipped,
            Notice::Said("the device has no timestamp queries".into()),
        ] {
            let json = serde_json::to_string(&notice).unwrap();
            assert_eq!(serde_json::from_str::<Notice>(&json).unwrap(), notice);
        }
    }
}
