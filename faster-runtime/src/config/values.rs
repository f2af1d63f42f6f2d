//! A setting's value as text, both ways: [`AsText`], which writes a value
//! as its parser (in [`options`](crate::options)) reads it back, and
//! [`by_name`], which carries a keyword's value across processes as its
//! name.

use crate::options::{
    Expect, Keyword, MAX_PROCESSES, RUN_TIME_AUTO, TimerKind, Undecided, duration_text,
    parse_count, switch_text,
};
use std::time::Duration;

/// A setting's value written as text its parser reads back.
pub trait AsText {
    /// The text, e.g. `0.05`, `3s`, `on`, `thread-cpu`.
    fn as_text(&self) -> String;
}

impl AsText for f64 {
    fn as_text(&self) -> String {
        // Rust writes the shortest text that reads back as the same f64.
        self.to_string()
    }
}

impl AsText for usize {
    fn as_text(&self) -> String {
        self.to_string()
    }
}

impl AsText for bool {
    fn as_text(&self) -> String {
        switch_text(*self).to_string()
    }
}

impl AsText for Duration {
    fn as_text(&self) -> String {
        duration_text(*self)
    }
}

/// A run's budget as `auto` where it is the sum of its comparisons'.
impl AsText for Option<Duration> {
    fn as_text(&self) -> String {
        match self {
            Some(duration) => duration.as_text(),
            None => RUN_TIME_AUTO.to_string(),
        }
    }
}

/// [`AsText`] for each keyword a setting takes, as its name: one impl per
/// type, since a blanket impl over [`Keyword`], a trait of another crate,
/// would overlap the impls above.
macro_rules! keywords_as_text {
    ($($keyword:ty),+) => {$(
        impl AsText for $keyword {
            fn as_text(&self) -> String {
                Keyword::name(*self).to_string()
            }
        }
    )+};
}

keywords_as_text!(Expect, Undecided, TimerKind);

/// Reads a process count for replication: a whole number from 1 to
/// [`MAX_PROCESSES`].
pub fn parse_processes(text: &str) -> Result<usize, String> {
    parse_count(text, MAX_PROCESSES)
}

/// A keyword's value in serde's data model as its name, the string serde's
/// own derive would write for a unit variant renamed to it:
/// `#[serde(with = "by_name")]` on a field of a keyword's type.
pub mod by_name {
    use crate::options::Keyword;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `value` as its name.
    pub fn serialize<T: Keyword, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(value.name())
    }

    /// Reads a value from its name; an unknown name is an error listing
    /// the choices.
    pub fn deserialize<'de, T: Keyword, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let name = String::deserialize(deserializer)?;
        T::parse(&name).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{
        Expect, TimerKind, Undecided, parse_duration, parse_fraction, parse_switch,
    };

    #[test]
    fn values_written_as_text_read_back() {
        for duration in [Duration::from_secs(3), Duration::from_nanos(1_234_567)] {
            assert_eq!(parse_duration(&duration.as_text()), Ok(duration));
        }
        for floor in [0.05, 0.1, 1.0 / 3.0, 2.5] {
            assert_eq!(parse_fraction(&floor.as_text()), Ok(floor));
        }
        for switch in [true, false] {
            assert_eq!(parse_switch(&switch.as_text()), Ok(switch));
        }
        for count in [1, 100] {
            assert_eq!(parse_processes(&count.as_text()), Ok(count));
        }
        for timer in TimerKind::ALL {
            assert_eq!(TimerKind::parse(&timer.as_text()), Ok(*timer));
        }
        assert_eq!(Expect::NotSlower.as_text(), "not_slower");
        assert_eq!(Undecided::Fail.as_text(), "fail");
    }

    #[test]
    fn a_keyword_crosses_as_its_name() {
        #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        struct Carried {
            #[serde(with = "by_name")]
            timer: TimerKind,
        }
        let carried = Carried {
            timer: TimerKind::ThreadCpu,
        };
        let json = serde_json::to_string(&carried).unwrap();
        assert_eq!(json, r#"{"timer":"thread-cpu"}"#);
        assert_eq!(serde_json::from_str::<Carried>(&json).unwrap(), carried);
        let error = serde_json::from_str::<Carried>(r#"{"timer":"sundial"}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`sundial` is not a choice; write `wall`, `cycles` or `thread-cpu`"),
            "{error}"
        );
    }
}
