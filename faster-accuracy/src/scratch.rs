//! The scratch folders of the modes that build a fixture (`--layouts`,
//! `--suite-cost`, `--revisions`, `--coverage`): each a fresh temporary
//! folder of its own, removed with its fixture, or kept for reading
//! afterwards (`--keep`) where the mode's header names it.

use tempfile::TempDir;

/// A fresh folder `faster-MODE-XXXXXX` in the system's temporary folder,
/// removed when dropped unless `keep`.
pub fn scratch(mode: &str, keep: bool) -> Result<TempDir, String> {
    tempfile::Builder::new()
        .prefix(&format!("faster-{mode}-"))
        .disable_cleanup(keep)
        .tempdir()
        .map_err(|error| format!("cannot make a scratch folder for the fixture: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_is_removed_unless_kept() {
        let removed = scratch("test", false).unwrap();
        let path = removed.path().to_path_buf();
        assert!(
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("faster-test-")
        );
        assert!(path.is_dir());
        drop(removed);
        assert!(!path.exists());

        let kept = scratch("test", true).unwrap();
        let path = kept.path().to_path_buf();
        drop(kept);
        assert!(path.is_dir());
        std::fs::remove_dir(&path).unwrap();
    }
}
