//! Every option of the attributes and every setting: the table, its
//! keywords' values, the parsers of their values and the misspelling rule,
//! from `faster-options` (which the attributes' macro reads too), under the
//! names this crate has always used for them; and what only the runtime
//! does with the table: check `settings!` against it ([`setting`]), show a
//! value in a line of usage ([`ValueName`]), read a switch and write a
//! setting's value back as the text it was read from.

mod settings;
mod text;

pub(crate) use faster_options::choices;
pub use faster_options::{
    Expect, Keyword, MAX_PROCESSES, OPTIONS, OptionSpec, TimerKind, Undecided, closest,
    parse_count, parse_duration, parse_fraction, usable_fraction,
};
pub use settings::setting;
#[cfg(test)]
pub use settings::settings;
pub use text::{
    RUN_TIME_AUTO, ValueName, duration_text, parse_run_time, parse_switch, switch_text,
};
