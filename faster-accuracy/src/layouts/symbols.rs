//! The functions of a test binary, each at its address, read from its ELF
//! symbol table with `object` (as `cargo faster` reads machine code) and
//! named as the source names them (demangled, without the mangling's
//! hash): how the suite checks that every compared function is a symbol
//! of its own (`fixture`), and finds where each layout put it (`offsets`).

use object::{Object, ObjectSymbol, SymbolKind};
use std::collections::BTreeMap;
use std::path::Path;

/// The functions defined in `binary` whose name starts with `prefix`
/// (`layouts_fixture::`), at their addresses; of two with one name, the
/// first in the symbol table. An error where `binary` cannot be read or
/// is not an ELF file.
pub fn functions(binary: &Path, prefix: &str) -> Result<BTreeMap<String, u64>, String> {
    let data = std::fs::read(binary)
        .map_err(|error| format!("cannot read {}: {error}", binary.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|error| format!("cannot read {} as ELF: {error}", binary.display()))?;
    let mut functions = BTreeMap::new();
    let defined = file
        .symbols()
        .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.is_definition());
    for symbol in defined {
        let name = source_name(symbol.name().unwrap_or_default());
        if name.starts_with(prefix) {
            functions.entry(name).or_insert(symbol.address());
        }
    }
    Ok(functions)
}

/// A symbol as the source names its function: demangled, without the
/// legacy mangling's hash (`::h0123456789abcdef`) or the v0 mangling's
/// crate disambiguators.
fn source_name(symbol: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(symbol))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_sources_in_either_mangling() {
        assert_eq!(
            source_name("_ZN15layouts_fixture5parse4copy17h0123456789abcdefE"),
            "layouts_fixture::parse::copy"
        );
        assert_eq!(
            source_name("_RNvNtCs1234_15layouts_fixture5parse4copy"),
            "layouts_fixture::parse::copy"
        );
        assert_eq!(source_name("memcpy"), "memcpy");
    }

    #[inline(never)]
    fn a_function_of_this_test(n: u64) -> u64 {
        std::hint::black_box(n) * 3
    }

    #[inline(never)]
    fn another_function_of_this_test(n: u64) -> u64 {
        std::hint::black_box(n) ^ 5
    }

    static DATA_OF_THIS_TEST: [u8; 4] = [1, 2, 3, 4];

    #[test]
    fn this_binarys_functions_are_found_where_they_are() {
        // Called and read, so the binary holds them.
        assert_eq!(
            a_function_of_this_test(2) + another_function_of_this_test(1),
            10
        );
        assert_eq!(std::hint::black_box(&DATA_OF_THIS_TEST)[3], 4);

        let prefix = format!("{}::", module_path!());
        let binary = std::env::current_exe().unwrap();
        let found = functions(&binary, &prefix).unwrap();
        assert!(found.keys().all(|name| name.starts_with(&prefix)));
        let address = |name: &str| found[&format!("{prefix}{name}")];
        let (first, second) = (
            address("a_function_of_this_test"),
            address("another_function_of_this_test"),
        );
        // Where the binary is loaded moves both by as much.
        let loaded_at = |function: fn(u64) -> u64| function as usize as u64;
        let apart = loaded_at(another_function_of_this_test)
            .wrapping_sub(loaded_at(a_function_of_this_test));
        assert_eq!(second.wrapping_sub(first), apart);
        // Data is not a function.
        assert!(!found.contains_key(&format!("{prefix}DATA_OF_THIS_TEST")));

        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let error = functions(&manifest, &prefix).unwrap_err();
        assert!(error.contains("Cargo.toml as ELF: "), "{error}");
    }
}
