//! The attribute's options: parses `original = ..., inputs = ..., ...` into a
//! typed [`Options`], with an error at the offending token for every misuse.
//!
//! Every error says what to write instead, because the person reading it has
//! usually just copied the attribute from the README and changed one thing.

mod spelling;
mod values;

pub(crate) use spelling::{closest, tokens_as_written};
use values::{check, processes};
pub(crate) use values::{expect, function_path, max_time, name, noise_floor};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use std::time::Duration;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprPath, Ident, LitStr, Token, Type};

/// The options, in the order the README documents them.
const OPTION_NAMES: [&str; 11] = [
    "original",
    "inputs",
    "expect",
    "noise_floor",
    "check",
    "max_time",
    "processes",
    "flops",
    "bytes",
    "name",
    "types",
];

/// The most processes a comparison may be replicated in; the runtime's
/// `MAX_PROCESSES`, checked here so that a bad count fails the build.
const MAX_PROCESSES: u64 = 100;

/// Words people reach for that mean one of our options, for the "did you
/// mean" hint where spelling distance cannot help.
const SYNONYMS: [(&str, &str); 8] = [
    ("baseline", "original"),
    ("reference", "original"),
    ("timeout", "max_time"),
    ("budget", "max_time"),
    ("threshold", "noise_floor"),
    ("tolerance", "noise_floor"),
    ("type", "types"),
    ("generics", "types"),
];

/// Words for `check = ...` that mean one of its keywords, so that they get
/// the keyword error rather than being taken for a function's name.
const CHECK_SYNONYMS: [&str; 8] = [
    "exact",
    "equal",
    "equals",
    "partial_eq",
    "none",
    "no",
    "off",
    "ignore",
];

/// The parsed `#[faster::compare(...)]` options.
pub(crate) struct Options {
    /// `original = path`: the baseline function.
    pub original: ExprPath,
    /// `inputs = path`, with the whole option's tokens for errors about it.
    pub inputs: Option<InputsOption>,
    /// `expect = ...`; `None` leaves it to the run's default.
    pub expect: Option<Expect>,
    /// `noise_floor = 0.05`, as a fraction above 0 (1.0: at least 2x).
    pub noise_floor: Option<f64>,
    /// `check = ...`; `eq` when absent.
    pub check: Check,
    /// `max_time = "3s"`, already converted.
    pub max_time: Option<Duration>,
    /// `processes = 3`: measure in slices in at least this many processes.
    pub processes: Option<u64>,
    /// `flops = path`: floating-point operations per call, per input case.
    pub flops: Option<ExprPath>,
    /// `bytes = path`: bytes read and written per call, per input case.
    pub bytes: Option<ExprPath>,
    /// `name = "..."`: the report's heading, used verbatim.
    pub name: Option<LitStr>,
    /// `types = [u32, u64]`: one comparison per type, for a generic function.
    pub types: Option<TypesOption>,
}

/// The `types = [...]` option.
pub(crate) struct TypesOption {
    /// The `types` keyword, so an error can point at the option.
    pub key: Ident,
    /// The types, in order, as written.
    pub types: Vec<Type>,
}

/// The `inputs = path` option.
pub(crate) struct InputsOption {
    /// The `inputs` keyword, so an error can cover the whole option.
    pub key: Ident,
    /// The inputs function.
    pub path: ExprPath,
}

impl InputsOption {
    /// `inputs = path` as tokens, to span an error over the whole option.
    pub fn to_option_tokens(&self) -> TokenStream {
        let key = &self.key;
        let path = &self.path;
        quote::quote!(#key = #path)
    }

    /// `inputs = path` as the user wrote it, for messages.
    pub fn as_written(&self) -> String {
        format!(
            "{} = {}",
            self.key,
            tokens_as_written(self.path.to_token_stream())
        )
    }
}

/// `expect = faster | not_slower | report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    Faster,
    NotSlower,
    Report,
}

/// `check = eq | approx(REL, ABS) | path | skip`.
#[derive(Clone)]
pub(crate) enum Check {
    /// `PartialEq`.
    Eq,
    /// Not at all.
    Skip,
    /// Floating-point values within `rel` (relative) or `abs` (absolute).
    Approx { rel: f64, abs: f64 },
    /// A `fn(&O, &O) -> bool` of the user's.
    With(ExprPath),
}

impl Options {
    /// Every path option with `Self` replaced by `qualified` (`<Buffer>`):
    /// the options of a method's attribute, written inside its `impl`
    /// block, as its comparison reads them outside the block.
    pub fn without_self(&mut self, qualified: &TokenStream) {
        let replace = |path: &mut ExprPath| {
            let replaced = crate::owner::without_self(path.to_token_stream(), qualified);
            if let Ok(parsed) = syn::parse2(replaced) {
                *path = parsed;
            }
        };
        replace(&mut self.original);
        if let Some(inputs) = &mut self.inputs {
            replace(&mut inputs.path);
        }
        if let Some(flops) = &mut self.flops {
            replace(flops);
        }
        if let Some(bytes) = &mut self.bytes {
            replace(bytes);
        }
        if let Check::With(path) = &mut self.check {
            replace(path);
        }
    }

    /// Parses the attribute's arguments. `attribute` is the span errors about
    /// the attribute as a whole (a missing option) point at.
    pub fn parse(args: TokenStream, attribute: Span) -> syn::Result<Options> {
        let given = (|input: ParseStream| parse_options(input)).parse2(args)?;
        given.finish(attribute)
    }
}

/// The options as written, before the required ones are checked.
#[derive(Default)]
struct GivenOptions {
    original: Option<ExprPath>,
    inputs: Option<InputsOption>,
    expect: Option<Expect>,
    noise_floor: Option<f64>,
    check: Option<Check>,
    max_time: Option<Duration>,
    processes: Option<u64>,
    flops: Option<ExprPath>,
    bytes: Option<ExprPath>,
    name: Option<LitStr>,
    types: Option<TypesOption>,
    /// Every option's name, to reject duplicates. A misspelling counts as
    /// the option it was taken for, so a bad `orignal = f` is not also
    /// reported as a missing `original`.
    seen: Vec<String>,
    /// Errors so far; parsing goes on after a bad value so that one compile
    /// shows every mistake in the attribute.
    errors: Option<syn::Error>,
}

impl GivenOptions {
    fn error(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(errors) => errors.combine(error),
            None => self.errors = Some(error),
        }
    }

    fn finish(self, attribute: Span) -> syn::Result<Options> {
        let mut errors = self.errors;
        let original = self.original;
        let original_written = self.seen.iter().any(|option| option == "original");
        if original.is_none() && !original_written {
            let missing = syn::Error::new(
                attribute,
                "the comparison needs the function this one replaces: \
                 add `original = path::to::baseline_fn`",
            );
            match &mut errors {
                Some(errors) => errors.combine(missing),
                None => errors = Some(missing),
            }
        }
        if let Some(errors) = errors {
            return Err(errors);
        }
        Ok(Options {
            original: original.expect("a missing `original` returned an error above"),
            inputs: self.inputs,
            expect: self.expect,
            noise_floor: self.noise_floor,
            check: self.check.unwrap_or(Check::Eq),
            max_time: self.max_time,
            processes: self.processes,
            flops: self.flops,
            bytes: self.bytes,
            name: self.name,
            types: self.types,
        })
    }
}

fn parse_options(input: ParseStream) -> syn::Result<GivenOptions> {
    let mut given = GivenOptions::default();
    while !input.is_empty() {
        // `parse_any` also accepts keywords, so `type = ...` gets the
        // "unknown option" error rather than a parser error.
        let key = Ident::parse_any(input)?;
        let key_name = key.unraw().to_string();
        if !input.peek(Token![=]) {
            return Err(syn::Error::new(
                key.span(),
                format!("`{key_name}` needs a value: {}", example_for(&key_name)),
            ));
        }
        input.parse::<Token![=]>()?;
        // Types are not expressions (`Vec<u8>`), so `types` (or what was
        // meant for it) reads its own kind of value.
        let reads_types = key_name == "types" || suggestion(&key_name) == Some("types");
        let set = if given.seen.contains(&key_name) {
            if reads_types {
                let _ = types_value(input);
            } else {
                input.parse::<Expr>()?;
            }
            Err(syn::Error::new(
                key.span(),
                format!("`{key_name}` is given twice: keep only one `{key_name} = ...`"),
            ))
        } else if key_name == "types" {
            types_value(input).map(|types| {
                given.types = Some(TypesOption {
                    key: key.clone(),
                    types,
                });
            })
        } else if reads_types {
            let _ = types_value(input);
            Err(unknown_option(&key, &key_name))
        } else {
            let value: Expr = input.parse()?;
            set_option(&mut given, &key, &key_name, value)
        };
        if let Err(error) = set {
            given.error(error);
        }
        let meant = suggestion(&key_name).unwrap_or(&key_name).to_string();
        given.seen.push(meant);

        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(given)
}

/// `[u32, u64]`: the value of `types`.
pub(crate) fn types_value(input: ParseStream) -> syn::Result<Vec<Type>> {
    if !input.peek(syn::token::Bracket) {
        // Take the value up to the next option, to show it in brackets.
        let mut tokens = TokenStream::new();
        while !input.is_empty() && !input.peek(Token![,]) {
            tokens.extend([input.parse::<TokenTree>()?]);
        }
        let written = tokens_as_written(tokens.clone());
        let message = match syn::parse2::<LitStr>(tokens.clone()) {
            Ok(string) => format!(
                "write the types without quotes, in brackets: `types = [{}]`",
                string.value()
            ),
            Err(_) if written.is_empty() => example_for("types").to_string(),
            Err(_) => format!("write the types in brackets: `types = [{written}]`"),
        };
        return Err(syn::Error::new_spanned(tokens, message));
    }
    let content;
    let brackets = syn::bracketed!(content in input);
    let mut types: Vec<Type> = Vec::new();
    let mut errors: Option<syn::Error> = None;
    let mut push_error = |error: syn::Error| match &mut errors {
        Some(errors) => errors.combine(error),
        None => errors = Some(error),
    };
    while !content.is_empty() {
        if content.peek(LitStr) {
            let string: LitStr = content.parse()?;
            push_error(syn::Error::new(
                string.span(),
                format!("write the type without quotes: `{}`", string.value()),
            ));
        } else {
            let ty: Type = content.parse()?;
            let written = tokens_as_written(ty.to_token_stream());
            if types
                .iter()
                .any(|seen| tokens_as_written(seen.to_token_stream()) == written)
            {
                push_error(syn::Error::new_spanned(
                    &ty,
                    format!("`{written}` is listed twice in `types`: keep one"),
                ));
            } else {
                types.push(ty);
            }
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    if types.is_empty() {
        return Err(syn::Error::new(
            brackets.span.join(),
            "`types` lists no type: name the types to compare at, such as `types = [u32, u64]`",
        ));
    }
    Ok(types)
}

/// Interprets one `key = value` and stores it in `given`.
fn set_option(
    given: &mut GivenOptions,
    key: &Ident,
    key_name: &str,
    value: Expr,
) -> syn::Result<()> {
    match key_name {
        "original" => given.original = Some(function_path(key_name, value)?),
        "inputs" => {
            let path = function_path(key_name, value)?;
            given.inputs = Some(InputsOption {
                key: key.clone(),
                path,
            });
        }
        "expect" => given.expect = Some(expect(value)?),
        "noise_floor" => given.noise_floor = Some(noise_floor(value)?),
        "check" => given.check = Some(check(value)?),
        "max_time" => given.max_time = Some(max_time(value)?),
        "processes" => given.processes = Some(processes(value)?),
        "flops" => given.flops = Some(function_path(key_name, value)?),
        "bytes" => given.bytes = Some(function_path(key_name, value)?),
        "name" => given.name = Some(name(value)?),
        _ => return Err(unknown_option(key, key_name)),
    }
    Ok(())
}

fn unknown_option(key: &Ident, key_name: &str) -> syn::Error {
    let valid = OPTION_NAMES
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let message = match suggestion(key_name) {
        Some(option) => format!(
            "unknown option `{key_name}`: did you mean `{option}`?\nthe options are {valid}"
        ),
        None => format!("unknown option `{key_name}`\nthe options are {valid}"),
    };
    syn::Error::new(key.span(), message)
}

/// The option an unknown `key_name` probably meant; `None` for known ones.
fn suggestion(key_name: &str) -> Option<&'static str> {
    if OPTION_NAMES.contains(&key_name) {
        return None;
    }
    SYNONYMS
        .iter()
        .find(|(synonym, _)| *synonym == key_name)
        .map(|(_, option)| *option)
        .or_else(|| closest(key_name, &OPTION_NAMES))
}

/// How to write each option, for errors about its value.
fn example_for(option: &str) -> &'static str {
    match option {
        "original" => "write `original = path::to::baseline_fn`",
        "inputs" => "write `inputs = path::to::inputs_fn`",
        "expect" => "write `expect = faster`, `expect = not_slower` or `expect = report`",
        "noise_floor" => "write a fraction such as `noise_floor = 0.05` for 5%",
        "check" => {
            "write `check = eq` (compare outputs with `==`), `check = approx(1e-9)` (floating-point \
             values within a relative tolerance), `check = path::to::fn` (a `fn(&T, &T) -> bool` \
             of yours) or `check = skip`"
        }
        "approx" => {
            "write `check = approx(1e-9)` for a relative tolerance, or `check = approx(1e-9, \
             1e-12)` for a relative and an absolute one"
        }
        "types" => "write the types in brackets: `types = [u32, u64]`",
        "max_time" => "write a duration such as `max_time = \"3s\"`",
        "processes" => "write a whole number of processes such as `processes = 3`",
        "flops" => "write `flops = path::to::flops_fn`, a `fn(&Input) -> u64`",
        "bytes" => "write `bytes = path::to::bytes_fn`, a `fn(&Input) -> u64`",
        "name" => "write a string such as `name = \"sum: unrolled\"`",
        _ => "write `option = value`",
    }
}

#[cfg(test)]
mod tests {
    use super::spelling::edit_distance;
    use super::values::parse_duration;
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> syn::Result<Options> {
        Options::parse(tokens, Span::call_site())
    }

    fn error_of(tokens: TokenStream) -> String {
        match parse(tokens) {
            Ok(_) => panic!("expected an error"),
            Err(error) => error
                .into_iter()
                .map(|error| error.to_string())
                .collect::<Vec<_>>()
                .join("\n---\n"),
        }
    }

    impl Options {
        fn unwrap_types(&self) -> &[Type] {
            &self.types.as_ref().expect("types are given").types
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
            tokens_as_written(options.original.to_token_stream()),
            "crate::old::sum"
        );
        assert_eq!(
            tokens_as_written(options.inputs.unwrap().path.to_token_stream()),
            "sum_inputs"
        );
        assert_eq!(options.expect, Some(Expect::NotSlower));
        assert_eq!(options.noise_floor, Some(0.02));
        assert!(matches!(options.check, Check::Skip));
        assert_eq!(options.max_time, Some(Duration::from_millis(1500)));
        assert_eq!(options.processes, Some(3));
        assert_eq!(
            tokens_as_written(options.flops.unwrap().to_token_stream()),
            "sum_flops"
        );
        assert_eq!(
            tokens_as_written(options.bytes.unwrap().to_token_stream()),
            "crate::sizes::sum_bytes"
        );
        assert_eq!(options.name.unwrap().value(), "sum: unrolled");
    }

    #[test]
    fn defaults_leave_settings_to_the_run() {
        let options = parse(quote!(original = sum_naive)).unwrap();
        assert!(options.inputs.is_none());
        assert_eq!(options.expect, None);
        assert_eq!(options.noise_floor, None);
        assert!(matches!(options.check, Check::Eq));
        assert_eq!(options.max_time, None);
        assert_eq!(options.processes, None);
        assert!(options.flops.is_none() && options.bytes.is_none());
        assert!(options.name.is_none());
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
        assert!(error.contains("`original`, `inputs`, `expect`"), "{error}");
        let error = error_of(quote!(original = f, input = g));
        assert!(error.contains("did you mean `inputs`?"), "{error}");
        let error = error_of(quote!(original = f, baseline = g));
        assert!(error.contains("did you mean `original`?"), "{error}");
        let error = error_of(quote!(original = f, noise = 0.1));
        assert!(error.contains("did you mean `noise_floor`?"), "{error}");
        let error = error_of(quote!(original = f, colour = red));
        assert!(!error.contains("did you mean"), "{error}");
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
    fn quoted_paths_are_refused_with_the_unquoted_form() {
        let error = error_of(quote!(original = "sum_naive"));
        assert!(
            error.contains("write the path without quotes: `original = sum_naive`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, inputs = "some inputs"));
        assert!(error.contains("without quotes"), "{error}");
        let error = error_of(quote!(original = sum_naive()));
        assert!(
            error.contains("without calling it: `original = sum_naive`"),
            "{error}"
        );
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
    fn expect_and_check_take_their_keywords() {
        assert_eq!(
            parse(quote!(original = f, expect = report)).unwrap().expect,
            Some(Expect::Report)
        );
        assert_eq!(
            parse(quote!(original = f, expect = faster)).unwrap().expect,
            Some(Expect::Faster)
        );
        assert!(matches!(
            parse(quote!(original = f, check = eq)).unwrap().check,
            Check::Eq
        ));
        let error = error_of(quote!(original = f, expect = notslower));
        assert!(error.contains("did you mean `not_slower`?"), "{error}");
        let error = error_of(quote!(original = f, expect = "faster"));
        assert!(error.contains("write `faster` without quotes"), "{error}");
        let error = error_of(quote!(original = f, expect = faster | not_slower));
        assert!(error.contains("write `expect = faster`"), "{error}");
        let error = error_of(quote!(original = f, check = exact));
        assert!(error.contains("unknown `check` value `exact`"), "{error}");
        assert!(error.contains("`check = self::exact`"), "{error}");
        let error = error_of(quote!(original = f, check = eqq));
        assert!(error.contains("did you mean `eq`?"), "{error}");
        let error = error_of(quote!(original = f, check = "skip"));
        assert!(error.contains("write `skip` without quotes"), "{error}");
        let error = error_of(quote!(original = f, check = "close_enough"));
        assert!(
            error.contains("write the path without quotes: `check = close_enough`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, check = close_enough()));
        assert!(
            error.contains("without calling it: `check = close_enough`"),
            "{error}"
        );
    }

    #[test]
    fn check_takes_a_function_path() {
        for (tokens, written) in [
            (quote!(close_enough), "close_enough"),
            (quote!(crate::checks::close), "crate::checks::close"),
            (quote!(self::exact), "self::exact"),
        ] {
            let options = parse(quote!(original = f, check = #tokens)).unwrap();
            let Check::With(path) = options.check else {
                panic!("{tokens} is not a check function");
            };
            assert_eq!(tokens_as_written(path.to_token_stream()), written);
        }
    }

    #[test]
    fn approx_reads_its_tolerances() {
        let tolerance =
            |tokens: TokenStream| match parse(quote!(original = f, check = #tokens)).unwrap().check
            {
                Check::Approx { rel, abs } => (rel, abs),
                _ => panic!("{tokens} is not approx"),
            };
        assert_eq!(tolerance(quote!(approx(1e-9))), (1e-9, 0.0));
        assert_eq!(tolerance(quote!(approx(1e-9, 1e-12))), (1e-9, 1e-12));
        assert_eq!(tolerance(quote!(approx(rel = 0.01))), (0.01, 0.0));
        assert_eq!(tolerance(quote!(approx(abs = 1e-6))), (0.0, 1e-6));
        assert_eq!(
            tolerance(quote!(approx(abs = 1e-6, rel = 1e-3))),
            (1e-3, 1e-6)
        );
        assert_eq!(tolerance(quote!(approx(0, 1))), (0.0, 1.0));
    }

    #[test]
    fn approx_refuses_what_cannot_be_a_tolerance() {
        for (tokens, expected) in [
            (quote!(approx), "`approx` needs a tolerance"),
            (quote!(approx()), "`approx` needs a tolerance"),
            (quote!(approx(-1e-9)), "a tolerance is not negative"),
            (quote!(approx(5)), "a relative tolerance is a fraction"),
            (quote!(approx(1.0)), "a relative tolerance is a fraction"),
            (
                quote!(approx("1e-9")),
                "write the number without quotes: `1e-9`",
            ),
            (quote!(approx(TOLERANCE)), "as a number literal"),
            (quote!(approx(1e-9, 1e-12, 3)), "at most two tolerances"),
            (quote!(approx(tol = 1e-9)), "not `tol`"),
            (quote!(approx(rel = 1e-9, rel = 1e-6)), "given twice"),
            (quote!(approx(0)), "a tolerance of zero compares exactly"),
            (quote!(approxx(1e-9)), "unknown check `approxx(...)`"),
        ] {
            let error = error_of(quote!(original = f, check = #tokens));
            assert!(error.contains(expected), "{tokens}: {error}");
        }
    }

    #[test]
    fn types_are_a_bracketed_list_of_types() {
        let options = parse(quote!(original = f, types = [u32, Vec<u8>, [f32; 4]])).unwrap();
        let written: Vec<String> = options
            .unwrap_types()
            .iter()
            .map(|ty| tokens_as_written(ty.to_token_stream()))
            .collect();
        assert_eq!(written, ["u32", "Vec<u8>", "[f32; 4]"]);
        for (tokens, expected) in [
            (
                quote!(types = u32),
                "write the types in brackets: `types = [u32]`",
            ),
            (
                quote!(types = "u32"),
                "write the types without quotes, in brackets: `types = [u32]`",
            ),
            (
                quote!(types = ["u32"]),
                "write the type without quotes: `u32`",
            ),
            (quote!(types = []), "`types` lists no type"),
            (quote!(types = [u32, u32]), "`u32` is listed twice"),
            (
                quote!(types = [u32], types = [u64]),
                "`types` is given twice",
            ),
            (quote!(type = [Vec<u8>]), "did you mean `types`?"),
        ] {
            let error = error_of(quote!(original = f, #tokens));
            assert!(error.contains(expected), "{tokens}: {error}");
        }
    }

    #[test]
    fn noise_floor_is_a_fraction() {
        assert_eq!(
            parse(quote!(original = f, noise_floor = 0.5))
                .unwrap()
                .noise_floor,
            Some(0.5)
        );
        let error = error_of(quote!(original = f, noise_floor = 5));
        assert!(
            error.contains("write `noise_floor = 0.05` for 5%"),
            "{error}"
        );
        // A float of 1 or more asks for a multiple: 1.0 for at least 2x.
        for (floor, value) in [
            (quote!(1.0), 1.0),
            (quote!(10.0), 10.0),
            (quote!(1.5e3), 1500.0),
        ] {
            let options = parse(quote!(original = f, noise_floor = #floor)).unwrap();
            assert_eq!(options.noise_floor, Some(value));
        }
        for bad in [
            quote!(0.0),
            quote!(-0.05),
            quote!(250),
            quote!(1e999),
            quote!(f),
        ] {
            let error = error_of(quote!(original = f, noise_floor = #bad));
            assert!(error.contains("such as 0.05 for 5%"), "{bad}: {error}");
        }
    }

    #[test]
    fn durations_are_read_exactly() {
        let cases = [
            ("500ms", 500_000_000),
            ("3s", 3_000_000_000),
            ("1.5s", 1_500_000_000),
            ("1.1s", 1_100_000_000),
            ("750us", 750_000),
            ("750µs", 750_000),
            ("2m", 120_000_000_000),
            ("250 ns", 250),
            ("0.25ms", 250_000),
        ];
        for (text, nanos) in cases {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_nanos(nanos)),
                "{text}"
            );
        }
        for bad in [
            "",
            "3",
            "s",
            "3 sec",
            "1.2.3s",
            ".5s",
            "-1s",
            "0s",
            "0.1ns",
            "99999999999m",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn max_time_needs_a_quoted_duration() {
        let error = error_of(quote!(original = f, max_time = 3s));
        assert!(
            error.contains("write the duration in quotes: `max_time = \"3s\"`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, max_time = 3));
        assert!(error.contains("`max_time = \"3s\"`"), "{error}");
        let error = error_of(quote!(original = f, max_time = "3 sec"));
        assert!(error.contains("unknown unit \"sec\""), "{error}");
    }

    #[test]
    fn processes_is_a_small_whole_number() {
        let processes = |tokens| parse(tokens).unwrap().processes;
        assert_eq!(processes(quote!(original = f, processes = 1)), Some(1));
        assert_eq!(processes(quote!(original = f, processes = 100)), Some(100));
        for bad in [quote!(0), quote!(101), quote!(2.5), quote!(many)] {
            let error = error_of(quote!(original = f, processes = #bad));
            assert!(
                error.contains("a whole number from 1 to 100"),
                "{bad}: {error}"
            );
        }
        let error = error_of(quote!(original = f, processes = "3"));
        assert!(error.contains("without quotes: `processes = 3`"), "{error}");
    }

    #[test]
    fn name_is_a_non_empty_string() {
        let error = error_of(quote!(original = f, name = fast_sum));
        assert!(
            error.contains("write the name as a string: `name = \"fast_sum\"`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, name = "  "));
        assert!(error.contains("the name is empty"), "{error}");
    }

    #[test]
    fn paths_are_rendered_as_written() {
        assert_eq!(
            tokens_as_written(quote!(crate::old::sum)),
            "crate::old::sum"
        );
        assert_eq!(tokens_as_written(quote!(::other::f)), "::other::f");
        assert_eq!(tokens_as_written(quote!(Vec::<u8>::len)), "Vec::<u8>::len");
        assert_eq!(
            tokens_as_written(quote!(<T as Trait>::f)),
            "<T as Trait>::f"
        );
    }

    #[test]
    fn edit_distance_counts_a_swap_as_one() {
        assert_eq!(edit_distance("orignal", "original"), 1);
        assert_eq!(edit_distance("oirginal", "original"), 1);
        assert_eq!(edit_distance("input", "inputs"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
