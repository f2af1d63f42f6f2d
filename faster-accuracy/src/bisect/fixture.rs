//! The histories of `accuracy --bisect`, of a real crate's code: the
//! `hex` crate's encode path (`hex.rs`, vendored whole into every commit)
//! and a tracked `encode` that calls it on hex's own benchmark input (its
//! own source). One repository holds the base commit every history branches
//! from; each history is a branch of commits that move code about (helpers
//! added before or after the tracked function), change the tracked
//! function's code without changing its speed (`hex::encode` or
//! `hex::encode_upper`, which changes its outputs: the bisect accepts
//! changes), and, from one commit drawn at random, make it slower by a
//! known fraction: `encode` then encodes that fraction of its input again
//! (one byte in every commit, so the second call's fixed cost is no part
//! of a step), with the same real `hex::encode` — real work, not a wait.
//! That the fraction of the bytes is the fraction of the time is checked,
//! not assumed: the suite measures each step commit against its parent and
//! prints the measured size beside the injected one.

use crate::repository::{self, Repository};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[cfg(test)]
mod hex;

/// The `hex` crate's encode path, as written into every commit.
const HEX: &str = include_str!("fixture/hex.rs");

/// The library at one commit: `encode` runs `ENCODER` on its input, then
/// on `EXTRA` thousandths of it again.
const SOURCE: &str = r#"//! A fixture of `accuracy --bisect`: the `hex` crate's encode, tracked.

mod hex;

use std::hint::black_box;

HELPERS_BEFORE
#[cfg_attr(test, faster::track(inputs = cases))]
pub fn encode(data: &Vec<u8>) -> String {
    let encoded = hex::ENCODER(data);
    // One byte more in every commit, so the second call's own cost (its
    // allocation) is in the base too and a step adds encoding alone.
    let again = &data[..data.len() * EXTRA / 1000 + 1];
    black_box(hex::ENCODER(black_box(again)));
    encoded
}
HELPERS_AFTER
/// hex's own benchmark input: its source.
#[cfg(test)]
fn cases() -> Vec<Vec<u8>> {
    vec![include_bytes!("hex.rs").to_vec()]
}
"#;

/// One commit's library: `hex::encode_upper` (`upper`) or `hex::encode`,
/// `extra` thousandths of the input encoded again, and `helpers` unrelated
/// functions before (`before`) or after it.
fn source(upper: bool, extra: u64, helpers: usize, before: bool) -> String {
    let module: String = (0..helpers)
        .map(|i| {
            format!(
                "pub fn helper_{i}(values: &[u64]) -> u64 {{\n    \
                 values.iter().map(|v| v.rotate_left({}) ^ {i}).sum()\n}}\n",
                i % 63 + 1
            )
        })
        .collect();
    // A test calls them, so they stay in the test binary and move the rest.
    let calls: String = (0..helpers)
        .map(|i| format!("    total ^= helper_{i}(&values);\n"))
        .collect();
    let module = format!(
        "{module}\n#[test]\nfn helpers_run() {{\n    let values: Vec<u64> = (0..64).collect();\n    \
         let mut total = 0;\n{calls}    assert_ne!(black_box(total), 1);\n}}\n"
    );
    let (before_text, after_text) = if before {
        (module.as_str(), "")
    } else {
        ("", module.as_str())
    };
    SOURCE
        .replace("HELPERS_BEFORE", before_text)
        .replace("HELPERS_AFTER", after_text)
        .replace("ENCODER", if upper { "encode_upper" } else { "encode" })
        .replace("EXTRA", &extra.to_string())
}

/// A history to bisect: its commits, and where its steps are.
pub struct History {
    /// Its branch.
    pub branch: String,
    /// Its commits, the shared base first.
    pub commits: Vec<String>,
    /// The commits (indices) where `encode` became slower.
    pub steps: Vec<usize>,
}

/// The shared repository and its base commit.
pub struct Histories {
    /// The repository.
    pub repository: Repository,
    /// The base commit every history starts from.
    pub base: String,
}

/// A history's shape: its length (the base included), the fraction each
/// step makes `encode` slower, and how many steps.
pub type Shape = (usize, f64, usize);

/// What a history's commits hold, drawn from a seed before any is written.
#[derive(Debug, PartialEq)]
struct Plan {
    /// The commits (indices) where `encode` becomes slower.
    steps: Vec<usize>,
    /// Per commit after the base: whether it encodes in upper case, and
    /// how many thousandths of the input it encodes again.
    commits: Vec<(bool, u64)>,
}

/// The plan of a history of `shape` drawn from `seed`: the steps at
/// distinct commits drawn at random, and half the commits changing the
/// function's code (its case) but not its speed.
fn plan((length, step, steps): Shape, seed: u64) -> Plan {
    let mut random = StdRng::seed_from_u64(seed);
    let mut at: Vec<usize> = Vec::new();
    while at.len() < steps {
        let drawn = random.random_range(1..length);
        if !at.contains(&drawn) {
            at.push(drawn);
        }
    }
    at.sort_unstable();
    let mut upper = false;
    let commits = (1..length)
        .map(|index| {
            upper ^= random.random_bool(0.5);
            let slower = at.iter().filter(|&&step_at| step_at <= index).count();
            let extra = ((1.0 + step).powi(slower as i32) * 1000.0).round() as u64 - 1000;
            (upper, extra)
        })
        .collect();
    Plan { steps: at, commits }
}

impl Histories {
    /// The repository with its base commit.
    pub fn create(keep: bool) -> Result<Histories, String> {
        let repository = Repository::create("bisect", keep)?;
        let base = repository.commit(&files(source(false, 0, 0, true)), "base")?;
        Ok(Histories { repository, base })
    }

    /// A history of `shape` on a branch of its own, drawn from `seed`.
    pub fn history(&self, name: &str, shape: Shape, seed: u64) -> Result<History, String> {
        let plan = plan(shape, seed);
        let repository = &self.repository;
        repository.git(&["checkout", "--quiet", "-B", name, &self.base])?;
        let mut commits = vec![self.base.clone()];
        for (index, &(upper, extra)) in (1..).zip(&plan.commits) {
            let text = source(upper, extra, 4 * (index % 6), index % 2 == 0);
            commits.push(repository.commit(&files(text), &format!("{name}: commit {index}"))?);
        }
        Ok(History {
            branch: name.to_string(),
            commits,
            steps: plan.steps,
        })
    }
}

/// The files of a commit whose library is `source`.
fn files(source: String) -> [(String, String); 3] {
    [
        (
            "Cargo.toml".to_string(),
            repository::manifest("A fixture of accuracy --bisect."),
        ),
        ("src/lib.rs".to_string(), source),
        ("src/hex.rs".to_string(), HEX.to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_encode_is_hex_s() {
        assert_eq!(hex::encode("Hello world!"), "48656c6c6f20776f726c6421");
        assert_eq!(hex::encode_upper(vec![1, 2, 3, 15, 16]), "0102030F10");
        let mut short = [0; 3];
        assert_eq!(
            hex::encode_to_slice(b"kiwi", &mut short),
            Err(hex::FromHexError::InvalidStringLength)
        );
    }

    #[test]
    fn a_commit_s_library_has_its_encoder_extra_and_helpers() {
        let text = source(true, 100, 8, false);
        assert!(text.contains("let encoded = hex::encode_upper(data);"));
        assert!(text.contains("black_box(hex::encode_upper(black_box(again)));"));
        assert!(text.contains("data.len() * 100 / 1000"));
        assert_eq!(text.matches("pub fn helper_").count(), 8);
        assert!(text.find("pub fn encode") < text.find("pub fn helper_0"));
        assert!(text.contains("total ^= helper_7(&values);"));
        let before = source(false, 0, 4, true);
        assert!(before.contains("let encoded = hex::encode(data);"));
        assert!(before.find("pub fn helper_0") < before.find("pub fn encode"));
    }

    #[test]
    fn a_plan_is_its_seed_s_and_slower_from_each_step_on() {
        assert_eq!(plan((32, 0.10, 1), 7), plan((32, 0.10, 1), 7));
        assert_ne!(plan((32, 0.10, 1), 7), plan((32, 0.10, 1), 8));
        let one = plan((64, 0.05, 1), 3);
        assert_eq!(one.commits.len(), 63);
        let [at] = one.steps[..] else {
            panic!("one step: {:?}", one.steps)
        };
        for (index, &(_, extra)) in (1..).zip(&one.commits) {
            assert_eq!(extra, if index < at { 0 } else { 50 }, "commit {index}");
        }
        let two = plan((32, 0.03, 2), 4);
        let [first, second] = two.steps[..] else {
            panic!("two steps: {:?}", two.steps)
        };
        assert!(first < second);
        let extras: Vec<u64> = two.commits.iter().map(|&(_, extra)| extra).collect();
        assert_eq!((extras[first - 1], extras[second - 1]), (30, 61));
    }

    #[test]
    fn about_half_the_commits_change_the_encoder() {
        let commits = plan((64, 0.10, 1), 11).commits;
        let changes = commits
            .windows(2)
            .filter(|pair| pair[0].0 != pair[1].0)
            .count();
        assert!((16..48).contains(&changes), "{changes} of 62");
    }

    #[test]
    fn a_history_is_a_branch_of_its_plan_s_commits() {
        let histories = Histories::create(false).unwrap();
        let history = histories.history("h", (8, 0.10, 1), 5).unwrap();
        assert_eq!(history.commits.len(), 8);
        assert_eq!(history.commits[0], histories.base);
        assert_eq!(history.steps, plan((8, 0.10, 1), 5).steps);
        let repository = &histories.repository;
        let tip = repository.git(&["rev-parse", "h"]).unwrap();
        assert_eq!(&tip, history.commits.last().unwrap());
        let at = history.steps[0];
        let stepped = format!("{}:src/lib.rs", history.commits[at]);
        let library = repository.git(&["show", &stepped]).unwrap();
        assert!(library.contains("data.len() * 100 / 1000"));
        let vendored = format!("{}:src/hex.rs", history.commits[at]);
        assert_eq!(repository.git(&["show", &vendored]).unwrap(), HEX.trim());
    }
}
