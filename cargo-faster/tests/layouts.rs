//! Layouts of the binary for real: a fixture library tested with `cargo
//! faster test --release`, as the README's set-up says, which runs real
//! cargo (offline, from what this workspace's build has fetched) linking
//! through the real `faster-link`. Each is measured in processes that run in
//! layouts of their own — the same code relinked with lld's
//! `--shuffle-sections` — and says so; a copy of the binary that no linker
//! kept material for says its verdict holds for that build only.
//!
//! Timing is not what is tested here (every comparison says `expect =
//! report`): the accuracy suite measures it (`accuracy --layouts`).

mod common;

use common::Fixture;
use std::path::Path;
use std::process::Command;

const LIBRARY: &str = r#"
pub fn parse_sum(text: &str) -> u64 {
    text.split(',').filter_map(|field| field.parse::<u64>().ok()).sum()
}

#[cfg_attr(test, faster::compare(original = parse_sum, inputs = lines, expect = report, max_time = "400ms"))]
pub fn parse_sum_again(text: &str) -> u64 {
    text.split(',').filter_map(|field| field.parse::<u64>().ok()).fold(0, |sum, n| sum + n)
}

#[cfg(test)]
fn lines() -> Vec<String> {
    vec![(0..200).map(|n| n.to_string()).collect::<Vec<_>>().join(",")]
}
"#;

impl Fixture {
    /// The fixture crate, with faster as a dev-dependency (as the README's
    /// set-up says).
    fn new() -> Fixture {
        let fixture = Fixture::scratch("faster-layouts-");
        let manifest = common::manifest("fixture").replace("[dependencies]", "[dev-dependencies]");
        fixture.write("Cargo.toml", &manifest);
        fixture.write("src/lib.rs", LIBRARY);
        fixture
    }

    /// `cargo faster ARGUMENTS` in the fixture: its exit status and
    /// output. The fixture's target directory is kept between runs, so only
    /// the first one builds `faster` for it (`cargo faster test` builds
    /// under its `faster/build/`).
    fn cargo_faster(&self, arguments: &[&str]) -> (bool, String) {
        let output = self
            .command(arguments, &common::target("layouts-fixture"))
            .env("FASTER_OUTPUT_DIR", self.root.join("reports"))
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.success(), text)
    }
}

/// The report file of the fixture's one comparison.
fn report(fixture: &Fixture) -> serde_json::Value {
    let path = fixture
        .root
        .join("reports/src/fixture.faster_parse_sum_again.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
#[cfg_attr(
    not(all(target_os = "linux", target_arch = "x86_64")),
    ignore = "layouts vary with lld on x86-64 Linux"
)]
fn each_process_runs_in_a_layout_of_its_own_and_a_copy_says_it_has_none() {
    let fixture = Fixture::new();
    let (passed, output) = fixture.cargo_faster(&["test", "--release"]);
    assert!(passed, "{output}");
    assert!(
        output.contains("cargo faster: cargo test, linked through faster-link in"),
        "{output}"
    );
    assert!(
        output.contains("layouts of the binary (the same code linked in another order"),
        "{output}"
    );

    let result = &report(&fixture)["result"];
    assert_eq!(result["scope"]["layouts"], true, "{result}");
    let layouts: Vec<u64> = result["processes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|process| process["layout"].as_u64().unwrap())
        .collect();
    assert!(layouts.len() >= 4, "{layouts:?}");
    // One entry per slice, the processes in turn: slice i runs in process
    // (and layout) i + 1, pass after pass once a comparison that stays
    // undecided has measured a slice in each of the most processes there
    // are (64, `MOST_LAYOUTS` in the runtime's `engine/replicate.rs`).
    const MOST_LAYOUTS: u64 = 64;
    for (slice, layout) in layouts.iter().enumerate() {
        assert_eq!(
            *layout,
            slice as u64 % MOST_LAYOUTS + 1,
            "slice {slice}: {layouts:?}"
        );
    }
    let mut distinct = layouts.clone();
    distinct.sort_unstable();
    distinct.dedup();

    // The layouts are the same code in other orders: binaries of about the
    // same size, none of them byte for byte the binary as linked, nor
    // another layout.
    // The binary this run tested, as cargo names it ("Running unittests
    // src/lib.rs (PATH)"): the deps folder may also hold an earlier build's.
    let binary = output
        .lines()
        .filter(|line| line.trim_start().starts_with("Running unittests"))
        .find_map(|line| line.rsplit_once('(')?.1.strip_suffix(')'))
        .map(|path| fixture.root.join(path))
        .unwrap_or_else(|| panic!("no test binary named in {output}"));
    let mut folder = binary.clone().into_os_string();
    folder.push(".layouts");
    let original = std::fs::read(&binary).unwrap();
    let mut seen = vec![original.clone()];
    for layout in &distinct {
        let relinked = std::fs::read(Path::new(&folder).join(format!("layout-{layout}"))).unwrap();
        assert!(
            relinked.len().abs_diff(original.len()) < original.len() / 20,
            "layout {layout}: {} bytes against {}",
            relinked.len(),
            original.len()
        );
        assert!(!seen.contains(&relinked), "layout {layout} is not new");
        seen.push(relinked);
    }

    // A copy of the binary is none that faster-link linked: its verdict
    // holds for that build only, and it says so.
    let copy = fixture.root.join("copied-test-binary");
    std::fs::copy(&binary, &copy).unwrap();
    let copied = Command::new(&copy)
        .args(["faster_parse_sum_again", "--exact", "--nocapture"])
        .current_dir(&fixture.root)
        .env("FASTER_OUTPUT_DIR", fixture.root.join("reports"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&copied.stdout).replace('\n', " ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(copied.status.success(), "{text}");
    assert!(
        text.contains("processes of this build read")
            && text.contains(
                "The verdict holds for this build only: this binary was not linked through \
                 faster-link"
            ),
        "{text}"
    );
    assert_eq!(report(&fixture)["result"]["scope"]["layouts"], false);
}
