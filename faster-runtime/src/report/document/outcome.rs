//! A document read back as the outcome it records, for the outputs to
//! render again (`cargo faster merge`), and what a reader of documents
//! needs of it besides its report: its heading, status, error, source and
//! machine.

use super::Document;
use crate::error::Error;
use crate::report::environment::Environment;
use crate::report::outcome::{Outcome, Source, Status};

impl Document {
    /// The report's heading.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How the comparison ended.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Why there is no result, where there is none.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The machine that measured.
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The outcome this document records, as the outputs render it again:
    /// its report, or its error as written (a function in one revision
    /// only, as such).
    pub fn to_outcome(&self) -> Outcome {
        let result = match self.only_in {
            Some(only_in) => Err(Error::OneSided { only_in }),
            None => self.clone().into_report().map_err(Error::Read),
        };
        let source = self.source.as_ref().map(|source| Source {
            path: self.name.clone(),
            original: source.original.clone(),
            file: source.file.clone(),
            line: source.line,
            debug_assertions: source.debug_assertions,
        });
        Outcome {
            test: self.name.clone(),
            label: self.label.clone(),
            source,
            result,
            enforced: self.status != Status::NotEnforced,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::OnlyIn;
    use crate::report::fixtures::{three_inputs, undecided_guard};

    fn round_trip(outcome: &Outcome) -> Outcome {
        let line = Document::of(outcome).to_line();
        serde_json::from_str::<Document>(&line)
            .unwrap()
            .to_outcome()
    }

    #[test]
    fn an_outcome_comes_back_from_its_document_with_its_status() {
        let outcome = |result, enforced| Outcome {
            test: "codec::encode".into(),
            label: "codec::encode".into(),
            source: None,
            result,
            enforced,
        };
        for (result, enforced) in [
            (Ok(three_inputs()), true),
            (Ok(undecided_guard()), true),
            (
                Err(Error::OneSided {
                    only_in: OnlyIn::Base,
                }),
                true,
            ),
            (
                Err(Error::OneSided {
                    only_in: OnlyIn::Current,
                }),
                true,
            ),
            (Err(Error::NoInputs), true),
        ] {
            let written = outcome(result, enforced);
            let read = round_trip(&written);
            assert_eq!(read.status(), written.status());
            assert_eq!(read.only_in(), written.only_in());
            assert_eq!(read.undecided(), written.undecided());
            assert_eq!(read.test, written.test);
        }
        let error = round_trip(&outcome(Err(Error::NoInputs), true));
        assert_eq!(
            error.result.unwrap_err().to_string(),
            Error::NoInputs.to_string()
        );
    }
}
