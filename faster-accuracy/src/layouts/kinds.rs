//! The real functions of `accuracy --layouts` and the fixture's source made
//! of them: one module per kind of work, each with an identical-work pair
//! and a known multiple.
//!
//! Every kind's work is written once, as a function body; the module around
//! it is the same for every kind, the body pasted into each function as a
//! user copies a function to optimize it:
//!
//! - `original` and `copy` (the identical-work pair, `expect = report`):
//!   the same body, preceded by a constant passed through `black_box` that
//!   differs between the two, so neither the compiler nor the linker can
//!   fold one into the other. What the compiler inlines (the iterator
//!   loops, the FNV chain, the tokenizer, the map's probes) is each copy's
//!   own code at its own place; what stays out of line (`Split::next`,
//!   `u64::from_str`, std's char counter, `sort_unstable`, the map's
//!   `insert`) is one function both call, as it would be for two real
//!   functions. (Written once as a shared `#[inline(always)]` helper
//!   instead, parsing's and searching's loops stayed out of line, one
//!   function for both sides, and those pairs read 1.00x in every layout.)
//! - `twice` and `once` (the known multiple, `expect = faster`): the
//!   original runs the body twice (the first time on its argument through
//!   `black_box`, its result through `black_box`, so neither can be
//!   skipped), the candidate once; the true ratio is about 2.
//!
//! Each function is `#[inline(never)]`, so it is a symbol of its own in the
//! test binary, which the suite checks (`fixture::check_symbols`).

/// One kind of work.
pub struct Kind {
    /// The module's name, and the kind's in tables.
    pub name: &'static str,
    /// What it does, for the header.
    pub what: &'static str,
    /// The functions' parameter, `name: Type`.
    parameter: &'static str,
    /// The argument of `twice`'s first, discarded run of the body.
    again: &'static str,
    output: &'static str,
    /// The work: statements and a last expression on the parameter,
    /// indented as a function's body.
    body: &'static str,
    /// `fn inputs() -> Vec<...>` (the module's `use super::*` brings the
    /// fixture's input helpers).
    inputs: &'static str,
}

/// The kinds, in table order.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "parse",
        what: "split and parse 500 comma-separated numbers, summed",
        parameter: "text: &str",
        again: "black_box(text)",
        output: "u64",
        body: "    text.split(',')
        .map(|number| number.parse::<u64>().expect(\"a number\"))
        .sum()",
        inputs: "fn inputs() -> Vec<String> {
    let mut random = Random(1);
    let numbers: Vec<String> = (0..500).map(|_| (random.next() % 1_000_000).to_string()).collect();
    vec![numbers.join(\",\")]
}",
    },
    Kind {
        name: "utf8",
        what: "chars().count() of 16 KiB of text with 1- to 4-byte characters",
        parameter: "text: &str",
        again: "black_box(text)",
        output: "usize",
        body: "    text.chars().count()",
        inputs: "fn inputs() -> Vec<String> {
    vec![mixed_text(16 << 10)]
}",
    },
    Kind {
        name: "search",
        what: "is there a duplicate among 256 distinct u32 (slice::contains on each prefix)",
        parameter: "values: &[u32]",
        again: "black_box(values)",
        output: "bool",
        body: "    values
        .iter()
        .enumerate()
        .any(|(index, value)| values[..index].contains(value))",
        inputs: "fn inputs() -> Vec<Vec<u32>> {
    let mut random = Random(3);
    // Distinct: a permutation's first 256 values, so the whole search runs.
    let mut values: Vec<u32> = (0..4_096).collect();
    for index in (1..values.len()).rev() {
        values.swap(index, (random.next() % (index as u64 + 1)) as usize);
    }
    values.truncate(256);
    vec![values]
}",
    },
    Kind {
        name: "fnv",
        what: "FNV-1a over a 4 KiB buffer",
        parameter: "bytes: &[u8]",
        again: "black_box(bytes)",
        output: "u64",
        body: "    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })",
        inputs: "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(4);
    vec![(0..4_096).map(|_| random.next() as u8).collect()]
}",
    },
    Kind {
        name: "hashmap",
        what: "build a HashMap of 500 u64 keys, probe 1000 (half present)",
        parameter: "keys: &[u64]",
        again: "black_box(keys)",
        output: "usize",
        body: "    let (stored, probes) = keys.split_at(keys.len() / 3);
    let map: std::collections::HashMap<u64, usize> =
        stored.iter().enumerate().map(|(index, key)| (*key, index)).collect();
    probes.iter().filter(|key| map.contains_key(key)).count()",
        inputs: "fn inputs() -> Vec<Vec<u64>> {
    let mut random = Random(5);
    let stored: Vec<u64> = (0..500).map(|_| random.next()).collect();
    let mut keys = stored.clone();
    for index in 0..1_000 {
        keys.push(if index % 2 == 0 { stored[index / 2] } else { random.next() });
    }
    vec![keys]
}",
    },
    Kind {
        name: "sort",
        what: "sort_unstable of 1000 u32 (each call sorts its own clone)",
        parameter: "values: Vec<u32>",
        again: "black_box(values.clone())",
        output: "Vec<u32>",
        body: "    let mut values = values;
    values.sort_unstable();
    values",
        inputs: "fn inputs() -> Vec<Vec<u32>> {
    let mut random = Random(6);
    vec![(0..1_000).map(|_| random.next() as u32).collect()]
}",
    },
    Kind {
        name: "tokens",
        what: "a tokenizer: counts identifiers, numbers, symbols and blanks in 4 KiB of code",
        parameter: "source: &str",
        again: "black_box(source)",
        output: "[usize; 4]",
        body: "    fn class(byte: u8) -> usize {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => 0,
            b'0'..=b'9' => 1,
            b' ' | b'\\n' | b'\\t' => 3,
            _ => 2,
        }
    }
    let bytes = source.as_bytes();
    let mut counts = [0; 4];
    let mut at = 0;
    while at < bytes.len() {
        let token = class(bytes[at]);
        at += 1;
        // Identifiers continue with digits; symbols are one byte each.
        while at < bytes.len() && token != 2 {
            let next = class(bytes[at]);
            if next != token && !(token == 0 && next == 1) {
                break;
            }
            at += 1;
        }
        counts[token] += 1;
    }
    counts",
        inputs: "fn inputs() -> Vec<String> {
    let mut random = Random(7);
    let mut source = String::new();
    while source.len() < 4_096 {
        let n = random.next() % 1_000;
        source.push_str(&format!(\"let value_{n} = table[{n}] * {} + offset_{};\\n\", n % 97, n % 13));
        if n % 5 == 0 {
            source.push_str(&format!(\"\\tif value_{n} > {n} {{ return value_{n}; }}\\n\"));
        }
    }
    vec![source]
}",
    },
    chain(
        "chain50ns",
        "a dependent xorshift-multiply chain of 30 steps (about 50 ns), which layouts do not move",
        "fn inputs() -> Vec<(u64, u64)> {
    vec![(1, 30)]
}",
    ),
    chain(
        "chain1us",
        "the chain of 600 steps (about 1 µs)",
        "fn inputs() -> Vec<(u64, u64)> {
    vec![(1, 600)]
}",
    ),
    chain(
        "chain200us",
        "the chain of 120 000 steps (about 200 µs)",
        "fn inputs() -> Vec<(u64, u64)> {
    vec![(1, 120_000)]
}",
    ),
];

/// A dependent chain of `case.1` steps from `case.0`, as the suite's
/// synthetic workloads are: the kind whose speed layouts do not move.
const fn chain(name: &'static str, what: &'static str, inputs: &'static str) -> Kind {
    Kind {
        name,
        what,
        parameter: "case: &(u64, u64)",
        again: "black_box(case)",
        output: "u64",
        body: "    let mut state = case.0;
    for _ in 0..black_box(case.1) {
        state = (state ^ (state >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
    state",
        inputs,
    }
}

/// The constant that tells each function's body from the others'.
const ORIGINAL_TAG: u8 = 1;
const COPY_TAG: u8 = 2;
const ONCE_TAG: u8 = 3;

impl Kind {
    /// The kind's module source.
    pub fn module(&self) -> String {
        let Kind {
            name: _,
            what,
            parameter,
            again,
            output,
            body,
            inputs,
        } = self;
        let argument = parameter.split(':').next().expect("a name").trim();
        let tagged = |tag: u8| format!("    black_box({tag}_u8);\n{body}");
        let nested = body.replace('\n', "\n    ");
        format!(
            "//! {what}.

#[cfg(test)]
use super::*;
use std::hint::black_box;

/// The original of the identical-work pair.
#[inline(never)]
pub fn original({parameter}) -> {output} {{
{original}
}}

/// `original`'s copy: only the constant differs.
#[cfg_attr(test, faster::compare(original = original, inputs = inputs, expect = report))]
#[inline(never)]
pub fn copy({parameter}) -> {output} {{
{copy}
}}

/// The known multiple's original: the same work twice.
#[inline(never)]
pub fn twice({parameter}) -> {output} {{
    black_box::<{output}>({{
        let {argument} = {again};
    {nested}
    }});
{body}
}}

/// The work once: about twice as fast as `twice`.
#[cfg_attr(test, faster::compare(original = twice, inputs = inputs))]
#[inline(never)]
pub fn once({parameter}) -> {output} {{
{once}
}}

#[cfg(test)]
{inputs}
",
            original = tagged(ORIGINAL_TAG),
            copy = tagged(COPY_TAG),
            once = tagged(ONCE_TAG),
        )
    }

    /// The identical-work pair's test, as libtest and the report name it.
    pub fn identical_test(&self) -> String {
        format!("{}::faster_copy", self.name)
    }

    /// The known multiple's test.
    pub fn multiple_test(&self) -> String {
        format!("{}::faster_once", self.name)
    }

    /// The fixture's symbols (as `nm -C` prints them, without the hash) of
    /// each comparison's two functions: `[[original, copy], [twice, once]]`.
    pub fn symbols(&self, crate_name: &str) -> [[String; 2]; 2] {
        let symbol = |function: &str| format!("{crate_name}::{}::{function}", self.name);
        [
            [symbol("original"), symbol("copy")],
            [symbol("twice"), symbol("once")],
        ]
    }
}

/// The library's root: the input helpers every kind's `inputs` uses, a
/// module per kind and the unrelated code.
pub fn library() -> String {
    let mut source = String::from(LIBRARY_HEAD);
    for kind in KINDS {
        source.push_str(&format!("pub mod {};\n", kind.name));
    }
    source.push_str("pub mod unrelated;\n");
    source
}

const LIBRARY_HEAD: &str = r#"//! Generated by `accuracy --layouts`: real functions compared with a copy
//! of themselves (identical work) and with themselves run twice (a known
//! multiple), rebuilt in several layouts.

/// A xorshift generator: the inputs are the same in every build.
#[cfg(test)]
struct Random(u64);

#[cfg(test)]
impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// About `bytes` bytes of text whose characters take 1 to 4 bytes.
#[cfg(test)]
fn mixed_text(bytes: usize) -> String {
    let alphabet = ['a', 'b', 'z', ' ', '.', 'é', 'ß', 'Ж', '€', '漢', '字', '🦀', '😀'];
    let mut random = Random(2);
    let mut text = String::new();
    while text.len() < bytes {
        text.push(alphabet[(random.next() % alphabet.len() as u64) as usize]);
    }
    text
}

"#;

/// The unrelated code of a build: `count` functions that no comparison
/// calls, kept in the test binary by a test of their own, so each build
/// moves the compared functions by a different amount.
pub fn unrelated(count: usize) -> String {
    let mut source =
        String::from("//! Unrelated code: it only moves the compared functions in the binary.\n\n");
    for index in 0..count {
        source.push_str(&format!(
            "#[inline(never)]
pub fn unrelated_{index}(seed: u64) -> u64 {{
    let mut state = seed ^ {index};
    for step in 0..{steps} {{
        state = state.rotate_left({rotation}).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ step;
    }}
    state
}}

",
            steps = 3 + index % 5,
            rotation = 1 + index % 31,
        ));
    }
    let calls: Vec<String> = (0..count)
        .map(|index| format!("unrelated_{index}(std::hint::black_box(1))"))
        .collect();
    source.push_str(&format!(
        "/// Keeps every unrelated function in the test binary.
#[test]
fn unrelated_code_runs() {{
    let results: Vec<u64> = vec![{}];
    assert_eq!(results.len(), {count});
}}
",
        calls.join(", ")
    ));
    source
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identical_pair_differs_only_in_its_constant() {
        for kind in KINDS {
            let module = kind.module();
            let body = |function: &str| -> String {
                let start = module
                    .find(&format!("pub fn {function}("))
                    .unwrap_or_else(|| panic!("{}: no {function}", kind.name));
                let end = start + module[start..].find("\n}\n").expect("a body's end");
                module[start..end].replace(function, "FUNCTION")
            };
            let (original, copy) = (body("original"), body("copy"));
            assert_ne!(original, copy, "{}", kind.name);
            assert_eq!(
                original.replace("black_box(1_u8)", "black_box(2_u8)"),
                copy,
                "{}",
                kind.name
            );
            let argument = kind.parameter.split(':').next().unwrap();
            let twice = body("twice");
            assert!(twice.contains(&format!("let {argument} = {};", kind.again)));
            let nested = format!("    {}\n    }});\n", kind.body.replace('\n', "\n    "));
            let (_, after) = twice
                .split_once(&nested)
                .expect("the body run once, nested");
            assert!(after.contains(kind.body), "{}: and once more", kind.name);
            assert_eq!(
                module.matches("faster::compare(").count(),
                2,
                "{}",
                kind.name
            );
            assert!(module.contains("original = original, inputs = inputs, expect = report"));
            assert!(module.contains("original = twice, inputs = inputs))]"));
        }
    }

    #[test]
    fn every_kind_has_its_module_and_distinct_names() {
        let library = library();
        let mut names: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
        for name in &names {
            assert!(library.contains(&format!("pub mod {name};\n")));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
        assert!(KINDS.len() >= 6);
        assert_eq!(
            KINDS[0].symbols("fixture")[1],
            ["fixture::parse::twice", "fixture::parse::once"]
        );
        assert_eq!(KINDS[0].identical_test(), "parse::faster_copy");
    }

    #[test]
    fn each_build_adds_its_own_count_of_unrelated_functions() {
        assert_eq!(unrelated(0).matches("pub fn unrelated_").count(), 0);
        let three = unrelated(3);
        assert_eq!(three.matches("pub fn unrelated_").count(), 3);
        assert!(three.contains("assert_eq!(results.len(), 3);"));
        assert!(three.contains("unrelated_2(std::hint::black_box(1))"));
    }
}
