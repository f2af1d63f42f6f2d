//! One function's code, decoded: a digest of what its instructions do
//! (leaving out where the link put things), and what it reaches — the
//! functions it calls or jumps to, the functions whose address it takes,
//! the data it addresses, the data it reads — and how many of its indirect
//! calls go where its own code does not say.

use super::binary::Binary;
use super::readable;
use faster_runtime::__internal::FunctionCode;
use iced_x86::{
    Code, Decoder, DecoderOptions, FlowControl, Instruction, Mnemonic, OpKind, Register,
};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

/// What a function's code leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// A function it calls, jumps to, or whose address it takes (and so may
    /// call through a pointer, or hand to code that does).
    Function(usize),
    /// Data at a fixed address it reads (the bytes read) or takes the
    /// address of (the object there): the function pointers there (a
    /// static selected at run time, a vtable) may be called.
    Data(Range<u64>),
    /// Data it reads, whose bytes are compared: at an address its
    /// instruction names, the `bytes` that instruction reads, or (`None`)
    /// an address it loads into a register and reads through (a table it
    /// indexes). Data whose address it only hands to a callee (a panic's
    /// location and message, formatting's pieces) is that callee's to
    /// read: through a pointer it was handed, which no reading follows.
    Reads { at: u64, bytes: Option<u64> },
}

/// A function, read.
pub struct Read {
    /// Its name, size, digest and indirect calls not followed.
    pub code: FunctionCode,
    /// What it leads to, in the order its code names them.
    pub reaches: Vec<Reach>,
}

/// Reads the function at `index` of `binary`; where its code cannot be
/// decoded (not x86-64), its digest is its size and it reaches nothing.
pub fn read(binary: &Binary, index: usize) -> Read {
    let (start, size, symbol) = binary.functions[index];
    let mut reading = Reading {
        binary,
        function: start..start + size,
        digest: DefaultHasher::new(),
        reaches: Vec::new(),
        registers: Registers::default(),
        data_bases: DataBases::default(),
        thread_pointers: ThreadPointers::default(),
        not_followed: 0,
    };
    match binary.bytes(start, size).filter(|_| binary.decodable) {
        Some(bytes) => {
            let mut decoder = Decoder::with_ip(64, bytes, start, DecoderOptions::NONE);
            let mut instruction = Instruction::default();
            while decoder.can_decode() {
                decoder.decode_out(&mut instruction);
                reading.instruction(&instruction);
            }
        }
        None => size.hash(&mut reading.digest),
    }
    Read {
        code: FunctionCode {
            name: readable(symbol),
            symbol: symbol.to_string(),
            bytes: size,
            digest: reading.digest.finish(),
            calls_not_followed: reading.not_followed,
        },
        reaches: reading.reaches,
    }
}

/// The state of reading one function's instructions in order.
struct Reading<'a, 'data> {
    binary: &'a Binary<'data>,
    function: Range<u64>,
    digest: DefaultHasher,
    reaches: Vec<Reach>,
    registers: Registers,
    data_bases: DataBases,
    thread_pointers: ThreadPointers,
    not_followed: u32,
}

impl Reading<'_, '_> {
    /// Feeds `instruction` into the digest as what it does, not where
    /// things are: a branch within the function as the distance from its
    /// start, an address of code outside it (a call, a jump, a function
    /// pointer taken) as the name of the function there, and an address of
    /// data relative to the instruction or to the thread's own storage not
    /// at all. The same code linked in another order, or beside other
    /// code, so gives the same digest.
    fn instruction(&mut self, instruction: &Instruction) {
        (instruction.code() as u32).hash(&mut self.digest);
        (
            instruction.has_rep_prefix(),
            instruction.has_repne_prefix(),
            instruction.has_lock_prefix(),
            instruction.segment_prefix() as u32,
        )
            .hash(&mut self.digest);
        for operand in 0..instruction.op_count() {
            self.operand(instruction, operand);
        }
        if is_indirect_transfer(instruction) && !self.registers.target_known(instruction) {
            self.not_followed += 1;
        }
        self.registers.follow(instruction);
        self.data_bases.follow(instruction, self.binary);
        self.thread_pointers.follow(instruction);
    }

    fn operand(&mut self, instruction: &Instruction, operand: u32) {
        match instruction.op_kind(operand) {
            OpKind::Register => (instruction.op_register(operand) as u32).hash(&mut self.digest),
            OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => {
                self.code_address(instruction.near_branch_target());
            }
            OpKind::Memory => {
                (
                    instruction.memory_base() as u32,
                    instruction.memory_index() as u32,
                    instruction.memory_index_scale(),
                    instruction.memory_size() as u32,
                )
                    .hash(&mut self.digest);
                if instruction.is_ip_rel_memory_operand() {
                    self.fixed_address(instruction);
                } else if !self.thread_pointers.addresses(instruction) {
                    instruction.memory_displacement64().hash(&mut self.digest);
                }
                // A `lea` reads nothing; a jump table's entries are
                // distances to code, which another link makes other: its
                // targets are compared as the function's own branches are.
                let reads = !matches!(instruction.mnemonic(), Mnemonic::Lea | Mnemonic::Movsxd);
                if let Some(at) = self.data_bases.read_through(instruction).filter(|_| reads) {
                    self.reaches.push(Reach::Reads { at, bytes: None });
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
            | OpKind::Immediate32to64 => instruction.immediate(operand).hash(&mut self.digest),
            other => (other as u32).hash(&mut self.digest),
        }
    }

    /// A branch's target: within the function, its distance from the
    /// start; outside, the function there, reached.
    fn code_address(&mut self, target: u64) {
        if self.function.contains(&target) {
            (target - self.function.start).hash(&mut self.digest);
            return;
        }
        match self.binary.function_holding(target) {
            Some(index) => {
                readable(self.binary.functions[index].2).hash(&mut self.digest);
                self.reaches.push(Reach::Function(index));
            }
            // The PLT: a function of a shared library.
            None => "outside".hash(&mut self.digest),
        }
    }

    /// An address relative to the instruction: another function's code
    /// (its address taken), named and reached; data, reached for the code
    /// addresses it holds — the whole object whose address is taken, the
    /// bytes read (a static, a GOT entry, not its neighbours) — its place
    /// left out of the digest.
    fn fixed_address(&mut self, instruction: &Instruction) {
        let address = instruction.ip_rel_memory_address();
        match self.binary.function_holding(address) {
            Some(index) if !self.function.contains(&address) => {
                readable(self.binary.functions[index].2).hash(&mut self.digest);
                self.reaches.push(Reach::Function(index));
            }
            Some(_) => (address - self.function.start).hash(&mut self.digest),
            None if instruction.mnemonic() == Mnemonic::Lea => {
                let object = self.binary.object_holding(address);
                self.reaches.push(Reach::Data(object));
            }
            None => {
                let read = instruction.memory_size().size() as u64;
                self.reaches.push(Reach::Data(address..address + read));
                // An address the link fills in is compared as what it
                // points to: the function reached, by name.
                if !self.binary.in_offset_table(address) {
                    self.reaches.push(Reach::Reads {
                        at: address,
                        bytes: Some(read),
                    });
                }
            }
        }
    }
}

/// A call or jump whose target is in a register or in memory.
fn is_indirect_transfer(instruction: &Instruction) -> bool {
    matches!(
        instruction.flow_control(),
        FlowControl::IndirectCall | FlowControl::IndirectBranch
    )
}

/// Where each general register's value came from, as far as the
/// instructions read so far in order tell: what decides whether an
/// indirect call's target is one the reading follows.
#[derive(Default)]
struct Registers([Origin; 16]);

/// Where a register's value came from.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum Origin {
    /// Anything: an argument, a load through a pointer the function was
    /// given.
    #[default]
    Unknown,
    /// An address relative to the instruction, or what is stored there or
    /// in the object it points to: an address the binary holds, which the
    /// reading reaches (a function, a static, a vtable).
    Fixed,
    /// Arithmetic on a fixed address: a jump table's entry added to its
    /// base, a place within the function.
    Table,
}

impl Registers {
    /// Whether the target of the indirect call or jump `instruction` is
    /// an address the binary holds where the reading looks: at a fixed
    /// address, loaded from one, or (a jump) an entry of a jump table.
    fn target_known(&self, instruction: &Instruction) -> bool {
        match instruction.op0_kind() {
            OpKind::Memory if instruction.is_ip_rel_memory_operand() => true,
            OpKind::Memory => self.origin(instruction.memory_base()) == Origin::Fixed,
            OpKind::Register => match self.origin(instruction.op0_register()) {
                Origin::Fixed => true,
                Origin::Table => instruction.flow_control() == FlowControl::IndirectBranch,
                Origin::Unknown => false,
            },
            _ => false,
        }
    }

    fn origin(&self, register: Register) -> Origin {
        slot(register).map_or(Origin::Unknown, |slot| self.0[slot])
    }

    /// After `instruction`: the origin of the register it writes, and
    /// after a call nothing of the registers a callee may overwrite.
    fn follow(&mut self, instruction: &Instruction) {
        match Writes::of(instruction) {
            Writes::CallerSaved => {
                for slot in Writes::caller_saved() {
                    self.0[slot] = Origin::Unknown;
                }
            }
            Writes::Register(written) => self.0[written] = self.origin_of_written(instruction),
            Writes::Nothing => {}
        }
    }

    /// The origin of what `instruction` writes to its first operand.
    fn origin_of_written(&self, instruction: &Instruction) -> Origin {
        let source = (instruction.op_count() == 2).then(|| instruction.op1_kind());
        let from_memory = || {
            if instruction.is_ip_rel_memory_operand()
                || self.origin(instruction.memory_base()) == Origin::Fixed
            {
                Origin::Fixed
            } else {
                Origin::Unknown
            }
        };
        match (instruction.mnemonic(), source) {
            (Mnemonic::Lea, Some(OpKind::Memory)) => from_memory(),
            (Mnemonic::Mov, Some(OpKind::Memory)) => from_memory(),
            (Mnemonic::Mov, Some(OpKind::Register)) => self.origin(instruction.op1_register()),
            (Mnemonic::Mov, Some(_)) => Origin::Fixed,
            (Mnemonic::Movsxd | Mnemonic::Add | Mnemonic::Sub, _) => Origin::Table,
            _ => Origin::Unknown,
        }
    }
}

/// The general registers an instruction writes, as the trackers of
/// registers (`Registers`, `DataBases`) need it.
enum Writes {
    /// A call: every register a callee may overwrite.
    CallerSaved,
    /// Its first operand, this register (by [`slot`]).
    Register(usize),
    /// No general register.
    Nothing,
}

impl Writes {
    fn of(instruction: &Instruction) -> Writes {
        if matches!(
            instruction.flow_control(),
            FlowControl::Call | FlowControl::IndirectCall
        ) {
            return Writes::CallerSaved;
        }
        if instruction.op_count() == 0
            || instruction.op0_kind() != OpKind::Register
            || READ_ONLY_FIRST_OPERAND.contains(&instruction.mnemonic())
        {
            return Writes::Nothing;
        }
        slot(instruction.op0_register()).map_or(Writes::Nothing, Writes::Register)
    }

    /// The slots of the registers a callee may overwrite.
    fn caller_saved() -> impl Iterator<Item = usize> {
        CALLER_SAVED
            .into_iter()
            .map(|register| slot(register).expect("a general register"))
    }
}

/// Registers a call may overwrite (System V): unknown after it.
const CALLER_SAVED: [Register; 9] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RSI,
    Register::RDI,
    Register::R8,
    Register::R9,
    Register::R10,
    Register::R11,
];

/// Instructions whose first operand is a register they read, not write.
const READ_ONLY_FIRST_OPERAND: [Mnemonic; 4] =
    [Mnemonic::Cmp, Mnemonic::Test, Mnemonic::Bt, Mnemonic::Push];

/// A general register's slot (`eax` is `rax`'s).
fn slot(register: Register) -> Option<usize> {
    let full = register.full_register() as usize;
    (Register::RAX as usize..=Register::R15 as usize)
        .contains(&full)
        .then(|| full - Register::RAX as usize)
}

/// The registers that hold the address of data the function took
/// relative to an instruction (a `lea` of a static table, or its address
/// loaded from a global offset table), until written or (those a callee
/// may overwrite) called over: a memory operand based or indexed on one
/// reads that data.
#[derive(Default)]
struct DataBases([Option<u64>; 16]);

impl DataBases {
    /// The data address `instruction`'s memory operand reads through.
    fn read_through(&self, instruction: &Instruction) -> Option<u64> {
        [instruction.memory_base(), instruction.memory_index()]
            .into_iter()
            .find_map(|register| self.0[slot(register)?])
    }

    /// After `instruction`: the register it writes holds the data address
    /// it takes, or none; a jump table's base (read by `movsxd`) is none
    /// after it, being no data the function reads (the register holds
    /// other values where the jump lands).
    fn follow(&mut self, instruction: &Instruction, binary: &Binary) {
        if instruction.mnemonic() == Mnemonic::Movsxd && instruction.op_count() == 2 {
            for register in [instruction.memory_base(), instruction.memory_index()] {
                if let Some(slot) = slot(register) {
                    self.0[slot] = None;
                }
            }
        }
        let written = match Writes::of(instruction) {
            Writes::CallerSaved => {
                for slot in Writes::caller_saved() {
                    self.0[slot] = None;
                }
                return;
            }
            Writes::Register(written) => written,
            Writes::Nothing => return,
        };
        let address = instruction
            .is_ip_rel_memory_operand()
            .then(|| instruction.ip_rel_memory_address());
        let data = match instruction.mnemonic() {
            Mnemonic::Lea => address,
            Mnemonic::Mov => address
                .filter(|&slot| binary.in_offset_table(slot))
                .and_then(|slot| binary.pointer_at(slot)),
            _ => None,
        };
        self.0[written] = data.filter(|&address| binary.function_holding(address).is_none());
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
