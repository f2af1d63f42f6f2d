//! Building both revisions' test binaries into one target directory,
//! `<target>/faster/build/` (which `cargo faster test` builds in too), so
//! what they share is compiled once: the current code in place, then the
//! base revision in a worktree of its commit, cached by commit.
//!
//! The base's own crates are kept apart from the current code's there by
//! rustc wrappers, one per revision, which also give a member the same
//! symbols on both sides (see [`crate::wrapper`]); a dependency both use — the same
//! package at the same version with the same features — is compiled by the
//! first build and fresh for the second. Where the wrapper cannot keep them
//! apart (the project sets a workspace wrapper of its own, or compiles a
//! path package inside its root that is not a member of its workspace), the
//! base is built apart, in `<target>/faster/base/target/`, and says why.
//!
//! Under `<target>/faster/base/`: `<commit>/src` is the worktree,
//! `<commit>/<profile>/` holds copies of its test binaries and
//! `build.json`, which names them and what built them (see
//! [`cache::Key`]: the compiler, the profile and the flags, and the cargo
//! configuration files and variables that change a build). When
//! `build.json` matches, nothing is built at all; when it does not, the
//! line that says the base is rebuilt says what changed. A few base commits
//! are kept, the least recently used beyond them removed (see
//! [`cache::prune`]), and the layouts made for those a run did not measure
//! removed at its end, their material kept (see [`cache::idle_layouts`]).

use crate::build_failure;
use crate::cache::prune::{self, InUse, Pruned};
use crate::cache::{self, Key, Lookup, idle_layouts, key, stale_layouts};
use crate::cargo::{Build, Built, Cargo, Workspace};
use crate::executable::Executable;
use crate::git::Repository;
use crate::wrapper::{self, BuildOf};
use crate::{manifests, relink, sources};
use faster_runtime::__internal::format_bytes;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Cargo's target directory for both revisions and `cargo faster test`:
/// `<target>/faster/build/` of `workspace`.
pub fn shared_target(workspace: &Workspace) -> PathBuf {
    workspace.target.join("faster").join("build")
}

/// Both revisions' test binaries.
pub struct TestBinaries {
    /// The current code's.
    pub current: Vec<Executable>,
    /// The base revision's, cached.
    pub base: Vec<Executable>,
    /// What pruning left of the base commits, to say with the size of what
    /// `<target>/faster/` keeps ([`what_is_kept`]) once the comparison has
    /// made its layouts.
    pub kept: Pruned,
    /// Whether the base was built now (not found in the cache).
    pub built: bool,
}

/// The base's test binaries, with the hold on them, whether they were
/// built now, and what pruning the other base commits left.
struct Cached {
    executables: Vec<Executable>,
    in_use: InUse,
    built: bool,
    pruned: Pruned,
}

/// The base revision to build: which commit, named how, from which
/// repository, for which workspace.
pub struct Base<'a> {
    /// The repository.
    pub repository: &'a Repository,
    /// The commit.
    pub commit: &'a str,
    /// How messages name it.
    pub name: &'a str,
    /// The current workspace.
    pub workspace: &'a Workspace,
    /// The compiler that builds it, and the current code (see
    /// [`crate::toolchain::toolchain`]).
    pub rustc: &'a Path,
    /// The compiler's `rustc -vV`, which the cache's [`Key`] holds.
    pub version: &'a str,
}

/// Where the base is built, through which wrapper, and why not beside the
/// current code when it is not.
struct Where<'a> {
    target: &'a Path,
    wrapper: Option<&'a Path>,
    apart: Option<&'a str>,
}

impl Base<'_> {
    /// Both revisions' test binaries: the current code's, built in the
    /// shared target directory, then the base's, from the cache when it
    /// holds this commit built from the same [`Key`], else built now —
    /// beside the current code's where their own crates can be kept apart,
    /// else in a target directory of its own — and cached; with the hold
    /// that keeps other runs from pruning the base's while they are used.
    /// Older base commits beyond a few are pruned (see [`prune`]).
    pub fn both(&self, cargo: &Cargo, directory: &Path) -> Result<(TestBinaries, InUse), String> {
        let faster = self.workspace.target.join("faster");
        let base = faster.join("base");
        let key = self.key(cargo, directory, &base);
        let project_wrapper = wrapper::project_wrapper(
            key.environment.get(wrapper::VARIABLE).map(String::as_str),
            key.config_files.keys().map(PathBuf::as_path),
        );
        let wrappers = match project_wrapper {
            Some(_) => None,
            None => Some((
                wrapper::place(&faster, BuildOf::Current)?,
                wrapper::place(&faster, BuildOf::Base)?,
            )),
        };
        let shared = shared_target(self.workspace);
        // The same compiler by the same path for every build here (as
        // `cargo faster test` sets it too): a build script that reruns when
        // `RUSTC` changes (`rerun-if-env-changed`) would otherwise run again
        // for each, and what depends on it be compiled again, in turn.
        let current_build = Build {
            directory,
            manifest: cargo.manifest_path.as_deref(),
            target: &shared,
            rustc: Some(self.rustc),
            wrapper: wrappers.as_ref().map(|(current, _)| current.as_path()),
        };
        let build_current = || {
            cargo
                .test_binaries(&current_build)
                .map_err(|error| build_failure::of_current(error, directory))
        };
        let current = relinked_where_damaged(cargo, "the current code", build_current)?;
        // Read once the current code is built: cargo writes a `Cargo.lock`
        // where there was none, and that is the one the base gets.
        let key = Key {
            lock_file: copied_lock_file(self.repository, self.commit, &self.workspace.root),
            ..key
        };
        let apart = project_wrapper.or_else(|| self.named_alike(&current));
        let apart_target = base.join(prune::APART);
        let place = match &apart {
            Some(why) => Where {
                target: &apart_target,
                wrapper: wrappers.as_ref().map(|(_, base)| base.as_path()),
                apart: Some(why),
            },
            None => Where {
                target: &shared,
                wrapper: wrappers.as_ref().map(|(_, base)| base.as_path()),
                apart: None,
            },
        };
        let cached = self.test_binaries(cargo, directory, &key, &place)?;
        if cached.built && apart.is_none() && current.binaries {
            // The base's build put its binaries where the current code's
            // integration tests run theirs (`CARGO_BIN_EXE_<name>`): cargo
            // puts the current code's back, compiling nothing.
            build_current()?;
        }
        prune::remove_unused_targets(&faster, apart.is_some());
        let test_binaries = TestBinaries {
            current: current.executables,
            base: cached.executables,
            kept: cached.pruned,
            built: cached.built,
        };
        Ok((test_binaries, cached.in_use))
    }

    /// This commit's test binaries alone, the current code not built: from
    /// the cache when it holds this commit built from the same [`Key`], else
    /// built now beside the other commits' (apart where the project sets a
    /// wrapper of its own) and cached; with the hold that keeps other runs
    /// from pruning them while they are used. For a run whose every
    /// revision is a commit (`cargo faster bisect`): each built as a base
    /// is, so any two compare as a base and the current code do.
    pub fn alone(
        &self,
        cargo: &Cargo,
        directory: &Path,
    ) -> Result<(Vec<Executable>, InUse), String> {
        let faster = self.workspace.target.join("faster");
        let base = faster.join("base");
        let key = Key {
            lock_file: copied_lock_file(self.repository, self.commit, &self.workspace.root),
            ..self.key(cargo, directory, &base)
        };
        let project_wrapper = wrapper::project_wrapper(
            key.environment.get(wrapper::VARIABLE).map(String::as_str),
            key.config_files.keys().map(PathBuf::as_path),
        );
        let wrapper = match project_wrapper {
            Some(_) => None,
            None => Some(wrapper::place(&faster, BuildOf::Base)?),
        };
        let (shared, apart_target) = (shared_target(self.workspace), base.join(prune::APART));
        let place = Where {
            target: if project_wrapper.is_some() {
                &apart_target
            } else {
                &shared
            },
            wrapper: wrapper.as_deref(),
            apart: project_wrapper.as_deref(),
        };
        let cached = self.test_binaries(cargo, directory, &key, &place)?;
        Ok((cached.executables, cached.in_use))
    }

    /// Why the base cannot be built beside `current`, when it cannot: the
    /// path packages inside the workspace's root that are not its members.
    fn named_alike(&self, current: &Built) -> Option<String> {
        let named = self.workspace.named_alike_elsewhere(current);
        let first = named.first()?;
        let shown = first.strip_prefix(&self.workspace.root).unwrap_or(first);
        Some(format!(
            "{} is a path package inside the workspace but not a member of it{}, which cargo \
             would name alike in both revisions",
            shown.parent().unwrap_or(shown).display(),
            match named.len() {
                1 => String::new(),
                more => format!(" (and {} more)", more - 1),
            }
        ))
    }

    /// The base revision's test binaries, from the cache or built in
    /// `place`'s target directory now and cached, with the hold that keeps
    /// other runs from pruning them while they are used; the base commits
    /// beyond a few pruned.
    fn test_binaries(
        &self,
        cargo: &Cargo,
        directory: &Path,
        key: &Key,
        place: &Where,
    ) -> Result<Cached, String> {
        let base = self.workspace.target.join("faster").join("base");
        let commit_dir = base.join(&self.commit[..12.min(self.commit.len())]);
        let build_dir = commit_dir.join(&cargo.profile);
        let in_use = InUse::take(&commit_dir)?;
        match cache::cached(&build_dir, key, &self.workspace.root) {
            Lookup::Built(cached) => {
                eprintln!(
                    "cargo faster: the base revision {} is built already ({})",
                    self.name,
                    build_dir.display()
                );
                return Ok(Cached {
                    executables: cached,
                    in_use,
                    built: false,
                    pruned: self.prune(&base, &commit_dir),
                });
            }
            Lookup::Stale(why) => eprintln!(
                "cargo faster: the base revision {} is rebuilt: {why}",
                self.name
            ),
            Lookup::Absent => {}
        }
        let built = self.build(cargo, directory, (&commit_dir, place), (&build_dir, key))?;
        Ok(Cached {
            executables: built,
            in_use,
            built: true,
            pruned: self.prune(&base, &commit_dir),
        })
    }

    /// What this base build is from: the commit, the compiler, the command
    /// line, and the configuration files and variables cargo reads for it
    /// — those around `directory`, where cargo runs for the current code,
    /// and around `base`, where the base's worktree is.
    fn key(&self, cargo: &Cargo, directory: &Path, base: &Path) -> Key {
        Key {
            commit: self.commit.to_string(),
            rustc: self.version.to_string(),
            profile: cargo.profile.clone(),
            flags: cargo.flags.clone(),
            manifest_path: cargo.manifest_path.clone(),
            linker: cargo.linker.as_ref().map(|(_, linker)| linker.clone()),
            config_files: key::config_files(&[directory, base], key::cargo_home().as_deref()),
            environment: key::environment(std::env::vars_os()),
            // Known once the current code is built (see `both`).
            lock_file: None,
        }
    }

    /// Builds the base revision in a worktree in `commit_dir`, into
    /// `place`'s target directory, and keeps its test binaries in `build_dir`,
    /// recorded under `key`.
    fn build(
        &self,
        cargo: &Cargo,
        directory: &Path,
        (commit_dir, place): (&Path, &Where),
        (build_dir, key): (&Path, &Key),
    ) -> Result<Vec<Executable>, String> {
        let started = Instant::now();
        let (packages, workspace_root) =
            cargo.path_packages(directory, cargo.manifest_path.as_deref())?;
        let sources = sources::lay_out(
            self.repository,
            self.commit,
            &commit_dir.join("src"),
            (&packages, &workspace_root),
        )?;
        let worktree = &sources.worktree;
        eprintln!(
            "cargo faster: building the base revision {} in {}",
            self.name,
            sources.place(&commit_dir.join("src"))
        );
        if let Some(notice) = sources.notice() {
            eprintln!("cargo faster: {notice}");
        }
        if let Some(why) = place.apart {
            eprintln!(
                "cargo faster: the base revision is built apart from the current code, its \
                 dependencies compiled again: {why}"
            );
        }
        let inside = |path: &Path| -> Result<PathBuf, String> {
            let path = std::fs::canonicalize(path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let root = std::fs::canonicalize(&self.repository.root)
                .map_err(|error| format!("{}: {error}", self.repository.root.display()))?;
            let relative = path.strip_prefix(&root).map_err(|_| {
                format!(
                    "{} is outside the repository {}",
                    path.display(),
                    root.display()
                )
            })?;
            Ok(worktree.join(relative))
        };
        manifests::point_at_outside(worktree, &sources.outside)?;
        sources::freshen(worktree)?;
        let base_directory = inside(directory)?;
        let base_manifest = cargo.manifest_path.as_deref().map(inside).transpose()?;
        if key.lock_file.is_some() {
            share_lock_file(&self.workspace.root, &inside(&self.workspace.root)?)?;
        }
        // Taken before building: a change while it builds is seen next time.
        // Each outside package's own, not its folder's: a fixture crate a
        // test wrote under it is not what the base is built from. The
        // base's own path packages, not the current build's: through the
        // links it may read a package nested in one that only it depends on.
        let outside = match cargo.path_packages(&base_directory, base_manifest.as_deref()) {
            Ok((packages, _)) => sources::outside_of(worktree, &packages),
            // Its manifests do not read as a whole (its build says why):
            // the packages the current build reads outside, as it links them.
            Err(_) => sources
                .outside
                .iter()
                .map(|package| package.path.clone())
                .collect(),
        };
        let shared = cache::fingerprints(&outside);
        let build_base = || {
            cargo
                .test_binaries(&Build {
                    directory: &base_directory,
                    manifest: base_manifest.as_deref(),
                    target: place.target,
                    rustc: Some(self.rustc),
                    wrapper: place.wrapper,
                })
                .map_err(|error| {
                    build_failure::of_base(error, self.name, (&base_directory, worktree), cargo)
                })
        };
        let built = relinked_where_damaged(
            cargo,
            &format!("the base revision {}", self.name),
            build_base,
        )?;
        let kept = cache::keep(&built.executables, build_dir, key, shared)?;
        eprintln!(
            "cargo faster: built the base revision {} in {:.1} s",
            self.name,
            started.elapsed().as_secs_f64()
        );
        Ok(kept)
    }

    /// Prunes the base commits under `base` beyond the few kept, never
    /// `commit_dir`'s, saying which could not be removed.
    fn prune(&self, base: &Path, commit_dir: &Path) -> Pruned {
        let pruned = prune::prune(base, commit_dir, self.repository, prune::KEPT);
        for failure in &pruned.failures {
            eprintln!("cargo faster: {failure}");
        }
        pruned
    }
}

/// What `build` builds, built once more where, linked through faster-link,
/// a binary of `revision` could not be relinked in layouts: its file
/// removed, cargo links it again (see [`relink`]).
fn relinked_where_damaged<E>(
    cargo: &Cargo,
    revision: &str,
    build: impl Fn() -> Result<Built, E>,
) -> Result<Built, E> {
    let built = build()?;
    if cargo.linker.is_some() && relink::remove_damaged(&built.executables, revision) {
        return build();
    }
    Ok(built)
}

/// The layouts the end of a run removed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LayoutsRemoved {
    /// Those of test binaries cargo has superseded, which no run will use
    /// again (see [`stale_layouts`]).
    pub stale: stale_layouts::Removed,
    /// Those made for the base revisions the run did not measure, which a
    /// run measuring one again relinks (see [`idle_layouts`]).
    pub idle: idle_layouts::Removed,
}

impl LayoutsRemoved {
    /// Whether any were.
    pub fn any(&self) -> bool {
        self.stale.folders > 0 || self.idle.revisions > 0
    }
}

/// Removes from `<target>/faster/` of `workspace` the layouts no run will
/// use again (see [`stale_layouts`]), and those made for the base
/// revisions of `repository` but `measured`'s (see [`idle_layouts`]).
pub fn remove_unneeded_layouts(
    workspace: &Workspace,
    repository: &Repository,
    measured: &Path,
) -> LayoutsRemoved {
    let base = workspace.target.join("faster").join("base");
    LayoutsRemoved {
        stale: stale_layouts::prune(&shared_target(workspace)),
        idle: idle_layouts::prune(&base, measured, repository),
    }
}

/// One line saying what `<target>/faster/` of `workspace` keeps, with what
/// `pruned` left and the size of each part on disk, the layouts made from
/// the test binaries included, what `removed` says went, and how to remove
/// it all.
pub fn what_is_kept(workspace: &Workspace, pruned: &Pruned, removed: LayoutsRemoved) -> String {
    let faster = workspace.target.join("faster");
    let shown = faster.strip_prefix(&workspace.root).unwrap_or(&faster);
    let sizes = prune::disk_usage(&[&shared_target(workspace), &faster.join("base")]);
    let mut line = pruned.summary(shown, (sizes[1], sizes[0]));
    line.push_str(&layouts_removed(removed));
    line.push_str("; `cargo faster clean` removes it all");
    line
}

/// What `removed` says, as the part of [`what_is_kept`]'s line after what
/// is kept: "; removed the layouts of 4 older test binaries (380 MiB) and
/// those of 2 base revisions not measured now (190 MiB; relinked if
/// measured again)", or nothing.
fn layouts_removed(LayoutsRemoved { stale, idle }: LayoutsRemoved) -> String {
    let counted = |count: usize, one: &str, many: &str| {
        format!("{count} {}", if count == 1 { one } else { many })
    };
    let mut parts = Vec::new();
    if stale.folders > 0 {
        parts.push(format!(
            "the layouts of {} ({})",
            counted(stale.folders, "older test binary", "older test binaries"),
            format_bytes(stale.bytes)
        ));
    }
    if idle.revisions > 0 {
        parts.push(format!(
            "{} of {} not measured now ({}; relinked if measured again)",
            if parts.is_empty() {
                "the layouts"
            } else {
                "those"
            },
            counted(idle.revisions, "base revision", "base revisions"),
            format_bytes(idle.bytes)
        ));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!("; removed {}", parts.join(" and "))
}

/// A hash of the current workspace's `Cargo.lock` (at `workspace`, its
/// root) where `commit` of `repository` tracks none there: the base is
/// built with a copy of it ([`share_lock_file`]), so its key records which.
/// `None` where the commit tracks its own, or there is none to copy.
fn copied_lock_file(repository: &Repository, commit: &str, workspace: &Path) -> Option<String> {
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    let inside = canonical(workspace)?
        .strip_prefix(canonical(&repository.root)?)
        .ok()?
        .join("Cargo.lock");
    // git names paths with `/` on every system.
    let tracked: Vec<String> = inside
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if repository.tracks(commit, &tracked.join("/")) {
        return None;
    }
    let contents = std::fs::read(workspace.join("Cargo.lock")).ok()?;
    Some(key::content_hash(&contents))
}

/// Gives a base revision whose commit tracks no `Cargo.lock` the current
/// workspace's, so both builds use the same versions of their
/// dependencies; `current` and `base` are the workspace's root in each.
/// One copied for an earlier build is replaced: the current one may have
/// changed since (`cargo update`), which is why the base is rebuilt.
fn share_lock_file(current: &Path, base: &Path) -> Result<(), String> {
    if !base.is_dir() {
        // The workspace is not where the base commit has it: cargo's own
        // error on building there says so better than a failed copy.
        return Ok(());
    }
    let (current, base) = (current.join("Cargo.lock"), base.join("Cargo.lock"));
    std::fs::copy(&current, &base).map(drop).map_err(|error| {
        format!(
            "could not copy {} to {}: {error}",
            current.display(),
            base.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(directory: &Path, arguments: &[&str]) -> String {
        let output = Command::new("git")
            .arg("-C")
            .arg(directory)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(arguments)
            .output()
            .unwrap();
        assert!(output.status.success(), "git {arguments:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    #[test]
    fn a_base_that_tracks_no_lock_file_is_keyed_by_the_copy_it_gets() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("repo");
        let workspace = root.join("rust");
        std::fs::create_dir_all(&workspace).unwrap();
        git(&root, &["init", "-q"]);
        std::fs::write(workspace.join("Cargo.toml"), "[workspace]\n").unwrap();
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", "no lock file"]);
        let untracked = git(&root, &["rev-parse", "HEAD"]);
        let repository = Repository { root: root.clone() };
        let lock = workspace.join("Cargo.lock");

        assert_eq!(
            copied_lock_file(&repository, &untracked, &workspace),
            None,
            "none to copy"
        );
        std::fs::write(&lock, "version = 4\n# itoa 1.0.14\n").unwrap();
        let before = copied_lock_file(&repository, &untracked, &workspace);
        assert!(before.is_some());
        // `cargo update`: the same commit is keyed otherwise.
        std::fs::write(&lock, "version = 4\n# itoa 1.0.15\n").unwrap();
        let after = copied_lock_file(&repository, &untracked, &workspace);
        assert!(after.is_some());
        assert_ne!(after, before);

        // A commit that tracks its own is fixed by it, whatever the current one.
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", "lock file"]);
        let tracked = git(&root, &["rev-parse", "HEAD"]);
        assert_eq!(copied_lock_file(&repository, &tracked, &workspace), None);
        assert_eq!(after, copied_lock_file(&repository, &untracked, &workspace));

        // The copy an earlier build got is replaced by the current one.
        let base = temp.path().join("base");
        std::fs::create_dir_all(&base).unwrap();
        std::fs::write(base.join("Cargo.lock"), "version = 4\n# itoa 1.0.14\n").unwrap();
        share_lock_file(&workspace, &base).unwrap();
        assert_eq!(
            share_lock_file(&workspace, &temp.path().join("moved")),
            Ok(())
        );
        assert_eq!(
            std::fs::read(base.join("Cargo.lock")).unwrap(),
            std::fs::read(&lock).unwrap()
        );
    }

    #[test]
    fn the_line_says_which_layouts_went_and_that_a_base_s_come_back() {
        let stale = stale_layouts::Removed {
            folders: 4,
            bytes: 380 << 20,
        };
        let idle = idle_layouts::Removed {
            revisions: 2,
            bytes: 190 << 20,
        };
        let said = |stale, idle| layouts_removed(LayoutsRemoved { stale, idle });
        assert_eq!(
            said(stale, idle),
            "; removed the layouts of 4 older test binaries (380 MiB) and those of 2 base \
             revisions not measured now (190 MiB; relinked if measured again)"
        );
        let one = idle_layouts::Removed {
            revisions: 1,
            bytes: 95 << 20,
        };
        assert_eq!(
            said(Default::default(), one),
            "; removed the layouts of 1 base revision not measured now (95.0 MiB; relinked if \
             measured again)"
        );
        let stale = stale_layouts::Removed {
            folders: 1,
            bytes: 95 << 20,
        };
        assert_eq!(
            said(stale, Default::default()),
            "; removed the layouts of 1 older test binary (95.0 MiB)"
        );
        assert_eq!(said(Default::default(), Default::default()), "");
        assert!(!LayoutsRemoved::default().any());
    }
}
