//! A tracked function's machine code in each revision: the child says
//! where the code it times is ([`from_entry`]: an offset from the
//! program's entry point, the same in the file as in the running process
//! wherever it is loaded), `cargo faster` reads the code there and the
//! code it calls in each revision's binary (a `ReadCode` it supplies,
//! since reading an executable format is its business, not the users'
//! dependency tree's), and [`compiled_code`] puts that beside the digests
//! of the function's source: code that changed where the source did not
//! came from code generation or from a callee, not from the function.

use super::compare::Located;
use super::protocol::Listing;
use crate::report::{Callee, CompiledCode};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// `address` (of code in this process's executable) as an offset from the
/// program's entry point; `None` where the platform cannot tell.
pub fn from_entry(address: usize) -> Option<i64> {
    let entry = entry_point()?;
    Some((address as i64).wrapping_sub(entry as i64))
}

/// Where the executable's entry point was loaded, as the kernel told the
/// process (`AT_ENTRY`): with the entry point's address in the file, what
/// turns an address in the process into one in the file, PIE or not.
#[cfg(target_os = "linux")]
fn entry_point() -> Option<usize> {
    // SAFETY: reads the process's auxiliary vector; no memory is touched.
    let entry = unsafe { libc::getauxval(libc::AT_ENTRY) };
    (entry != 0).then_some(entry as usize)
}

#[cfg(not(target_os = "linux"))]
fn entry_point() -> Option<usize> {
    None
}

/// One function of a timed loop's code in one binary, as `ReadCode`
/// reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCode {
    /// Its name (see [`Callee::name`]): what matches it across revisions.
    /// Two instances of a generic function can print alike; they match as
    /// a group.
    pub name: String,
    /// Its symbol as the binary's symbol table spells it, mangled: what a
    /// link's symbol ordering names (see `layout::paired`). Empty for data
    /// the code reads, which `ReadCode` lists after the functions (named
    /// for the data and the function reading it, its digest of its bytes)
    /// and no ordering of code places.
    pub symbol: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// A digest of its instructions with the addresses a link decides left
    /// out (what its calls reach is in, by name): equal for the same code
    /// wherever it was linked.
    pub digest: u64,
    /// Its indirect calls and jumps whose target the reading could not tie
    /// to an address the binary holds (a pointer it was handed), or that
    /// lead past the most functions one loop's reading takes: what they
    /// reach was not compared.
    pub calls_not_followed: u32,
}

/// Reads, in the executable `binary`, the code at each offset from its
/// entry point: the function holding it, then the functions it calls,
/// directly or through others, in the order they are reached; `None` for
/// an offset no function symbol holds. An error where the file cannot be
/// read as an executable whose symbols it knows.
pub type ReadCode =
    fn(binary: &Path, offsets: &[i64]) -> Result<Vec<Option<Vec<FunctionCode>>>, String>;

/// One revision's timed loops and what they call: per child (in the order
/// of its listings), by function name.
#[derive(Debug, Clone, Default)]
pub struct LoopCode(Vec<BTreeMap<String, Vec<FunctionCode>>>);

impl LoopCode {
    /// Reads, with `read`, the code of every function each listing places,
    /// in the binary that listed it (`binaries`, in the same order). A
    /// binary that cannot be read has none: nothing is then said about its
    /// functions' code.
    pub fn read(binaries: &[&Path], listings: &[Listing], read: ReadCode) -> LoopCode {
        let per_binary = binaries.iter().zip(listings).map(|(binary, listing)| {
            let placed: Vec<(&str, i64)> = listing
                .functions
                .iter()
                .filter_map(|function| Some((function.name.as_str(), function.timed_loop?)))
                .collect();
            let offsets: Vec<i64> = placed.iter().map(|(_, offset)| *offset).collect();
            match read(binary, &offsets) {
                Ok(found) => placed
                    .iter()
                    .zip(found)
                    .filter_map(|((name, _), code)| Some((name.to_string(), code?)))
                    .collect(),
                Err(_) => BTreeMap::new(),
            }
        });
        LoopCode(per_binary.collect())
    }

    /// Of every timed loop's code, in every binary, the first `count`
    /// functions it reaches: itself and the code nearest to it (not the
    /// data it reads).
    pub fn nearest(&self, count: usize) -> impl Iterator<Item = &FunctionCode> {
        self.0
            .iter()
            .flat_map(BTreeMap::values)
            .flat_map(move |code| {
                code.iter()
                    .filter(|function| !function.symbol.is_empty())
                    .take(count)
            })
    }

    /// `function`'s timed loop, then what it calls, in the binary serving
    /// it; `None` where unknown or empty.
    fn of(&self, function: Located) -> Option<&[FunctionCode]> {
        let code = self.0.get(function.server)?.get(&function.function.name)?;
        (!code.is_empty()).then_some(code.as_slice())
    }
}

/// What the revisions' source digests and timed loops say of a function
/// served as `base` and `current`, where both loops' code is known;
/// `edited_crates` are the crates whose sources differ between the
/// revisions (library names), as far as the caller can tell.
pub fn compiled_code(
    (base, current): (Located, Located),
    (base_code, current_code): (&LoopCode, &LoopCode),
    edited_crates: &[String],
) -> Option<CompiledCode> {
    let [base_code, current_code] = [base_code.of(base)?, current_code.of(current)?];
    let mut callees = callees_differing(&base_code[1..], &current_code[1..]);
    for callee in &mut callees {
        callee.source_changed = edited_crates
            .iter()
            .any(|edited| edited == crate_of(&callee.name));
    }
    Some(CompiledCode {
        source_unchanged: base.function.source_digest == current.function.source_digest,
        timed_loop_bytes: [base_code[0].bytes, current_code[0].bytes],
        timed_loop_differs: base_code[0].digest != current_code[0].digest,
        callees_differing: callees,
        not_followed: not_followed(base_code, current_code),
    })
}

/// The crates whose code is built once, with the toolchain, and linked
/// into both revisions alike: an indirect call in them goes through a
/// pointer the code calling them handed over (a formatting trait's
/// vtable, a panic hook), which is that code's to take — read where it
/// was taken.
const STANDARD_LIBRARY: [&str; 11] = [
    "std",
    "core",
    "alloc",
    "std_detect",
    "panic_unwind",
    "panic_abort",
    "compiler_builtins",
    "unwind",
    // libtest, which every test binary links (its panic hook's closures
    // are reached through the hook the harness installs), and its
    // command-line parser.
    "test",
    "getopts",
    // The symbols the standard library exports to the compiler
    // (`__rustc::__rust_start_panic`).
    "__rustc",
];

/// The functions of either loop's code, by name in the order reached, with
/// calls the reading could not follow, outside the standard library and
/// code with no crate path (C and assembly linked in alike).
fn not_followed(base: &[FunctionCode], current: &[FunctionCode]) -> Vec<String> {
    let mut named = HashSet::new();
    base.iter()
        .chain(current)
        .filter(|function| function.calls_not_followed > 0)
        .map(|function| function.name.as_str())
        .filter(|name| name.contains("::") && !STANDARD_LIBRARY.contains(&crate_of(name)))
        .filter(|name| named.insert(*name))
        .map(str::to_string)
        .collect()
}

/// The crate whose source defines the function `name`: the first segment
/// of its path, of the type's where it is a trait's method
/// (`<httparse::Bytes as core::iter::Iterator>::next` is httparse's), of
/// the trait's where the type is the language's own (`<str as
/// core::fmt::Debug>::fmt` is core's).
pub fn crate_of(name: &str) -> &str {
    let path = type_path(name);
    match path.split_once("::") {
        Some((head, _)) if is_identifier(head) => head,
        _ => match name.split_once(" as ") {
            Some((_, trait_path)) => crate_of(trait_path),
            None => path,
        },
    }
}

/// `name` without what comes before the path of its type: `<`, references,
/// pointers, slices, `dyn`.
fn type_path(name: &str) -> &str {
    let mut path = name;
    loop {
        let trimmed = path.trim_start_matches(['<', '&', '*', '[', '(', ' ']);
        let trimmed = ["mut ", "const ", "dyn "]
            .iter()
            .find_map(|word| trimmed.strip_prefix(word))
            .unwrap_or(trimmed);
        if trimmed == path {
            return path;
        }
        path = trimmed;
    }
}

fn is_identifier(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The callees of `base` and `current` (each revision's, in the order its
/// loop reaches them) whose code differs or that one side does not reach,
/// in the base's order and then the current's: by name, the functions of
/// one name differ where their digests, taken together, do.
fn callees_differing(base: &[FunctionCode], current: &[FunctionCode]) -> Vec<Callee> {
    fn by_name(code: &[FunctionCode]) -> HashMap<&str, Vec<&FunctionCode>> {
        let mut named: HashMap<&str, Vec<&FunctionCode>> = HashMap::new();
        for function in code {
            named.entry(&function.name).or_default().push(function);
        }
        for functions in named.values_mut() {
            functions.sort_by_key(|function| function.digest);
        }
        named
    }
    let (in_base, in_current) = (by_name(base), by_name(current));
    let digests = |functions: &[&FunctionCode]| -> Vec<u64> {
        functions.iter().map(|function| function.digest).collect()
    };
    let mut named = HashSet::new();
    base.iter()
        .chain(current)
        .filter(|function| named.insert(function.name.as_str()))
        .filter_map(|function| {
            let [base, current] =
                [&in_base, &in_current].map(|side| side.get(function.name.as_str()));
            let differs = match (base, current) {
                (Some(base), Some(current)) => digests(base) != digests(current),
                _ => true,
            };
            differs.then(|| Callee {
                name: function.name.clone(),
                bytes: [base, current].map(|side| side.map(|functions| functions[0].bytes)),
                source_changed: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;
    use crate::revision::protocol::FunctionListing;
    use crate::revision::protocol::fixtures::listing;

    /// A timed loop of this test binary: an entry-relative offset of code
    /// that exists.
    #[inline(never)]
    fn a_function_of_this_binary(n: u64) -> u64 {
        std::hint::black_box(n).wrapping_mul(3)
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn an_address_in_this_process_is_an_offset_from_its_entry_point() {
        let function: fn(u64) -> u64 = a_function_of_this_binary;
        let offset = from_entry(function as usize).expect("Linux has AT_ENTRY");
        // Both are code of the same executable: far less apart than its size.
        let size = std::fs::metadata(std::env::current_exe().unwrap())
            .unwrap()
            .len();
        assert!(offset.unsigned_abs() < size, "{offset} in {size} bytes");
    }

    fn function(name: &str, digest: u64, timed_loop: Option<i64>) -> FunctionListing {
        FunctionListing {
            name: name.into(),
            file: "src/lib.rs".into(),
            line: 1,
            debug_build: false,
            settings: Settings::NONE,
            inputs: vec![],
            error: None,
            source_digest: digest,
            timed_loop,
        }
    }

    fn function_code(name: &str, bytes: u64, digest: u64) -> FunctionCode {
        FunctionCode {
            name: name.into(),
            symbol: format!("_ZN{}", name.replace("::", "_")),
            bytes,
            digest,
            calls_not_followed: 0,
        }
    }

    /// A binary whose timed loops are each 100 bytes plus their offset and
    /// call `helper`, whose code differs in the binary `current` at offset
    /// 356; the binary `unreadable` is an error, and negative offsets hold
    /// nothing.
    fn read(binary: &Path, offsets: &[i64]) -> Result<Vec<Option<Vec<FunctionCode>>>, String> {
        if binary == Path::new("unreadable") {
            return Err("not an executable".into());
        }
        Ok(offsets
            .iter()
            .map(|&offset| {
                let bytes = 100 + u64::try_from(offset).ok()?;
                let helper = if binary == Path::new("current") && offset == 356 {
                    2
                } else {
                    1
                };
                Some(vec![
                    function_code("timed_loop", bytes, bytes),
                    function_code("helper", 40, helper),
                ])
            })
            .collect())
    }

    fn located(function: &FunctionListing) -> Located<'_> {
        Located {
            server: 0,
            function,
        }
    }

    #[test]
    fn code_is_read_per_binary_and_paired_with_the_source_digests() {
        let base = [listing(vec![
            function("demo::same", 7, Some(356)),
            function("demo::edited", 8, Some(0)),
            function("demo::unplaced", 9, None),
        ])];
        let current = [listing(vec![
            function("demo::same", 7, Some(356)),
            function("demo::edited", 80, Some(0)),
            function("demo::unplaced", 9, Some(0)),
        ])];
        let base_code = LoopCode::read(&[Path::new("base")], &base, read);
        let current_code = LoopCode::read(&[Path::new("current")], &current, read);
        let code = |index: usize| {
            compiled_code(
                (
                    located(&base[0].functions[index]),
                    located(&current[0].functions[index]),
                ),
                (&base_code, &current_code),
                &[],
            )
        };
        // The same loop calling other code.
        assert_eq!(
            code(0),
            Some(CompiledCode {
                source_unchanged: true,
                timed_loop_bytes: [456, 456],
                timed_loop_differs: false,
                callees_differing: vec![Callee {
                    name: "helper".into(),
                    bytes: [Some(40), Some(40)],
                    source_changed: false,
                }],
                not_followed: vec![],
            })
        );
        assert!(code(0).unwrap().changed_alone());
        assert_eq!(
            code(1),
            Some(CompiledCode {
                source_unchanged: false,
                timed_loop_bytes: [100, 100],
                timed_loop_differs: false,
                callees_differing: vec![],
                not_followed: vec![],
            })
        );
        // Unknown on one side: nothing to say.
        assert_eq!(code(2), None);
        let unreadable = LoopCode::read(&[Path::new("unreadable")], &current, read);
        assert_eq!(
            compiled_code(
                (
                    located(&base[0].functions[0]),
                    located(&current[0].functions[0])
                ),
                (&base_code, &unreadable),
                &[],
            ),
            None
        );
    }

    #[test]
    fn callees_one_side_does_not_reach_differ_and_are_named_in_the_order_reached_by_name() {
        // Two instances that print alike, reached in another order.
        let base = [
            function_code("same", 10, 1),
            function_code("twin", 5, 7),
            function_code("only_base", 20, 2),
            function_code("twin", 6, 8),
            function_code("edited", 30, 3),
        ];
        let current = [
            function_code("only_current", 40, 4),
            function_code("twin", 6, 8),
            function_code("edited", 30, 33),
            function_code("twin", 5, 7),
            function_code("same", 10, 1),
        ];
        let callee = |name: &str, bytes| Callee {
            name: name.into(),
            bytes,
            source_changed: false,
        };
        assert_eq!(
            callees_differing(&base, &current),
            vec![
                callee("only_base", [Some(20), None]),
                callee("edited", [Some(30), Some(30)]),
                callee("only_current", [None, Some(40)]),
            ]
        );
        assert_eq!(callees_differing(&base, &base), vec![]);
    }

    #[test]
    fn a_function_s_crate_is_its_path_s_first_segment_or_its_type_s() {
        assert_eq!(
            crate_of("httparse::simd::avx2::match_uri_vectored"),
            "httparse"
        );
        assert_eq!(
            crate_of("<httparse::iter::Bytes as core::iter::Iterator>::next"),
            "httparse"
        );
        assert_eq!(
            crate_of("<&mut hex::Buffer as core::fmt::Write>::write_str"),
            "hex"
        );
        assert_eq!(crate_of("core::ptr::drop_in_place<hex::Error>"), "core");
        assert_eq!(crate_of("<str as core::fmt::Debug>::fmt"), "core");
        assert_eq!(crate_of("<[u8] as core::fmt::Debug>::fmt"), "core");
        assert_eq!(
            crate_of("<&mut dyn core::panic::PanicPayload as core::fmt::Display>::fmt"),
            "core"
        );
        assert_eq!(crate_of("memcpy"), "memcpy");
    }

    #[test]
    fn edited_crates_mark_their_callees_and_calls_not_followed_outside_std_are_named() {
        let listing = function("demo::tracked", 7, Some(0));
        let with_calls = |name: &str, digest: u64, calls_not_followed: u32| FunctionCode {
            calls_not_followed,
            ..function_code(name, 40, digest)
        };
        let loop_code = |matcher_digest: u64| {
            LoopCode(vec![BTreeMap::from([(
                "demo::tracked".to_string(),
                vec![
                    function_code("timed_loop", 100, 1),
                    with_calls("demo::simd::matcher", matcher_digest, 0),
                    with_calls("core::fmt::write", 5, 2),
                    // libtest's panic hook, as the bisect's fixture reached it.
                    with_calls(
                        "test::test_main_with_exit_callback::<test::test_main::{closure#0}>::{closure#0}",
                        8,
                        1,
                    ),
                    with_calls("memcpy", 6, 1),
                    with_calls("other::visit", 7, 1),
                ],
            )])])
        };
        let (base, current) = (loop_code(10), loop_code(11));
        let code = compiled_code(
            (located(&listing), located(&listing)),
            (&base, &current),
            &["demo".to_string()],
        )
        .unwrap();
        assert_eq!(
            code.callees_differing,
            vec![Callee {
                name: "demo::simd::matcher".into(),
                bytes: [Some(40), Some(40)],
                source_changed: true,
            }]
        );
        // The standard library's (libtest's too) and C's are the same code
        // handed the same pointers; `other`'s may be handed anything.
        assert_eq!(code.not_followed, vec!["other::visit".to_string()]);
        let code = compiled_code(
            (located(&listing), located(&listing)),
            (&base, &current),
            &[],
        )
        .unwrap();
        assert!(!code.callees_differing[0].source_changed);
    }
}
