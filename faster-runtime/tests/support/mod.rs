//! Helpers shared by the integration tests of the reports.

pub mod schema;
