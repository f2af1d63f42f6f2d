//! The digest of a tracked function's own source: what lets `cargo faster`
//! tell a function whose code changed from one whose compiled code changed
//! for other reasons (the code generation of its crate, a callee).

use quote::ToTokens;
use syn::ItemFn;

/// FNV-1a (64 bits) of the function's tokens as text, its doc comments
/// left out: the same for the same tokens wherever the function sits in its
/// file (spans and ordinary comments are not tokens), changed by any edit of
/// its signature, attributes or body. A doc comment does not change the
/// code, so editing one does not change the digest either. The attribute
/// being expanded is not among the function's attributes any more.
pub(crate) fn source_digest(function: &ItemFn) -> u64 {
    let mut bare = function.clone();
    bare.attrs
        .retain(|attribute| !attribute.path().is_ident("doc"));
    fnv1a(bare.to_token_stream().to_string().as_bytes())
}

/// The 64-bit FNV-1a hash: tiny, with no dependency, and stable across
/// compilers and platforms (unlike `std`'s hashers).
fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(source: &str) -> u64 {
        source_digest(&syn::parse_str(source).expect("a function"))
    }

    #[test]
    fn fnv1a_matches_its_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn the_same_tokens_give_the_same_digest_however_they_are_laid_out() {
        let written = "fn double(n: &u64) -> u64 { n * 2 }";
        let relaid =
            "/// Twice `n`.\nfn   double(n:&u64)->u64 {\n    // why: a comment\n    n*2\n}";
        assert_eq!(digest(written), digest(written));
        assert_eq!(digest(written), digest(relaid));
    }

    #[test]
    fn any_edit_of_the_function_changes_the_digest() {
        let written = digest("fn double(n: &u64) -> u64 { n * 2 }");
        for edited in [
            "fn double(n: &u64) -> u64 { n * 3 }",
            "fn double(n: &u64) -> u64 { n + n }",
            "fn double(m: &u64) -> u64 { m * 2 }",
            "fn double(n: &u32) -> u32 { n * 2 }",
            "#[inline] fn double(n: &u64) -> u64 { n * 2 }",
            "fn twice(n: &u64) -> u64 { n * 2 }",
        ] {
            assert_ne!(written, digest(edited), "{edited}");
        }
    }
}
