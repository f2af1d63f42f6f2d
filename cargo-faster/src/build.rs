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
//! [`kept`] says what stays once a run has measured; `lock_file` gives a
//! base whose commit tracks no `Cargo.lock` the current one.

pub mod kept;
mod lock_file;

use crate::build_failure;
use crate::cache::prune::{self, InUse, Pruned};
use crate::cache::{self, Key, Lookup, key};
use crate::cargo::{Build, Built, Cargo, Workspace};
use crate::executable::Executable;
use crate::git::Repository;
use crate::wrapper::{self, BuildOf};
use crate::{manifests, relink, sources};
use lock_file::{copied_lock_file, share_lock_file};
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
    /// `<target>/faster/` keeps ([`kept::what_is_kept`]) once the comparison has
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

/// What builds every revision of a run, whichever its commit: the
/// repository, the current workspace and the compiler.
#[derive(Clone, Copy)]
pub struct Builds<'a> {
    /// The repository.
    pub repository: &'a Repository,
    /// The current workspace.
    pub workspace: &'a Workspace,
    /// The compiler that builds every revision, the current code too (see
    /// [`crate::toolchain::toolchain`]).
    pub rustc: &'a Path,
    /// The compiler's `rustc -vV`, which the cache's [`Key`] holds.
    pub version: &'a str,
}

impl<'a> Builds<'a> {
    /// The base revision `commit`, which messages call `name`.
    pub fn base(self, commit: &'a str, name: &'a str) -> Base<'a> {
        Base {
            builds: self,
            commit,
            name,
        }
    }
}

/// The base revision to build: which commit, named how, built by what.
pub struct Base<'a> {
    builds: Builds<'a>,
    commit: &'a str,
    name: &'a str,
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
        let faster = self.builds.workspace.target.join("faster");
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
        let shared = shared_target(self.builds.workspace);
        // The same compiler by the same path for every build here (as
        // `cargo faster test` sets it too): a build script that reruns when
        // `RUSTC` changes (`rerun-if-env-changed`) would otherwise run again
        // for each, and what depends on it be compiled again, in turn.
        let current_build = Build {
            directory,
            manifest: cargo.manifest_path.as_deref(),
            target: &shared,
            rustc: Some(self.builds.rustc),
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
            lock_file: copied_lock_file(
                self.builds.repository,
                self.commit,
                &self.builds.workspace.root,
            ),
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
        let faster = self.builds.workspace.target.join("faster");
        let base = faster.join("base");
        let key = Key {
            lock_file: copied_lock_file(
                self.builds.repository,
                self.commit,
                &self.builds.workspace.root,
            ),
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
        let (shared, apart_target) = (
            shared_target(self.builds.workspace),
            base.join(prune::APART),
        );
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
        let named = self.builds.workspace.named_alike_elsewhere(current);
        let first = named.first()?;
        let shown = first
            .strip_prefix(&self.builds.workspace.root)
            .unwrap_or(first);
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
        let base = self.builds.workspace.target.join("faster").join("base");
        let commit_dir = base.join(&self.commit[..12.min(self.commit.len())]);
        let build_dir = commit_dir.join(&cargo.profile);
        let in_use = InUse::take(&commit_dir)?;
        match cache::cached(&build_dir, key, &self.builds.workspace.root) {
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
            rustc: self.builds.version.to_string(),
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
            self.builds.repository,
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
            let root = std::fs::canonicalize(&self.builds.repository.root)
                .map_err(|error| format!("{}: {error}", self.builds.repository.root.display()))?;
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
            share_lock_file(
                &self.builds.workspace.root,
                &inside(&self.builds.workspace.root)?,
            )?;
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
                    rustc: Some(self.builds.rustc),
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
        let pruned = prune::prune(base, commit_dir, self.builds.repository, prune::KEPT);
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
