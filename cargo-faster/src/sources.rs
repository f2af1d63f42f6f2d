//! The base revision's sources: its git worktree, and beside it every path
//! dependency outside the repository, linked to where it is now.
//!
//! A directory outside the repository is not versioned by it, so both
//! revisions use the same one. The worktree is not where the repository
//! is, so a relative `path = "../faster"` would resolve into our cache: the
//! sources are laid out as the disk is around the repository — the worktree
//! and each outside dependency at the same places relative to each other,
//! under `<commit>/src` — and each outside dependency is a symbolic link to
//! the real directory. Without such dependencies the worktree is
//! `<commit>/src` itself.

use crate::git::Repository;
use std::ffi::OsStr;
use std::fs::DirEntry;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// A path dependency of the current build outside the repository.
#[derive(Debug, Clone, PartialEq)]
pub struct Outside {
    /// Its package's name.
    pub name: String,
    /// Its directory, from the repository's top level (`../faster`).
    pub relative: PathBuf,
    /// Its directory as cargo reaches it now.
    pub path: PathBuf,
}

/// The base revision's sources, laid out.
#[derive(Debug, Clone)]
pub struct Sources {
    /// Its worktree.
    pub worktree: PathBuf,
    /// The path dependencies outside the repository, which both revisions
    /// share.
    pub outside: Vec<Outside>,
    /// The directories linked beside the worktree: the outermost of the
    /// outside dependencies.
    pub shared: Vec<PathBuf>,
}

/// Lays the base revision's sources out in `directory`: the worktree of
/// `repository` at `commit`, and links to the path packages of the current
/// build outside the repository. `packages` are the build's path packages
/// by name and directory, and `workspace` its root, as `cargo metadata`
/// gives them.
pub fn lay_out(
    repository: &Repository,
    commit: &str,
    directory: &Path,
    (packages, workspace): (&[(String, PathBuf)], &Path),
) -> Result<Sources, String> {
    let root = canonical(&repository.root)?;
    let outside = outside(packages, workspace, &root)?;
    let layout = layout(&root, &outside)?;
    let worktree = prepare(repository, commit, directory, &layout)?;
    Ok(Sources {
        worktree,
        outside,
        shared: layout.links.into_iter().map(|(_, target)| target).collect(),
    })
}

impl Sources {
    /// Where the base revision is built, laid out in `directory`, for the
    /// line that says so: the worktree, or, where it sits under `directory`
    /// at the repository's own place (for dependencies outside it), the
    /// directory and that place apart, so the line does not read as the
    /// repository's path repeated after the directory's.
    pub fn place(&self, directory: &Path) -> String {
        match self.worktree.strip_prefix(directory) {
            Ok(under) if !under.as_os_str().is_empty() => format!(
                "{} (checked out at {} inside it, placed as the repository is around the path \
                 dependencies outside it)",
                directory.display(),
                under.display()
            ),
            _ => self.worktree.display().to_string(),
        }
    }
}

fn canonical(path: &Path) -> Result<PathBuf, String> {
    std::fs::canonicalize(path).map_err(|error| format!("{}: {error}", path.display()))
}

/// Those of `packages` (by name and directory) outside the repository at
/// `root` (a canonical path). `workspace` is the workspace root as cargo
/// gives it: cargo resolves a relative `path` from the manifest's directory
/// without following links, so the packages' places are read relative to
/// it, not to where links lead.
fn outside(
    packages: &[(String, PathBuf)],
    workspace: &Path,
    root: &Path,
) -> Result<Vec<Outside>, String> {
    let workspace_in_root = canonical(workspace)?
        .strip_prefix(root)
        .map(Path::to_path_buf)
        .map_err(|_| {
            format!(
                "the workspace {} is outside its git repository {}",
                workspace.display(),
                root.display()
            )
        })?;
    let mut outside: Vec<Outside> = packages
        .iter()
        .map(|(name, path)| Outside {
            name: name.clone(),
            relative: normalize(&workspace_in_root.join(relative_to(workspace, path))),
            path: path.clone(),
        })
        .filter(|package| package.relative.starts_with(".."))
        .collect();
    outside.sort_by(|one, other| one.relative.cmp(&other.relative));
    Ok(outside)
}

/// Where the worktree and the links go, under the sources' directory.
#[derive(Debug, Clone, PartialEq)]
struct Layout {
    /// The worktree: empty when nothing is outside the repository, else the
    /// last components of the repository's own path, as many as the
    /// dependencies climb above it.
    worktree: PathBuf,
    /// Each link's place and the directory it leads to; none inside another.
    links: Vec<(PathBuf, PathBuf)>,
}

/// The layout that puts each of `outside` where a relative path from the
/// worktree finds it, for the repository at `root`; an error naming the
/// dependency that holds the repository itself.
fn layout(root: &Path, outside: &[Outside]) -> Result<Layout, String> {
    let climbs = |relative: &Path| {
        relative
            .components()
            .take_while(|component| *component == Component::ParentDir)
            .count()
    };
    let above = outside
        .iter()
        .map(|package| climbs(&package.relative))
        .max()
        .unwrap_or(0);
    let names: Vec<Component> = root
        .components()
        .filter(|component| matches!(component, Component::Normal(_)))
        .collect();
    if above > names.len() {
        return Err(format!(
            "a path dependency climbs above the root of the file system from {}",
            root.display()
        ));
    }
    let worktree: PathBuf = names[names.len() - above..].iter().collect();
    let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
    for package in outside {
        let place = normalize(&worktree.join(&package.relative));
        if worktree.starts_with(&place) {
            return Err(format!(
                "the path dependency `{}` ({}) holds the repository {}: cargo faster cannot \
                 lay the base revision out beside it; move the repository out of it, or name \
                 the dependency by an absolute path",
                package.name,
                package.path.display(),
                root.display()
            ));
        }
        if !links.iter().any(|(link, _)| place.starts_with(link)) {
            links.retain(|(link, _)| !link.starts_with(&place));
            links.push((place, package.path.clone()));
        }
    }
    Ok(Layout { worktree, links })
}

/// Lays the sources out in `sources` as `layout` says, with
/// `commit` checked out, and returns the worktree. What is there already is
/// kept when it is this layout at this commit, else removed first (it is
/// ours, under `target/`; removing a link leaves what it leads to alone).
fn prepare(
    repository: &Repository,
    commit: &str,
    sources: &Path,
    layout: &Layout,
) -> Result<PathBuf, String> {
    let worktree = sources.join(&layout.worktree);
    // Without links the worktree is `sources` itself, and `worktree`
    // replaces whatever is there.
    if !layout.links.is_empty() {
        let linked = |(place, target): &(PathBuf, PathBuf)| {
            std::fs::read_link(sources.join(place)).is_ok_and(|found| found == *target)
        };
        if layout.links.iter().all(linked) && repository.is_worktree_at(&worktree, commit) {
            return Ok(worktree);
        }
        remove(sources)?;
        for (place, target) in &layout.links {
            let place = sources.join(place);
            if std::fs::symlink_metadata(&place).is_err() {
                link(target, &place)?;
            }
        }
    }
    repository.worktree(&worktree, commit)?;
    Ok(worktree)
}

fn remove(directory: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(directory) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("could not remove {}: {error}", directory.display()))
        }
        _ => Ok(()),
    }
}

/// A symbolic link at `place` to the directory `target`.
fn link(target: &Path, place: &Path) -> Result<(), String> {
    if let Some(parent) = place.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|error| format!("could not create {}: {error}", parent.display()))?;
    }
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(target, place);
    #[cfg(windows)]
    let made = std::os::windows::fs::symlink_dir(target, place);
    made.map_err(|error| {
        format!(
            "could not link {} to the path dependency {} outside the repository: {error}; \
             name it by an absolute path instead (on Windows, or enable Developer Mode so \
             links can be made)",
            place.display(),
            target.display()
        )
    })
}

/// `path` without `.` and with each `..` taking the component before it
/// away (as cargo joins a relative `path`, without following links).
fn normalize(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(normal.components().next_back(), Some(Component::Normal(_))) =>
            {
                normal.pop();
            }
            component => normal.push(component),
        }
    }
    normal
}

/// `path` from `base`, both absolute, without following links: `../x` for
/// a sibling.
pub fn relative_to(base: &Path, path: &Path) -> PathBuf {
    let (base, path) = (normalize(base), normalize(path));
    let common = base
        .components()
        .zip(path.components())
        .take_while(|(one, other)| one == other)
        .count();
    let mut relative: PathBuf = base
        .components()
        .skip(common)
        .map(|_| Component::ParentDir)
        .collect();
    relative.extend(path.components().skip(common));
    relative
}

/// Marks every file of the worktree at `directory` (but its `.git` and
/// `target`) changed now. The base's crates have the same file names for
/// every base commit, so a worktree checked out before another base was
/// built holds sources older than that base's files, and cargo would take
/// those for its own (on hex, PR #64's base ran a later commit's code):
/// called before a base is built, its crates are compiled from its own
/// sources.
pub fn freshen(directory: &Path) -> Result<(), String> {
    let now = SystemTime::now();
    let skip = |folder: &Path| named(folder, &["target", ".git"]);
    for entry in files_under(directory, skip) {
        if entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let path = entry.path();
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|file| file.set_modified(now))
                .map_err(|error| format!("{}: {error}", path.display()))?;
        }
    }
    Ok(())
}

/// What changes when anything of the package at `directory` does: how
/// many files it holds and when the newest changed, skipping `target`,
/// hidden directories and the packages nested in it (a folder with a
/// `Cargo.toml` of its own: a test's fixture crate, with its own
/// `Cargo.lock`, is not part of it, as `cargo package` leaves it out; a
/// nested package that is a dependency too has a fingerprint of its own).
/// A base build that used the package is stale when this reads otherwise.
pub fn fingerprint(directory: &Path) -> String {
    let skip = |folder: &Path| {
        let name = folder.file_name().unwrap_or_default();
        name == "target"
            || name.to_string_lossy().starts_with('.')
            || folder.join("Cargo.toml").exists()
    };
    let (mut files, mut newest) = (0_u64, SystemTime::UNIX_EPOCH);
    for entry in files_under(directory, skip) {
        files += 1;
        let modified = entry.metadata().and_then(|metadata| metadata.modified());
        newest = newest.max(modified.unwrap_or(SystemTime::UNIX_EPOCH));
    }
    let newest = newest
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    format!("{files} files, the newest changed at {newest:?}")
}

/// The directories of `packages` (a build's path packages, by name and
/// directory, in the worktree at `worktree`) outside the worktree, where
/// they really are: a package reached through a link to a directory
/// outside the repository is named by the directory the link leads to,
/// which [`fingerprint`] reads and a later run finds again.
pub fn outside_of(worktree: &Path, packages: &[(String, PathBuf)]) -> Vec<PathBuf> {
    let worktree = canonical(worktree).unwrap_or_else(|_| worktree.to_path_buf());
    let mut outside: Vec<PathBuf> = packages
        .iter()
        .filter_map(|(_, directory)| canonical(directory).ok())
        .filter(|directory| !directory.starts_with(&worktree))
        .collect();
    outside.sort();
    outside.dedup();
    outside
}

/// The manifests (`Cargo.toml`) of the worktree at `directory`, but under
/// its `.git` and `target`.
pub fn manifests_under(directory: &Path) -> Vec<PathBuf> {
    files_under(directory, |folder| named(folder, &["target", ".git"]))
        .into_iter()
        .filter(|entry| entry.file_name() == "Cargo.toml")
        .map(|entry| entry.path())
        .collect()
}

/// Whether `folder`'s name is one of `names`.
fn named(folder: &Path, names: &[&str]) -> bool {
    folder
        .file_name()
        .is_some_and(|name| names.iter().any(|one| name == OsStr::new(one)))
}

/// Every entry under `directory` that is not a directory, descending into
/// none `skip` says to skip (given each folder's path); a directory that
/// cannot be read is passed over.
fn files_under(directory: &Path, skip: impl Fn(&Path) -> bool) -> Vec<DirEntry> {
    let mut files = Vec::new();
    let mut pending = vec![directory.to_path_buf()];
    while let Some(directory) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&directory) else {
            continue;
        };
        for entry in entries.flatten() {
            if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                files.push(entry);
            } else if !skip(&entry.path()) {
                pending.push(entry.path());
            }
        }
    }
    files
}

impl Sources {
    /// What the base revision shares with the current code, when anything:
    /// the outermost dependencies outside the repository, by name and place.
    pub fn notice(&self) -> Option<String> {
        let named: Vec<String> = self
            .outside
            .iter()
            .filter(|package| self.shared.contains(&package.path))
            .map(|package| format!("{} ({})", package.name, package.relative.display()))
            .collect();
        (!named.is_empty()).then(|| {
            format!(
                "the base revision uses the path dependencies outside the repository as they \
                 are now (git does not version them): {}",
                named.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outside(name: &str, relative: &str, path: &str) -> Outside {
        Outside {
            name: name.into(),
            relative: relative.into(),
            path: path.into(),
        }
    }

    #[test]
    fn the_place_of_a_laid_out_worktree_does_not_repeat_the_repositorys_path() {
        let sources = |worktree: &str| Sources {
            worktree: worktree.into(),
            outside: Vec::new(),
            shared: Vec::new(),
        };
        let directory = Path::new("/cache/base/dca8a00cd540/src");
        assert_eq!(
            sources("/cache/base/dca8a00cd540/src").place(directory),
            "/cache/base/dca8a00cd540/src"
        );
        assert_eq!(
            sources("/cache/base/dca8a00cd540/src/work/repo").place(directory),
            "/cache/base/dca8a00cd540/src (checked out at work/repo inside it, placed as the \
             repository is around the path dependencies outside it)"
        );
    }

    #[test]
    fn paths_are_joined_and_compared_without_following_links() {
        assert_eq!(normalize(Path::new("a/./b/../../../c")), Path::new("../c"));
        assert_eq!(normalize(Path::new("/w/p/../q")), Path::new("/w/q"));
        let relative = |base: &str, path: &str| relative_to(Path::new(base), Path::new(path));
        assert_eq!(relative("/w/repo", "/w/faster"), Path::new("../faster"));
        assert_eq!(
            relative("/w/repo", "/w/repo/crates/a"),
            Path::new("crates/a")
        );
        assert_eq!(relative("/w/a/b", "/x"), Path::new("../../../x"));
    }

    #[test]
    fn only_packages_outside_the_repository_are_outside() {
        let temp = tempfile::tempdir().unwrap();
        let scratch = temp.path();
        let (root, workspace) = (scratch.join("repo"), scratch.join("repo/rust"));
        std::fs::create_dir_all(&workspace).unwrap();
        let packages = [
            ("app".to_string(), workspace.clone()),
            ("member".to_string(), workspace.join("member")),
            ("helper".to_string(), scratch.join("helper")),
            ("sibling".to_string(), root.join("../helper/../sibling")),
        ];
        let found = super::outside(&packages, &workspace, &canonical(&root).unwrap()).unwrap();
        assert_eq!(
            found,
            [
                outside(
                    "helper",
                    "../helper",
                    &scratch.join("helper").to_string_lossy()
                ),
                Outside {
                    path: root.join("../helper/../sibling"),
                    ..outside("sibling", "../sibling", "")
                },
            ]
        );
    }

    #[test]
    fn the_worktree_sits_as_deep_as_the_dependencies_climb() {
        let root = Path::new("/home/me/code/app");
        assert_eq!(
            layout(root, &[]).unwrap(),
            Layout {
                worktree: PathBuf::new(),
                links: vec![],
            }
        );
        let found = layout(
            root,
            &[
                outside("faster", "../faster", "/home/me/code/faster"),
                outside(
                    "runtime",
                    "../faster/runtime",
                    "/home/me/code/faster/runtime",
                ),
                outside("shared", "../../shared", "/home/me/shared"),
            ],
        )
        .unwrap();
        assert_eq!(found.worktree, Path::new("code/app"));
        assert_eq!(
            found.links,
            [
                ("code/faster".into(), "/home/me/code/faster".into()),
                ("shared".into(), "/home/me/shared".into()),
            ]
        );
        // A dependency inside another is reached through the other's link,
        // whichever comes first.
        let nested = layout(
            root,
            &[
                outside(
                    "runtime",
                    "../faster/runtime",
                    "/home/me/code/faster/runtime",
                ),
                outside("faster", "../faster", "/home/me/code/faster"),
            ],
        )
        .unwrap();
        assert_eq!(
            nested.links,
            [("faster".into(), "/home/me/code/faster".into())]
        );
    }

    #[test]
    fn a_fingerprint_changes_with_any_file_but_not_with_target() {
        let temp = tempfile::tempdir().unwrap();
        let scratch = temp.path();
        std::fs::create_dir_all(scratch.join("src")).unwrap();
        std::fs::create_dir_all(scratch.join("target")).unwrap();
        std::fs::write(scratch.join("src/lib.rs"), "").unwrap();
        let before = fingerprint(scratch);
        assert!(before.starts_with("1 files,"), "{before}");
        std::fs::write(scratch.join("target/out"), "").unwrap();
        assert_eq!(fingerprint(scratch), before);
        std::fs::write(scratch.join("src/more.rs"), "").unwrap();
        assert_ne!(fingerprint(scratch), before);
    }

    #[test]
    fn a_fingerprint_covers_its_package_not_the_packages_nested_in_it() {
        let temp = tempfile::tempdir().unwrap();
        let package = temp.path();
        let fixture = package.join("tests/fixtures/old");
        std::fs::create_dir_all(package.join("src")).unwrap();
        std::fs::create_dir_all(&fixture).unwrap();
        std::fs::write(package.join("Cargo.toml"), "[package]").unwrap();
        std::fs::write(package.join("src/lib.rs"), "").unwrap();
        std::fs::write(fixture.join("Cargo.toml"), "[package]").unwrap();
        let before = fingerprint(package);
        assert!(before.starts_with("2 files,"), "{before}");
        // A test run writes the fixture's lock file: not the package's.
        std::fs::write(fixture.join("Cargo.lock"), "version = 4").unwrap();
        assert_eq!(fingerprint(package), before);
        // A test data folder without a manifest is the package's.
        std::fs::create_dir_all(package.join("tests/data")).unwrap();
        std::fs::write(package.join("tests/data/input.txt"), "").unwrap();
        assert_ne!(fingerprint(package), before);
    }

    /// Writes `text` to `path`, changed an hour from now: later than any
    /// file before it, whatever the clock's grain.
    fn edit(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(later).unwrap();
    }

    #[test]
    fn the_base_fingerprints_each_package_it_reads_outside_and_nothing_beside_them() {
        let temp = tempfile::tempdir().unwrap();
        let scratch = temp.path();
        // ../faster, a package with its README (its lib includes it), a
        // package nested in it that only the base depends on, a test's
        // fixture crate, and notes beside them all.
        let faster = scratch.join("faster");
        edit(&faster.join("Cargo.toml"), "[package]");
        edit(&faster.join("src/lib.rs"), "");
        edit(&faster.join("README.md"), "");
        edit(&faster.join("old/Cargo.toml"), "[package]");
        edit(&faster.join("old/src/lib.rs"), "");
        edit(&faster.join("tests/fixtures/crate/Cargo.toml"), "[package]");
        edit(&scratch.join("notes.md"), "");
        // The base's worktree, with ../faster linked beside it.
        let sources = scratch.join("base/src");
        let worktree = sources.join("repo");
        std::fs::create_dir_all(&worktree).unwrap();
        link(&faster, &sources.join("faster")).unwrap();
        let packages = [
            ("app".to_string(), worktree.clone()),
            ("faster".to_string(), worktree.join("../faster")),
            ("old".to_string(), sources.join("faster/old")),
        ];
        let outside = outside_of(&worktree, &packages);
        let real = |path: &Path| canonical(path).unwrap();
        assert_eq!(outside, [real(&faster), real(&faster.join("old"))]);
        let fingerprints = || outside.iter().map(|d| fingerprint(d)).collect::<Vec<_>>();
        let before = fingerprints();
        // Outside every package: not what the base is built from.
        edit(&scratch.join("notes.md"), "more");
        edit(
            &faster.join("tests/fixtures/crate/Cargo.lock"),
            "version = 4",
        );
        edit(&faster.join("target/debug/out"), "");
        edit(&faster.join(".git/index"), "");
        assert_eq!(fingerprints(), before);
        // Inside the nested package: its own fingerprint sees it, its
        // parent's does not.
        edit(&faster.join("old/src/lib.rs"), "pub fn f() {}");
        let after = fingerprints();
        assert_eq!(after[0], before[0]);
        assert_ne!(after[1], before[1]);
        // The package's own README.
        edit(&faster.join("README.md"), "# faster");
        assert_ne!(fingerprints()[0], after[0]);
    }

    #[test]
    fn a_dependency_that_holds_the_repository_is_an_error_naming_it() {
        let error = layout(
            Path::new("/home/me/big/app"),
            &[outside("big", "..", "/home/me/big")],
        )
        .unwrap_err();
        assert!(
            error.starts_with("the path dependency `big` (/home/me/big) holds the repository"),
            "{error}"
        );
    }
}
