//! The docs hold what they show. Every Rust example of the README, the
//! guide (`guide/*.md`) and the crate's own documentation is built in one
//! library crate of a user's (`target/docs-examples/`), which depends on
//! this workspace through the README's own install line (`cargo add --dev
//! faster-test`, given `--path`): `cargo build` and `cargo test --release`
//! must pass without a single warning, and every verdict the docs print
//! after an example must be the verdict its comparison reaches. The
//! examples keep the default `expect = faster`, as users write them, and
//! their real verdicts are measured on whatever machine runs this: where one
//! comes out `undecided` (or decided `within noise`) rather than `faster`,
//! that comparison's test fails, and that alone is tolerated — every other
//! failure (a mismatched output, a panic, an error, a compile error) still
//! fails this test, and a verdict the docs show may read `undecided`. The
//! docs' links must lead somewhere, in both renderings of the guide
//! (GitHub's Markdown files, rustdoc's `faster::guide`), every install
//! line must name our package, and the guide's script that replays a
//! history with a tracking wrapper must do what the guide says (`history`).

mod examples;
mod failures;
mod history;
mod markdown;
mod settings;
// Each test binary uses part of the shared support.
#[allow(dead_code)]
#[path = "../support/mod.rs"]
mod support;

use examples::Example;
use failures::timing_failures_only;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every document a user reads, by its path in the repository: the README
/// (and cargo-faster's), the guide's chapters, and the crate documentation
/// of `src/lib.rs` (its `//!` lines, at their own line numbers).
fn documents() -> BTreeMap<String, String> {
    let mut documents = BTreeMap::new();
    let read = |path: &Path| std::fs::read_to_string(path).expect("a document is readable");
    for readme in ["README.md", "cargo-faster/README.md"] {
        documents.insert(readme.to_string(), read(&root().join(readme)));
    }
    for entry in std::fs::read_dir(root().join("guide")).expect("guide/ exists") {
        let path = entry.expect("guide/ is readable").path();
        if path.extension().is_some_and(|extension| extension == "md") {
            let name = format!("guide/{}", path.file_name().unwrap().to_string_lossy());
            documents.insert(name, read(&path));
        }
    }
    let crate_docs: String = read(&root().join("src/lib.rs"))
        .lines()
        .map(|line| {
            let doc = line.trim_start().strip_prefix("//!").unwrap_or("");
            format!("{}\n", doc.strip_prefix(' ').unwrap_or(doc))
        })
        .collect();
    documents.insert("src/lib.rs".to_string(), crate_docs);
    documents
}

#[test]
fn every_rust_example_builds_without_warnings_and_shows_its_verdict() {
    let documents = documents();
    let all: Vec<Example> = documents
        .iter()
        .flat_map(|(name, text)| examples::examples(name, text))
        .collect();
    assert!(
        all.len() >= 8,
        "only {} Rust examples were found",
        all.len()
    );
    let with_gpu = cfg!(feature = "gpu");
    let built: Vec<&Example> = all
        .iter()
        .filter(|example| with_gpu || !example.needs_gpu())
        .collect();

    let scratch = root().join("target/docs-examples");
    examples::write_crate(&scratch, &examples::crate_files(&built));
    std::fs::copy(root().join("Cargo.lock"), scratch.join("Cargo.lock"))
        .expect("the workspace's lock file is copied, so the offline build resolves alike");
    let manifest = scratch.join("Cargo.toml");
    add_faster(&manifest, &documents["README.md"]);
    if with_gpu {
        add_faster(&manifest, &documents["guide/gpu.md"]);
    }
    hold_to_workspace_lock(&scratch);

    let build = support::cargo_on(&manifest, &["build"], &[], &[]);
    assert_clean("cargo build", &build);
    // Every target runs, so that a timing failure in one does not hide
    // another failure in the next.
    let test = support::cargo_on(&manifest, &["test"], &["--release", "--no-fail-fast"], &[]);
    assert_clean_but_for_timing("cargo test --release", &test);

    let reached = examples::reports(&test.output);
    for example in &built {
        for (heading, shown) in &example.shown {
            let verdicts: Vec<&String> = reached
                .iter()
                .filter(|(reached_heading, _)| reached_heading == heading)
                .map(|(_, verdict)| verdict)
                .collect();
            assert!(
                !verdicts.is_empty(),
                "{}: the docs show `{heading}`, which no comparison printed:\n{}",
                example.place,
                test.output
            );
            // A real verdict that did not decide reads `undecided` (and,
            // for `expect = faster`, failed its test, which
            // `assert_clean_but_for_timing` let through).
            for verdict in verdicts {
                assert!(
                    verdict == shown || verdict == "undecided",
                    "{}: the docs show `{heading}` as {shown}; it was {verdict}:\n{}",
                    example.place,
                    test.output
                );
            }
        }
    }
}

/// Runs the first `cargo add` line of `document` on `manifest`, with the
/// path of this workspace in place of crates.io or of the checkout the
/// line names (`--path ../faster`).
fn add_faster(manifest: &Path, document: &str) {
    let line = markdown::blocks(document)
        .into_iter()
        .filter(|block| block.info == "sh")
        .flat_map(|block| block.code.lines().map(str::to_string).collect::<Vec<_>>())
        .find(|line| line.starts_with("cargo add "))
        .expect("the document shows how to add faster-test");
    let command = line.split('#').next().unwrap_or_default();
    let mut words: Vec<&str> = command.split_whitespace().skip(1).collect();
    if let Some(path) = words.iter().position(|word| *word == "--path") {
        words.truncate(path);
    }
    let path = root().to_string_lossy();
    let mut arguments = words[1..].to_vec();
    arguments.extend(["--path", path.as_ref()]);
    let added = support::cargo_on(manifest, &words[..1], &arguments, &[]);
    assert!(added.success(), "`{line}` failed:\n{}", added.output);
}

/// Holds every package of the docs crate's lock to the version the
/// workspace's lock has: resolving offline, cargo may take a newer version
/// that another build left in the shared cache over the copied lock's
/// (zerocopy 0.8.64 over 0.8.63) and then need a companion of it that is
/// not there (zerocopy-derive 0.8.64).
fn hold_to_workspace_lock(scratch: &Path) {
    let read = |path: &Path| std::fs::read_to_string(path).expect("a lock file is readable");
    let workspace = locked_versions(&read(&root().join("Cargo.lock")));
    let manifest = scratch.join("Cargo.toml");
    for (name, version) in locked_versions(&read(&scratch.join("Cargo.lock"))) {
        let held: Vec<&(String, String)> = workspace
            .iter()
            .filter(|(locked, _)| *locked == name)
            .collect();
        if let [(_, held)] = held[..] {
            if *held != version {
                let package = format!("{name}@{version}");
                let update = ["-p", &package, "--precise", held];
                let run = support::cargo_on(&manifest, &["update"], &update, &[]);
                assert!(
                    run.success(),
                    "holding {package} to {held}:\n{}",
                    run.output
                );
            }
        }
    }
}

/// The packages a lock file holds: each `[[package]]`'s name and version.
fn locked_versions(lock: &str) -> Vec<(String, String)> {
    let value = |line: &str, key: &str| {
        line.strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?
            .trim()
            .strip_prefix('"')?
            .strip_suffix('"')
            .map(str::to_string)
    };
    let mut packages = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if line == "[[package]]" {
            name = None;
        } else if let Some(named) = value(line, "name") {
            name = Some(named);
        } else if let (Some(version), Some(named)) = (value(line, "version"), name.take()) {
            packages.push((named, version));
        }
    }
    packages
}

#[test]
fn a_lock_file_s_packages_are_read_with_their_versions() {
    let lock = "version = 4\n\n[[package]]\nname = \"zerocopy\"\nversion = \"0.8.63\"\n\
                source = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n\
                [[package]]\nname = \"my_crate\"\nversion = \"0.1.0\"\n";
    assert_eq!(
        locked_versions(lock),
        [
            ("zerocopy".to_string(), "0.8.63".to_string()),
            ("my_crate".to_string(), "0.1.0".to_string())
        ]
    );
}

/// Fails unless `run` passed without a warning.
fn assert_clean(command: &str, run: &support::Run) {
    assert!(
        run.success(),
        "{command} failed on the docs' examples:\n{}",
        run.output
    );
    assert_no_warnings(command, run);
}

/// Fails unless `run`, a `cargo test --no-fail-fast`, passed without a
/// warning, or failed only on real timing verdicts that did not come out
/// `faster` (see [`timing_failures_only`]), without a warning either.
fn assert_clean_but_for_timing(command: &str, run: &support::Run) {
    let failed = (!run.success()).then(|| timing_failures_only(&run.output));
    if let Some(Err(problem)) = failed {
        panic!(
            "{command} failed on the docs' examples, {problem}:\n{}",
            run.output
        );
    }
    assert_no_warnings(command, run);
}

/// Fails if a line of `run`'s output is a warning.
fn assert_no_warnings(command: &str, run: &support::Run) {
    let warnings: Vec<&str> = run
        .output
        .lines()
        .filter(|line| line.starts_with("warning"))
        .collect();
    assert!(
        warnings.is_empty(),
        "{command} warns on the docs' examples ({}):\n{}",
        warnings.join(" | "),
        run.output
    );
}

#[test]
fn every_link_leads_somewhere() {
    let documents = documents();
    let mut broken = Vec::new();
    // src/lib.rs's links are rustdoc's, which `cargo doc -D warnings` checks.
    for (name, text) in documents.iter().filter(|(name, _)| name.ends_with(".md")) {
        let folder = Path::new(name).parent().unwrap_or(Path::new(""));
        for link in markdown::links(text) {
            let place = format!("{name}:{}", link.line);
            if let Some(problem) = dead_end(folder, name, &link.target, &documents) {
                broken.push(format!("{place}: {} {problem}", link.target));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// What is wrong with `target`, linked from the document `from` in
/// `folder`, if anything. Links to the repository on GitHub are checked
/// against the files they name; other web links are not followed.
fn dead_end(
    folder: &Path,
    from: &str,
    target: &str,
    documents: &BTreeMap<String, String>,
) -> Option<String> {
    const REPOSITORY: &str = "https://github.com/faster-rs/faster";
    let (file, anchor) = match target.strip_prefix(REPOSITORY) {
        Some(rest) => {
            let rest = rest.trim_start_matches("/blob/main/");
            let (file, anchor) = rest.split_once('#').unwrap_or((rest, ""));
            let file = if file.is_empty() { "README.md" } else { file };
            (PathBuf::from(file), anchor)
        }
        None if target.contains("://") || target.starts_with("crate::") => return None,
        None => {
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                Path::new(from).to_path_buf()
            } else {
                folder.join(file)
            };
            (file, anchor)
        }
    };
    if !root().join(&file).exists() {
        return Some("names no file of the repository".into());
    }
    if anchor.is_empty() {
        return None;
    }
    let text = documents.get(&file.to_string_lossy().replace('\\', "/"))?;
    (!markdown::anchors(text).iter().any(|a| a == anchor))
        .then(|| format!("names no heading of {}", file.display()))
}

#[test]
fn the_guides_links_lead_to_the_same_chapters_in_rustdoc() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let rustdoc: BTreeMap<String, String> = lib
        .lines()
        .filter_map(markdown::definition)
        .filter(|(_, target)| target.starts_with("crate::guide::"))
        .map(|(label, target)| (label.to_lowercase(), target.to_string()))
        .collect();
    let mut github = BTreeMap::new();
    for (name, text) in documents()
        .iter()
        .filter(|(name, _)| name.starts_with("guide/"))
    {
        let chapter = name.trim_start_matches("guide/").trim_end_matches(".md");
        assert!(
            chapter == "README"
                || lib.contains(&format!("include_str!(\"../guide/{chapter}.md\")")),
            "{name} is not a module of `faster::guide` in src/lib.rs"
        );
        for link in markdown::links(text) {
            let Some(label) = link.label else { continue };
            let Some((file, anchor)) = link.target.split_once(".md") else {
                continue;
            };
            if link.target.contains("://") {
                continue;
            }
            let in_rustdoc = format!("crate::guide::{file}{anchor}");
            let previous = github.insert(label.clone(), in_rustdoc.clone());
            assert!(
                previous.is_none_or(|previous| previous == in_rustdoc),
                "{name}:{}: [{label}] points elsewhere than in another chapter",
                link.line
            );
        }
    }
    assert_eq!(
        rustdoc, github,
        "src/lib.rs's guide_links! and the chapters' own link definitions differ"
    );
}

#[test]
fn every_install_line_names_our_package() {
    let mut install_lines = 0;
    for (name, text) in documents() {
        for (number, line) in text.lines().enumerate() {
            let place = format!("{name}:{}", number + 1);
            let line = line.trim().trim_start_matches('`');
            let declares_faster = line
                .strip_prefix("faster")
                .is_some_and(|rest| rest.trim_start().starts_with('='));
            assert!(
                !declares_faster,
                "{place}: `{line}` declares the package `faster`, an unrelated crate on \
                 crates.io: write `faster-test`"
            );
            if line.starts_with("cargo add") {
                install_lines += 1;
                assert!(
                    line.contains(" faster-test"),
                    "{place}: `{line}` does not add `faster-test`"
                );
            }
            let declares_ours = line
                .strip_prefix("faster-test")
                .is_some_and(|rest| rest.trim_start().starts_with('='));
            if declares_ours {
                install_lines += 1;
                assert!(
                    line.contains("\"0.1\"") || line.contains("version = \"0.1\""),
                    "{place}: `{line}` does not ask for version 0.1"
                );
            }
        }
    }
    assert!(install_lines >= 2, "the docs show no install line");
}
