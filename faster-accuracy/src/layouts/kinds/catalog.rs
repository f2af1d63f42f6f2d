//! The catalog of kinds: each kind's work, its part for the ~5%
//! difference and its inputs, written once (see the parent module for what
//! is made of them).

use super::Kind;

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
    Kind {
        name: "crc32",
        what: "CRC-32 of 4 KiB through a 256-entry static table, a byte at a time",
        parameter: "bytes: &[u8]",
        again: "black_box(bytes)",
        part: "black_box(&bytes[..bytes.len() / 20])",
        output: "u32",
        // A table lookup: each byte's step reads the table where the
        // previous step's result points, so where the table lies counts.
        body: "    static TABLE: [u32; 256] = {
        let mut table = [0; 256];
        let mut index = 0;
        while index < 256 {
            let mut crc = index as u32;
            let mut bit = 0;
            while bit < 8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
                bit += 1;
            }
            table[index] = crc;
            index += 1;
        }
        table
    };
    !bytes.iter().fold(!0, |crc: u32, byte| {
        TABLE[usize::from(crc as u8 ^ *byte)] ^ (crc >> 8)
    })",
        inputs: "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(11);
    vec![(0..4_096).map(|_| random.next() as u8).collect()]
}",
    },
    // Four short functions, of tens to hundreds of nanoseconds, as the
    // held-out library of issue 33 tracked them: where their few fetch
    // blocks land moves them most.
    Kind {
        name: "fields",
        what: "the trimmed lengths of the 20 fields of a CSV line",
        parameter: "line: &str",
        again: "black_box(line)",
        // Cut after a field, before its comma.
        part: "black_box(&line[..line.len() / 20 + line[line.len() / 20..].find(',').expect(\"a comma\")])",
        output: "Vec<usize>",
        body: "    line.split(',').map(|field| field.trim().len()).collect()",
        inputs: "fn inputs() -> Vec<String> {
    let mut random = Random(16);
    let fields: Vec<String> = (0..20)
        .map(|_| format!(\" {} \", random.next() % 100_000))
        .collect();
    vec![fields.join(\",\")]
}",
    },
    Kind {
        name: "digits",
        what: "the decimal digits of a u64, on 8 numbers of 18 to 20 digits",
        parameter: "value: &u64",
        again: "black_box(value)",
        // One digit of about 19 (a literal's reference lives on: the
        // part is used after this statement).
        part: "black_box(&9)",
        output: "u32",
        body: "    let mut rest = *value;
    let mut digits = 1;
    while rest >= 10 {
        rest /= 10;
        digits += 1;
    }
    digits",
        inputs: "fn inputs() -> Vec<u64> {
    let mut random = Random(13);
    (0..8).map(|_| random.next() | (1 << 60)).collect()
}",
    },
    Kind {
        name: "distinct",
        what: "how many distinct bytes 256 bytes hold",
        parameter: "bytes: &[u8]",
        again: "black_box(bytes)",
        part: "black_box(&bytes[..bytes.len() / 20])",
        output: "usize",
        body: "    let mut seen = [false; 256];
    for byte in bytes {
        seen[usize::from(*byte)] = true;
    }
    seen.iter().filter(|seen| **seen).count()",
        inputs: "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(14);
    vec![(0..256).map(|_| (random.next() % 200) as u8).collect()]
}",
    },
    Kind {
        name: "hex",
        what: "64 bytes hex-encoded through a 16-entry static table",
        parameter: "bytes: &[u8]",
        again: "black_box(bytes)",
        part: "black_box(&bytes[..bytes.len() / 20])",
        output: "String",
        body: "    static DIGITS: [u8; 16] = *b\"0123456789abcdef\";
    let mut text = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
    text",
        inputs: "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(15);
    vec![(0..64).map(|_| random.next() as u8).collect()]
}",
    },
    // Buffers taken by value, freed by the call (issue 34): each call gets
    // its own clone, made before the clock starts; the free is timed. A
    // slice's first round once paid for what finding the largest batch
    // left in the allocator: an identical pair read 1.17x.
    owned(
        "owned4k",
        "the bytes of a 4 KiB buffer taken by value, summed",
        "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(21);
    vec![(0..4 << 10).map(|_| random.next() as u8).collect()]
}",
    ),
    owned(
        "owned1m",
        "the bytes of a 1 MiB buffer taken by value, summed",
        "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(21);
    vec![(0..1 << 20).map(|_| random.next() as u8).collect()]
}",
    ),
    owned(
        "owned8m",
        "the bytes of an 8 MiB buffer taken by value, summed",
        "fn inputs() -> Vec<Vec<u8>> {
    let mut random = Random(21);
    vec![(0..8 << 20).map(|_| random.next() as u8).collect()]
}",
    ),
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

/// The bytes of a buffer taken by value, summed: the buffer is freed in
/// the call.
const fn owned(name: &'static str, what: &'static str, inputs: &'static str) -> Kind {
    Kind {
        name,
        what,
        parameter: "bytes: Vec<u8>",
        again: "black_box(bytes.clone())",
        part: "black_box(bytes[..bytes.len() / 20].to_vec())",
        output: "u64",
        body: "    bytes.iter().map(|byte| u64::from(*byte)).sum::<u64>()",
        inputs,
    }
}

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
