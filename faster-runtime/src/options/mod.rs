//! Every option of `faster`, declared once for both crates that read them:
//! the table of options ([`OPTIONS`]) and the values of its keywords
//! ([`Expect`], [`Undecided`], [`TimerKind`]), and the one parser of each
//! kind of value (a duration read exactly, a fraction, a count, a switch).
//! The attributes' macro (`faster-macros`) reads the table to parse
//! `#[faster::compare(...)]`, the runtime's `settings!` to read the
//! variables and flags, so a value means the same wherever it is given.
//! Also the one rule both crates name a misspelt name's likely meaning by
//! ([`closest`]), an option's, a keyword's or a flag's.
//!
//! This folder is the runtime's `options` module and, through a link
//! (`faster-macros/src/options`), the macro's, as serde's derive shares its
//! internals; so it uses `std` only, and nothing of either crate.

mod choices;
mod spelling;
mod table;
mod values;

pub(crate) use choices::choices;
pub use choices::{Choice, Choices, Keyword};
pub use spelling::closest;
// The table whole: every option, and the enums of its keywords' values,
// which a new keyword setting adds beside its entry.
pub use table::*;
pub use values::{
    MAX_PROCESSES, duration_text, parse_count, parse_duration, parse_fraction, parse_switch,
    switch_text, usable_fraction,
};
