//! The values of a keyword option as a Rust enum whose variants carry the
//! names people write: [`choices!`](crate::choices!) declares the enum once, and gives it
//! its names both ways, the list of every value, and the [`Choices`] the
//! table of options (`expect = not_slower`, `--timer thread-cpu`) and the
//! attribute's expansion (`NotSlower`) read.

/// One choice of a keyword option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// As people write it: `not_slower`.
    pub name: &'static str,
    /// The enum's variant it names: `NotSlower`.
    pub variant: &'static str,
}

/// Every choice of a keyword option, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choices {
    /// Each choice.
    pub each: &'static [Choice],
    /// Their names between `|`, as a line of usage shows the value:
    /// `faster|not_slower|report`.
    pub joined: &'static str,
}

impl Choices {
    /// The choices as a sentence lists them, each written by `write`:
    /// `` `faster`, `not_slower` or `report` ``.
    pub fn listed(&self, write: impl Fn(&str) -> String) -> String {
        let each: Vec<String> = self.each.iter().map(|choice| write(choice.name)).collect();
        match each.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// An enum declared with `choices!`: a value named as people write it.
pub trait Keyword: Copy + Sized + 'static {
    /// Every value, in the order of its choices.
    const ALL: &'static [Self];
    /// Its choices.
    const CHOICES: Choices;

    /// The name this value is written as.
    fn name(self) -> &'static str;

    /// The value named `text` (spaces around it ignored); where there is
    /// none, an error that lists the choices.
    fn parse(text: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.name() == text.trim())
            .ok_or_else(|| {
                let choices = Self::CHOICES.listed(|name| format!("`{name}`"));
                format!("`{text}` is not a choice; write {choices}")
            })
    }
}

/// Declares an enum whose variants are the choices of a keyword, each with
/// the name people write (`NotSlower = "not_slower"`), and implements
/// [`Keyword`] for it; its inherent `name` and `parse` save callers the
/// trait's import. The enum's other derives are written at the call. The
/// runtime declares its own keywords (`--format`, `--color`) with it too.
#[macro_export]
macro_rules! choices {
    (@joined $first:literal $($rest:literal)*) => {
        concat!($first $(, "|", $rest)*)
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {$(
            $(#[$variant_meta:meta])*
            $variant:ident = $name:literal,
        )+}
    ) => {
        $(#[$meta])*
        $vis enum $enum {$(
            $(#[$variant_meta])*
            $variant,
        )+}

        impl $enum {
            /// The name this value is written as.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $enum::$variant => $name, )+
                }
            }

            /// The value named `text`; where there is none, an error that
            /// lists the choices.
            pub fn parse(text: &str) -> Result<$enum, String> {
                <$enum as $crate::Keyword>::parse(text)
            }
        }

        impl $crate::Keyword for $enum {
            const ALL: &'static [$enum] = &[$( $enum::$variant, )+];
            const CHOICES: $crate::Choices = $crate::Choices {
                each: &[$(
                    $crate::Choice { name: $name, variant: stringify!($variant) },
                )+],
                joined: $crate::choices!(@joined $($name)+),
            };

            fn name(self) -> &'static str {
                $enum::name(self)
            }
        }
    };
}
