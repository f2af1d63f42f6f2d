//! The sizes of the functions holding given code in a test binary (the
//! runtime's `SymbolSizes`): how `cargo faster` tells a tracked function
//! whose compiled code changed between the revisions although its source
//! did not. Reads ELF symbol tables with `object`, here rather than in the
//! runtime, so the users' dependency tree does not carry it.

use object::{Object, ObjectSymbol, SymbolKind};
use std::path::Path;

/// In `binary`, the size of the function symbol holding each offset from
/// the binary's entry point (where the child serving it placed its timed
/// loops): `None` for an offset no function symbol holds (a stripped
/// binary has none). An error where `binary` is not an ELF file.
pub fn symbol_sizes(binary: &Path, offsets: &[i64]) -> Result<Vec<Option<u64>>, String> {
    let data = std::fs::read(binary)
        .map_err(|error| format!("cannot read {}: {error}", binary.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|error| format!("cannot read {} as ELF: {error}", binary.display()))?;
    let mut functions: Vec<(u64, u64)> = file
        .symbols()
        .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.size() > 0)
        .map(|symbol| (symbol.address(), symbol.size()))
        .collect();
    functions.sort_unstable();
    let entry = file.entry();
    Ok(offsets
        .iter()
        .map(|&offset| {
            let address = entry.checked_add_signed(offset)?;
            let starting_at_or_before = functions.partition_point(|&(start, _)| start <= address);
            let &(start, size) = functions[..starting_at_or_before].last()?;
            (address < start + size).then_some(size)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_runtime::revision::machine_code::from_entry;

    /// Code of this test binary, of a size the test can bound.
    #[inline(never)]
    fn a_small_function(n: u64) -> u64 {
        std::hint::black_box(n).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7
    }

    #[test]
    fn a_function_of_this_binary_is_found_with_a_plausible_size() {
        let function: fn(u64) -> u64 = a_small_function;
        let offset = from_entry(function as usize).expect("Linux tells the entry point");
        let binary = std::env::current_exe().unwrap();
        let sizes = symbol_sizes(&binary, &[offset, offset + 1, i64::MIN]).unwrap();
        let size = sizes[0].expect("the function has a symbol");
        assert!((4..=64).contains(&size), "{size} bytes");
        // Inside the function: the same symbol; nowhere: nothing.
        assert_eq!(sizes[1], Some(size));
        assert_eq!(sizes[2], None);
    }

    #[test]
    fn a_file_that_is_not_elf_is_an_error() {
        let error = symbol_sizes(Path::new(env!("CARGO_MANIFEST_PATH")), &[0]).unwrap_err();
        assert!(error.contains("as ELF"), "{error}");
    }
}
