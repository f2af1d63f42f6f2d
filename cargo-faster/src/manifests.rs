//! The base revision's manifests, each path dependency outside the
//! repository pointed at where the current build reaches it.
//!
//! Cargo tells packages apart by where their manifests are, read without
//! following links. In the base's worktree a relative `path = "../faster"`
//! reaches the link laid beside it (see [`crate::sources`]), another place
//! than the current build's `../faster`, so cargo took it for another
//! package and compiled it, and every path package under it, a second time
//! (31 s of a first run's 96 s on a new library). Written as the absolute
//! path the current build reaches, it is the same package on both sides,
//! compiled once. Only the worktree's files change, never the user's.

use crate::sources::{Outside, relative_to};
use std::path::Path;
use toml_edit::{DocumentMut, Item, TableLike};

/// The tables of a manifest that name dependencies, under the top level,
/// a `[target.'cfg(…)']` table or `[workspace]`.
const DEPENDENCY_TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// Points the path dependencies of the worktree's manifests that reach
/// one of `outside` (by its place from the repository's top level) at its
/// `path`; how many it rewrote.
pub fn point_at_outside(worktree: &Path, outside: &[Outside]) -> Result<usize, String> {
    if outside.is_empty() {
        return Ok(0);
    }
    let mut rewritten = 0;
    for manifest in crate::sources::manifests_under(worktree) {
        let text = std::fs::read_to_string(&manifest)
            .map_err(|error| format!("{}: {error}", manifest.display()))?;
        let directory = manifest.parent().unwrap_or(worktree);
        let reached = |path: &str| {
            let relative = relative_to(worktree, &directory.join(path));
            outside
                .iter()
                .find(|package| package.relative == relative)
                .map(|package| package.path.to_string_lossy().into_owned())
        };
        if let Some(pointed) = pointed_at_outside(&text, reached) {
            std::fs::write(&manifest, pointed)
                .map_err(|error| format!("{}: {error}", manifest.display()))?;
            rewritten += 1;
        }
    }
    Ok(rewritten)
}

/// The manifest `text` with each dependency's `path` that `reached` maps
/// replaced by what it maps it to; `None` when none is.
fn pointed_at_outside(text: &str, reached: impl Fn(&str) -> Option<String>) -> Option<String> {
    let mut document: DocumentMut = text.parse().ok()?;
    let mut changed = false;
    let mut point = |table: &mut dyn TableLike| {
        for key in DEPENDENCY_TABLES {
            let Some(dependencies) = table.get_mut(key).and_then(Item::as_table_like_mut) else {
                continue;
            };
            for (_, dependency) in dependencies.iter_mut() {
                let Some(path) = dependency
                    .as_table_like_mut()
                    .and_then(|dependency| dependency.get_mut("path"))
                else {
                    continue;
                };
                if let Some(pointed) = path.as_str().and_then(&reached) {
                    *path = Item::Value(pointed.into());
                    changed = true;
                }
            }
        }
    };
    point(document.as_table_mut());
    if let Some(workspace) = document
        .get_mut("workspace")
        .and_then(Item::as_table_like_mut)
    {
        point(workspace);
    }
    if let Some(targets) = document.get_mut("target").and_then(Item::as_table_like_mut) {
        for (_, target) in targets.iter_mut() {
            if let Some(target) = target.as_table_like_mut() {
                point(target);
            }
        }
    }
    changed.then(|| document.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reached(path: &str) -> Option<String> {
        (path == "../faster" || path == "../../faster").then(|| "/home/me/faster".into())
    }

    #[test]
    fn every_kind_of_dependency_table_reaching_outside_is_pointed_at_the_current_place() {
        let manifest = r#"[package]
name = "demo"

[dependencies]
serde = "1"
inside = { path = "crates/inside" }

[dev-dependencies]
faster-test = { version = "0.1", path = "../faster" } # kept comment

[target.'cfg(unix)'.dev-dependencies.other]
path = "../faster"

[workspace.dependencies]
shared = { path = "../../faster" }
"#;
        let pointed = pointed_at_outside(manifest, reached).unwrap();
        assert_eq!(
            pointed.matches("\"/home/me/faster\"").count(),
            3,
            "{pointed}"
        );
        assert!(
            pointed.contains(r#"inside = { path = "crates/inside" }"#),
            "{pointed}"
        );
        assert!(pointed.contains("# kept comment"), "{pointed}");
        assert!(pointed.contains(r#"version = "0.1""#), "{pointed}");
    }

    #[test]
    fn a_manifest_with_nothing_outside_is_left_as_it_is() {
        let manifest = "[package]\nname = \"demo\"\n\n[dependencies]\nx = { path = \"x\" }\n";
        assert_eq!(pointed_at_outside(manifest, reached), None);
        assert_eq!(pointed_at_outside("not = [toml", reached), None);
    }
}
