//! A tracked function's machine code in each revision: the child says
//! where the code it times is ([`from_entry`]: an offset from the
//! program's entry point, the same in the file as in the running process
//! wherever it is loaded), `cargo faster` reads how big the symbol there is
//! in each revision's binary (a [`SymbolSizes`] it supplies, since reading
//! an executable format is its business, not the users' dependency tree's),
//! and [`compiled_code`] puts that beside the digests of the function's
//! source: code that changed where the source did not came from code
//! generation or from a callee, not from the function.

use super::compare::Located;
use super::protocol::Listing;
use crate::report::CompiledCode;
use std::collections::BTreeMap;
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

/// Reads, in the executable `binary`, the size of the function symbol
/// holding each offset from its entry point: `None` for an offset no
/// symbol holds. An error where the file cannot be read as an executable
/// whose symbols it knows.
pub type SymbolSizes = fn(binary: &Path, offsets: &[i64]) -> Result<Vec<Option<u64>>, String>;

/// The sizes of one revision's timed loops: per child (in the order of its
/// listings), by function name.
#[derive(Debug, Clone, Default)]
pub struct LoopSizes(Vec<BTreeMap<String, u64>>);

impl LoopSizes {
    /// Reads, with `sizes`, the timed loop's size of every function each
    /// listing places, in the binary that listed it (`binaries`, in the
    /// same order). A binary that cannot be read has none: nothing is then
    /// said about its functions' code.
    pub fn read(binaries: &[&Path], listings: &[Listing], sizes: SymbolSizes) -> LoopSizes {
        let per_binary = binaries.iter().zip(listings).map(|(binary, listing)| {
            let placed: Vec<(&str, i64)> = listing
                .functions
                .iter()
                .filter_map(|function| Some((function.name.as_str(), function.timed_loop?)))
                .collect();
            let offsets: Vec<i64> = placed.iter().map(|(_, offset)| *offset).collect();
            match sizes(binary, &offsets) {
                Ok(found) => placed
                    .iter()
                    .zip(found)
                    .filter_map(|((name, _), size)| Some((name.to_string(), size?)))
                    .collect(),
                Err(_) => BTreeMap::new(),
            }
        });
        LoopSizes(per_binary.collect())
    }

    /// The size of `function`'s timed loop in the binary serving it.
    fn of(&self, function: Located) -> Option<u64> {
        self.0
            .get(function.server)?
            .get(&function.function.name)
            .copied()
    }
}

/// What the revisions' source digests and timed loops say of a function
/// served as `base` and `current`, where both loops' sizes are known.
pub fn compiled_code(
    (base, current): (Located, Located),
    (base_sizes, current_sizes): (&LoopSizes, &LoopSizes),
) -> Option<CompiledCode> {
    Some(CompiledCode {
        source_unchanged: base.function.source_digest == current.function.source_digest,
        timed_loop_bytes: [base_sizes.of(base)?, current_sizes.of(current)?],
    })
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

    /// A binary whose symbols are each 100 bytes plus their offset; the
    /// binary `unreadable` is an error, and negative offsets hold nothing.
    fn sizes(binary: &Path, offsets: &[i64]) -> Result<Vec<Option<u64>>, String> {
        if binary == Path::new("unreadable") {
            return Err("not an executable".into());
        }
        Ok(offsets
            .iter()
            .map(|&offset| u64::try_from(offset).ok().map(|offset| 100 + offset))
            .collect())
    }

    fn located(function: &FunctionListing) -> Located<'_> {
        Located {
            server: 0,
            function,
        }
    }

    #[test]
    fn sizes_are_read_per_binary_and_paired_with_the_source_digests() {
        let base = [listing(vec![
            function("demo::same", 7, Some(356)),
            function("demo::edited", 8, Some(0)),
            function("demo::unplaced", 9, None),
        ])];
        let current = [listing(vec![
            function("demo::same", 7, Some(446)),
            function("demo::edited", 80, Some(0)),
            function("demo::unplaced", 9, Some(0)),
        ])];
        let base_sizes = LoopSizes::read(&[Path::new("base")], &base, sizes);
        let current_sizes = LoopSizes::read(&[Path::new("current")], &current, sizes);
        let code = |index: usize| {
            compiled_code(
                (
                    located(&base[0].functions[index]),
                    located(&current[0].functions[index]),
                ),
                (&base_sizes, &current_sizes),
            )
        };
        assert_eq!(
            code(0),
            Some(CompiledCode {
                source_unchanged: true,
                timed_loop_bytes: [456, 546],
            })
        );
        assert!(code(0).unwrap().changed_alone());
        assert_eq!(
            code(1),
            Some(CompiledCode {
                source_unchanged: false,
                timed_loop_bytes: [100, 100],
            })
        );
        // Unknown on one side: nothing to say.
        assert_eq!(code(2), None);
        let unreadable = LoopSizes::read(&[Path::new("unreadable")], &current, sizes);
        assert_eq!(
            compiled_code(
                (
                    located(&base[0].functions[0]),
                    located(&current[0].functions[0])
                ),
                (&base_sizes, &unreadable),
            ),
            None
        );
    }
}
