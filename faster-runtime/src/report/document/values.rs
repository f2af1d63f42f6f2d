//! How the document spells what is not plain JSON: figures JSON cannot
//! hold (NaN, infinity) written as `null` and read back as NaN. (Its
//! keywords, verdicts and stops are written by name: `config::by_name`.)

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
