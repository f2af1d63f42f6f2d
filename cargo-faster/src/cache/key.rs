//! What a base build is keyed by: everything that changes what cargo builds
//! from one commit. The commit fixes the base's own sources, manifests
//! (their `[profile.*]` sections too) and tracked `.cargo/config.toml`;
//! what it does not fix is read here — the compiler, the command line, the
//! cargo configuration files outside the commit that cargo reads for the
//! base's build, the environment, and the `Cargo.lock` a commit that tracks
//! none is built with (the current workspace's, copied in). The base's worktree lives under the
//! current workspace's `target/`, so the current workspace's own
//! `.cargo/config.toml` (a `[profile.release.package.hex]` added to it,
//! say) applies to the base's build as well, and is part of its key.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What a base build was built from, recorded in its `build.json` in a
/// form a reader can check: a cached build is used only when this is equal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Key {
    /// The base commit.
    pub commit: String,
    /// The compiler's `rustc -vV`.
    pub rustc: String,
    /// `--profile`.
    pub profile: String,
    /// What to build (`-p`, `--features`, ...).
    pub flags: Vec<String>,
    /// `--manifest-path`, as given.
    pub manifest_path: Option<PathBuf>,
    /// The linker both revisions are linked with.
    pub linker: Option<PathBuf>,
    /// Every cargo configuration file the builds read, by path, with a
    /// hash of its contents (see [`config_files`]).
    pub config_files: BTreeMap<PathBuf, String>,
    /// The variables that change what cargo builds, with their values (see
    /// [`environment`]).
    pub environment: BTreeMap<String, String>,
    /// A hash of the `Cargo.lock` copied in from the current workspace
    /// when the base commit tracks none (see [`content_hash`]): the
    /// versions of its dependencies, which `cargo update` changes. `None`
    /// when the commit tracks its own, which fixes them.
    pub lock_file: Option<String>,
}

impl Key {
    /// What differs from `recorded`, each named for a message ("the
    /// compiler", ".cargo/config.toml", "RUSTFLAGS"); configuration files
    /// under `root` are named from it.
    pub fn changes_since(&self, recorded: &Key, root: &Path) -> Vec<String> {
        let fields = [
            ("the commit", self.commit == recorded.commit),
            ("the compiler", self.rustc == recorded.rustc),
            ("the profile", self.profile == recorded.profile),
            ("the cargo flags", self.flags == recorded.flags),
            (
                "--manifest-path",
                self.manifest_path == recorded.manifest_path,
            ),
            ("the linker", self.linker == recorded.linker),
            ("Cargo.lock", self.lock_file == recorded.lock_file),
        ];
        let mut changes: Vec<String> = fields
            .into_iter()
            .filter(|(_, same)| !same)
            .map(|(name, _)| name.to_string())
            .collect();
        let shown = |path: &PathBuf| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        changes.extend(changed(&self.config_files, &recorded.config_files).map(shown));
        changes.extend(changed(&self.environment, &recorded.environment).cloned());
        changes
    }
}

/// The keys of either map whose values differ between them, one missing
/// counting as different.
fn changed<'a, K: Ord, V: PartialEq>(
    now: &'a BTreeMap<K, V>,
    then: &'a BTreeMap<K, V>,
) -> impl Iterator<Item = &'a K> {
    let mut keys: Vec<&K> = now.keys().chain(then.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|key| now.get(*key) != then.get(*key))
}

/// The cargo configuration files cargo reads when run in any of
/// `directories` — `.cargo/config.toml` and `.cargo/config` in each and in
/// every directory above it — and in `cargo_home`, by path, with a hash of
/// each one's contents. Files that do not exist are left out, so one that
/// appears changes the key as well.
pub fn config_files(directories: &[&Path], cargo_home: Option<&Path>) -> BTreeMap<PathBuf, String> {
    let searched = directories
        .iter()
        .flat_map(|directory| directory.ancestors())
        .map(|directory| directory.join(".cargo"))
        .chain(cargo_home.map(Path::to_path_buf));
    let mut files = BTreeMap::new();
    for folder in searched {
        for name in ["config.toml", "config"] {
            let path = folder.join(name);
            if let Ok(contents) = std::fs::read(&path) {
                files.insert(path, content_hash(&contents));
            }
        }
    }
    files
}

/// Where cargo keeps its own configuration: `$CARGO_HOME`, else
/// `~/.cargo`.
pub fn cargo_home() -> Option<PathBuf> {
    let home = || {
        let variable = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
        std::env::var_os(variable).map(|home| PathBuf::from(home).join(".cargo"))
    };
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(home)
}

/// Variables that change what cargo or rustc build, by name.
/// `RUSTC_BOOTSTRAP` lets a stable compiler take unstable flags and lets
/// crates switch on nightly code paths (`cfg` probes in build scripts).
const BUILD_VARIABLES: [&str; 9] = [
    "RUSTFLAGS",
    "RUSTDOCFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTC_BOOTSTRAP",
    "CARGO_ENCODED_RUSTFLAGS",
    "CARGO_ENCODED_RUSTDOCFLAGS",
    "CARGO_INCREMENTAL",
];

/// The variables the `cc` crate reads to compile a build script's C and
/// C++ code, which the base's binaries link like the current code's: the
/// compilers, the archiver and their flags, and whether cc adds flags of
/// its own. Each counts in every form cc looks it up by (see
/// [`is_c_build_variable`]). Those that change only what cc prints
/// (`CC_ENABLE_DEBUG_OUTPUT`) are left out: they would rebuild the base
/// for nothing. Other build scripts' variables (cmake's, pkg-config's) are
/// not known here; `cargo faster clean` rebuilds after changing those.
const C_BUILD_VARIABLES: [&str; 8] = [
    "CC",
    "CXX",
    "AR",
    "RANLIB",
    "CFLAGS",
    "CXXFLAGS",
    "ARFLAGS",
    "CRATE_CC_NO_DEFAULTS",
];

/// Prefixes of the variables that set cargo's configuration of a build:
/// `CARGO_PROFILE_RELEASE_LTO`, `CARGO_BUILD_RUSTFLAGS`,
/// `CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS`, `CARGO_UNSTABLE_*`.
const BUILD_PREFIXES: [&str; 4] = [
    "CARGO_PROFILE_",
    "CARGO_BUILD_",
    "CARGO_TARGET_",
    "CARGO_UNSTABLE_",
];

/// Variables with those prefixes that say where or how fast cargo builds,
/// not what: the base's build has a target directory of its own.
const NOT_BUILD_VARIABLES: [&str; 4] = [
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_TARGET_DIR",
    "CARGO_TARGET_TMPDIR",
    "CARGO_BUILD_JOBS",
];

/// Those of `variables` (`std::env::vars_os()`) that change what is built,
/// with their values.
pub fn environment(
    variables: impl IntoIterator<Item = (OsString, OsString)>,
) -> BTreeMap<String, String> {
    variables
        .into_iter()
        .map(|(name, value)| {
            (
                name.to_string_lossy().into_owned(),
                value.to_string_lossy().into_owned(),
            )
        })
        .filter(|(name, _)| changes_the_build(name))
        .collect()
}

fn changes_the_build(variable: &str) -> bool {
    let named = BUILD_VARIABLES.contains(&variable);
    let prefixed = BUILD_PREFIXES
        .iter()
        .any(|prefix| variable.starts_with(prefix));
    (named || prefixed || is_c_build_variable(variable)) && !NOT_BUILD_VARIABLES.contains(&variable)
}

/// Whether cc reads `variable` as one of [`C_BUILD_VARIABLES`]: plain
/// (`CC`), for the host or the target (`HOST_CC`, `TARGET_CFLAGS`), or for
/// one target by its triple, with dashes or underscores
/// (`CC_x86_64-unknown-linux-gnu`, `CFLAGS_x86_64_unknown_linux_gnu`).
/// A triple is lower case, which tells it from cc's own settings named
/// alike (`CC_ENABLE_DEBUG_OUTPUT`).
fn is_c_build_variable(variable: &str) -> bool {
    let unprefixed = ["HOST_", "TARGET_"]
        .iter()
        .find_map(|kind| variable.strip_prefix(kind))
        .unwrap_or(variable);
    C_BUILD_VARIABLES.iter().any(|name| {
        unprefixed == *name
            || (unprefixed == variable
                && variable
                    .strip_prefix(name)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|triple| {
                        !triple.is_empty() && !triple.chars().any(|c| c.is_ascii_uppercase())
                    }))
    })
}

/// A hash of `contents` that stays the same across compilers and runs
/// (FNV-1a, 64 bits, in hexadecimal): std's hashers promise neither. A
/// file is compared with its own earlier contents; a member's `-C
/// metadata` is one ([`crate::wrapper::same_metadata`]).
pub fn content_hash(contents: &[u8]) -> String {
    let hash = contents
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(config_files: BTreeMap<PathBuf, String>, environment: BTreeMap<String, String>) -> Key {
        Key {
            commit: "1a2b".into(),
            rustc: "rustc 1.95.0".into(),
            profile: "release".into(),
            flags: vec!["-p".into(), "demo".into()],
            manifest_path: None,
            linker: None,
            config_files,
            environment,
            lock_file: None,
        }
    }

    fn variables(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(name, value)| (name.into(), value.into()))
            .collect()
    }

    #[test]
    fn a_changed_config_file_changes_the_key_and_is_named() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path();
        let (workspace, target) = (dir.join("workspace"), dir.join("workspace/target"));
        let member = workspace.join("member");
        std::fs::create_dir_all(&member).unwrap();
        let base = target.join("faster/base");
        let read = || config_files(&[&member, &base], None);
        let before = key(read(), BTreeMap::new());

        std::fs::create_dir_all(workspace.join(".cargo")).unwrap();
        let config = workspace.join(".cargo/config.toml");
        std::fs::write(
            &config,
            "[profile.release.package.hex]\ncodegen-units = 1\n",
        )
        .unwrap();
        let added = key(read(), BTreeMap::new());
        assert!(added.config_files.contains_key(&config));
        assert_eq!(
            added.changes_since(&before, &workspace),
            [".cargo/config.toml"]
        );

        std::fs::write(
            &config,
            "[profile.release.package.hex]\ncodegen-units = 16\n",
        )
        .unwrap();
        let edited = key(read(), BTreeMap::new());
        assert_ne!(edited, added);
        assert_eq!(
            edited.changes_since(&added, &workspace),
            [".cargo/config.toml"]
        );
        assert_eq!(key(read(), BTreeMap::new()), edited, "read twice, the same");

        // Cargo's home is read too, and named by its whole path.
        let home = dir.join("cargo-home");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join("config"),
            "[build]\nrustflags = [\"-Ctarget-cpu=native\"]\n",
        )
        .unwrap();
        let with_home = key(
            config_files(&[&member, &base], Some(&home)),
            BTreeMap::new(),
        );
        assert_eq!(
            with_home.changes_since(&edited, &workspace),
            [home.join("config").display().to_string()]
        );
    }

    #[test]
    fn only_variables_that_change_the_build_are_in_the_key() {
        let plain = environment(variables(&[
            ("PATH", "/bin"),
            ("RUSTFLAGS", "-Cdebuginfo=1"),
        ]));
        let unrelated = environment(variables(&[
            ("PATH", "/usr/bin"),
            ("HOME", "/home/someone"),
            ("RUSTFLAGS", "-Cdebuginfo=1"),
            ("CARGO_TERM_COLOR", "never"),
            ("CARGO_TARGET_DIR", "/elsewhere"),
            ("CARGO_BUILD_JOBS", "2"),
            ("FASTER_PROCESSES", "8"),
        ]));
        assert_eq!(
            key(BTreeMap::new(), unrelated),
            key(BTreeMap::new(), plain.clone())
        );

        let build = environment(variables(&[
            ("RUSTFLAGS", "-Ctarget-cpu=native"),
            ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1"),
            (
                "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS",
                "-Clink-arg=-s",
            ),
            ("RUSTC_WRAPPER", "sccache"),
        ]));
        let now = key(BTreeMap::new(), build);
        assert_eq!(
            now.changes_since(&key(BTreeMap::new(), plain), Path::new("/")),
            [
                "CARGO_PROFILE_RELEASE_CODEGEN_UNITS",
                "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS",
                "RUSTC_WRAPPER",
                "RUSTFLAGS"
            ]
        );
    }

    #[test]
    fn the_compiler_s_switches_and_the_c_toolchain_are_in_the_key() {
        let keyed = [
            "RUSTC_BOOTSTRAP",
            "CC",
            "CXX",
            "AR",
            "CFLAGS",
            "CXXFLAGS",
            "CRATE_CC_NO_DEFAULTS",
            "HOST_CC",
            "TARGET_CFLAGS",
            "CC_x86_64-unknown-linux-gnu",
            "CFLAGS_x86_64_unknown_linux_gnu",
            "CXXFLAGS_aarch64-apple-darwin",
        ];
        for name in keyed {
            let found = environment(variables(&[(name, "1")]));
            assert_eq!(found.get(name).map(String::as_str), Some("1"), "{name}");
        }
        let ignored = [
            "CC_ENABLE_DEBUG_OUTPUT",
            "CCACHE_DIR",
            "CFLAGS_",
            "HOST_CC_x86_64-unknown-linux-gnu",
            "ARCH",
            "CARGO_TARGET_DIR",
        ];
        for name in ignored {
            assert!(environment(variables(&[(name, "1")])).is_empty(), "{name}");
        }
        let with_cflags = key(
            BTreeMap::new(),
            environment(variables(&[("CFLAGS", "-O3")])),
        );
        assert_eq!(
            with_cflags.changes_since(&key(BTreeMap::new(), BTreeMap::new()), Path::new("/")),
            ["CFLAGS"]
        );
    }

    #[test]
    fn a_copied_lock_file_that_changed_is_named() {
        let copied = |lock: &[u8]| Key {
            lock_file: Some(content_hash(lock)),
            ..key(BTreeMap::new(), BTreeMap::new())
        };
        let before = copied(b"[[package]]\nname = \"itoa\"\nversion = \"1.0.14\"\n");
        let updated = copied(b"[[package]]\nname = \"itoa\"\nversion = \"1.0.15\"\n");
        assert_eq!(
            updated.changes_since(&before, Path::new("/")),
            ["Cargo.lock"]
        );
        // A commit that tracks its own (None) against one built with a copy.
        let tracked = key(BTreeMap::new(), BTreeMap::new());
        assert_eq!(
            tracked.changes_since(&before, Path::new("/")),
            ["Cargo.lock"]
        );
        assert!(
            before
                .changes_since(&before.clone(), Path::new("/"))
                .is_empty()
        );
    }

    #[test]
    fn the_key_reads_back_from_json_as_it_was() {
        let written = key(
            BTreeMap::from([("/w/.cargo/config.toml".into(), content_hash(b"[build]"))]),
            BTreeMap::from([("RUSTFLAGS".into(), "-Copt-level=2".into())]),
        );
        let json = serde_json::to_string(&written).unwrap();
        assert_eq!(serde_json::from_str::<Key>(&json).unwrap(), written);
        assert_ne!(content_hash(b"[build]"), content_hash(b"[build] "));
    }
}
