//! The machine code a tracked function's timed loop runs, read from a test
//! binary (the runtime's `ReadCode`): the loop's function and those it
//! calls, each with a digest of its instructions that leaves out where the
//! link put things, so `cargo faster` can tell a tracked function whose
//! compiled code changed between the revisions although its source did
//! not. Reads ELF symbol tables with `object` and decodes x86-64 with
//! `iced-x86`, here rather than in the runtime, so the users' dependency
//! tree carries neither.

use faster_runtime::__internal::FunctionCode;
use iced_x86::{Code, Decoder, DecoderOptions, Instruction, OpKind, Register};
use object::{Architecture, Object, ObjectSection, ObjectSymbol, SymbolKind};
use std::collections::{HashSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

/// How many calls deep from the timed loop functions are read: the loop,
/// the function it times where it was left out of line, that function's
/// callees and theirs. Deeper lies the standard library, the same code in
/// both revisions.
const DEPTH: usize = 3;

/// The most functions read for one timed loop, whatever the depth: a loop
/// that reaches a formatter reaches hundreds.
const MOST_FUNCTIONS: usize = 64;

/// In `binary`, the code at each offset from the binary's entry point
/// (where the child serving it placed its timed loops): the function
/// symbol holding it, then the functions it calls, directly or through
/// others ([`DEPTH`], [`MOST_FUNCTIONS`]), in the order they are reached.
/// `None` for an offset no function symbol holds (a stripped binary has
/// none). An error where `binary` is not an ELF file.
pub fn timed_code(
    binary: &Path,
    offsets: &[i64],
) -> Result<Vec<Option<Vec<FunctionCode>>>, String> {
    let data = std::fs::read(binary)
        .map_err(|error| format!("cannot read {}: {error}", binary.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|error| format!("cannot read {} as ELF: {error}", binary.display()))?;
    let functions = Functions::of(&file);
    let entry = file.entry();
    Ok(offsets
        .iter()
        .map(|&offset| {
            let root = functions.holding(entry.checked_add_signed(offset)?)?;
            Some(functions.reached_from(root))
        })
        .collect())
}

/// A binary's function symbols, by address, with what reading their code
/// needs.
struct Functions<'data> {
    /// Start, size and name, sorted by start.
    symbols: Vec<(u64, u64, &'data str)>,
    /// Reads a function's bytes.
    file: &'data object::File<'data>,
    /// Whether its code can be decoded (x86-64); elsewhere a function's
    /// digest is its size.
    decodable: bool,
}

impl<'data> Functions<'data> {
    fn of(file: &'data object::File<'data>) -> Functions<'data> {
        let mut symbols: Vec<(u64, u64, &str)> = file
            .symbols()
            .filter(|symbol| symbol.kind() == SymbolKind::Text && symbol.size() > 0)
            .map(|symbol| (symbol.address(), symbol.size(), symbol.name().unwrap_or("")))
            .collect();
        symbols.sort_unstable();
        symbols.dedup_by_key(|(start, ..)| *start);
        Functions {
            symbols,
            file,
            decodable: file.architecture() == Architecture::X86_64,
        }
    }

    /// The index of the function whose code holds `address`.
    fn holding(&self, address: u64) -> Option<usize> {
        let starting_at_or_before = self
            .symbols
            .partition_point(|&(start, ..)| start <= address);
        let index = starting_at_or_before.checked_sub(1)?;
        let (start, size, _) = self.symbols[index];
        (address < start + size).then_some(index)
    }

    /// The function `root` and those it calls, breadth first.
    fn reached_from(&self, root: usize) -> Vec<FunctionCode> {
        let mut seen = HashSet::from([root]);
        let mut queue = VecDeque::from([(root, 0)]);
        let mut reached = Vec::new();
        while let Some((index, depth)) = queue.pop_front() {
            let (code, callees) = self.read(index);
            reached.push(code);
            if depth < DEPTH {
                for callee in callees {
                    if seen.len() < MOST_FUNCTIONS && seen.insert(callee) {
                        queue.push_back((callee, depth + 1));
                    }
                }
            }
        }
        reached
    }

    /// The function at `index` and the functions it calls or jumps to, in
    /// the order its code names them.
    fn read(&self, index: usize) -> (FunctionCode, Vec<usize>) {
        let (start, size, symbol) = self.symbols[index];
        let mut digest = DefaultHasher::new();
        let mut callees = Vec::new();
        match self.bytes(start, size).filter(|_| self.decodable) {
            Some(bytes) => {
                let mut decoder = Decoder::with_ip(64, bytes, start, DecoderOptions::NONE);
                let mut instruction = Instruction::default();
                let mut thread_pointers = ThreadPointers::default();
                while decoder.can_decode() {
                    decoder.decode_out(&mut instruction);
                    let callee = self.hash_instruction(
                        &instruction,
                        start..start + size,
                        &mut thread_pointers,
                        &mut digest,
                    );
                    callees.extend(callee);
                }
            }
            None => size.hash(&mut digest),
        }
        let code = FunctionCode {
            name: readable(symbol),
            symbol: symbol.to_string(),
            bytes: size,
            digest: digest.finish(),
        };
        (code, callees)
    }

    /// The bytes of the code from `start`, `size` of them, where a section
    /// of the file holds them.
    fn bytes(&self, start: u64, size: u64) -> Option<&'data [u8]> {
        let section = self.file.sections().find(|section| {
            (section.address()..section.address() + section.size()).contains(&start)
        })?;
        let data = section.data().ok()?;
        let from = usize::try_from(start - section.address()).ok()?;
        data.get(from..from.checked_add(usize::try_from(size).ok()?)?)
    }

    /// Feeds `instruction` into `digest` as what it does, not where things
    /// are: a branch within its function as the distance from the
    /// function's start, a call or jump out of it as the name of the
    /// function it reaches (returned, to be read in turn), and an address
    /// relative to the instruction (data, a constant, a table) or to the
    /// thread's own storage not at all. The same code linked in another
    /// order, or beside other code, so gives the same digest.
    fn hash_instruction(
        &self,
        instruction: &Instruction,
        function: std::ops::Range<u64>,
        thread_pointers: &mut ThreadPointers,
        digest: &mut DefaultHasher,
    ) -> Option<usize> {
        (instruction.code() as u32).hash(digest);
        (
            instruction.has_rep_prefix(),
            instruction.has_repne_prefix(),
            instruction.has_lock_prefix(),
            instruction.segment_prefix() as u32,
        )
            .hash(digest);
        let mut callee = None;
        for operand in 0..instruction.op_count() {
            match instruction.op_kind(operand) {
                OpKind::Register => (instruction.op_register(operand) as u32).hash(digest),
                OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => {
                    let target = instruction.near_branch_target();
                    if function.contains(&target) {
                        (target - function.start).hash(digest);
                    } else {
                        callee = self.holding(target);
                        match callee {
                            Some(index) => readable(self.symbols[index].2).hash(digest),
                            // The PLT: a function of a shared library.
                            None => "outside".hash(digest),
                        }
                    }
                }
                OpKind::Memory => {
                    (
                        instruction.memory_base() as u32,
                        instruction.memory_index() as u32,
                        instruction.memory_index_scale(),
                        instruction.memory_size() as u32,
                    )
                        .hash(digest);
                    if !instruction.is_ip_rel_memory_operand()
                        && !thread_pointers.addresses(instruction)
                    {
                        instruction.memory_displacement64().hash(digest);
                    }
                }
                OpKind::Immediate8
                | OpKind::Immediate8_2nd
                | OpKind::Immediate16
                | OpKind::Immediate32
                | OpKind::Immediate64
                | OpKind::Immediate8to16
                | OpKind::Immediate8to32
                | OpKind::Immediate8to64
                | OpKind::Immediate32to64 => instruction.immediate(operand).hash(digest),
                other => (other as u32).hash(digest),
            }
        }
        thread_pointers.follow(instruction);
        callee
    }
}

/// The registers that hold the thread pointer (loaded from `fs:0`): an
/// offset from it, or from `fs` itself, is where the link put a thread
/// local, which another link (a layout) puts elsewhere.
#[derive(Default)]
struct ThreadPointers(Vec<Register>);

impl ThreadPointers {
    /// Whether `instruction`'s memory operand addresses thread-local
    /// storage.
    fn addresses(&self, instruction: &Instruction) -> bool {
        matches!(instruction.segment_prefix(), Register::FS | Register::GS)
            || self.0.contains(&instruction.memory_base())
    }

    /// After `instruction`: the register it writes holds the thread pointer
    /// where it was loaded from `fs:0` or copied from a register holding
    /// it, and no longer does otherwise.
    fn follow(&mut self, instruction: &Instruction) {
        if instruction.op_count() == 0 || instruction.op0_kind() != OpKind::Register {
            return;
        }
        let written = instruction.op0_register();
        let loaded = instruction.op_count() == 2
            && instruction.op1_kind() == OpKind::Memory
            && matches!(instruction.segment_prefix(), Register::FS | Register::GS)
            && instruction.memory_base() == Register::None
            && instruction.memory_displacement64() == 0;
        let copied = matches!(instruction.code(), Code::Mov_rm64_r64 | Code::Mov_r64_rm64)
            && instruction.op1_kind() == OpKind::Register
            && self.0.contains(&instruction.op1_register());
        self.0.retain(|&register| register != written);
        if loaded || copied {
            self.0.push(written);
        }
    }
}

/// A function's name for a reader and for matching across links:
/// demangled, without the symbol's hash and without what LLVM appends to a
/// local function it makes visible to the rest of its crate (`.llvm.` and a
/// number derived from its unit). Symbols are no identity: two crates'
/// copies of one generic instance are two local symbols with two hashes,
/// and which of them a call reaches is the link's choice.
fn readable(symbol: &str) -> String {
    let symbol = symbol.split_once(".llvm.").map_or(symbol, |(name, _)| name);
    format!("{:#}", rustc_demangle::demangle(symbol))
}

#[cfg(test)]
mod tests {
    use super::*;
    use faster_runtime::__internal::from_entry;

    /// Code of this test binary, of a size the test can bound, that calls
    /// another function of it.
    #[inline(never)]
    fn a_small_function(n: u64) -> u64 {
        a_callee(std::hint::black_box(n).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 7
    }

    #[inline(never)]
    fn a_callee(n: u64) -> u64 {
        std::hint::black_box(n) ^ 0x5555
    }

    fn read(offsets: &[i64]) -> Vec<Option<Vec<FunctionCode>>> {
        timed_code(&std::env::current_exe().unwrap(), offsets).unwrap()
    }

    #[test]
    fn a_function_of_this_binary_is_found_with_its_size_and_its_callee() {
        let function: fn(u64) -> u64 = a_small_function;
        let offset = from_entry(function as usize).expect("Linux tells the entry point");
        let [Some(inside), Some(one_byte_on), None] =
            <[_; 3]>::try_from(read(&[offset, offset + 1, i64::MIN])).unwrap()
        else {
            panic!("the function has a symbol, and nothing is at no offset");
        };
        let root = &inside[0];
        assert!((4..=96).contains(&root.bytes), "{} bytes", root.bytes);
        assert!(root.name.ends_with("a_small_function"), "{}", root.name);
        assert!(
            inside.iter().any(|code| code.name.ends_with("a_callee")),
            "{inside:#?}"
        );
        // Inside the function: the same code.
        assert_eq!(inside, one_byte_on);
    }

    #[test]
    fn functions_of_other_code_have_other_digests_and_the_same_reads_the_same() {
        let first: fn(u64) -> u64 = a_small_function;
        let second: fn(u64) -> u64 = a_callee;
        let offsets = [first, second].map(|function| from_entry(function as usize).unwrap());
        let codes = read(&offsets);
        let digest = |index: usize| codes[index].as_ref().unwrap()[0].digest;
        assert_ne!(digest(0), digest(1));
        assert_eq!(read(&offsets), codes);
    }

    #[test]
    fn a_name_leaves_out_the_hash_and_what_a_link_appends() {
        assert_eq!(
            readable("_ZN3hex3val17h0123456789abcdefE.llvm.7505013420677792606"),
            "hex::val"
        );
        assert_eq!(readable("memcpy"), "memcpy");
    }

    #[test]
    fn a_file_that_is_not_elf_is_an_error() {
        let error = timed_code(Path::new(env!("CARGO_MANIFEST_PATH")), &[0]).unwrap_err();
        assert!(error.contains("as ELF"), "{error}");
    }
}
