//! Every option, declared once for the attributes and the runtime's
//! settings: its name, the kind of value it takes (with its choices or
//! bounds), where the value goes, the attributes that take it and how to
//! write it there, the words people reach for instead, and, for a setting,
//! its variable, flag, line of usage and whether it crosses to the
//! processes serving a revision. The values of the keyword settings are
//! declared here too, so that the attribute, the variables and the flags
//! read the same names.
//!
//! A new setting is an entry here and its field in the runtime's
//! `settings!` (its type, default and parser), which checks when it
//! compiles that the two list the same settings in the same order.

use crate::values::MAX_PROCESSES;
use crate::{Choices, Keyword, choices};

choices! {
    /// The attributes that take options.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Attribute {
        /// `#[faster::compare]`.
        Compare = "compare",
        /// `#[faster::compare_gpu]`.
        CompareGpu = "compare_gpu",
        /// `#[faster::track]`.
        Track = "track",
    }
}

choices! {
    /// What a comparison must show to pass.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Expect {
        /// The candidate must be faster by at least the noise floor.
        #[default]
        Faster = "faster",
        /// A regression guard: fails only when the candidate is slower by at
        /// least the noise floor.
        NotSlower = "not_slower",
        /// Never fails on timing (outputs are still checked).
        Report = "report",
    }
}

choices! {
    /// What a verdict that did not decide its expectation does to the run
    /// (`FASTER_UNDECIDED`, `--undecided`; see `Verdict::decides`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Undecided {
        /// It passes, shown as undecided (`?`) and counted apart: a guard that
        /// could not judge says so without failing a noisy run.
        #[default]
        Pass = "pass",
        /// It fails, for a CI that must never pass blind. An `expect = report`
        /// comparison still never fails on timing.
        Fail = "fail",
    }
}

impl Undecided {
    /// Whether a verdict that meets `expect` without deciding it passes.
    pub fn passes(self, expect: Expect) -> bool {
        self == Undecided::Pass || expect == Expect::Report
    }
}

choices! {
    /// Which timing source measures: chosen by `Config::timer`,
    /// `FASTER_TIMER`, or `--timer` on `faster::main()`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum TimerKind {
        /// The operating system's monotonic clock.
        #[default]
        Wall = "wall",
        /// The CPU's cycle counter (x86-64 TSC), converted to nanoseconds; falls
        /// back to the wall clock with a warning where it is not trustworthy.
        Cycles = "cycles",
        /// CPU time of the measuring thread: time the thread spent descheduled
        /// does not count, so other processes disturb it less.
        ThreadCpu = "thread-cpu",
    }
}

/// The kind of value an option takes, which says how it is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// The path of a function, `path::to::f`.
    Function,
    /// One of these choices: a variant of the setting's enum.
    Keyword(Choices),
    /// A fraction above 0, `0.05` (`parse_fraction`).
    Fraction,
    /// A duration, `"500ms"` in the attribute (`parse_duration`).
    Duration,
    /// A whole number from 1 to `max` (`parse_count`).
    Count {
        /// The largest it may be.
        max: usize,
    },
    /// A string that is not empty.
    Text,
    /// `true` or `false` in the attribute, `on` or `off` elsewhere (the
    /// runtime reads those).
    Switch,
    /// `eq`, `approx(...)`, `skip` or the path of a function.
    Check,
    /// A bracketed list of types, `[u32, Vec<u8>]`.
    Types,
    /// The path the crate `faster-test` is known by where the attribute is
    /// written, `my_faster`.
    Crate,
}

/// Where an option's value goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The field of the option's name of the runtime's `Config` and
    /// `Settings`, which the attribute's registered descriptor carries.
    Setting,
    /// A part of the attribute's expansion, which the macro reads itself.
    Original,
    /// See [`Field::Original`].
    Inputs,
    /// See [`Field::Original`].
    Check,
    /// See [`Field::Original`].
    Flops,
    /// See [`Field::Original`].
    Bytes,
    /// See [`Field::Original`].
    Name,
    /// See [`Field::Original`].
    Types,
    /// See [`Field::Original`].
    CacheFlush,
    /// See [`Field::Original`].
    Implementors,
    /// See [`Field::Original`].
    Crate,
}

/// One option: of the attributes, of the runtime's settings, or both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionSpec {
    /// Its name in the attributes (`noise_floor = 0.03`), and for a setting
    /// its field of `Config` and `Settings`.
    pub name: &'static str,
    /// The kind of value it takes.
    pub kind: Kind,
    /// Where its value goes.
    pub field: Field,
    /// The attributes that take it; none for a setting only the
    /// environment and the command line give.
    pub taken_by: &'static [Attribute],
    /// How to write it in an attribute, for errors about its value (see
    /// [`OptionSpec::example`]).
    pub example: &'static str,
    /// Words people reach for that mean it, for the "did you mean" hint
    /// where spelling distance cannot help.
    pub synonyms: &'static [&'static str],
    /// A setting's variable, e.g. `FASTER_NOISE_FLOOR`.
    pub variable: Option<&'static str>,
    /// A setting's flag of `faster::main()` and `cargo faster`, e.g.
    /// `--noise-floor`.
    pub flag: Option<&'static str>,
    /// What a setting does, in a line of the usage.
    pub usage: &'static str,
}

impl OptionSpec {
    /// Whether an attribute takes it.
    pub fn in_attributes(&self) -> bool {
        !self.taken_by.is_empty()
    }

    /// How to write it in an attribute: `write a duration such as
    /// `max_time = "3s"``; a keyword's names each of its choices.
    pub fn example(&self) -> String {
        match self.kind {
            Kind::Keyword(choices) => {
                let each = choices.listed(|choice| format!("`{} = {choice}`", self.name));
                format!("write {each}")
            }
            _ => self.example.to_string(),
        }
    }
}

/// What an entry of [`OPTIONS`] leaves out: taken by no attribute, no
/// synonyms, no variable, no flag, no usage.
const DEFAULT: OptionSpec = OptionSpec {
    name: "",
    kind: Kind::Text,
    field: Field::Setting,
    taken_by: &[],
    example: "",
    synonyms: &[],
    variable: None,
    flag: None,
    usage: "",
};

const COMPARISONS: &[Attribute] = &[Attribute::Compare, Attribute::CompareGpu];
const ALL: &[Attribute] = Attribute::ALL;

/// Every option, in the order the documentation lists them: the order of
/// the lists of options in errors, of the settings the expansion writes,
/// and of the settings in the usage.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "original",
        kind: Kind::Function,
        field: Field::Original,
        taken_by: COMPARISONS,
        example: "write `original = path::to::baseline_fn`",
        synonyms: &["baseline", "reference"],
        ..DEFAULT
    },
    OptionSpec {
        name: "inputs",
        kind: Kind::Function,
        field: Field::Inputs,
        taken_by: ALL,
        example: "write `inputs = path::to::inputs_fn`",
        ..DEFAULT
    },
    OptionSpec {
        name: "expect",
        kind: Kind::Keyword(Expect::CHOICES),
        field: Field::Setting,
        taken_by: ALL,
        usage: "what the comparison must show to pass",
        ..DEFAULT
    },
    OptionSpec {
        name: "noise_floor",
        kind: Kind::Fraction,
        field: Field::Setting,
        taken_by: ALL,
        example: "write a fraction such as `noise_floor = 0.05` for 5%",
        synonyms: &["threshold", "tolerance"],
        variable: Some("FASTER_NOISE_FLOOR"),
        flag: Some("--noise-floor"),
        usage: "smallest difference that counts, e.g. 0.05 (1.0: at least 2x)",
    },
    OptionSpec {
        name: "check",
        kind: Kind::Check,
        field: Field::Check,
        taken_by: COMPARISONS,
        example: "write `check = eq` (compare outputs with `==`), `check = approx(1e-9)` \
                  (floating-point values within a relative tolerance), `check = path::to::fn` \
                  (a `fn(&T, &T) -> bool` of yours) or `check = skip`",
        ..DEFAULT
    },
    OptionSpec {
        name: "max_time",
        kind: Kind::Duration,
        field: Field::Setting,
        taken_by: ALL,
        example: "write a duration such as `max_time = \"3s\"`",
        synonyms: &["timeout", "budget"],
        variable: Some("FASTER_MAX_TIME"),
        flag: Some("--max-time"),
        usage: "budget per comparison, e.g. 500ms, 3s",
    },
    OptionSpec {
        name: "max_run_time",
        kind: Kind::Duration,
        field: Field::Setting,
        variable: Some("FASTER_MAX_RUN_TIME"),
        flag: Some("--max-run-time"),
        usage: "budget of the whole run: each comparison's own first, the rest to verdicts still \
                undecided, e.g. 30s (auto: the sum of the comparisons' budgets)",
        ..DEFAULT
    },
    OptionSpec {
        name: "processes",
        kind: Kind::Count { max: MAX_PROCESSES },
        field: Field::Setting,
        taken_by: COMPARISONS,
        example: "write `processes = 3`, or `processes = 1` to measure in the test's own \
                  process only",
        variable: Some("FASTER_PROCESSES"),
        flag: Some("--processes"),
        usage: "measure each comparison in at least N processes (1: this process only), more \
                while its verdict is undecided",
        ..DEFAULT
    },
    OptionSpec {
        name: "flops",
        kind: Kind::Function,
        field: Field::Flops,
        taken_by: COMPARISONS,
        example: "write `flops = path::to::flops_fn`, a `fn(&Input) -> u64`",
        ..DEFAULT
    },
    OptionSpec {
        name: "bytes",
        kind: Kind::Function,
        field: Field::Bytes,
        taken_by: COMPARISONS,
        example: "write `bytes = path::to::bytes_fn`, a `fn(&Input) -> u64`",
        ..DEFAULT
    },
    OptionSpec {
        name: "name",
        kind: Kind::Text,
        field: Field::Name,
        taken_by: ALL,
        example: "write a string such as `name = \"sum: unrolled\"`",
        ..DEFAULT
    },
    OptionSpec {
        name: "types",
        kind: Kind::Types,
        field: Field::Types,
        taken_by: &[Attribute::Compare, Attribute::Track],
        example: "write the types in brackets: `types = [u32, u64]`",
        synonyms: &["type", "generics"],
        ..DEFAULT
    },
    OptionSpec {
        name: "implementors",
        kind: Kind::Types,
        field: Field::Implementors,
        taken_by: &[Attribute::Compare, Attribute::Track],
        example: "write the types that implement the trait, in brackets: `implementors = \
                  [MyType]`",
        synonyms: &["impls", "implementations", "self_types", "receivers"],
        ..DEFAULT
    },
    OptionSpec {
        name: "cache_flush",
        kind: Kind::Switch,
        field: Field::CacheFlush,
        taken_by: &[Attribute::CompareGpu],
        example: "write `cache_flush = false` for kernels meant to run warm, or leave it out to \
                  flush the caches before every sample",
        synonyms: &["flush"],
        ..DEFAULT
    },
    OptionSpec {
        name: "crate",
        kind: Kind::Crate,
        field: Field::Crate,
        taken_by: ALL,
        example: "write the name `faster-test` has in your `Cargo.toml`, such as `crate = \
                  my_faster` for `my_faster = { package = \"faster-test\", ... }`, or the path \
                  of a re-export of it",
        synonyms: &["krate", "crate_path"],
        ..DEFAULT
    },
    OptionSpec {
        name: "layouts",
        kind: Kind::Switch,
        field: Field::Setting,
        variable: Some("FASTER_LAYOUTS"),
        flag: Some("--layouts"),
        usage: "run each process in a layout of the binary of its own, where it was linked \
                through faster-link",
        ..DEFAULT
    },
    OptionSpec {
        name: "if_undecided",
        kind: Kind::Keyword(Undecided::CHOICES),
        field: Field::Setting,
        variable: Some("FASTER_UNDECIDED"),
        flag: Some("--undecided"),
        usage: "a verdict that could not rule out a change of the floor's size: passes, shown \
                as `?` (pass), or fails the run (fail)",
        ..DEFAULT
    },
    OptionSpec {
        name: "timer",
        kind: Kind::Keyword(TimerKind::CHOICES),
        field: Field::Setting,
        variable: Some("FASTER_TIMER"),
        flag: Some("--timer"),
        usage: "the timing source",
        ..DEFAULT
    },
    OptionSpec {
        name: "vary_stack",
        kind: Kind::Switch,
        field: Field::Setting,
        variable: Some("FASTER_VARY_STACK"),
        usage: "run each round's measuring loop at one of eight stack offsets",
        ..DEFAULT
    },
    OptionSpec {
        name: "strict",
        kind: Kind::Switch,
        field: Field::Setting,
        variable: Some("FASTER_STRICT"),
        usage: "a verdict on a floor under the machine's measured noise reads \"within noise\"",
        ..DEFAULT
    },
    OptionSpec {
        name: "enforce_in_debug",
        kind: Kind::Switch,
        field: Field::Setting,
        variable: Some("FASTER_ENFORCE"),
        usage: "enforce timing verdicts in a debug build too",
        ..DEFAULT
    },
];

/// The option called `name`.
pub fn named(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|option| option.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_consistent() {
        for (position, option) in OPTIONS.iter().enumerate() {
            assert!(
                option.field == Field::Setting || option.in_attributes(),
                "`{}` is neither a setting nor taken by an attribute",
                option.name
            );
            assert!(
                OPTIONS[..position]
                    .iter()
                    .all(|earlier| earlier.name != option.name),
                "`{}` is declared twice",
                option.name
            );
            for synonym in option.synonyms {
                assert!(named(synonym).is_none(), "`{synonym}` is an option's name");
            }
            if option.in_attributes() {
                assert!(!option.example().is_empty(), "`{}`", option.name);
            }
            // A `Settings` field holds a plain value, which every source
            // writes as text.
            if option.field == Field::Setting {
                assert!(
                    !matches!(
                        option.kind,
                        Kind::Function | Kind::Check | Kind::Types | Kind::Crate
                    ),
                    "`{}` sets a `Settings` field with a value no field holds",
                    option.name
                );
                assert!(!option.usage.is_empty(), "`{}` has no usage", option.name);
            } else {
                assert!(
                    option.variable.is_none() && option.flag.is_none(),
                    "`{}` has a variable or flag, but sets no setting",
                    option.name
                );
            }
        }
    }

    #[test]
    fn an_undecided_verdict_fails_only_when_asked_and_never_a_report() {
        assert_eq!(Undecided::default(), Undecided::Pass);
        assert!(Undecided::Pass.passes(Expect::NotSlower));
        assert!(!Undecided::Fail.passes(Expect::NotSlower));
        assert!(!Undecided::Fail.passes(Expect::Faster));
        assert!(Undecided::Fail.passes(Expect::Report));
    }

    #[test]
    fn a_keyword_reads_each_of_its_names_and_lists_them_when_it_does_not() {
        for expect in Expect::ALL {
            assert_eq!(Expect::parse(expect.name()), Ok(*expect));
        }
        assert_eq!(Expect::parse(" not_slower "), Ok(Expect::NotSlower));
        assert_eq!(TimerKind::parse("thread-cpu"), Ok(TimerKind::ThreadCpu));
        assert_eq!(
            Expect::parse("sometimes").unwrap_err(),
            "`sometimes` is not a choice; write `faster`, `not_slower` or `report`"
        );
        assert_eq!(
            Undecided::parse("never").unwrap_err(),
            "`never` is not a choice; write `pass` or `fail`"
        );
        assert_eq!(Expect::CHOICES.joined, "faster|not_slower|report");
        assert_eq!(
            named("expect").map(OptionSpec::example).as_deref(),
            Some("write `expect = faster`, `expect = not_slower` or `expect = report`")
        );
    }
}
