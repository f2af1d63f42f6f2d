//! The fixture of `accuracy --revisions`: its commits' sources, and the
//! repository made of them (`crate::repository`).

use crate::repository::{self, Repository};

const BASE: &str = r#"//! A fixture of `accuracy --revisions`: two tracked functions, each a
//! dependent chain of `case.1` steps, and a split-and-parse whose speed
//! hangs on where the linker puts it.

use std::hint::black_box;

/// `steps` dependent xorshift-multiply steps from `seed`, one per
/// iteration (the empty `asm!` keeps the compiler from unrolling it, as in
/// the accuracy suite's own chain).
#[inline(never)]
pub fn chain(seed: u64, steps: u64) -> u64 {
    let mut state = seed;
    for _ in 0..black_box(steps) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        // SAFETY: an empty instruction template that only claims to change
        // `state`'s register.
        unsafe {
            std::arch::asm!(
                "/* {state} */",
                state = inout(reg) state,
                options(nomem, nostack, preserves_flags),
            );
        }
    }
    state
}

#[cfg_attr(test, faster::track(inputs = cases))]
pub fn slowed(case: &(u64, u64)) -> u64 {
    chain(case.0, case.1)
}

#[cfg_attr(test, faster::track(inputs = cases))]
pub fn unchanged(case: &(u64, u64)) -> u64 {
    chain(case.0, case.1)
}

/// The sum of the comma-separated numbers (its loop inlined here, as
/// real code's is: a loop the linker can place well or badly).
#[cfg_attr(test, faster::track(inputs = lines))]
pub fn parse_sum(line: &str) -> u64 {
    line.split(',')
        .map(|field| field.trim().parse::<u64>().unwrap_or(0))
        .fold(0, u64::wrapping_add)
}

#[cfg(test)]
fn cases() -> Vec<(u64, u64)> {
    vec![(1, 2_000), (2, 20_000)]
}

#[cfg(test)]
fn lines() -> Vec<String> {
    let numbers: Vec<String> = (0..500_u64).map(|n| (n * 7_919 % 100_000).to_string()).collect();
    vec![numbers.join(",")]
}
"#;

/// The comment commit: a comment, nothing else.
fn commented() -> String {
    BASE.replace(
        "use std::hint::black_box;\n",
        "use std::hint::black_box;\n\n// A comment: nothing measured changes.\n",
    )
}

/// How many commits add unrelated code.
pub const UNRELATED_COMMITS: usize = 5;

/// Unrelated commit `k` (from 1): the comment commit with `8·k` helper
/// functions in a module of their own, which nothing tracked calls (a test
/// does, so they stay in the binary), placed before the tracked functions
/// in odd commits and after them in even ones: code that moves everything
/// else and changes nothing measured.
fn unrelated(k: usize) -> String {
    let helpers: String = (0..8 * k)
        .map(|i| {
            format!(
                "    pub fn helper_{i}(values: &[u64]) -> u64 {{\n        \
                 values.iter().map(|v| v.rotate_left({rotation}) ^ {i}).sum()\n    }}\n",
                rotation = i % 63 + 1
            )
        })
        .collect();
    let calls: String = (0..8 * k)
        .map(|i| format!("        total ^= helpers::helper_{i}(&values);\n"))
        .collect();
    let module = format!(
        "\npub mod helpers {{\n{helpers}}}\n\n#[test]\nfn helpers_run() {{\n    let values: \
         Vec<u64> = (0..64).collect();\n    let mut total = 0;\n{calls}    \
         assert_ne!(std::hint::black_box(total), 1);\n}}\n"
    );
    let base = commented();
    let anchor = "/// `steps` dependent xorshift-multiply steps";
    if k % 2 == 1 {
        base.replacen(anchor, &format!("{module}\n{anchor}"), 1)
    } else {
        format!("{base}{module}")
    }
}

/// The slowdown commit: the last unrelated commit with `slowed` running a
/// tenth more steps, continuing the chain from its result, and returning
/// the same.
fn slowed_down() -> String {
    unrelated(UNRELATED_COMMITS).replace(
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    chain(case.0, case.1)\n}",
        "pub fn slowed(case: &(u64, u64)) -> u64 {\n    let state = chain(case.0, case.1);\n    \
         black_box(chain(state, case.1 / 10));\n    state\n}",
    )
}

/// The fixture repository and its commits.
pub struct Fixture {
    pub repository: Repository,
    /// The base, the comment, the unrelated commits, the slowdown.
    pub commits: Vec<String>,
}

impl Fixture {
    /// The repository with its commits, in a fresh scratch directory.
    pub fn create(keep: bool) -> Result<Fixture, String> {
        let repository = Repository::create("revisions", keep)?;
        let mut sources = vec![
            (BASE.to_string(), "base".to_string()),
            (commented(), "a comment".to_string()),
        ];
        sources.extend(
            (1..=UNRELATED_COMMITS).map(|k| (unrelated(k), format!("{} unrelated helpers", 8 * k))),
        );
        sources.push((slowed_down(), "slowed runs 1.1 n steps".to_string()));
        let manifest = repository::manifest("A fixture of accuracy --revisions.");
        let commits = sources
            .into_iter()
            .map(|(source, message)| {
                let files = [
                    ("Cargo.toml".to_string(), manifest.clone()),
                    ("src/lib.rs".to_string(), source),
                ];
                repository.commit(&files, &message)
            })
            .collect::<Result<Vec<String>, String>>()?;
        Ok(Fixture {
            repository,
            commits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commits_change_what_they_say() {
        let code = |source: &str| -> Vec<String> {
            source
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with("//"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(code(&commented()), code(BASE), "only a comment is added");
        for k in 1..=UNRELATED_COMMITS {
            let unrelated = unrelated(k);
            assert_eq!(unrelated.matches("pub fn helper_").count(), 8 * k);
            // Everything tracked is as it was, in order.
            let tracked = |source: &str| -> Vec<String> {
                code(source)
                    .into_iter()
                    .filter(|line| !line.contains("helper"))
                    .collect()
            };
            assert!(
                tracked(&unrelated)
                    .windows(3)
                    .any(|window| window[0] == "pub fn slowed(case: &(u64, u64)) -> u64 {"),
                "{unrelated}"
            );
        }
        let slowed = slowed_down();
        assert!(slowed.contains("black_box(chain(state, case.1 / 10));"));
        assert_eq!(
            slowed.matches("chain(case.0, case.1)").count(),
            2,
            "`unchanged` is untouched"
        );
    }
}
