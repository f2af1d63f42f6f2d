//! Paired layouts: across revisions, layout `k` of both binaries places
//! the code the tracked functions' timed loops run (each loop and what it
//! calls, as `cargo faster` reads them) at the same addresses, in an
//! order drawn from `k`, and shuffles the rest as any layout does.
//!
//! A commit that adds or removes code anywhere changes which sections the
//! link shuffles, so layout `k` of one revision and layout `k` of the other
//! are two unrelated draws: a function neither touched then reads the
//! spread of two placements in every pair, not its own speed. Measured on
//! the accuracy suite's fixture across a commit adding unrelated functions
//! (`accuracy --coverage`): the pairs of a tokenizer read 12–14% apart, of
//! a run-length encoder 22–24%, where the same code placed alike reads
//! 1.4–2.4% and 5–8% (the processes' own spread). So the code both
//! revisions run the same (the same instructions, by the link-free digest
//! of `cargo faster`'s reading) goes first in `.text`, in the same order in
//! both binaries; the code that differs follows it; and the executable
//! segment starts a page of its own, so what precedes it (more data,
//! another count of relocations) moves nothing of it. Two pads of a size
//! drawn from `k` stand before each part, so across layouts each part
//! starts anywhere in a page: the placements still vary from one layout
//! to the next, for changed code as for unchanged, only no longer between
//! the two revisions of a pair.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash, Hasher};

/// One function of a timed loop's code in one binary: its symbol and what
/// tells its code apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hot<'a> {
    /// Its symbol, mangled, as the symbol table spells it.
    pub symbol: &'a str,
    /// A digest of its instructions that leaves out where the link put
    /// things.
    pub digest: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

/// What layout `k` of both revisions places first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    /// The code both revisions run the same, by key: each key's symbols
    /// (one per binary, spelled as each spells it).
    same: BTreeMap<String, BTreeSet<String>>,
    /// The code one revision runs differently, or only one runs.
    changed: BTreeMap<String, BTreeSet<String>>,
}

/// The symbols of the two pads: before the code both run the same, and
/// between it and the code that differs.
pub const PADS: [&str; 2] = ["faster_pad_before", "faster_pad_between"];

/// The pads' sizes are multiples of this (the alignment of functions), up
/// to a page.
const PAD_STEP: u64 = 16;
const PAGE: u64 = 4096;

impl Paired {
    /// The pairing of the code `base` and `current` run (each revision's
    /// timed loops and callees, every binary's together); `None` where
    /// neither names any.
    pub fn of<'a>(
        base: impl IntoIterator<Item = Hot<'a>>,
        current: impl IntoIterator<Item = Hot<'a>>,
    ) -> Option<Paired> {
        let by_key = |side: &mut dyn Iterator<Item = Hot<'a>>| {
            let mut keyed: BTreeMap<String, BTreeSet<Hot<'a>>> = BTreeMap::new();
            for hot in side {
                keyed.entry(key(hot.symbol)).or_default().insert(hot);
            }
            keyed
        };
        let [base, current] = [
            by_key(&mut base.into_iter()),
            by_key(&mut current.into_iter()),
        ];
        let (mut same, mut changed) = (BTreeMap::new(), BTreeMap::new());
        for key in base.keys().chain(current.keys()) {
            let [in_base, in_current] = [&base, &current].map(|side| side.get(key));
            let code = |hots: Option<&BTreeSet<Hot>>| -> Option<BTreeSet<(u64, u64)>> {
                hots.map(|hots| hots.iter().map(|hot| (hot.digest, hot.bytes)).collect())
            };
            let alike = in_base.is_some() && code(in_base) == code(in_current);
            let symbols: BTreeSet<String> = [in_base, in_current]
                .into_iter()
                .flatten()
                .flatten()
                .map(|hot| hot.symbol.to_string())
                .collect();
            let part = if alike { &mut same } else { &mut changed };
            part.insert(key.clone(), symbols);
        }
        (!same.is_empty() || !changed.is_empty()).then_some(Paired { same, changed })
    }

    /// What tells this pairing from another, for the folder its layouts
    /// are kept in: the same code placed the same way reads the same.
    pub fn id(&self) -> String {
        let mut hasher = DefaultHasher::new();
        (&self.same, &self.changed).hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }

    /// The symbol ordering of layout `seed` (lld's
    /// `--symbol-ordering-file`, one symbol a line): the first pad, the
    /// code both revisions run the same, the second pad, the code that
    /// differs, each part in an order drawn from `seed`. A symbol a binary
    /// lacks is passed over by its link.
    pub fn ordering(&self, seed: u32) -> String {
        let mut lines = vec![PADS[0]];
        lines.extend(drawn(&self.same, seed));
        lines.push(PADS[1]);
        lines.extend(drawn(&self.changed, seed));
        lines.iter().map(|line| format!("{line}\n")).collect()
    }

    /// The assembly of layout `seed`'s two pads: each a retained section of
    /// its own holding a size drawn from `seed` of trap instructions.
    pub fn pads(seed: u32) -> String {
        PADS.iter()
            .enumerate()
            .map(|(pad, symbol)| {
                let bytes = drawn_size(seed, pad);
                format!(
                    ".section .text.{symbol},\"ax\",@progbits\n.globl {symbol}\n.type \
                     {symbol},@function\n{symbol}:\n.fill {bytes},1,0xcc\n.size {symbol}, \
                     {bytes}\n"
                )
            })
            .collect()
    }
}

/// What matches a symbol across the two revisions: its spelling without
/// what LLVM appends to a local function it makes visible to the rest of
/// its crate (`.llvm.` and a number derived from its unit, which another
/// revision's units number otherwise).
fn key(symbol: &str) -> String {
    symbol
        .split_once(".llvm.")
        .map_or(symbol, |(name, _)| name)
        .to_string()
}

/// `part`'s symbols in the order `seed` draws: each key by a hash of the
/// seed and the key, its spellings together.
fn drawn(part: &BTreeMap<String, BTreeSet<String>>, seed: u32) -> Vec<&str> {
    let mut keys: Vec<(u64, &String)> = part
        .keys()
        .map(|key| {
            let mut hasher = DefaultHasher::new();
            (seed, key).hash(&mut hasher);
            (hasher.finish(), key)
        })
        .collect();
    keys.sort_unstable();
    keys.iter()
        .flat_map(|(_, key)| part[*key].iter().map(String::as_str))
        .collect()
}

/// The size of pad `pad` of layout `seed`: a multiple of [`PAD_STEP`]
/// below a page.
fn drawn_size(seed: u32, pad: usize) -> u64 {
    let mut hasher = DefaultHasher::new();
    ("pad", seed, pad).hash(&mut hasher);
    hasher.finish() % (PAGE / PAD_STEP) * PAD_STEP
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hot(symbol: &str, digest: u64) -> Hot<'_> {
        Hot {
            symbol,
            digest,
            bytes: 100,
        }
    }

    #[test]
    fn code_both_run_the_same_goes_first_and_code_that_differs_after() {
        let paired = Paired::of(
            [
                hot("_ZN4loop17h1E", 1),
                hot("_ZN5kept17h2E.llvm.111", 2),
                hot("_ZN7changed17h3E", 3),
                hot("_ZN4gone17h4E", 4),
            ],
            [
                hot("_ZN4loop17h1E", 1),
                // Another unit's number: the same function.
                hot("_ZN5kept17h2E.llvm.999", 2),
                hot("_ZN7changed17h3E", 33),
                hot("_ZN3new17h5E", 5),
            ],
        )
        .unwrap();
        for seed in 1..=8 {
            let lines: Vec<String> = paired.ordering(seed).lines().map(String::from).collect();
            assert_eq!(lines.len(), 2 + 3 + 3, "{lines:?}");
            assert_eq!(lines[0], PADS[0]);
            assert_eq!(lines[4], PADS[1]);
            let mut same: Vec<&str> = lines[1..4].iter().map(String::as_str).collect();
            // Both spellings of `kept` side by side: wherever each binary
            // finds its own, in the same place.
            let kept = same.iter().position(|s| s.starts_with("_ZN5kept")).unwrap();
            assert!(same[kept + 1].starts_with("_ZN5kept"), "{same:?}");
            same.sort_unstable();
            assert_eq!(
                same,
                [
                    "_ZN4loop17h1E",
                    "_ZN5kept17h2E.llvm.111",
                    "_ZN5kept17h2E.llvm.999"
                ]
            );
            let mut changed: Vec<&str> = lines[5..].iter().map(String::as_str).collect();
            changed.sort_unstable();
            assert_eq!(
                changed,
                ["_ZN3new17h5E", "_ZN4gone17h4E", "_ZN7changed17h3E"]
            );
        }
    }

    #[test]
    fn each_layout_draws_its_own_order_and_pads_the_same_for_both_revisions() {
        let symbols: Vec<String> = (0..20).map(|i| format!("_ZN1f{i}E")).collect();
        let side = || symbols.iter().map(|symbol| hot(symbol, 7));
        let paired = Paired::of(side(), side()).unwrap();
        let orders: BTreeSet<String> = (1..=16).map(|seed| paired.ordering(seed)).collect();
        assert_eq!(orders.len(), 16, "every layout its own order");
        assert_eq!(paired.ordering(3), paired.ordering(3));
        let sizes: BTreeSet<u64> = (1..=64).map(|seed| drawn_size(seed, 0)).collect();
        assert!(sizes.len() > 40, "{sizes:?}");
        assert!(
            sizes
                .iter()
                .all(|size| size % PAD_STEP == 0 && *size < PAGE)
        );
        let assembly = Paired::pads(5);
        assert!(assembly.contains(".globl faster_pad_before\n"));
        assert!(assembly.contains(&format!(".fill {},1,0xcc", drawn_size(5, 1))));
    }

    #[test]
    fn another_pairing_has_another_id() {
        let one = Paired::of([hot("_ZN1aE", 1)], [hot("_ZN1aE", 1)]).unwrap();
        let other = Paired::of([hot("_ZN1aE", 1)], [hot("_ZN1aE", 2)]).unwrap();
        assert_eq!(one.id(), one.clone().id());
        assert_ne!(one.id(), other.id());
        assert_eq!(Paired::of([], []), None);
    }
}
