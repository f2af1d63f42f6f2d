//! A test binary and where it runs: what cargo builds, the base cache keeps
//! and discovery asks for its tracked functions.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A test binary and the directory `cargo test` runs it in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Executable {
    /// The binary.
    pub path: PathBuf,
    /// Its package's directory.
    pub directory: PathBuf,
}
