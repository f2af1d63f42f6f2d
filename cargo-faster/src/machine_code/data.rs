//! The data a function's code reads at addresses its instructions name (a
//! static table, a constant it indexes): how far each object reaches, and
//! a digest of its bytes that reads the pointers in it as what they point
//! to, so the same table linked elsewhere reads the same and a table whose
//! contents changed does not.

use super::binary::Binary;
use super::readable;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

/// The most bytes taken as one object where the address read has no
/// symbol and neither the next symbol nor the section's end bounds it
/// nearer: past this, where the object ends is not known.
const MOST_UNNAMED: u64 = 4096;

/// How far before a data symbol an address the code indexes from is taken
/// to be that symbol's, its index's constant part folded into the address
/// (`lea r11, [rip + TABLE - 0x2c]` for `TABLE[i - 0x2c]`).
const FOLDED_OFFSET: u64 = 256;

/// One object of data a function reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object<'data> {
    /// Its bytes' addresses.
    pub range: Range<u64>,
    /// Its symbol, where it has one.
    pub symbol: Option<&'data str>,
    /// Whether the range is all of it; otherwise where it ends is not
    /// known and only its first [`MOST_UNNAMED`] bytes are compared.
    pub whole: bool,
}

/// The object the code reads at `address`: its symbol's where one holds
/// it; else the `bytes` an instruction reads there, or, for an address the
/// code indexes from (`bytes` unknown), through the data symbol starting
/// just after it (an index's constant part folded in), else up to the next
/// symbol, the next address other code or data names (an unnamed table
/// lies beside others: `ErrorKind`'s `Debug` reads its lengths beside a
/// table of distances to its strings, which another link makes other), or
/// the end of its section.
pub fn object_at<'data>(binary: &Binary<'data>, address: u64, bytes: Option<u64>) -> Object<'data> {
    if let Some((range, symbol)) = binary.data_symbol_holding(address) {
        return Object {
            range,
            symbol: Some(symbol),
            whole: true,
        };
    }
    let folded = || {
        binary
            .next_data_symbol(address)
            .filter(|next| next.start - address <= FOLDED_OFFSET)
            .map(|next| next.end)
    };
    let end = match bytes {
        Some(bytes) => address.saturating_add(bytes),
        None => folded().unwrap_or_else(|| {
            binary
                .next_symbol(address)
                .min(binary.next_named(address))
                .min(binary.section_end(address).unwrap_or(u64::MAX))
        }),
    };
    let most = address.saturating_add(MOST_UNNAMED);
    Object {
        range: address..end.min(most),
        symbol: None,
        whole: end <= most,
    }
}

/// A digest of the bytes in `range`, with each pointer a relocation puts
/// there read as what it points to — a function or a data symbol by name
/// and offset, other data as data — not as where the link put it. Bytes
/// the file does not hold (zero-initialized data) count by their number.
pub fn digest(binary: &Binary<'_>, range: Range<u64>) -> u64 {
    let mut digest = DefaultHasher::new();
    let length = range.end - range.start;
    let Some(bytes) = binary.bytes(range.start, length) else {
        length.hash(&mut digest);
        return digest.finish();
    };
    let mut from = range.start;
    for &(place, target) in binary.relocated_in(range.clone()) {
        let before = usize::try_from(place.saturating_sub(from)).unwrap_or(usize::MAX);
        let offset = usize::try_from(from - range.start).unwrap_or(usize::MAX);
        bytes
            .get(offset..offset.saturating_add(before))
            .hash(&mut digest);
        pointed_to(binary, target).hash(&mut digest);
        from = place.saturating_add(8).max(from);
    }
    let offset = usize::try_from(from - range.start).unwrap_or(usize::MAX);
    bytes.get(offset..).hash(&mut digest);
    digest.finish()
}

/// What a pointer in data points to, in words no link changes: the
/// function or data symbol holding `target` and the offset into it.
fn pointed_to(binary: &Binary<'_>, target: u64) -> (String, u64) {
    if let Some(index) = binary.function_holding(target) {
        let (start, _, symbol) = binary.functions[index];
        return (readable(symbol), target - start);
    }
    match binary.data_symbol_holding(target) {
        Some((range, symbol)) => (readable(symbol), target - range.start),
        None => ("unnamed data".to_string(), 0),
    }
}
