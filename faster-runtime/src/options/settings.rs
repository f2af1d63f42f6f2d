//! The settings of the table of options as the runtime's `settings!`
//! declares them: each field's entry, found while the crate compiles, and
//! the check that the two list the same settings in the same order.

use super::OPTIONS;
use faster_options::Field;

/// The settings, in order: the options whose value is a field of the
/// runtime's `Config` (which its tests check `Config` against).
#[cfg(test)]
pub fn settings() -> impl Iterator<Item = &'static faster_options::OptionSpec> {
    OPTIONS
        .iter()
        .filter(|option| option.field == Field::Setting)
}

/// The setting called `name`, for the runtime's `settings!`, which lists
/// its fields in `names`: a setting it does not declare, or declares out of
/// order, stops the build here, where the table is read.
pub const fn setting(name: &str, names: &[&str]) -> &'static faster_options::OptionSpec {
    let mut settings = 0;
    let mut position = 0;
    while position < OPTIONS.len() {
        let option = &OPTIONS[position];
        if matches!(option.field, Field::Setting) {
            assert!(
                settings < names.len() && same(option.name, names[settings]),
                "the settings of `Config` (config/mod.rs) are not the options table's \
                 settings (faster-options/src/table.rs) in its order"
            );
            settings += 1;
        }
        position += 1;
    }
    assert!(
        settings == names.len(),
        "`Config` (config/mod.rs) declares a setting the options table \
         (faster-options/src/table.rs) does not"
    );
    let mut position = 0;
    while !same(OPTIONS[position].name, name) {
        position += 1;
    }
    &OPTIONS[position]
}

/// `one == other`, where a `const fn` can ask it.
const fn same(one: &str, other: &str) -> bool {
    let (one, other) = (one.as_bytes(), other.as_bytes());
    if one.len() != other.len() {
        return false;
    }
    let mut at = 0;
    while at < one.len() {
        if one[at] != other[at] {
            return false;
        }
        at += 1;
    }
    true
}
