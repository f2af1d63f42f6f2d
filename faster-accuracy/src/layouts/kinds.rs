//! The real functions of `accuracy --layouts` and the fixture's source made
//! of them: one module per kind of work, each with an identical-work pair
//! (judged at the default 5% floor and again at 2%), a known multiple and a
//! difference of about 5%.
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
//! - `with_rework` and `without_rework` (the ~5% difference, `expect =
//!   report` at a 2% floor): the original runs the body, then the body again
//!   on about a twentieth of its work (a prefix of the input, or a smaller
//!   count: [`Kind::part`]), as a library that calls its own work again on a
//!   part of its input; the candidate runs the body once. The suite reads
//!   whether the verdict found the difference (`faster`).
//! - `copy_at_2_percent` against `original` (`expect = report` at a 2%
//!   floor): the identical-work pair again, judged at the floor the ~5%
//!   difference needs; any `faster` or `slower` verdict is false.
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
    /// The argument of `with_rework`'s second, discarded run of the body:
    /// about a twentieth of the work of the whole argument (a prefix of
    /// the input, cut where the body can take it, or a smaller count).
    part: &'static str,
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
        // Cut after a number, before its comma.
        part: "black_box(&text[..text.len() / 20 + text[text.len() / 20..].find(',').expect(\"a comma\")])",
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
        // Cut at a character boundary.
        part: "black_box(&text[..(text.len() / 20..).find(|at| text.is_char_boundary(*at)).expect(\"a boundary\")])",
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
        // Quadratic on paper, with a setup per value besides: a twentieth of
        // the values read 1.007x best-of (3 builds × 2 runs), a prefix of 2/9
        // 1.22x; an eighth reads 1.03x-1.08x averaged over 64 layouts (16
        // comparisons in nine builds, 2026-11-26), the other kinds' 5%.
        part: "black_box(&values[..values.len() / 8])",
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
        part: "black_box(&bytes[..bytes.len() / 20])",
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
        // The first twentieth of the keys: a third of it stored, the rest probed.
        part: "black_box(&keys[..keys.len() / 20])",
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
        // Sorting is n log n: 1/12 of 1000 values is about 1/20 of the work.
        part: "black_box(values[..values.len() / 12].to_vec())",
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
        // Cut at a line's end.
        part: "black_box(&source[..source.len() / 20 + source[source.len() / 20..].find('\\n').expect(\"a line\")])",
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
    Kind {
        name: "rle",
        what: "run-length encode 16 KiB of bytes in runs of 1 to 12 into (count, byte) pairs",
        parameter: "bytes: &[u8]",
        again: "black_box(bytes)",
        // A twentieth read 1.11x (median) and 1.08x (best-of) in 4 builds
        // × 2 runs, twice.
        part: "black_box(&bytes[..bytes.len() / 40])",
        output: "usize",
        body: "    let mut encoded = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let mut count = 1;
        // A count is one byte: a longer run continues in the next pair.
        while at + count < bytes.len() && bytes[at + count] == byte && count < 255 {
            count += 1;
        }
        encoded.push(count as u8);
        encoded.push(byte);
        at += count;
    }
    encoded.len()",
        inputs: "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(8);
    let mut bytes = Vec::new();
    // 16 KiB: 4 KiB would encode in about 1.4 µs, a fraction of the others' time.
    while bytes.len() < 16_384 {
        let run = 1 + (random.next() % 12) as usize;
        bytes.resize(bytes.len() + run, random.next() as u8);
    }
    bytes.truncate(16_384);
    vec![bytes]
}",
    },
    Kind {
        name: "escape",
        what: "JSON-escape 4 KiB of text with quotes, backslashes, control characters and non-ASCII letters",
        parameter: "text: &str",
        again: "black_box(text)",
        // A fortieth, cut at a character boundary: a twentieth read 1.08x
        // (median) and 1.15x (best-of) in 4 builds × 2 runs, twice.
        part: "black_box(&text[..(text.len() / 40..).find(|at| text.is_char_boundary(*at)).expect(\"a boundary\")])",
        output: "usize",
        body: r#"    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut escaped = String::with_capacity(text.len() + 2);
    escaped.push('"');
    for character in text.chars() {
        match character {
            '"' => escaped.push_str("\\\""),
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\t' => escaped.push_str("\\t"),
            '\u{0}'..='\u{1f}' => {
                let code = character as usize;
                escaped.push_str("\\u00");
                escaped.push(char::from(HEX[code >> 4]));
                escaped.push(char::from(HEX[code & 0xf]));
            }
            _ => escaped.push(character),
        }
    }
    escaped.push('"');
    escaped.len()"#,
        inputs: r#"fn inputs() -> Vec<String> {
    let mut random = Random(9);
    let pieces = [
        "the ", "value ", "of ", "a ", "field ", "is ", "\"quoted\" ", "C:\\temp\\log ", ".\n",
        "\r\n", "\t", "\u{1}", "\u{1b}[0m", "café ", "naïve ", "Straße ", "Жук ", "漢字 ", "🦀 ",
    ];
    let mut text = String::new();
    while text.len() < 4_096 {
        text.push_str(pieces[(random.next() % pieces.len() as u64) as usize]);
    }
    vec![text]
}"#,
    },
    Kind {
        name: "edit",
        what: "Levenshtein distance of two 120-byte strings (two rows of dynamic programming)",
        parameter: "words: &(String, String)",
        again: "black_box(words)",
        // Quadratic: prefixes of 2/9 of each string, about 1/20 of the
        // cells, read 1.04x (median) and 1.02x (best-of) in 4 builds × 2
        // runs, twice; prefixes of 2/7 are 1/12 of the cells.
        part: "&black_box((words.0[..words.0.len() * 2 / 7].to_string(), words.1[..words.1.len() * 2 / 7].to_string()))",
        output: "usize",
        body: "    let (source, target) = (words.0.as_bytes(), words.1.as_bytes());
    let mut previous: Vec<usize> = (0..=target.len()).collect();
    let mut current = vec![0; target.len() + 1];
    for (row, source_byte) in source.iter().enumerate() {
        current[0] = row + 1;
        for (column, target_byte) in target.iter().enumerate() {
            let substitution = previous[column] + usize::from(source_byte != target_byte);
            current[column + 1] = substitution
                .min(previous[column + 1] + 1)
                .min(current[column] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[target.len()]",
        inputs: "fn inputs() -> Vec<(String, String)> {
    let mut random = Random(10);
    let source: String = (0..120).map(|_| char::from(b'a' + (random.next() % 26) as u8)).collect();
    // A revision of it: about one character in six replaced, dropped or doubled.
    let mut target = String::new();
    for character in source.chars() {
        match random.next() % 18 {
            0 => target.push(char::from(b'a' + (random.next() % 26) as u8)),
            1 => {}
            2 => target.extend([character, character]),
            _ => target.push(character),
        }
    }
    vec![(source, target)]
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
        // A twentieth of the steps (1 of the 30 at 50 ns, where the loop's
        // entry adds about as much again: 2 steps read 1.09x).
        part: "&black_box((case.0, case.1 / 20))",
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
const COPY_AT_2_PERCENT_TAG: u8 = 4;
const WITHOUT_REWORK_TAG: u8 = 5;

impl Kind {
    /// The kind's module source.
    pub fn module(&self) -> String {
        let Kind {
            name: _,
            what,
            parameter,
            again,
            part,
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

/// `original`'s second copy, judged at the 2% floor the ~5% difference
/// needs.
#[cfg_attr(test, faster::compare(original = original, inputs = inputs, noise_floor = 0.02, expect = report))]
#[inline(never)]
pub fn copy_at_2_percent({parameter}) -> {output} {{
{copy_at_2_percent}
}}

/// The ~5% difference's original: the work, then the work again on about a
/// twentieth of it, as a library calling its own work again on a part of
/// its input.
#[inline(never)]
pub fn with_rework({parameter}) -> {output} {{
    let rework = {part};
    let result: {output} = {{
    {nested}
    }};
    black_box::<{output}>({{
        let {argument} = rework;
    {nested}
    }});
    result
}}

/// The work once: about 5% faster than `with_rework`.
#[cfg_attr(test, faster::compare(original = with_rework, inputs = inputs, noise_floor = 0.02, expect = report))]
#[inline(never)]
pub fn without_rework({parameter}) -> {output} {{
{without_rework}
}}

#[cfg(test)]
{inputs}
",
            original = tagged(ORIGINAL_TAG),
            copy = tagged(COPY_TAG),
            once = tagged(ONCE_TAG),
            copy_at_2_percent = tagged(COPY_AT_2_PERCENT_TAG),
            without_rework = tagged(WITHOUT_REWORK_TAG),
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

    /// The ~5% difference's test.
    pub fn rework_test(&self) -> String {
        format!("{}::faster_without_rework", self.name)
    }

    /// The identical-work pair's test at the 2% floor.
    pub fn identical_at_2_percent_test(&self) -> String {
        format!("{}::faster_copy_at_2_percent", self.name)
    }

    /// The fixture's symbols (as `nm -C` prints them, without the hash) of
    /// each comparison's two functions: `[[original, copy], [twice, once],
    /// [with_rework, without_rework], [original, copy_at_2_percent]]`.
    pub fn symbols(&self, crate_name: &str) -> [[String; 2]; 4] {
        let symbol = |function: &str| format!("{crate_name}::{}::{function}", self.name);
        [
            [symbol("original"), symbol("copy")],
            [symbol("twice"), symbol("once")],
            [symbol("with_rework"), symbol("without_rework")],
            [symbol("original"), symbol("copy_at_2_percent")],
        ]
    }
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
            assert_eq!(
                original.replace("black_box(1_u8)", "black_box(4_u8)"),
                body("copy_at_2_percent"),
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
            // The work first, then again on the part, cut beforehand.
            let with_rework = body("with_rework");
            let nested_body = kind.body.replace('\n', "\n    ");
            let at = |text: &str| {
                with_rework
                    .find(text)
                    .unwrap_or_else(|| panic!("{}: no {text}", kind.name))
            };
            let part = at(&format!("let rework = {};", kind.part));
            let work = at(&format!("{} = {{\n    {nested_body}\n    }};", kind.output));
            let rework = at(&format!(
                "let {argument} = rework;\n    {nested_body}\n    }});"
            ));
            assert!(part < work && work < rework, "{}", kind.name);
            assert_eq!(
                module.matches("faster::compare(").count(),
                4,
                "{}",
                kind.name
            );
            assert!(module.contains("original = original, inputs = inputs, expect = report"));
            assert!(module.contains("original = twice, inputs = inputs))]"));
            for original in ["original", "with_rework"] {
                assert!(module.contains(&format!(
                    "original = {original}, inputs = inputs, noise_floor = 0.02, expect = report"
                )));
            }
        }
    }

    #[test]
    fn every_kind_has_distinct_names() {
        let mut names: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
        assert!(KINDS.len() >= 6);
        assert_eq!(
            KINDS[0].symbols("fixture")[1],
            ["fixture::parse::twice", "fixture::parse::once"]
        );
        assert_eq!(KINDS[0].identical_test(), "parse::faster_copy");
        assert_eq!(KINDS[0].rework_test(), "parse::faster_without_rework");
    }
}
