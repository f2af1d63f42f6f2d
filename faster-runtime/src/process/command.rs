//! How every child of faster is started, whatever it is for: one command
//! (its program, in the role it is started in, with the one environment a
//! child of faster gets) and one command line for a test binary (the one
//! test that serves, or does the one thing, alone).
//!
//! A child gets its parent's environment, the user's `FASTER_*` settings
//! included, less every variable that gives a process of faster a role:
//! a role is given to one child, never inherited. A test binary asked for
//! its list of tests by a process that is itself a server would otherwise
//! serve instead of listing, and a server's one-shot child would serve.
//! (The accuracy suite's runs of cargo at the runtime's defaults, without
//! the user's settings, are another job, and the suite's.)

use super::{CHILD_VARIABLE, Role, SERVE_VARIABLE, lifeline};
use std::path::Path;
use std::process::Command;

/// The variables that give a process of faster its role (see [`Role`]),
/// and its lifeline to the parent that gave it, which is its alone.
const ROLE_VARIABLES: [&str; 3] = [SERVE_VARIABLE, CHILD_VARIABLE, lifeline::VARIABLE];

/// The command that starts `program` as a child of faster in `role` (none
/// for a child asked something once, such as a test binary's `--list`):
/// this process's environment, [scrubbed](scrub) of its own role, with the
/// child's.
pub fn child(program: &Path, role: Option<&Role>) -> Command {
    let mut command = Command::new(program);
    scrub(&mut command);
    if let Some(role) = role {
        let (variable, value) = role.variable();
        command.env(variable, value);
    }
    command
}

/// Removes from `command`'s environment every variable that gives a
/// process of faster a role, keeping the rest (the user's `FASTER_*`
/// settings among them).
pub fn scrub(command: &mut Command) {
    for variable in ROLE_VARIABLES {
        command.env_remove(variable);
    }
}

/// The command line that runs test `test` of a test binary alone (libtest's
/// `NAME --exact`), its output not captured, on one thread: where that test
/// serves or does its one thing. A `faster::main()` target reads its role
/// before its command line, which then only names the test.
pub fn one_test(test: &str) -> Vec<String> {
    vec![
        test.to_string(),
        "--exact".into(),
        "--nocapture".into(),
        "--test-threads=1".into(),
    ]
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The variables `command` runs with, as `env` prints them.
    fn environment_of(mut command: Command) -> Vec<String> {
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_child_gets_its_own_role_and_none_inherited_and_keeps_the_users_settings() {
        let mut inherited = Command::new("env");
        inherited
            .env(SERVE_VARIABLE, "comparisons")
            .env(CHILD_VARIABLE, "replicate/4/5")
            .env("FASTER_TIMER", "thread-cpu");
        scrub(&mut inherited);
        let variables = environment_of(inherited);
        assert!(
            !variables
                .iter()
                .any(|line| line.starts_with("FASTER_SERVE=") || line.starts_with("FASTER_CHILD=")),
            "{variables:?}"
        );
        assert!(variables.contains(&"FASTER_TIMER=thread-cpu".to_string()));

        let serving = environment_of(child(Path::new("env"), Some(&Role::ServeTracked)));
        assert!(serving.contains(&"FASTER_SERVE=tracked".to_string()));
        assert!(!serving.iter().any(|line| line.starts_with("FASTER_CHILD=")));
        let once = environment_of(child(Path::new("env"), Some(&Role::Once("cell".into()))));
        assert!(once.contains(&"FASTER_CHILD=cell".to_string()));
        assert!(!once.iter().any(|line| line.starts_with("FASTER_SERVE=")));
    }
}
