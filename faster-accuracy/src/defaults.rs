//! The environment of a run the suite starts to measure (cargo, `cargo
//! faster`): the runtime's defaults, whatever the person running the suite
//! has set — no `FASTER_*` variable, no `CI` or `GITHUB_ACTIONS` (which
//! raise the noise floor to 10%), no GitHub job summary to write to.
//!
//! Not the environment a child of faster gets
//! (`faster_runtime::__internal::command`), which keeps the user's settings:
//! that child is part of the user's run, where these runs are the suite's.

use std::process::Command;

/// The variables besides `FASTER_*` that change what a run does.
const OTHER_VARIABLES: [&str; 3] = ["CI", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"];

/// Removes from `command`'s environment every variable of this process
/// that would move its run off the runtime's defaults.
pub fn at_defaults(command: &mut Command) {
    for variable in OTHER_VARIABLES {
        command.env_remove(variable);
    }
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("FASTER_") {
            command.env_remove(name);
        }
    }
}
