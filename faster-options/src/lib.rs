//! Every option of `faster`, declared once for both crates that read them:
//! the table of options ([`OPTIONS`]) and the values of its keywords
//! ([`Expect`], [`Undecided`], [`TimerKind`]), and the one parser of each
//! kind of value both read (a duration read exactly, a fraction, a count).
//! The attributes' macro (`faster-macros`) reads the table to parse
//! `#[faster::compare(...)]`, the runtime's `settings!` to read the
//! variables and flags, so a value means the same wherever it is given.
//! Also the one rule both crates name a misspelt name's likely meaning by
//! ([`closest`]), an option's, a keyword's or a flag's.
//!
//! A crate of its own, on which both depend, rather than a folder one of
//! them links to: a link is a file of 32 bytes in a clone without
//! symbolic links (Git for Windows without developer mode). It uses `std`
//! only. What only the runtime does with the table (check `settings!`
//! against it, write the usage, read switches and write values back as
//! text) is the runtime's, in its `options` module; each setting's
//! variable, flag and line of usage are still declared here, in its entry,
//! so that an option is declared in one place.

#![warn(missing_docs)]

mod choices;
mod spelling;
mod table;
mod values;

pub use choices::{Choice, Choices, Keyword};
pub use spelling::closest;
// The table whole: every option, and the enums of its keywords' values,
// which a new keyword setting adds beside its entry.
pub use table::*;
pub use values::{MAX_PROCESSES, parse_count, parse_duration, parse_fraction, usable_fraction};
