//! The attributes' options: parses `original = ..., inputs = ..., ...` of
//! `#[faster::compare]`, `#[faster::compare_gpu]` and `#[faster::track]`
//! (on a function or on a method) into one typed [`Options`], through
//! `syn::meta::parser`, driven by the table of options
//! ([`OPTIONS`](faster_options::OPTIONS), shared with the runtime), with an
//! error at the offending token for every misuse.
//!
//! Every error says what to write instead, because the person reading it has
//! usually just copied the attribute from the README and changed one thing.

mod check;
mod spelling;
mod table;
mod values;

pub(crate) use check::Check;
pub(crate) use faster_options::Attribute;
pub(crate) use spelling::tokens_as_written;
pub(crate) use values::Value;

use crate::runtime::Runtime;
use faster_options::{Field, OptionSpec};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{ExprPath, Ident, LitStr, Token, Type};

/// The options of one attribute, as given: each read through its entry of
/// the table of options, kept in the table's order, and found by where its
/// value goes ([`Field`]), so an option the table adds needs no field
/// here.
pub(crate) struct Options {
    given: Vec<Given>,
}

/// One option given.
struct Given {
    option: &'static OptionSpec,
    /// Its name as written, so an error can point at the option.
    key: Ident,
    value: Value,
}

/// The `types = [...]` option, or `implementors = [...]`.
#[derive(Clone, Copy)]
pub(crate) struct TypesOption<'a> {
    /// The option's name, so an error can point at the option.
    pub key: &'a Ident,
    /// The types, in order, as written.
    pub types: &'a [Type],
}

impl TypesOption<'_> {
    /// `types = [u32, u64]` as the user wrote it, for messages.
    pub fn as_written(self) -> String {
        let types: Vec<String> = self
            .types
            .iter()
            .map(|ty| tokens_as_written(ty.to_token_stream()))
            .collect();
        format!("{} = [{}]", self.key, types.join(", "))
    }
}

/// The `inputs = path` option.
#[derive(Clone, Copy)]
pub(crate) struct InputsOption<'a> {
    /// The `inputs` keyword, so an error can cover the whole option.
    pub key: &'a Ident,
    /// The inputs function.
    pub path: &'a ExprPath,
}

impl InputsOption<'_> {
    /// `inputs = path` as tokens, to span an error over the whole option.
    pub fn to_option_tokens(self) -> TokenStream {
        let key = self.key;
        let path = self.path;
        quote::quote!(#key = #path)
    }

    /// `inputs = path` as the user wrote it, for messages.
    pub fn as_written(self) -> String {
        format!(
            "{} = {}",
            self.key,
            tokens_as_written(self.path.to_token_stream())
        )
    }
}

impl Options {
    /// Parses `attribute`'s arguments. `at` is the span errors about the
    /// attribute as a whole (a missing option) point at.
    pub fn parse(args: TokenStream, attribute: Attribute, at: Span) -> syn::Result<Options> {
        let mut parsing = Parsing::new(attribute);
        let read = syn::meta::parser(|meta| parsing.option(meta)).parse2(args);
        if let Err(unreadable) = read {
            // What came before is reported too; what is missing is not
            // known.
            parsing.error(unreadable);
            return Err(parsing.errors.expect("an error was just added"));
        }
        parsing.finish(at)
    }

    /// The option whose value goes to `field`, with its name as written.
    pub fn given(&self, field: Field) -> Option<(&Ident, &Value)> {
        self.given
            .iter()
            .find(|given| given.option.field == field)
            .map(|given| (&given.key, &given.value))
    }

    /// The path an option of [`Kind::Function`](faster_options::Kind)
    /// gives `field`.
    pub fn path(&self, field: Field) -> Option<&ExprPath> {
        match self.given(field)? {
            (_, Value::Path(path)) => Some(path),
            _ => None,
        }
    }

    /// `original = path`, which every comparison has (`parse` makes sure).
    pub fn original(&self) -> &ExprPath {
        self.path(Field::Original)
            .expect("`Options::parse` requires `original` of a comparison")
    }

    /// `inputs = path`, where given.
    pub fn inputs(&self) -> Option<InputsOption<'_>> {
        let (key, path) = self.given(Field::Inputs)?;
        match path {
            Value::Path(path) => Some(InputsOption { key, path }),
            _ => None,
        }
    }

    /// `check = ...`; `eq` when absent.
    pub fn check(&self) -> &Check {
        match self.given(Field::Check) {
            Some((_, Value::Check(check))) => check,
            _ => &Check::Eq,
        }
    }

    /// `flops = path`: floating-point operations per call, per input case.
    pub fn flops(&self) -> Option<&ExprPath> {
        self.path(Field::Flops)
    }

    /// `bytes = path`: bytes read and written per call, per input case.
    pub fn bytes(&self) -> Option<&ExprPath> {
        self.path(Field::Bytes)
    }

    /// `name = "..."`: the report's heading, or what matches a tracked
    /// function across revisions, used verbatim.
    pub fn name(&self) -> Option<&LitStr> {
        match self.given(Field::Name)? {
            (_, Value::Text(name)) => Some(name),
            _ => None,
        }
    }

    /// `types = [u32, u64]`: one comparison per type, for a generic function.
    pub fn types(&self) -> Option<TypesOption<'_>> {
        self.types_of(Field::Types)
    }

    /// `implementors = [GeneralPurpose]`: the types a provided method of a
    /// `trait` block is measured on, one comparison each.
    pub fn implementors(&self) -> Option<TypesOption<'_>> {
        self.types_of(Field::Implementors)
    }

    /// The types an option of [`Kind::Types`](faster_options::Kind) gives
    /// `field`.
    fn types_of(&self, field: Field) -> Option<TypesOption<'_>> {
        match self.given(field)? {
            (key, Value::Types(types)) => Some(TypesOption { key, types }),
            _ => None,
        }
    }

    /// The switch an option of [`Kind::Switch`](faster_options::Kind)
    /// gives `field`.
    pub fn switch(&self, field: Field) -> Option<bool> {
        match self.given(field)? {
            (_, Value::Switch(switch)) => Some(*switch),
            _ => None,
        }
    }

    /// `cache_flush = false`: a kernel's caches left warm; `true` when absent.
    pub fn cache_flush(&self) -> bool {
        self.switch(Field::CacheFlush).unwrap_or(true)
    }

    /// Where the expansion finds the runtime: under `crate = path`, where
    /// given, else under `::faster`.
    pub fn runtime(&self) -> Runtime<'_> {
        let renamed = match self.given(Field::Crate) {
            Some((_, Value::Crate(path))) => Some(path),
            _ => None,
        };
        Runtime::at(renamed)
    }

    /// The options that set a field of the runtime's `Settings`, by the
    /// field's name, in the table's order.
    pub fn settings(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        self.given
            .iter()
            .filter(|given| given.option.field == Field::Setting)
            .map(|given| (given.option.name, &given.value))
    }

    /// Sets the `Settings` field `name` to `value` where the attribute
    /// does not: a default of the attribute's own.
    pub fn default_setting(&mut self, name: &'static str, value: Value) {
        let option = table::named(name).expect("a setting of the table of options");
        if !self.given.iter().any(|given| given.option.name == name) {
            let key = Ident::new(name, Span::call_site());
            self.store(option, key, value);
        }
    }

    /// Stores `option`'s `value`, given at `key`, keeping the table's order.
    fn store(&mut self, option: &'static OptionSpec, key: Ident, value: Value) {
        let position = table::position(option);
        let at = self
            .given
            .partition_point(|given| table::position(given.option) < position);
        self.given.insert(at, Given { option, key, value });
    }

    /// Every path option with `Self` replaced by `qualified` (`<Buffer>`):
    /// the options of a method's attribute, written inside its `impl`
    /// block, as its comparison reads them outside the block.
    pub fn without_self(&mut self, qualified: &TokenStream) {
        for given in &mut self.given {
            let path = match &mut given.value {
                Value::Path(path) | Value::Check(Check::With(path)) => path,
                _ => continue,
            };
            let replaced = crate::owner::without_self(path.to_token_stream(), qualified);
            if let Ok(parsed) = syn::parse2(replaced) {
                *path = parsed;
            }
        }
    }
}

/// The options so far, while the attribute's arguments are read.
struct Parsing {
    attribute: Attribute,
    options: Options,
    /// Every option's name, to reject duplicates. A misspelling counts as
    /// the option it was taken for, so a bad `orignal = f` is not also
    /// reported as a missing `original`.
    seen: Vec<String>,
    /// Errors so far; parsing goes on after a bad value so that one compile
    /// shows every mistake in the attribute.
    errors: Option<syn::Error>,
}

impl Parsing {
    fn new(attribute: Attribute) -> Parsing {
        Parsing {
            attribute,
            options: Options { given: Vec::new() },
            seen: Vec::new(),
            errors: None,
        }
    }

    fn error(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(errors) => errors.combine(error),
            None => self.errors = Some(error),
        }
    }

    /// One `key = value`. An error about it is kept for the end, so that
    /// the next options are read; `Err` only where the next cannot be.
    fn option(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        let Some(key) = meta.path.get_ident().map(Ident::unraw) else {
            let written = tokens_as_written(meta.path.to_token_stream());
            return Err(syn::Error::new_spanned(
                &meta.path,
                table::unknown(&written, self.attribute),
            ));
        };
        let name = key.to_string();
        let known = table::named(&name);
        let meant = known.or_else(|| table::suggestion(&name, self.attribute));
        if !meta.input.peek(Token![=]) {
            let message = match known {
                Some(option) => format!("`{name}` needs a value: {}", option.example),
                None => table::unknown(&name, self.attribute),
            };
            return Err(syn::Error::new(key.span(), message));
        }
        let input = meta.value()?;
        let outcome = match known {
            None => {
                values::skip(meant, input)?;
                Err(syn::Error::new(
                    key.span(),
                    table::unknown(&name, self.attribute),
                ))
            }
            Some(option) if !option.taken_by.contains(&self.attribute) => {
                values::skip(known, input)?;
                Err(syn::Error::new(
                    key.span(),
                    table::refused(option, self.attribute),
                ))
            }
            Some(option) if self.seen.iter().any(|seen| seen == option.name) => {
                values::skip(known, input)?;
                Err(syn::Error::new(
                    key.span(),
                    format!("`{name}` is given twice: keep only one `{name} = ...`"),
                ))
            }
            Some(option) => values::read(option, input)?
                .map(|value| self.options.store(option, key.clone(), value)),
        };
        self.seen
            .push(meant.map_or(name, |option| option.name.to_string()));
        if let Err(error) = outcome {
            self.error(error);
        }
        Ok(())
    }

    /// The options, once what the attribute requires is checked.
    fn finish(mut self, at: Span) -> syn::Result<Options> {
        let compares = self.attribute != Attribute::Track;
        if compares && !self.seen.iter().any(|seen| seen == "original") {
            self.error(syn::Error::new(
                at,
                "the comparison needs the function this one replaces: \
                 add `original = path::to::baseline_fn`",
            ));
        }
        match self.errors {
            Some(errors) => Err(errors),
            None => Ok(self.options),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use quote::quote;

    pub(super) fn parse(tokens: TokenStream) -> syn::Result<Options> {
        parse_for(Attribute::Compare, tokens)
    }

    pub(super) fn parse_for(attribute: Attribute, tokens: TokenStream) -> syn::Result<Options> {
        Options::parse(tokens, attribute, Span::call_site())
    }

    pub(super) fn error_of(tokens: TokenStream) -> String {
        error_for(Attribute::Compare, tokens)
    }

    pub(super) fn error_for(attribute: Attribute, tokens: TokenStream) -> String {
        match parse_for(attribute, tokens) {
            Ok(_) => panic!("expected an error"),
            Err(error) => error
                .into_iter()
                .map(|error| error.to_string())
                .collect::<Vec<_>>()
                .join("\n---\n"),
        }
    }

    impl Options {
        pub(super) fn unwrap_types(&self) -> &[Type] {
            self.types().expect("types are given").types
        }

        /// The value of the `Settings` field `field`, as a person writes it.
        pub(super) fn setting(&self, field: &str) -> Option<String> {
            let (_, value) = self.settings().find(|(set, _)| *set == field)?;
            Some(match value {
                Value::Keyword(choice) => choice.name.to_string(),
                Value::Fraction(fraction) => fraction.to_string(),
                Value::Duration(duration) => format!("{duration:?}"),
                Value::Count(count) => count.to_string(),
                Value::Switch(switch) => switch.to_string(),
                _ => panic!("`{field}` is not a setting's value"),
            })
        }
    }

    #[test]
    fn reads_every_option() {
        let options = parse(quote!(
            original = crate::old::sum,
            inputs = sum_inputs,
            expect = not_slower,
            noise_floor = 0.02,
            check = skip,
            max_time = "1.5s",
            processes = 3,
            flops = sum_flops,
            bytes = crate::sizes::sum_bytes,
            name = "sum: unrolled",
        ))
        .unwrap();
        assert_eq!(
            tokens_as_written(options.original().to_token_stream()),
            "crate::old::sum"
        );
        assert_eq!(
            tokens_as_written(options.inputs().unwrap().path.to_token_stream()),
            "sum_inputs"
        );
        assert_eq!(options.setting("expect").as_deref(), Some("not_slower"));
        assert_eq!(options.setting("noise_floor").as_deref(), Some("0.02"));
        assert!(matches!(options.check(), Check::Skip));
        assert_eq!(options.setting("max_time").as_deref(), Some("1.5s"));
        assert_eq!(options.setting("processes").as_deref(), Some("3"));
        assert_eq!(
            tokens_as_written(options.flops().unwrap().to_token_stream()),
            "sum_flops"
        );
        assert_eq!(
            tokens_as_written(options.bytes().unwrap().to_token_stream()),
            "crate::sizes::sum_bytes"
        );
        assert_eq!(options.name().unwrap().value(), "sum: unrolled");
    }

    #[test]
    fn defaults_leave_settings_to_the_run() {
        let options = parse(quote!(original = sum_naive)).unwrap();
        assert!(options.inputs().is_none());
        assert!(options.settings().next().is_none());
        assert!(matches!(options.check(), Check::Eq));
        assert!(options.flops().is_none() && options.bytes().is_none());
        assert!(options.name().is_none());
    }

    #[test]
    fn missing_original_says_what_to_add() {
        assert!(error_of(quote!()).contains("add `original = path::to::baseline_fn`"));
        assert!(error_of(quote!(inputs = f)).contains("add `original = path::to::baseline_fn`"));
    }

    #[test]
    fn unknown_option_suggests_the_nearest() {
        let error = error_of(quote!(orignal = f));
        assert!(
            error.contains("unknown option `orignal`: did you mean `original`?"),
            "{error}"
        );
        // The fix is the suggestion: no list of every option beside it.
        assert!(!error.contains("the options are"), "{error}");
        let error = error_of(quote!(original = f, input = g));
        assert!(error.contains("did you mean `inputs`?"), "{error}");
        let error = error_of(quote!(original = f, baseline = g));
        assert!(error.contains("did you mean `original`?"), "{error}");
        let error = error_of(quote!(original = f, noise = 0.1));
        assert!(error.contains("did you mean `noise_floor`?"), "{error}");
        // Nothing near: every option of the attribute, as the table lists them.
        let error = error_of(quote!(original = f, colour = red));
        assert!(
            error.starts_with(&format!(
                "unknown option `colour`\nthe options are {}",
                table::listed(Attribute::Compare)
            )),
            "{error}"
        );
        assert!(
            error.contains("the options are `original`, `inputs`, `expect`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, flop = count));
        assert!(error.contains("did you mean `flops`?"), "{error}");
    }

    #[test]
    fn a_misspelt_or_malformed_original_is_not_also_missing() {
        for tokens in [
            quote!(orignal = f),
            quote!(original = "f"),
            quote!(baseline = f),
        ] {
            let error = error_of(tokens.clone());
            assert!(!error.contains("add `original"), "{tokens}: {error}");
        }
    }

    #[test]
    fn every_bad_option_is_reported_in_one_go() {
        let error = error_of(quote!(inputs = f, noise_floor = 5, max_time = "soon"));
        assert_eq!(error.matches("\n---\n").count(), 2, "{error}");
        assert!(
            error.contains("add `original = path::to::baseline_fn`"),
            "{error}"
        );
    }

    #[test]
    fn what_cannot_be_read_is_reported_after_the_errors_before_it() {
        let error = error_of(quote!(noise_floor = 5, original = f g));
        assert!(
            error.contains("write `noise_floor = 0.05` for 5%"),
            "{error}"
        );
        assert!(error.contains("expected `,`"), "{error}");
        // What is missing is not known once the rest cannot be read.
        assert!(!error.contains("add `original"), "{error}");
        let error = error_of(quote!(original = f, crate::colour = red));
        assert!(error.contains("unknown option `crate::colour`"), "{error}");
    }

    #[test]
    fn duplicates_and_missing_values_are_errors() {
        let error = error_of(quote!(original = f, original = g));
        assert!(error.contains("`original` is given twice"), "{error}");
        let error = error_of(quote!(original));
        assert!(
            error.contains("`original` needs a value: write `original = path::to::baseline_fn`"),
            "{error}"
        );
    }

    #[test]
    fn track_reads_its_options_with_the_same_parser() {
        let options = parse_for(
            Attribute::Track,
            quote!(
                inputs = parse_inputs,
                name = "text::parse",
                expect = report,
                noise_floor = 0.1,
                max_time = "1s",
                types = [u8],
            ),
        )
        .unwrap();
        assert!(
            options.path(Field::Original).is_none(),
            "track has no original"
        );
        assert_eq!(options.name().unwrap().value(), "text::parse");
        assert_eq!(options.setting("expect").as_deref(), Some("report"));
        assert_eq!(options.setting("max_time").as_deref(), Some("1s"));
        assert!(parse_for(Attribute::Track, quote!()).is_ok());
        for compare_only in [
            quote!(original = f),
            quote!(check = eq),
            quote!(flops = f),
            quote!(bytes = f),
            quote!(processes = 2),
        ] {
            let error = error_for(Attribute::Track, quote!(inputs = f, #compare_only));
            assert!(
                error.contains(
                    "is an option of `#[faster::compare]`; `#[faster::track]` compares the function \
                     with itself at another revision: remove it"
                ),
                "{compare_only}: {error}"
            );
        }
        let error = error_for(Attribute::Track, quote!(input = f));
        assert!(error.contains("did you mean `inputs`?"), "{error}");
        // `original` is not one of track's, so it is not suggested.
        let error = error_for(Attribute::Track, quote!(orignal = f));
        assert!(
            error.starts_with(&format!(
                "unknown option `orignal`\nthe options are {}",
                table::listed(Attribute::Track)
            )),
            "{error}"
        );
        assert!(!error.contains("`original`"), "{error}");
        let error = error_for(Attribute::Track, quote!(max_time));
        assert!(
            error
                .contains("`max_time` needs a value: write a duration such as `max_time = \"3s\"`"),
            "{error}"
        );
    }

    #[test]
    fn compare_gpu_takes_cache_flush_and_not_types() {
        let options = parse_for(
            Attribute::CompareGpu,
            quote!(original = f, inputs = g, cache_flush = false, processes = 2),
        )
        .unwrap();
        assert!(!options.cache_flush());
        assert_eq!(options.setting("processes").as_deref(), Some("2"));
        let mut defaulted = parse_for(
            Attribute::CompareGpu,
            quote!(original = f, expect = report, max_time = "2s"),
        )
        .unwrap();
        assert!(
            defaulted.cache_flush(),
            "caches are flushed unless turned off"
        );
        defaulted.default_setting("processes", Value::Count(1));
        let fields: Vec<&str> = defaulted.settings().map(|(field, _)| field).collect();
        assert_eq!(
            fields,
            ["expect", "max_time", "processes"],
            "in the table's order"
        );
        let error = error_for(Attribute::CompareGpu, quote!(original = f, types = [u32]));
        assert!(
            error.contains("`types` is an option of `#[faster::compare]`"),
            "{error}"
        );
        let error = error_for(
            Attribute::Compare,
            quote!(original = f, cache_flush = false),
        );
        assert!(
            error.contains("`cache_flush` is an option of `#[faster::compare_gpu]`"),
            "{error}"
        );
    }
}
