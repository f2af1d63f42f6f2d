//! The histories of `accuracy --bisect`: one repository whose base commit
//! every history branches from, each history a branch of commits that move
//! code about (helpers added before or after the tracked function), change
//! the tracked function's code without changing its speed (a seed
//! constant, which changes its outputs: the bisect accepts changes), and,
//! from one commit drawn at random, make it slower by a known fraction.

use crate::repository::{self, Repository};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The library at one commit: `slowed` runs `STEPS` dependent steps from
/// its input's seed xor `SALT`, then `EXTRA` thousandths more.
const SOURCE: &str = r#"//! A fixture of `accuracy --bisect`.

use std::hint::black_box;

/// `steps` dependent xorshift-multiply steps from `seed` (the empty `asm!`
/// keeps the compiler from unrolling it).
#[inline(never)]
pub fn chain(seed: u64, steps: u64) -> u64 {
    let mut state = seed;
    for _ in 0..black_box(steps) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        // SAFETY: an empty template that only claims to change `state`.
        unsafe {
            std::arch::asm!("/* {state} */", state = inout(reg) state,
                options(nomem, nostack, preserves_flags));
        }
    }
    state
}

HELPERS_BEFORE
#[cfg_attr(test, faster::track(inputs = cases))]
pub fn slowed(case: &(u64, u64)) -> u64 {
    let state = chain(case.0 ^ SALT, case.1);
    black_box(chain(state, case.1 * EXTRA / 1000));
    state
}
HELPERS_AFTER
#[cfg(test)]
fn cases() -> Vec<(u64, u64)> {
    vec![(1, 2_000), (2, 20_000)]
}
"#;

/// One commit's library: `salt`, `extra` thousandths more steps, and
/// `helpers` unrelated functions before (`before`) or after it.
fn source(salt: u64, extra: u64, helpers: usize, before: bool) -> String {
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
        .replace("SALT", &salt.to_string())
        .replace("EXTRA", &extra.to_string())
}

/// A history to bisect: its commits, and where its steps are.
pub struct History {
    /// Its branch.
    pub branch: String,
    /// Its commits, the shared base first.
    pub commits: Vec<String>,
    /// The commits (indices) where `slowed` became slower.
    pub steps: Vec<usize>,
}

/// The shared repository and its base commit.
pub struct Histories {
    /// The repository.
    pub repository: Repository,
    /// The base commit every history starts from.
    pub base: String,
}

impl Histories {
    /// The repository with its base commit.
    pub fn create(keep: bool) -> Result<Histories, String> {
        let repository = Repository::create("bisect", keep)?;
        let base = repository.commit(&files(source(0, 0, 0, true)), "base")?;
        Ok(Histories { repository, base })
    }

    /// A history of `length` commits (the base included) on a branch of its
    /// own, drawn from `seed`: `slowed` a fraction `step` slower from each
    /// of `steps` commits drawn at random (one, or several apart).
    pub fn history(
        &self,
        name: &str,
        (length, step, steps): (usize, f64, usize),
        seed: u64,
    ) -> Result<History, String> {
        let mut random = StdRng::seed_from_u64(seed);
        let mut at: Vec<usize> = Vec::new();
        while at.len() < steps {
            let drawn = random.random_range(1..length);
            if !at.contains(&drawn) {
                at.push(drawn);
            }
        }
        at.sort_unstable();
        let repository = &self.repository;
        repository.git(&["checkout", "--quiet", "-B", name, &self.base])?;
        let mut commits = vec![self.base.clone()];
        let mut salt = 0;
        for index in 1..length {
            // Half the commits change the function's code, not its speed.
            if random.random_bool(0.5) {
                salt += 1;
            }
            let slower = at.iter().filter(|&&step_at| step_at <= index).count();
            let extra = ((1.0 + step).powi(slower as i32) * 1000.0).round() as u64 - 1000;
            let text = source(salt, extra, 4 * (index % 6), index % 2 == 0);
            commits.push(repository.commit(&files(text), &format!("{name}: commit {index}"))?);
        }
        Ok(History {
            branch: name.to_string(),
            commits,
            steps: at,
        })
    }
}

/// The files of a commit whose library is `source`.
fn files(source: String) -> [(String, String); 2] {
    [
        (
            "Cargo.toml".to_string(),
            repository::manifest("A fixture of accuracy --bisect."),
        ),
        ("src/lib.rs".to_string(), source),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commit_s_library_has_its_salt_extra_and_helpers() {
        let text = source(3, 100, 8, false);
        assert!(text.contains("chain(case.0 ^ 3, case.1)"));
        assert!(text.contains("case.1 * 100 / 1000"));
        assert_eq!(text.matches("pub fn helper_").count(), 8);
        assert!(text.find("pub fn slowed") < text.find("pub fn helper_0"));
        assert!(text.contains("total ^= helper_7(&values);"));
        let before = source(0, 0, 4, true);
        assert!(before.find("pub fn helper_0") < before.find("pub fn slowed"));
    }
}
