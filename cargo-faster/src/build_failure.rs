//! What `cargo faster` says when a revision does not build: which one, in
//! which directory, and the likely fix, read from what cargo said (which
//! the user has seen above it).

use crate::cargo::{BuildError, Cargo};
use crate::sources::relative_to;
use std::path::Path;

/// Why the current code did not build in `directory`.
pub fn of_current(error: BuildError, directory: &Path) -> String {
    match error {
        BuildError::NotRun(message) => message,
        BuildError::Failed(said) if disk_full(&said) => format!(
            "could not build the current code in {} (cargo's errors are above): {DISK_FULL}",
            directory.display()
        ),
        BuildError::Failed(_) => format!(
            "could not build the current code in {} (cargo's errors are above): fix them, and \
             run cargo faster again",
            directory.display()
        ),
    }
}

/// The fix for a build that ran out of disk, whichever revision it was.
const DISK_FULL: &str = "the disk is full (`No space left on device`): free space on the disk \
     of the target directory (`cargo faster clean` removes what cargo faster keeps there: \
     base builds, layouts, reports), and run cargo faster again";

/// Whether cargo (or what it ran) said the disk is full.
fn disk_full(said: &str) -> bool {
    said.contains("No space left on device") || said.contains("os error 28")
}

/// Why the base revision `name` did not build in `directory`, whose
/// worktree is `worktree`, as `cargo` builds both revisions.
pub fn of_base(
    error: BuildError,
    name: &str,
    (directory, worktree): (&Path, &Path),
    cargo: &Cargo,
) -> String {
    let said = match error {
        BuildError::NotRun(message) => return message,
        BuildError::Failed(said) => said,
    };
    format!(
        "could not build the base revision {name} in {} (cargo's errors are above): {}",
        directory.display(),
        likely_fix(&said, worktree, cargo)
    )
}

fn likely_fix(said: &str, worktree: &Path, cargo: &Cargo) -> String {
    if disk_full(said) {
        return DISK_FULL.into();
    }
    if let Some(manifest) = missing_manifest(said) {
        let place = manifest.parent().unwrap_or(manifest);
        return if let Ok(inside) = place.strip_prefix(worktree) {
            format!(
                "it names a path dependency, {}, that its commit does not hold: a directory \
                 git does not track (ignored, or never added) is not in the base's worktree; \
                 commit it, or keep it outside the repository",
                inside.display()
            )
        } else {
            format!(
                "it names a path dependency outside the repository, {}, that the current code \
                 does not: only the current code's are laid out beside the base, as they are \
                 now; compare against a revision that uses the same ones",
                relative_to(worktree, place).display()
            )
        };
    }
    let command = command_line(cargo);
    let flags_unknown = [
        "did not match any packages",
        "contains this feature",
        "contains these features",
        "does not have the feature",
        "does not have these features",
    ];
    if flags_unknown.iter().any(|pattern| said.contains(pattern)) {
        return format!(
            "it has no package or feature that `{command}` names (the flags apply to both \
             revisions); compare against a revision that has them, or leave them out"
        );
    }
    format!(
        "the base must build as the current code does (the same compiler, `{command}`); run \
         that there to see why, or compare against a revision that builds"
    )
}

/// The manifest cargo could not read, from `failed to read `…/Cargo.toml``.
fn missing_manifest(said: &str) -> Option<&Path> {
    let (_, rest) = said.split_once("failed to read `")?;
    let (path, _) = rest.split_once('`')?;
    path.ends_with("Cargo.toml").then_some(Path::new(path))
}

/// `cargo test --no-run --profile release -p demo`.
fn command_line(cargo: &Cargo) -> String {
    let mut words = vec![
        "cargo test --no-run --profile".to_string(),
        cargo.profile.clone(),
    ];
    words.extend(cargo.flags.iter().cloned());
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn cargo(flags: &[&str]) -> Cargo {
        Cargo {
            program: "cargo".into(),
            profile: "release".into(),
            flags: flags.iter().map(|flag| flag.to_string()).collect(),
            manifest_path: None,
            linker: None,
        }
    }

    fn base(said: &str, cargo: &Cargo) -> String {
        let worktree = PathBuf::from("/w/target/faster/base/1a2b/src/code/app");
        of_base(
            BuildError::Failed(said.into()),
            "main (1a2b3c4)",
            (&worktree, &worktree),
            cargo,
        )
    }

    #[test]
    fn the_base_failing_says_which_revision_where_and_the_likely_fix() {
        let outside = base(
            "error: failed to get `old` as a dependency of package `app`\n\nCaused by:\n  \
             failed to read `/w/target/faster/base/1a2b/src/code/old/Cargo.toml`\n",
            &cargo(&[]),
        );
        assert!(
            outside.starts_with(
                "could not build the base revision main (1a2b3c4) in \
                 /w/target/faster/base/1a2b/src/code/app (cargo's errors are above): it names a \
                 path dependency outside the repository, ../old, that the current code does not"
            ),
            "{outside}"
        );
        let untracked = base(
            "failed to read `/w/target/faster/base/1a2b/src/code/app/vendor/x/Cargo.toml`",
            &cargo(&[]),
        );
        assert!(
            untracked.contains("a path dependency, vendor/x, that its commit does not hold"),
            "{untracked}"
        );
        let features = base(
            "error: none of the selected packages contains this feature: simd\n",
            &cargo(&["--features", "simd"]),
        );
        assert!(
            features.contains(
                "it has no package or feature that `cargo test --no-run --profile release \
                 --features simd` names"
            ),
            "{features}"
        );
        let other = base(
            "error[E0425]: cannot find value `x`",
            &cargo(&["-p", "app"]),
        );
        assert!(
            other.ends_with(
                "the base must build as the current code does (the same compiler, `cargo test \
                 --no-run --profile release -p app`); run that there to see why, or compare \
                 against a revision that builds"
            ),
            "{other}"
        );
        let full = base(
            "error: failed to write /w/target/x.rlib: No space left on device (os error 28)",
            &cargo(&[]),
        );
        assert!(full.ends_with(DISK_FULL), "{full}");
        let current = of_current(
            BuildError::Failed(
                "LLVM ERROR: IO failure on output stream: No space left on device".into(),
            ),
            Path::new("/w/app"),
        );
        assert_eq!(
            current,
            format!(
                "could not build the current code in /w/app (cargo's errors are above): {DISK_FULL}"
            )
        );
        let not_run = of_base(
            BuildError::NotRun("could not run cargo: gone".into()),
            "main",
            (Path::new("/w"), Path::new("/w")),
            &cargo(&[]),
        );
        assert_eq!(not_run, "could not run cargo: gone");
    }
}
