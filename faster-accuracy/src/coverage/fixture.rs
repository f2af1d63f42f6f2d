//! The fixture of `accuracy --coverage`: a library whose tracked functions
//! do the catalog's kinds of work (`accuracy --layouts`' bodies and
//! inputs, two of them again on inputs of several sizes), and commits on
//! top of its base that each change something none of them uses: the
//! sources of each, as whole trees, and the repository made of them.

use crate::layouts::{INPUT_HELPERS, KINDS, Kind, unrelated, unrelated_functions};
use crate::repository::{self, Repository};
use std::ops::Range;

/// A tracked function: a kind's work, on the kind's inputs or on inputs
/// of several sizes.
pub struct Tracked {
    /// Its name in its kind's module, and its row in the tables.
    pub function: &'static str,
    /// The catalog's kind whose body it is, and the module it is in.
    pub kind: &'static str,
    /// `fn sizes() -> Vec<...>`: inputs of several sizes, as a maintainer
    /// tracks a function with its benchmarks' inputs; `None`: the kind's.
    sizes: Option<&'static str>,
}

/// The tracked functions, in table order: the work whose speed hangs on
/// where the linker puts it (split-and-parse, a tokenizer, a UTF-8 count,
/// a duplicate search, a table lookup, a run-length encoder, an escape, an
/// edit distance), a hash map's, which hangs on it less, and four short
/// ones of tens to hundreds of nanoseconds (a CSV line's field lengths, a
/// digit count on eight numbers, distinct bytes, a hex encoder), whose few
/// fetch blocks' places move them most.
pub const TRACKED: &[Tracked] = &[
    tracked("parse", "parse"),
    Tracked {
        function: "parse_sizes",
        kind: "parse",
        sizes: Some(
            "fn sizes() -> Vec<String> {
    let mut random = Random(12);
    [10, 50, 200, 1_000, 5_000]
        .into_iter()
        .map(|count| {
            let numbers: Vec<String> =
                (0..count).map(|_| (random.next() % 1_000_000).to_string()).collect();
            numbers.join(\",\")
        })
        .collect()
}",
        ),
    },
    tracked("tokens", "tokens"),
    tracked("utf8", "utf8"),
    Tracked {
        function: "utf8_sizes",
        kind: "utf8",
        sizes: Some(
            "fn sizes() -> Vec<String> {
    [64, 256, 1 << 10, 4 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10]
        .into_iter()
        .map(mixed_text)
        .collect()
}",
        ),
    },
    tracked("search", "search"),
    tracked("crc32", "crc32"),
    tracked("rle", "rle"),
    tracked("escape", "escape"),
    tracked("edit", "edit"),
    tracked("hashmap", "hashmap"),
    tracked("fields", "fields"),
    tracked("digits", "digits"),
    tracked("distinct", "distinct"),
    tracked("hex", "hex"),
];

/// A kind's work on its own inputs.
const fn tracked(function: &'static str, kind: &'static str) -> Tracked {
    Tracked {
        function,
        kind,
        sizes: None,
    }
}

impl Tracked {
    /// Its kind in the catalog.
    fn kind(&self) -> &'static Kind {
        KINDS
            .iter()
            .find(|kind| kind.name == self.kind)
            .unwrap_or_else(|| panic!("no kind {} in the catalog", self.kind))
    }

    /// The function, tracked, as its module holds it: its tag is its place
    /// in [`TRACKED`], so no two of the same kind's are folded into one.
    fn source(&self) -> String {
        let tag = TRACKED
            .iter()
            .position(|tracked| tracked.function == self.function)
            .expect("a tracked function")
            + 1;
        let (inputs, what) = match self.sizes {
            Some(_) => ("sizes", "on inputs of several sizes"),
            None => ("inputs", "on the kind's inputs"),
        };
        let head = format!(
            "/// The kind's work {what}.\n#[cfg_attr(test, faster::track(inputs = {inputs}))]\n"
        );
        self.kind()
            .function(&head, self.function, u8::try_from(tag).expect("few"))
    }
}

/// What a commit changes: each on top of the base, none of it anything a
/// tracked function uses, so the truth is 1.00 for every one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A comment line above the tracked functions of every module.
    Comment,
    /// Unrelated functions before the tracked ones, in each of their
    /// modules.
    AddedHere,
    /// Unrelated functions in a module of their own.
    AddedElsewhere,
    /// Most of the base's unrelated helpers deleted.
    Removed,
    /// Unrelated statics and string constants, beside the CRC's table and
    /// in the root, read by a test so they stay in the binary.
    Statics,
    /// `Cargo.toml`'s `description`.
    Description,
}

/// Every change, in the order the runs take turns.
pub const CHANGES: [Change; 6] = [
    Change::Comment,
    Change::AddedHere,
    Change::AddedElsewhere,
    Change::Removed,
    Change::Statics,
    Change::Description,
];

/// The base's unrelated helpers, in `helpers.rs`, and those
/// [`Change::Removed`] keeps.
const HELPERS: Range<usize> = 0..12;
const HELPERS_KEPT: Range<usize> = 0..4;
/// [`Change::AddedElsewhere`]'s functions, in `extra.rs`.
const ADDED_ELSEWHERE: Range<usize> = 100..116;
/// [`Change::AddedHere`]'s functions per module: from 200, a range of
/// this many per kind module, in module order.
const ADDED_HERE: usize = 3;

const BASE_DESCRIPTION: &str = "A fixture of accuracy --coverage.";
const CHANGED_DESCRIPTION: &str =
    "A fixture of accuracy --coverage: tracked functions and commits that change none of them.";
const COMMENT: &str = "// A comment: nothing tracked changes.\n";

impl Change {
    /// Its name on the command line (`--commits`) and in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Change::Comment => "comment",
            Change::AddedHere => "added-here",
            Change::AddedElsewhere => "added-elsewhere",
            Change::Removed => "removed",
            Change::Statics => "statics",
            Change::Description => "description",
        }
    }

    /// What it changes, for the header and the commit's message.
    pub fn what(self) -> String {
        match self {
            Change::Comment => "a comment line above the tracked functions of each module".into(),
            Change::AddedHere => format!(
                "{ADDED_HERE} unrelated functions before the tracked ones in each of their modules"
            ),
            Change::AddedElsewhere => format!(
                "{} unrelated functions in a new module",
                ADDED_ELSEWHERE.len()
            ),
            Change::Removed => format!(
                "{} of the {} unrelated helpers deleted",
                HELPERS.len() - HELPERS_KEPT.len(),
                HELPERS.len()
            ),
            Change::Statics => {
                "unrelated statics and string constants beside the CRC's table and in the root, \
                 read by a test"
                    .into()
            }
            Change::Description => "Cargo.toml's description".into(),
        }
    }

    /// The change named `name`.
    pub fn named(name: &str) -> Option<Change> {
        CHANGES.into_iter().find(|change| change.name() == name)
    }
}

/// The kinds' modules, in the order of [`TRACKED`], each once.
fn modules() -> Vec<&'static str> {
    let mut modules: Vec<&str> = Vec::new();
    for tracked in TRACKED {
        if !modules.contains(&tracked.kind) {
            modules.push(tracked.kind);
        }
    }
    modules
}

/// Unrelated statics and string constants named from `prefix`, and the
/// test that reads them (so they stay in the test binary).
fn unrelated_data(prefix: &str) -> String {
    format!(
        "/// Unrelated data: nothing tracked reads it.
pub static {prefix}_TABLE: [u64; 192] = {{
    let mut table = [0; 192];
    let mut index = 0;
    while index < 192 {{
        table[index] = (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        index += 1;
    }}
    table
}};
pub const {prefix}_NOTICE: &str = \"Unrelated text, kept in the binary by a test: it only moves what follows it.\";
pub static {prefix}_NAMES: [&str; 4] = [\"first unrelated name\", \"second\", \"third\", \"fourth\"];

#[test]
fn {name}_data_is_kept() {{
    let table = std::hint::black_box(&{prefix}_TABLE);
    assert_eq!(table[1], 0x9e37_79b9_7f4a_7c15);
    assert!(std::hint::black_box({prefix}_NOTICE).starts_with(\"Unrelated\"));
    assert_eq!(std::hint::black_box(&{prefix}_NAMES).len(), 4);
}}

",
        name = prefix.to_lowercase(),
    )
}

/// The module of `kind`: its tracked functions and their inputs, with
/// what `change` adds there.
fn kind_module(kind: &str, change: Option<Change>) -> String {
    let catalog = TRACKED
        .iter()
        .find(|tracked| tracked.kind == kind)
        .expect("a tracked kind")
        .kind();
    let mut source = format!(
        "//! {}.\n\n#[cfg(test)]\nuse super::*;\nuse std::hint::black_box;\n\n",
        catalog.what
    );
    match change {
        Some(Change::AddedHere) => {
            let place = modules()
                .iter()
                .position(|module| *module == kind)
                .expect("a module");
            let first = 200 + ADDED_HERE * place;
            source.push_str(&unrelated_functions(first..first + ADDED_HERE));
            source.push('\n');
        }
        Some(Change::Statics) if kind == "crc32" => {
            source.push_str(&unrelated_data("CRC_UNRELATED"))
        }
        Some(Change::Comment) => source.push_str(COMMENT),
        _ => {}
    }
    let of_kind = || TRACKED.iter().filter(|tracked| tracked.kind == kind);
    for tracked in of_kind() {
        source.push_str(&tracked.source());
        source.push('\n');
    }
    source.push_str(&format!("#[cfg(test)]\n{}\n", catalog.inputs()));
    for sizes in of_kind().filter_map(|tracked| tracked.sizes) {
        source.push_str(&format!("\n#[cfg(test)]\n{sizes}\n"));
    }
    source
}

/// The library's root: the input helpers, the kinds' modules and the
/// helpers' module, with what `change` adds there.
fn root(change: Option<Change>) -> String {
    let mut source = String::from(
        "//! Generated by `accuracy --coverage`: tracked functions of real work, and commits that \
         change\n//! none of them.\n\n",
    );
    source.push_str(INPUT_HELPERS);
    for module in modules() {
        source.push_str(&format!("pub mod {module};\n"));
    }
    source.push_str("pub mod helpers;\n");
    match change {
        Some(Change::AddedElsewhere) => source.push_str("pub mod extra;\n"),
        Some(Change::Statics) => {
            source.push('\n');
            source.push_str(&unrelated_data("ROOT_UNRELATED"));
        }
        _ => {}
    }
    source
}

/// The whole tree of the base (`None`) or of a commit: each file's path
/// and text.
pub fn tree(change: Option<Change>) -> Vec<(String, String)> {
    let description = match change {
        Some(Change::Description) => CHANGED_DESCRIPTION,
        _ => BASE_DESCRIPTION,
    };
    let helpers = match change {
        Some(Change::Removed) => HELPERS_KEPT,
        _ => HELPERS,
    };
    let mut files = vec![
        ("Cargo.toml".to_string(), repository::manifest(description)),
        ("src/lib.rs".to_string(), root(change)),
        ("src/helpers.rs".to_string(), unrelated(helpers)),
    ];
    for module in modules() {
        files.push((format!("src/{module}.rs"), kind_module(module, change)));
    }
    if change == Some(Change::AddedElsewhere) {
        files.push(("src/extra.rs".to_string(), unrelated(ADDED_ELSEWHERE)));
    }
    files
}

/// The fixture repository: the base on `main`, and each change a branch
/// of one commit on top of it.
pub struct Fixture {
    pub repository: Repository,
    pub base: String,
    /// Each change asked for and its commit.
    pub commits: Vec<(Change, String)>,
}

impl Fixture {
    /// The repository with the base and a commit per change of `changes`.
    pub fn create(changes: &[Change], keep: bool) -> Result<Fixture, String> {
        let repository = Repository::create("coverage", keep)?;
        let base = repository.commit(&tree(None), "base")?;
        let mut commits = Vec::new();
        for change in changes {
            repository.git(&["checkout", "--quiet", "-B", change.name(), &base])?;
            let commit = repository.commit(&tree(Some(*change)), &change.what())?;
            commits.push((*change, commit));
        }
        Ok(Fixture {
            repository,
            base,
            commits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines only `base` has and the lines only `commit` has, by
    /// their longest common subsequence.
    fn line_diff<'a>(base: &'a str, commit: &'a str) -> (Vec<&'a str>, Vec<&'a str>) {
        let (a, b): (Vec<&str>, Vec<&str>) = (base.lines().collect(), commit.lines().collect());
        let mut common = vec![vec![0_usize; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                common[i][j] = if a[i] == b[j] {
                    common[i + 1][j + 1] + 1
                } else {
                    common[i + 1][j].max(common[i][j + 1])
                };
            }
        }
        let (mut removed, mut added) = (Vec::new(), Vec::new());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                (i, j) = (i + 1, j + 1);
            } else if j < b.len() && (i == a.len() || common[i][j + 1] >= common[i + 1][j]) {
                added.push(b[j]);
                j += 1;
            } else {
                removed.push(a[i]);
                i += 1;
            }
        }
        (removed, added)
    }

    /// Per file the commit changes: its path, the lines removed and the
    /// lines added (a new file: every line added).
    fn changes(change: Change) -> Vec<(String, Vec<String>, Vec<String>)> {
        let base = tree(None);
        let mut changed = Vec::new();
        for (path, text) in tree(Some(change)) {
            let before = base
                .iter()
                .find(|(base_path, _)| *base_path == path)
                .map_or("", |(_, text)| text.as_str());
            let (removed, added) = line_diff(before, &text);
            if !removed.is_empty() || !added.is_empty() {
                let owned = |lines: Vec<&str>| lines.into_iter().map(str::to_string).collect();
                changed.push((path, owned(removed), owned(added)));
            }
        }
        changed
    }

    /// How many sizes `sizes` lists (`[10, 50, 200]`: 3).
    fn sizes_listed(sizes: &str) -> usize {
        let list = &sizes[sizes.find('[').expect("a list of sizes")..];
        list[..list.find(']').expect("its end")].split(',').count()
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    fn kind_paths() -> Vec<String> {
        modules()
            .iter()
            .map(|module| format!("src/{module}.rs"))
            .collect()
    }

    #[test]
    fn every_commit_keeps_the_base_s_files_and_every_tracked_function() {
        let base = tree(None);
        for change in CHANGES {
            let commit = tree(Some(change));
            for (path, _) in &base {
                assert!(
                    commit.iter().any(|(other, _)| other == path),
                    "{change:?} drops {path}"
                );
            }
            let text: String = commit.iter().map(|(_, text)| text.as_str()).collect();
            for tracked in TRACKED {
                assert!(
                    text.contains(&tracked.source()),
                    "{change:?}: {}",
                    tracked.function
                );
                assert!(text.contains(tracked.kind().inputs()));
                if let Some(sizes) = tracked.sizes {
                    assert!(text.contains(sizes));
                }
            }
        }
    }

    #[test]
    fn each_commit_differs_from_the_base_only_where_it_says() {
        for change in CHANGES {
            let changed = changes(change);
            let paths: Vec<&str> = changed.iter().map(|(path, _, _)| path.as_str()).collect();
            let removed: Vec<&String> =
                changed.iter().flat_map(|(_, removed, _)| removed).collect();
            match change {
                Change::Comment => {
                    assert_eq!(paths, kind_paths());
                    assert!(removed.is_empty());
                    for (_, _, added) in &changed {
                        assert_eq!(added, &lines(COMMENT));
                    }
                }
                Change::AddedHere => {
                    assert_eq!(paths, kind_paths());
                    assert!(removed.is_empty());
                    for (place, (_, _, added)) in changed.iter().enumerate() {
                        let first = 200 + ADDED_HERE * place;
                        let functions = unrelated_functions(first..first + ADDED_HERE);
                        // The block, and the blank line after it.
                        assert_eq!(added.concat(), lines(&functions).concat());
                        assert_eq!(added.len(), lines(&functions).len() + 1);
                    }
                }
                Change::AddedElsewhere => {
                    assert_eq!(paths, ["src/lib.rs", "src/extra.rs"]);
                    assert!(removed.is_empty());
                    assert_eq!(changed[0].2, ["pub mod extra;"]);
                    assert_eq!(changed[1].2, lines(&unrelated(ADDED_ELSEWHERE)));
                }
                Change::Removed => {
                    assert_eq!(paths, ["src/helpers.rs"]);
                    let (_, removed, added) = &changed[0];
                    let deleted = HELPERS.len() - HELPERS_KEPT.len();
                    let functions = |lines: &[String]| {
                        lines
                            .iter()
                            .filter(|line| line.starts_with("pub fn unrelated_"))
                            .count()
                    };
                    assert_eq!(functions(removed), deleted);
                    // Only the test that keeps them changes besides.
                    assert_eq!(added.len(), 2, "{added:?}");
                    assert!(added[0].starts_with("    let results: Vec<u64> = vec![unrelated_0("));
                    assert_eq!(added[1], "    assert_eq!(results.len(), 4);");
                    for line in removed {
                        assert!(
                            !TRACKED
                                .iter()
                                .any(|tracked| line.contains(tracked.function)),
                            "{line}"
                        );
                    }
                }
                Change::Statics => {
                    assert_eq!(paths, ["src/lib.rs", "src/crc32.rs"]);
                    assert!(removed.is_empty());
                    let data = |prefix| lines(&unrelated_data(prefix)).concat();
                    assert_eq!(changed[0].2.concat(), data("ROOT_UNRELATED"));
                    assert_eq!(changed[1].2.concat(), data("CRC_UNRELATED"));
                }
                Change::Description => {
                    assert_eq!(paths, ["Cargo.toml"]);
                    let (_, removed, added) = &changed[0];
                    assert_eq!(removed, &[format!("description = {BASE_DESCRIPTION:?}")]);
                    assert_eq!(added, &[format!("description = {CHANGED_DESCRIPTION:?}")]);
                }
            }
        }
    }

    #[test]
    fn the_tracked_functions_are_of_the_catalog_and_named_apart() {
        assert!(TRACKED.len() >= 8);
        let mut names: Vec<&str> = TRACKED.iter().map(|tracked| tracked.function).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TRACKED.len());
        let several: Vec<usize> = TRACKED
            .iter()
            .filter_map(|tracked| tracked.sizes)
            .map(sizes_listed)
            .collect();
        assert_eq!(several, [5, 8]);
        assert!(several.iter().all(|count| (5..=16).contains(count)));
        for tracked in TRACKED {
            // Panics for a kind not in the catalog.
            tracked.kind();
        }
        let parse = TRACKED[1].source();
        assert!(parse.starts_with(
            "/// The kind's work on inputs of several sizes.\n\
             #[cfg_attr(test, faster::track(inputs = sizes))]\n\
             pub fn parse_sizes(text: &str) -> u64 {\n    black_box(2_u8);\n"
        ));
        let module = kind_module("parse", None);
        assert_eq!(module.matches("faster::track(").count(), 2);
        assert!(module.contains("\n#[cfg(test)]\nfn inputs() -> Vec<String> {"));
        assert!(module.contains("\n#[cfg(test)]\nfn sizes() -> Vec<String> {"));
    }

    #[test]
    fn changes_are_named_for_the_command_line() {
        for change in CHANGES {
            assert_eq!(Change::named(change.name()), Some(change));
            assert!(!change.what().is_empty());
        }
        assert_eq!(Change::named("nothing"), None);
    }
}
