//! The machine code a tracked function's timed loop runs, read from a test
//! binary (the runtime's `ReadCode`): the loop's function and every
//! function it can reach, each with a digest of its instructions that
//! leaves out where the link put things, so `cargo faster` can tell a
//! tracked function whose compiled code changed between the revisions
//! although its source did not. Reads ELF with `object` and decodes x86-64
//! with `iced-x86`, here rather than in the runtime, so the users'
//! dependency tree carries neither.
//!
//! What the loop can reach is closed over everything the code says: direct
//! calls and tail jumps, functions whose address it takes (a RIP-relative
//! `lea`), and the code addresses held by the data it addresses — the
//! static a runtime CPU-feature check stores its choice in, a table of
//! function pointers, a vtable — at any depth. The standard library is
//! walked like the rest: its precompiled functions have the same digest in
//! both builds, so only those compiled differently (generic code
//! instantiated in the crate) count as differing. An indirect call whose
//! target the function's own code does not load from such an address (a
//! pointer it was handed) is counted in `calls_not_followed`, and the
//! runtime never calls such code the same.
//!
//! The data that code reads is compared too, after its functions, as
//! entries of their own named for the data and the first function reading
//! it (`unicode_width::tables::WIDTH_ROOT, data read by
//! unicode_width::tables::lookup_width`), so a commit that changes only a
//! table the loop indexes reads as changed: data it reads at an address
//! its instruction names, or through a register it loaded such an address
//! into (see [`data`] for how far each object reaches). Data whose end is
//! not known counts as a call not followed of the function reading it.
//! Data a function only hands to a callee — a panic's location and
//! message, formatting's pieces, which would make any commit moving a line
//! read as changed — is left out, as a pointer handed over is: the
//! standard library's code that reads it is the same in both builds.

mod binary;
mod data;
mod function;

use binary::Binary;
use data::Object as DataObject;
use faster_runtime::__internal::FunctionCode;
use function::Reach;
use object::Object;
use std::collections::{HashMap, HashSet, VecDeque};
use std::ops::Range;
use std::path::Path;

/// The most functions read for one timed loop: far more than any loop
/// reaches in its own crate and its dependencies, with the standard
/// library's formatting and panicking behind them; a loop that reaches
/// more has its last functions' calls counted as not followed.
const MOST_FUNCTIONS: usize = 20_000;

/// In `binary`, the code at each offset from the binary's entry point
/// (where the child serving it placed its timed loops): the function
/// symbol holding it, then every function it can reach, in the order they
/// are reached (breadth first). `None` for an offset no function symbol
/// holds (a stripped binary has none). An error where `binary` is not an
/// ELF file.
pub fn timed_code(
    binary: &Path,
    offsets: &[i64],
) -> Result<Vec<Option<Vec<FunctionCode>>>, String> {
    let data = std::fs::read(binary)
        .map_err(|error| format!("cannot read {}: {error}", binary.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|error| format!("cannot read {} as ELF: {error}", binary.display()))?;
    let mut walk = Walk::new(Binary::of(&file));
    let entry = file.entry();
    Ok(offsets
        .iter()
        .map(|&offset| {
            let root = walk
                .binary
                .function_holding(entry.checked_add_signed(offset)?)?;
            Some(walk.reached_from(root))
        })
        .collect())
}

/// Reads functions of one binary, each once however many loops reach it.
struct Walk<'data> {
    binary: Binary<'data>,
    /// Each function read: its code, the functions it leads to and the
    /// data it reads.
    read: HashMap<usize, Reached<'data>>,
    /// Each piece of data read: the functions whose addresses it holds,
    /// directly or through other data.
    data: HashMap<Range<u64>, Vec<usize>>,
}

impl<'data> Walk<'data> {
    fn new(binary: Binary<'data>) -> Walk<'data> {
        Walk {
            binary,
            read: HashMap::new(),
            data: HashMap::new(),
        }
    }

    /// The function `root` and every function it leads to, breadth first,
    /// then the data they read, each object once, in the order they read
    /// it.
    fn reached_from(&mut self, root: usize) -> Vec<FunctionCode> {
        let functions = self.functions_reached_from(root);
        let mut reached: Vec<FunctionCode> = Vec::with_capacity(functions.len());
        let mut objects = Vec::new();
        let mut seen = HashSet::new();
        for index in functions {
            let (code, objects_read) = self.with_callees_counted(index);
            objects.extend(
                objects_read
                    .into_iter()
                    .filter(|object| seen.insert(object.range.start))
                    .map(|object| (object, code.name.clone())),
            );
            reached.push(code);
        }
        reached.extend(
            objects
                .into_iter()
                .map(|(object, reader)| data_code(&self.binary, object, &reader)),
        );
        reached
    }

    /// The function `root` and every function it leads to, breadth first,
    /// each with the callees past [`MOST_FUNCTIONS`] it leads to (whose
    /// calls are then counted as not followed).
    fn functions_reached_from(&mut self, root: usize) -> Vec<(usize, u32)> {
        let mut seen = HashSet::from([root]);
        let mut queue = VecDeque::from([root]);
        let mut reached = Vec::new();
        while let Some(index) = queue.pop_front() {
            let mut past_most = 0;
            for &callee in &self.function(index).leads_to {
                if seen.len() >= MOST_FUNCTIONS && !seen.contains(&callee) {
                    past_most += 1;
                } else if seen.insert(callee) {
                    queue.push_back(callee);
                }
            }
            reached.push((index, past_most));
        }
        reached
    }

    /// The code of the function `index` read, with `past_most` more calls
    /// not followed, and the data it reads.
    fn with_callees_counted(
        &mut self,
        (index, past_most): (usize, u32),
    ) -> (FunctionCode, Vec<DataObject<'data>>) {
        let read = self.function(index);
        let mut code = read.code.clone();
        code.calls_not_followed += past_most;
        (code, read.reads.clone())
    }

    /// The function at `index`, read once: its code and, in order, the
    /// functions it leads to, those the data it addresses holds included,
    /// and the data it reads; data whose end is not known counts as a call
    /// not followed.
    fn function(&mut self, index: usize) -> &Reached<'data> {
        if !self.read.contains_key(&index) {
            let read = function::read(&self.binary, index);
            let mut reached = Reached {
                code: read.code,
                leads_to: Vec::new(),
                reads: Vec::new(),
            };
            for reach in read.reaches {
                match reach {
                    Reach::Function(callee) => reached.leads_to.push(callee),
                    Reach::Data(data) => reached.leads_to.extend(self.held_by(data)),
                    Reach::Reads { at, bytes } => {
                        let object = data::object_at(&self.binary, at, bytes);
                        reached.code.calls_not_followed += u32::from(!object.whole);
                        reached.reads.push(object);
                    }
                }
            }
            self.read.insert(index, reached);
        }
        &self.read[&index]
    }

    /// The functions whose addresses `data` holds, directly or through
    /// pointers to other data (the objects they point into, whole).
    fn held_by(&mut self, data: Range<u64>) -> Vec<usize> {
        if let Some(held) = self.data.get(&data) {
            return held.clone();
        }
        let mut held = Vec::new();
        let mut seen = HashSet::from([data.start]);
        let mut objects = vec![data.clone()];
        while let Some(object) = objects.pop() {
            for pointer in self.binary.pointers_in(object) {
                match self.binary.function_holding(pointer) {
                    Some(function) => held.push(function),
                    None => {
                        let next = self.binary.object_holding(pointer);
                        if seen.insert(next.start) {
                            objects.push(next);
                        }
                    }
                }
            }
        }
        self.data.insert(data, held.clone());
        held
    }
}

/// A function read: its code, the functions it leads to and the data it
/// reads, in the order its code names them.
struct Reached<'data> {
    code: FunctionCode,
    leads_to: Vec<usize>,
    reads: Vec<DataObject<'data>>,
}

/// The entry for `object`, which `reader` is the first of a loop's
/// functions to read: named for the data and the reader (the data's path
/// first, so its crate is the one the runtime tells edited or not), its
/// size, and its bytes' digest; no symbol, since a link's ordering of code
/// does not place it.
fn data_code(binary: &Binary<'_>, object: DataObject<'_>, reader: &str) -> FunctionCode {
    let name = match object.symbol {
        Some(symbol) => format!("{}, data read by {reader}", readable(symbol)),
        None => format!("{reader}, unnamed data it reads"),
    };
    FunctionCode {
        name,
        symbol: String::new(),
        bytes: object.range.end - object.range.start,
        digest: data::digest(binary, object.range),
        calls_not_followed: 0,
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
    use std::sync::atomic::{AtomicUsize, Ordering};

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

    /// Five calls deep, as httparse's wrapper reaches its AVX2 matcher.
    #[inline(never)]
    fn depth_one(n: u64) -> u64 {
        depth_two(std::hint::black_box(n)) + 1
    }

    #[inline(never)]
    fn depth_two(n: u64) -> u64 {
        depth_three(std::hint::black_box(n)) + 2
    }

    #[inline(never)]
    fn depth_three(n: u64) -> u64 {
        depth_four(std::hint::black_box(n)) + 3
    }

    #[inline(never)]
    fn depth_four(n: u64) -> u64 {
        wide(std::hint::black_box(n)) + 4
    }

    #[inline(never)]
    fn wide(n: u64) -> u64 {
        std::hint::black_box(n).rotate_left(17) ^ 0x0f0f
    }

    #[inline(never)]
    fn narrow(n: u64) -> u64 {
        std::hint::black_box(n).rotate_right(9) ^ 0xf0f0
    }

    /// Where a runtime check stores the function it chose, as httparse's
    /// `RUNTIME_FEATURE` or `std_detect`'s cache: zero until chosen.
    static CHOSEN: AtomicUsize = AtomicUsize::new(0);

    /// Chooses at run time, stores the choice in a static and calls
    /// through it.
    #[inline(never)]
    fn dispatched(n: u64) -> u64 {
        let mut chosen = CHOSEN.load(Ordering::Relaxed);
        if chosen == 0 {
            let pick: fn(u64) -> u64 = if std::hint::black_box(n) > 3 {
                wide
            } else {
                narrow
            };
            chosen = pick as usize;
            CHOSEN.store(chosen, Ordering::Relaxed);
        }
        // SAFETY: only the addresses of `fn(u64) -> u64`s are stored.
        let function: fn(u64) -> u64 = unsafe { std::mem::transmute(chosen) };
        function(n)
    }

    /// A table of function pointers in data, as a dispatch table is.
    static TABLE: [fn(u64) -> u64; 2] = [wide, narrow];

    #[inline(never)]
    fn by_table(n: u64) -> u64 {
        TABLE[std::hint::black_box(n) as usize & 1](n)
    }

    /// Calls through a pointer it is handed: no address in the binary
    /// tells where.
    #[inline(never)]
    fn handed(function: &dyn Fn(u64) -> u64, n: u64) -> u64 {
        function(std::hint::black_box(n))
    }

    fn reached(function: usize) -> Vec<FunctionCode> {
        let offset = from_entry(function).expect("Linux tells the entry point");
        read(&[offset])
            .remove(0)
            .expect("a function of this binary")
    }

    fn names(code: &[FunctionCode]) -> Vec<&str> {
        code.iter().map(|function| function.name.as_str()).collect()
    }

    fn reaches(code: &[FunctionCode], name: &str) -> bool {
        code.iter().any(|function| function.name.ends_with(name))
    }

    #[test]
    fn calls_are_followed_at_any_depth() {
        let code = reached(depth_one as fn(u64) -> u64 as usize);
        assert!(reaches(&code, "depth_four"), "{:?}", names(&code));
        assert!(reaches(&code, "tests::wide"), "{:?}", names(&code));
        assert_eq!(code[0].calls_not_followed, 0);
    }

    #[test]
    fn functions_chosen_at_run_time_through_a_static_are_reached() {
        let code = reached(dispatched as fn(u64) -> u64 as usize);
        assert!(reaches(&code, "tests::wide"), "{:?}", names(&code));
        assert!(reaches(&code, "tests::narrow"), "{:?}", names(&code));
        // Whether its call is counted as followed depends on the build: a
        // debug build hands the loaded pointer on through the stack.
    }

    #[test]
    fn functions_a_table_in_data_holds_are_reached() {
        let code = reached(by_table as fn(u64) -> u64 as usize);
        assert!(reaches(&code, "tests::wide"), "{:?}", names(&code));
        assert!(reaches(&code, "tests::narrow"), "{:?}", names(&code));
        assert_eq!(code[0].calls_not_followed, 0, "{:?}", code[0]);
    }

    #[test]
    fn a_call_through_a_pointer_handed_over_is_counted_as_not_followed() {
        let code = reached(handed as fn(&dyn Fn(u64) -> u64, u64) -> u64 as usize);
        assert!(code[0].calls_not_followed > 0, "{:?}", code[0]);
        assert!(std::hint::black_box(handed(&narrow, 3)) > 0);
    }

    /// A table a function indexes, and two more: one of other contents,
    /// one a copy at another address.
    static SQUARES: [u8; 256] = squares(0);
    static OTHER_SQUARES: [u8; 256] = squares(1);
    static SAME_TABLE: [fn(u64) -> u64; 2] = [wide, narrow];

    const fn squares(offset: u8) -> [u8; 256] {
        let mut table = [0; 256];
        let mut i = 0;
        while i < 256 {
            table[i] = (i as u8).wrapping_mul(i as u8).wrapping_add(offset);
            i += 1;
        }
        table
    }

    #[inline(never)]
    fn by_lookup(n: u64) -> u64 {
        u64::from(SQUARES[std::hint::black_box(n) as usize & 255])
    }

    /// Hands its message and location to the panic machinery, reading
    /// neither.
    #[inline(never)]
    fn checked(n: u64) -> u64 {
        assert!(std::hint::black_box(n) < 1 << 40, "{n} is too large");
        n + 1
    }

    fn data_read<'a>(code: &'a [FunctionCode], data: &str) -> Option<&'a FunctionCode> {
        code.iter()
            .find(|entry| entry.symbol.is_empty() && entry.name.contains(data))
    }

    #[test]
    fn a_table_a_function_indexes_is_read_whole_named_for_it_and_its_reader() {
        let code = reached(by_lookup as fn(u64) -> u64 as usize);
        let table = data_read(&code, "tests::SQUARES").unwrap_or_else(|| panic!("{code:#?}"));
        assert!(
            table
                .name
                .ends_with("data read by cargo_faster::machine_code::tests::by_lookup")
        );
        assert_eq!(table.bytes, 256);
        assert_eq!(code.last(), Some(table), "data comes after the functions");
    }

    /// Eight kinds, each named by its own string: a release build looks
    /// the name up in two tables side by side, of lengths and of distances
    /// to the strings, as `std::io::ErrorKind`'s `Debug` does.
    #[derive(Clone, Copy)]
    enum Kind {
        NotFound,
        PermissionDenied,
        ConnectionRefused,
        AddrInUse,
        BrokenPipe,
        WouldBlock,
        InvalidData,
        Interrupted,
    }

    impl std::fmt::Display for Kind {
        #[inline(never)]
        fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str(match self {
                Kind::NotFound => "entity not found",
                Kind::PermissionDenied => "permission denied",
                Kind::ConnectionRefused => "connection refused",
                Kind::AddrInUse => "address in use",
                Kind::BrokenPipe => "broken pipe",
                Kind::WouldBlock => "operation would block",
                Kind::InvalidData => "invalid data",
                Kind::Interrupted => "operation interrupted",
            })
        }
    }

    #[test]
    fn a_table_a_function_indexes_ends_where_the_next_address_code_names_begins() {
        let fmt = <Kind as std::fmt::Display>::fmt;
        let code = reached(fmt as fn(&Kind, &mut std::fmt::Formatter<'_>) -> _ as usize);
        let tables: Vec<&FunctionCode> = code
            .iter()
            .filter(|entry| entry.symbol.is_empty() && entry.name.contains("Display>::fmt"))
            .collect();
        // A debug build jumps to code per kind instead and reads no table.
        if cfg!(not(debug_assertions)) {
            assert!(!tables.is_empty(), "{code:#?}");
        }
        // The lengths, 8 bytes per kind, and not the distances after them.
        for table in tables {
            assert!(table.bytes <= 8 * 8, "{table:?}");
        }
        assert_eq!(code[0].calls_not_followed, 0, "{:?}", code[0]);
        let kinds = [
            Kind::NotFound,
            Kind::PermissionDenied,
            Kind::ConnectionRefused,
            Kind::AddrInUse,
            Kind::BrokenPipe,
            Kind::WouldBlock,
            Kind::InvalidData,
            Kind::Interrupted,
        ];
        let names: Vec<String> = kinds.iter().map(|kind| kind.to_string()).collect();
        assert_eq!(names[3], "address in use");
    }

    fn digest_of(object: &[u8]) -> u64 {
        let data = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        let file = object::File::parse(&*data).unwrap();
        let binary = Binary::of(&file);
        let address = from_entry(object.as_ptr() as usize).unwrap();
        let start = file.entry().checked_add_signed(address).unwrap();
        let object = data::object_at(&binary, start, None);
        data::digest(&binary, object.range)
    }

    fn bytes_of<T>(object: &T) -> &[u8] {
        // SAFETY: a view of a static's own bytes, for its address and size.
        unsafe { std::slice::from_raw_parts((object as *const T).cast(), size_of::<T>()) }
    }

    #[test]
    fn tables_of_other_contents_differ_and_pointers_read_as_what_they_point_to() {
        assert_ne!(digest_of(&SQUARES), digest_of(&OTHER_SQUARES));
        assert_eq!(digest_of(&SQUARES), digest_of(&SQUARES));
        assert_eq!(
            digest_of(bytes_of(&TABLE)),
            digest_of(bytes_of(&SAME_TABLE))
        );
        assert!(by_table(std::hint::black_box(1)) > 0);
        assert!(SAME_TABLE[std::hint::black_box(0)](1) > 0);
    }

    #[test]
    fn what_a_function_only_hands_to_a_panic_is_not_read() {
        let code = reached(checked as fn(u64) -> u64 as usize);
        assert!(
            !code
                .iter()
                .any(|entry| entry.symbol.is_empty() && entry.name.contains("tests::checked")),
            "{:#?}",
            code.iter()
                .filter(|entry| entry.symbol.is_empty())
                .collect::<Vec<_>>()
        );
        assert_eq!(code[0].calls_not_followed, 0);
        assert_eq!(checked(std::hint::black_box(3)), 4);
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
