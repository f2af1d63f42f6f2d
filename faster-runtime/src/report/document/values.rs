//! How the document spells what is not plain JSON: verdicts and stops by
//! name, and figures JSON cannot hold (NaN, infinity) written as `null`
//! and read back as NaN.

use crate::stats::samples::Stop;
use crate::stats::verdict::Verdict;

pub(super) fn parse_verdict(name: &str) -> Result<Verdict, String> {
    [Verdict::Faster, Verdict::Slower, Verdict::WithinNoise]
        .into_iter()
        .find(|verdict| verdict.name() == name)
        .ok_or_else(|| format!("unknown verdict `{name}`"))
}

pub(super) fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Converged => "converged",
        Stop::Budget => "budget",
    }
}

pub(super) fn parse_stop(name: &str) -> Result<Stop, String> {
    [Stop::Converged, Stop::Budget]
        .into_iter()
        .find(|stop| stop_name(*stop) == name)
        .ok_or_else(|| format!("unknown stop `{name}`"))
}

/// Reading back the figures JSON wrote as `null`: NaN.
pub(super) mod nullable {
    use serde::{Deserialize, Deserializer};

    pub fn number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(deserializer)?.unwrap_or(f64::NAN))
    }

    pub fn numbers<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f64>, D::Error> {
        let values = Vec::<Option<f64>>::deserialize(deserializer)?;
        Ok(values.into_iter().map(|v| v.unwrap_or(f64::NAN)).collect())
    }

    pub fn pairs<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<[f64; 2]>, D::Error> {
        let values = Vec::<[Option<f64>; 2]>::deserialize(deserializer)?;
        Ok(values
            .into_iter()
            .map(|pair| pair.map(|v| v.unwrap_or(f64::NAN)))
            .collect())
    }
}
