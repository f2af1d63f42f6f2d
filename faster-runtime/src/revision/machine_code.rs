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
    /// link's symbol ordering names (see `layout::paired`).
    pub symbol: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// A digest of its instructions with the addresses a link decides left
    /// out (what its calls reach is in, by name): equal for the same code
    /// wherever it was linked.
    pub digest: u64,
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

    /// Every function of every timed loop's code, in every binary.
    pub fn functions(&self) -> impl Iterator<Item = &FunctionCode> {
        self.0.iter().flat_map(BTreeMap::values).flatten()
    }

    /// `function`'s timed loop, then what it calls, in the binary serving
    /// it; `None` where unknown or empty.
    fn of(&self, function: Located) -> Option<&[FunctionCode]> {
        let code = self.0.get(function.server)?.get(&function.function.name)?;
        (!code.is_empty()).then_some(code.as_slice())
    }
}

/// What the revisions' source digests and timed loops say of a function
/// served as `base` and `current`, where both loops' code is known.
pub fn compiled_code(
    (base, current): (Located, Located),
    (base_code, current_code): (&LoopCode, &LoopCode),
) -> Option<CompiledCode> {
    let [base_code, current_code] = [base_code.of(base)?, current_code.of(current)?];
    Some(CompiledCode {
        source_unchanged: base.function.source_digest == current.function.source_digest,
        timed_loop_bytes: [base_code[0].bytes, current_code[0].bytes],
        timed_loop_differs: base_code[0].digest != current_code[0].digest,
        callees_differing: callees_differing(&base_code[1..], &current_code[1..]),
    })
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
                }],
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
}
