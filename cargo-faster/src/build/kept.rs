//! What `<target>/faster/` keeps once a run has measured: the layouts no
//! run will use again removed (see [`stale_layouts`] and
//! [`idle_layouts`]), and the line that says what is kept, its size, what
//! went and how to remove it all.

use super::shared_target;
use crate::cache::prune::{self, Pruned};
use crate::cache::{idle_layouts, stale_layouts};
use crate::cargo::Workspace;
use crate::git::Repository;
use faster_runtime::__internal::format_bytes;
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

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
