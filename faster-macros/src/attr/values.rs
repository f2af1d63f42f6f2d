//! Each kind of value an option takes (see [`Kind`]): a function's path, a
//! keyword, a fraction, a duration, a count, a name, a switch, a check
//! (in [`super::check`]), a list of types. Each reader takes the value's
//! tokens and answers with the typed [`Value`] or an error at its tokens
//! saying what to write, in the option's own words ([`OptionSpec`]).

use super::check::{Check, check};
use super::spelling::tokens_as_written;
use faster_options::{
    Choice, Choices, Kind, OptionSpec, closest, parse_count, parse_duration, parse_fraction,
};
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::time::Duration;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{Expr, ExprLit, ExprPath, Lit, LitStr, Path, Token, Type};

/// An option's value, read.
pub(crate) enum Value {
    /// [`Kind::Function`].
    Path(ExprPath),
    /// [`Kind::Keyword`]: the choice.
    Keyword(&'static Choice),
    /// [`Kind::Fraction`].
    Fraction(f64),
    /// [`Kind::Duration`].
    Duration(Duration),
    /// [`Kind::Count`].
    Count(usize),
    /// [`Kind::Text`].
    Text(LitStr),
    /// [`Kind::Switch`].
    Switch(bool),
    /// [`Kind::Check`].
    Check(Check),
    /// [`Kind::Types`], in order, as written.
    Types(Vec<Type>),
    /// [`Kind::Crate`].
    Crate(Path),
}

/// Reads `option`'s value, of its kind, from `input`: `Err` where the
/// tokens cannot be read at all (the options after them cannot be
/// either), `Ok(Err(...))` for a value read but wrong, which is reported
/// with the other options' errors.
pub(super) fn read(option: &OptionSpec, input: ParseStream) -> syn::Result<syn::Result<Value>> {
    // Types are not expressions (`Vec<u8>`).
    if let Kind::Types = option.kind {
        return Ok(types(option, input).map(Value::Types));
    }
    let value: Expr = input.parse()?;
    Ok(match option.kind {
        Kind::Function => function_path(option, value).map(Value::Path),
        Kind::Keyword(choices) => keyword(option, &value, choices).map(Value::Keyword),
        Kind::Fraction => fraction(option, value).map(Value::Fraction),
        Kind::Duration => duration(option, value).map(Value::Duration),
        Kind::Count { max } => count(option, value, max).map(Value::Count),
        Kind::Text => text(option, value).map(Value::Text),
        Kind::Switch => switch(option, value).map(Value::Switch),
        Kind::Check => check(option, value).map(Value::Check),
        Kind::Crate => crate_path(option, value).map(Value::Crate),
        Kind::Types => unreachable!("read above"),
    })
}

/// Reads past the value of an option that is not used (unknown, of
/// another attribute, or given twice), as `option`'s where the option is
/// known; `Err` where the tokens cannot be read.
pub(super) fn skip(option: Option<&OptionSpec>, input: ParseStream) -> syn::Result<()> {
    match option {
        // Its errors are not reported: the option's own error is.
        Some(option) if matches!(option.kind, Kind::Types) => drop(types(option, input)),
        _ => drop(input.parse::<Expr>()?),
    }
    Ok(())
}

/// The value of `original`, `inputs`, `flops` or `bytes`: the path of a
/// function.
fn function_path(option: &OptionSpec, value: Expr) -> syn::Result<ExprPath> {
    let name = option.name;
    match value {
        Expr::Path(path) if path.attrs.is_empty() => Ok(path),
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => {
            let unquoted = string.value();
            let message = if syn::parse_str::<syn::Path>(&unquoted).is_ok() {
                format!("write the path without quotes: `{name} = {unquoted}`")
            } else {
                format!("write the path without quotes: {}", option.example)
            };
            Err(syn::Error::new(string.span(), message))
        }
        Expr::Call(call) if call.args.is_empty() => Err(syn::Error::new_spanned(
            &call,
            format!(
                "write the function's path without calling it: `{name} = {}`",
                tokens_as_written(call.func.to_token_stream())
            ),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` takes the path of a function: {}", option.example),
        )),
    }
}

/// The value of `crate`: the path the crate `faster-test` is known by,
/// `my_faster` or `::my_faster` (a dependency renamed in `Cargo.toml`) or
/// `crate::reexported::faster`. A quoted one, as serde's `crate = "..."`
/// is written, is refused with the path unquoted.
fn crate_path(option: &OptionSpec, value: Expr) -> syn::Result<Path> {
    let name = option.name;
    match value {
        Expr::Path(path) if path.attrs.is_empty() && path.qself.is_none() => {
            let generic = path
                .path
                .segments
                .iter()
                .find(|segment| !segment.arguments.is_none());
            match generic {
                Some(segment) => Err(syn::Error::new_spanned(
                    &segment.arguments,
                    format!(
                        "a crate's path takes no generic arguments: {}",
                        option.example
                    ),
                )),
                None => Ok(path.path),
            }
        }
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => {
            let unquoted = string.value();
            let message = match syn::parse_str::<Path>(&unquoted) {
                Ok(_) => format!("write the path without quotes: `{name} = {unquoted}`"),
                Err(_) => format!("write the path without quotes: {}", option.example),
            };
            Err(syn::Error::new(string.span(), message))
        }
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` takes the path of a crate: {}", option.example),
        )),
    }
}

/// A bare word of `choices`, such as `not_slower`.
fn keyword(option: &OptionSpec, value: &Expr, choices: Choices) -> syn::Result<&'static Choice> {
    let name = option.name;
    let word = match value {
        Expr::Path(path) if path.attrs.is_empty() && path.qself.is_none() => path.path.get_ident(),
        _ => None,
    };
    let named = |given: &str| choices.each.iter().find(|choice| choice.name == given);
    if let Some(word) = word {
        let given = word.unraw().to_string();
        if let Some(choice) = named(&given) {
            return Ok(choice);
        }
        let names = choices.each.iter().map(|choice| choice.name);
        let hint = match closest(&given, names) {
            Some(choice) => format!(" (did you mean `{choice}`?)"),
            None => String::new(),
        };
        return Err(syn::Error::new(
            word.span(),
            format!(
                "unknown `{name}` value `{given}`{hint}: {}",
                option.example()
            ),
        ));
    }
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(string),
        ..
    }) = value
    {
        let unquoted = string.value();
        if named(&unquoted).is_some() {
            return Err(syn::Error::new(
                string.span(),
                format!("write `{unquoted}` without quotes: `{name} = {unquoted}`"),
            ));
        }
    }
    Err(syn::Error::new_spanned(value, option.example()))
}

/// A fraction above 0, such as the noise floor: `0.05` for 5%, `1.0` for
/// at least 2x, read from the literal's text as the runtime reads a
/// variable's.
fn fraction(option: &OptionSpec, value: Expr) -> syn::Result<f64> {
    let name = option.name;
    match &value {
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => parse_fraction(float.base10_digits())
            .map_err(|reason| syn::Error::new(float.span(), format!("`{name}`: {reason}"))),
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => {
            // An integer is almost always a percentage: `5` meant 5%.
            let percent: u64 = int.base10_parse().unwrap_or(0);
            let message = if (1..100).contains(&percent) {
                format!(
                    "`{name}` is a fraction, not a percentage: write `{name} = {}` for {percent}%",
                    percent as f64 / 100.0
                )
            } else {
                format!(
                    "`{name}` is a fraction above 0: write a fraction such as 0.05 for 5% (1.0 \
                     for at least 2x)"
                )
            };
            Err(syn::Error::new(int.span(), message))
        }
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{name}` takes a number: write a fraction such as 0.05 for 5%"),
        )),
    }
}

/// A duration with its unit, in quotes: `"500ms"`, `"3s"`.
fn duration(option: &OptionSpec, value: Expr) -> syn::Result<Duration> {
    let name = option.name;
    let quote_it = |token: String| format!("write the duration in quotes: `{name} = \"{token}\"`");
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => parse_duration(&string.value())
            .map_err(|reason| syn::Error::new(string.span(), format!("`{name}`: {reason}"))),
        // `max_time = 3s` lexes as the integer 3 with the suffix `s`.
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) if !int.suffix().is_empty() => Err(syn::Error::new(
            int.span(),
            quote_it(int.token().to_string()),
        )),
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) if !float.suffix().is_empty() => Err(syn::Error::new(
            float.span(),
            quote_it(float.token().to_string()),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{name}` takes a duration with its unit, in quotes: write `{name} = \"3s\"` or \
                 `{name} = \"500ms\"`"
            ),
        )),
    }
}

/// A whole number from 1 to `max`, read from the literal's text as the
/// runtime reads a variable's.
fn count(option: &OptionSpec, value: Expr, max: usize) -> syn::Result<usize> {
    let name = option.name;
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => parse_count(int.base10_digits(), max).map_err(|reason| {
            syn::Error::new(
                int.span(),
                format!("`{name}`: {reason}; {}", option.example),
            )
        }),
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) if parse_count(&string.value(), max).is_ok() => Err(syn::Error::new(
            string.span(),
            format!(
                "write the number without quotes: `{name} = {}`",
                string.value().trim()
            ),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{name}` is a whole number from 1 to {max}: {}",
                option.example
            ),
        )),
    }
}

/// A string that is not empty, such as the name of `name = "..."`.
fn text(option: &OptionSpec, value: Expr) -> syn::Result<LitStr> {
    let name = option.name;
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) if !string.value().trim().is_empty() => Ok(string),
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => Err(syn::Error::new(
            string.span(),
            format!(
                "the {name} is empty: {}, or leave `{name}` out to use the function's path",
                option.example
            ),
        )),
        Expr::Path(path) if path.path.get_ident().is_some() => {
            let ident = path.path.get_ident().expect("checked by the guard");
            Err(syn::Error::new(
                ident.span(),
                format!(
                    "write the {name} as a string: `{name} = \"{}\"`",
                    ident.unraw()
                ),
            ))
        }
        other => Err(syn::Error::new_spanned(other, option.example)),
    }
}

/// `true` or `false`.
fn switch(option: &OptionSpec, value: Expr) -> syn::Result<bool> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(flag),
            ..
        }) => Ok(flag.value),
        other => Err(syn::Error::new_spanned(other, option.example)),
    }
}

/// `[u32, u64]`: the value of `types`.
fn types(option: &OptionSpec, input: ParseStream) -> syn::Result<Vec<Type>> {
    let name = option.name;
    if !input.peek(syn::token::Bracket) {
        // Take the value up to the next option, to show it in brackets.
        let mut tokens = TokenStream::new();
        while !input.is_empty() && !input.peek(Token![,]) {
            tokens.extend([input.parse::<TokenTree>()?]);
        }
        let written = tokens_as_written(tokens.clone());
        let message = match syn::parse2::<LitStr>(tokens.clone()) {
            Ok(string) => format!(
                "write the types without quotes, in brackets: `{name} = [{}]`",
                string.value()
            ),
            Err(_) if written.is_empty() => option.example.to_string(),
            Err(_) => format!("write the types in brackets: `{name} = [{written}]`"),
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
                    format!("`{written}` is listed twice in `{name}`: keep one"),
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
            format!(
                "`{name}` lists no type: name the types to compare at, such as `{name} = [u32, \
                 u64]`"
            ),
        ));
    }
    Ok(types)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{error_of, parse};
    use super::*;
    use quote::quote;

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
    fn expect_takes_its_keywords() {
        assert_eq!(
            parse(quote!(original = f, expect = report))
                .unwrap()
                .setting("expect")
                .as_deref(),
            Some("report")
        );
        assert_eq!(
            parse(quote!(original = f, expect = faster))
                .unwrap()
                .setting("expect")
                .as_deref(),
            Some("faster")
        );
        let error = error_of(quote!(original = f, expect = notslower));
        assert!(error.contains("did you mean `not_slower`?"), "{error}");
        let error = error_of(quote!(original = f, expect = "faster"));
        assert!(error.contains("write `faster` without quotes"), "{error}");
        let error = error_of(quote!(original = f, expect = faster | not_slower));
        assert!(error.contains("write `expect = faster`"), "{error}");
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
                .setting("noise_floor")
                .as_deref(),
            Some("0.5")
        );
        let error = error_of(quote!(original = f, noise_floor = 5));
        assert!(
            error.contains("write `noise_floor = 0.05` for 5%"),
            "{error}"
        );
        // A float of 1 or more asks for a multiple: 1.0 for at least 2x.
        for (floor, value) in [
            (quote!(1.0), "1"),
            (quote!(10.0), "10"),
            (quote!(1.5e3), "1500"),
        ] {
            let options = parse(quote!(original = f, noise_floor = #floor)).unwrap();
            assert_eq!(options.setting("noise_floor").as_deref(), Some(value));
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
    fn durations_are_read_as_the_runtime_reads_them() {
        for (text, nanos) in [
            (".5s", 500_000_000),
            ("2.01s", 2_010_000_000),
            ("8.2ms", 8_200_000),
        ] {
            let options = parse(quote!(original = f, max_time = #text)).unwrap();
            let expected = format!("{:?}", Duration::from_nanos(nanos));
            assert_eq!(options.setting("max_time"), Some(expected), "{text}");
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
        assert!(
            error.contains("`3 sec` has an unknown unit, `sec`; write a duration such as 500ms"),
            "{error}"
        );
    }

    #[test]
    fn processes_is_a_small_whole_number() {
        let processes = |tokens| parse(tokens).unwrap().setting("processes");
        assert_eq!(
            processes(quote!(original = f, processes = 1)).as_deref(),
            Some("1")
        );
        assert_eq!(
            processes(quote!(original = f, processes = 100)).as_deref(),
            Some("100")
        );
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
    fn crate_is_the_path_of_a_crate_written_as_a_path() {
        for path in [
            quote!(my_faster),
            quote!(::my_faster),
            quote!(crate::deps::faster),
        ] {
            let options = parse(quote!(original = f, crate = #path)).unwrap();
            let written = options.runtime().named_in(quote!(::faster::__private::Eq));
            assert_eq!(
                tokens_as_written(written),
                format!("{}::__private::Eq", tokens_as_written(path))
            );
        }
        let error = error_of(quote!(original = f, crate = "my_faster"));
        assert!(
            error.contains("write the path without quotes: `crate = my_faster`"),
            "{error}"
        );
        let error = error_of(quote!(original = f, crate = 3));
        assert!(
            error
                .starts_with("`crate` takes the path of a crate: write the name `faster-test` has"),
            "{error}"
        );
        let error = error_of(quote!(original = f, crate = my_faster::<u8>));
        assert!(error.contains("takes no generic arguments"), "{error}");
        let error = error_of(quote!(original = f, krate = my_faster));
        assert!(error.contains("did you mean `crate`?"), "{error}");
    }
}
