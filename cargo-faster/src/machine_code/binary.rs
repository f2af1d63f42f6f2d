//! What an ELF binary holds where, for reading its code: its function
//! symbols by address with their bytes, its data symbols, the code
//! addresses its data holds (the pointers a dynamic relocation fills in,
//! or plain words in a binary loaded at a fixed address), and every data
//! address its code or data names (where unnamed objects begin).

use iced_x86::{Decoder, DecoderOptions, Instruction};
use object::{
    Architecture, Object, ObjectSection, ObjectSymbol, RelocationFlags, SectionKind, SymbolKind,
};

/// `R_X86_64_RELATIVE`: the place holds the load address plus the addend,
/// a pointer into the binary itself (a position-independent executable's
/// vtables and tables of function pointers).
const RELATIVE: u32 = 8;

/// `R_X86_64_IRELATIVE`: the addend is a resolver the loader calls to
/// choose the function (a CPU-feature-selected `memcpy`).
const IRELATIVE: u32 = 37;

/// How far past an address with no data symbol its object is taken to
/// reach: eight words, a vtable's drop, size, alignment and five methods.
/// LLVM gives private constants (vtables) no symbol.
const UNNAMED_OBJECT: u64 = 64;

/// A binary's code and data, by address.
pub struct Binary<'data> {
    /// Function symbols: start, size and name, sorted by start.
    pub functions: Vec<(u64, u64, &'data str)>,
    /// Data symbols: start, size and name, sorted by start.
    objects: Vec<(u64, u64, &'data str)>,
    /// Sections holding code or data: address and contents.
    sections: Vec<(u64, &'data [u8])>,
    /// Code addresses the data holds: where, and what they point to,
    /// sorted by where.
    pointers: Vec<(u64, u64)>,
    /// The global offset tables: the addresses the link fills in for code
    /// to load, of functions and data elsewhere.
    offset_tables: Vec<std::ops::Range<u64>>,
    /// The data addresses its code names (relative to an instruction) and
    /// its data points to, sorted: where objects without a symbol begin.
    named: Vec<u64>,
    /// Whether its code can be decoded (x86-64); elsewhere a function's
    /// digest is its size and it reaches nothing.
    pub decodable: bool,
}

impl<'data> Binary<'data> {
    /// Indexes `file`'s symbols, sections and dynamic relocations.
    pub fn of(file: &object::File<'data>) -> Binary<'data> {
        let mut functions: Vec<(u64, u64, &str)> = file
            .symbols()
            .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.size() > 0)
            .map(|symbol| (symbol.address(), symbol.size(), symbol.name().unwrap_or("")))
            .collect();
        functions.sort_unstable();
        functions.dedup_by_key(|(start, ..)| *start);
        let mut objects: Vec<(u64, u64, &str)> = file
            .symbols()
            .filter(|symbol| symbol.kind() == SymbolKind::Data && symbol.size() > 0)
            .map(|symbol| (symbol.address(), symbol.size(), symbol.name().unwrap_or("")))
            .collect();
        objects.sort_unstable();
        // Sections not loaded (debugging information) are at address 0.
        let mut sections: Vec<(u64, &[u8])> = file
            .sections()
            .filter(|section| section.address() != 0)
            .filter(|section| section.kind() != SectionKind::UninitializedData)
            .filter_map(|section| Some((section.address(), section.data().ok()?)))
            .filter(|(_, data)| !data.is_empty())
            .collect();
        sections.sort_unstable_by_key(|&(address, _)| address);
        let mut pointers: Vec<(u64, u64)> = file
            .dynamic_relocations()
            .into_iter()
            .flatten()
            .filter_map(|(place, relocation)| match relocation.flags() {
                RelocationFlags::Elf {
                    r_type: RELATIVE | IRELATIVE,
                } => Some((place, u64::try_from(relocation.addend()).ok()?)),
                _ => None,
            })
            .collect();
        pointers.sort_unstable();
        let offset_tables = file
            .sections()
            .filter(|section| matches!(section.name(), Ok(".got" | ".got.plt")))
            .map(|section| section.address()..section.address() + section.size())
            .collect();
        let mut binary = Binary {
            functions,
            objects,
            sections,
            pointers,
            offset_tables,
            named: Vec::new(),
            decodable: file.architecture() == Architecture::X86_64,
        };
        binary.named = binary.data_named();
        binary
    }

    /// Every data address an instruction of a function names relative to
    /// itself (where its code decodes) or a relocation puts in data, sorted
    /// and each once.
    fn data_named(&self) -> Vec<u64> {
        let mut named: Vec<u64> = self.pointers.iter().map(|&(_, target)| target).collect();
        let mut instruction = Instruction::default();
        for &(start, size, _) in self.functions.iter().filter(|_| self.decodable) {
            let Some(code) = self.bytes(start, size) else {
                continue;
            };
            let mut decoder = Decoder::with_ip(64, code, start, DecoderOptions::NONE);
            while decoder.can_decode() {
                decoder.decode_out(&mut instruction);
                if instruction.is_ip_rel_memory_operand() {
                    named.push(instruction.ip_rel_memory_address());
                }
            }
        }
        named.retain(|&address| self.function_holding(address).is_none());
        named.sort_unstable();
        named.dedup();
        named
    }

    /// The first data address after `address` that code or data names
    /// (`u64::MAX` past the last).
    pub fn next_named(&self, address: u64) -> u64 {
        let next = self.named.partition_point(|&named| named <= address);
        self.named.get(next).copied().unwrap_or(u64::MAX)
    }

    /// The index of the function whose code holds `address`.
    pub fn function_holding(&self, address: u64) -> Option<usize> {
        let index = holding(&self.functions, address, |&(start, size, _)| (start, size))?;
        Some(index)
    }

    /// `size` bytes from `start`, where a section holds them.
    pub fn bytes(&self, start: u64, size: u64) -> Option<&'data [u8]> {
        let index = self.sections.partition_point(|&(at, _)| at <= start);
        let (at, data) = self.sections[index.checked_sub(1)?];
        let from = usize::try_from(start - at).ok()?;
        data.get(from..from.checked_add(usize::try_from(size).ok()?)?)
    }

    /// The extent of the data object holding `address`: its symbol's, or
    /// for a private constant without one, a few words up to the next
    /// symbol.
    pub fn object_holding(&self, address: u64) -> std::ops::Range<u64> {
        if let Some((object, _)) = self.data_symbol_holding(address) {
            return object;
        }
        address
            ..self
                .next_symbol(address)
                .min(address.saturating_add(UNNAMED_OBJECT))
    }

    /// The data symbol whose object holds `address`: its extent and name.
    pub fn data_symbol_holding(&self, address: u64) -> Option<(std::ops::Range<u64>, &'data str)> {
        let index = holding(&self.objects, address, |&(start, size, _)| (start, size))?;
        let (start, size, name) = self.objects[index];
        Some((start..start + size, name))
    }

    /// The address a relocation puts at `place`, where one does.
    pub fn pointer_at(&self, place: u64) -> Option<u64> {
        let index = self
            .pointers
            .binary_search_by_key(&place, |&(at, _)| at)
            .ok()?;
        Some(self.pointers[index].1)
    }

    /// The data symbol starting first after `address`: its extent.
    pub fn next_data_symbol(&self, address: u64) -> Option<std::ops::Range<u64>> {
        let next = self
            .objects
            .partition_point(|&(start, ..)| start <= address);
        let &(start, size, _) = self.objects.get(next)?;
        Some(start..start + size)
    }

    /// Whether `address` is in a global offset table: what code loads there
    /// is where the link put something, not data of its own.
    pub fn in_offset_table(&self, address: u64) -> bool {
        self.offset_tables
            .iter()
            .any(|table| table.contains(&address))
    }

    /// Where the first data or function symbol after `address` starts
    /// (`u64::MAX` past the last).
    pub fn next_symbol(&self, address: u64) -> u64 {
        let data = self
            .objects
            .partition_point(|&(start, ..)| start <= address);
        let code = self
            .functions
            .partition_point(|&(start, ..)| start <= address);
        let start_of = |entry: Option<u64>| entry.unwrap_or(u64::MAX);
        start_of(self.objects.get(data).map(|&(start, ..)| start))
            .min(start_of(self.functions.get(code).map(|&(start, ..)| start)))
    }

    /// Where the section holding `address` ends; `None` where no section
    /// with contents in the file holds it (zero-initialized data).
    pub fn section_end(&self, address: u64) -> Option<u64> {
        let index = self.sections.partition_point(|&(at, _)| at <= address);
        let (at, data) = self.sections[index.checked_sub(1)?];
        let end = at + data.len() as u64;
        (address < end).then_some(end)
    }

    /// The pointers relocations put in `range`: where each is, and what it
    /// points to, by where.
    pub fn relocated_in(&self, range: std::ops::Range<u64>) -> &[(u64, u64)] {
        let first = self
            .pointers
            .partition_point(|&(place, _)| place < range.start);
        let last = self
            .pointers
            .partition_point(|&(place, _)| place < range.end);
        &self.pointers[first..last]
    }

    /// The addresses the data in `range` holds: the pointers relocations
    /// put there, and the aligned words there that are the start of a
    /// function (a binary loaded at a fixed address stores them as they
    /// are).
    pub fn pointers_in(&self, range: std::ops::Range<u64>) -> Vec<u64> {
        let mut found: Vec<u64> = self
            .relocated_in(range.clone())
            .iter()
            .map(|&(_, target)| target)
            .collect();
        let aligned = range.start.next_multiple_of(8);
        if let Some(words) = self.bytes(aligned, range.end.saturating_sub(aligned) & !7) {
            found.extend(
                words
                    .chunks_exact(8)
                    .map(|word| u64::from_le_bytes(word.try_into().expect("eight bytes")))
                    .filter(|&word| self.function_starting_at(word)),
            );
        }
        found
    }

    /// Whether a function starts at `address`.
    fn function_starting_at(&self, address: u64) -> bool {
        self.functions
            .binary_search_by_key(&address, |&(start, ..)| start)
            .is_ok()
    }
}

/// In `sorted` (by start), the index of the entry whose extent holds
/// `address`.
fn holding<T>(sorted: &[T], address: u64, extent: impl Fn(&T) -> (u64, u64)) -> Option<usize> {
    let index = sorted
        .partition_point(|entry| extent(entry).0 <= address)
        .checked_sub(1)?;
    let (start, size) = extent(&sorted[index]);
    (address < start + size).then_some(index)
}
