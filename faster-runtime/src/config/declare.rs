//! The generator that turns the table of settings (`config/mod.rs`: each
//! setting's type, default and parser, beside its entry in the table of
//! options, [`OPTIONS`](crate::options::OPTIONS)) into
//! [`Config`](super::Config) with its defaults, [`Settings`](super::Settings)
//! with [`Settings::NONE`](super::Settings::NONE) and the precedence rule,
//! [`SETTINGS`](super::SETTINGS), and reading and writing each setting as
//! text; and a setting's line of usage.

use crate::options::OptionSpec;

/// A setting's line of usage, which only the runtime writes (so not a
/// method of [`OptionSpec`], whose crate the attributes' macro reads too).
pub trait Described {
    /// Its line of usage with its default: `budget per comparison, e.g.
    /// 500ms, 3s (default 3s)`.
    fn described(&self) -> String;

    /// [`Described::described`] with its variable: `... (default 3s)
    /// [FASTER_MAX_TIME]`.
    fn help(&self) -> String;
}

impl Described for OptionSpec {
    fn described(&self) -> String {
        match super::Config::default().settings().text(self.name) {
            Some(default) => format!("{} (default {default})", self.usage),
            None => self.usage.to_string(),
        }
    }

    fn help(&self) -> String {
        match self.variable {
            Some(variable) => format!("{}  [{variable}]", self.described()),
            None => self.described(),
        }
    }
}

/// The table of settings (`settings! { ... }`): each entry a field of
/// [`Config`](super::Config) that a source can give, with its type, default
/// and parser, in the order of the table of options, which declares
/// everything else about it (a setting missing from either, or out of
/// order, stops the build). Beside them `Config` carries the engine's
/// [`Plan`]($crate::config::Plan), which no source sets.
macro_rules! settings {
    ($(
        $(#[$meta:meta])*
        $name:ident: $type:ty = $default:expr, parsed by $parse:expr;
    )*) => {
        /// How one comparison is measured and judged.
        ///
        /// `Default` gives the documented defaults and never reads the
        /// environment; [`Config::from_env`] applies the `FASTER_*`
        /// variables and the CI floor. Where settings come from several
        /// places, they meet in [`Settings`] (see [`Settings::overwrite`]
        /// for the precedence). Each field a source can set is one entry of
        /// [`SETTINGS`].
        ///
        /// ```
        /// let config = faster::Config::default();
        /// assert_eq!(config.noise_floor, 0.05);
        /// assert_eq!(config.max_time, std::time::Duration::from_secs(3));
        /// ```
        ///
        /// More settings may come in any release, so a `Config` is made
        /// from [`Config::default`] (or [`Config::from_env`]) and changed
        /// field by field or by [`Config::with`], never written out whole.
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[non_exhaustive]
        pub struct Config {
            $( $(#[$meta])* pub $name: $type, )*
            /// The engine's knobs, which no source sets: crossing to a
            /// server with the settings, they measure a slice there as here.
            #[serde(default)]
            pub(crate) plan: $crate::config::Plan,
        }

        impl Default for Config {
            fn default() -> Self {
                Config {
                    $( $name: $default, )*
                    plan: $crate::config::Plan::default(),
                }
            }
        }

        /// Options of a comparison, each `None` where this source does not
        /// set it; each field is the [`Config`] field of that name.
        ///
        /// The attribute's expansion builds one as a `const` (the options
        /// it sets, then `..Settings::NONE`), the environment another
        /// ([`Settings::from_env`]), `faster::main()`'s flags a third.
        ///
        /// ```
        /// use faster::{Config, Settings};
        /// use std::time::Duration;
        ///
        /// let environment = Settings { noise_floor: Some(0.10), ..Settings::NONE };
        /// let attribute = Settings { noise_floor: Some(0.03), max_time: Some(Duration::from_secs(1)), ..Settings::NONE };
        /// let config = Config::default().with(&environment.overwrite(attribute));
        /// assert_eq!((config.noise_floor, config.max_time), (0.03, Duration::from_secs(1)));
        /// ```
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        pub struct Settings {
            $(
                #[doc = concat!("[`Config::", stringify!($name), "`], where set.")]
                pub $name: Option<$type>,
            )*
        }

        /// Each setting's type, by the setting's name: the attribute's
        /// expansion names a keyword option's value by the setting it sets
        /// (`setting_types::expect::NotSlower`), so a setting of a type of
        /// its own needs no other list of the runtime's types.
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        pub mod setting_types {
            use super::*;
            $( #[doc = concat!("The type of [`Config::", stringify!($name), "`].")]
            pub type $name = $type; )*
        }

        /// Every setting a source can give, in the order of the usage: one
        /// entry per field of [`Settings`], each its entry of the table of
        /// options.
        pub const SETTINGS: &[&$crate::options::OptionSpec] = {
            const NAMES: &[&str] = &[$( stringify!($name), )*];
            &[$( $crate::options::setting(stringify!($name), NAMES), )*]
        };

        impl Settings {
            /// Nothing set. The expansion fills the options it does not set
            /// from here, so a setting a newer runtime adds does not break
            /// code an older macro expanded.
            pub const NONE: Settings = Settings { $( $name: None, )* };

            /// These settings with every one `stronger` gives replaced: the
            /// one precedence rule, applied weakest first.
            pub fn overwrite(self, stronger: Settings) -> Settings {
                Settings { $( $name: stronger.$name.or(self.$name), )* }
            }

            /// Sets the setting named `name` (its [`OptionSpec::name`](crate::options::OptionSpec::name)) to the
            /// value `text` reads as; the parser's reason where it reads as
            /// none.
            pub fn set(&mut self, name: &str, text: &str) -> Result<(), String> {
                match name {
                    $( stringify!($name) => self.$name = Some(($parse)(text)?), )*
                    _ => return Err(format!("there is no setting `{name}`")),
                }
                Ok(())
            }

            /// The setting named `name` as text its parser reads back,
            /// where it is set.
            pub fn text(&self, name: &str) -> Option<String> {
                match name {
                    $( stringify!($name) => self.$name.map(|value| value.as_text()), )*
                    _ => None,
                }
            }
        }

        impl Config {
            /// This configuration with every setting `settings` gives
            /// replaced.
            pub fn with(mut self, settings: &Settings) -> Config {
                $( self.$name = settings.$name.unwrap_or(self.$name); )*
                self
            }

            /// Every setting of this configuration, each given.
            pub fn settings(&self) -> Settings {
                Settings { $( $name: Some(self.$name), )* }
            }
        }
    };
}
