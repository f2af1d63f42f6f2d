//! The value of `check = ...`: how outputs are compared before timing,
//! `eq`, `approx(REL, ABS)` with its tolerances, `skip`, or a function of
//! the user's, with an error at the offending token for each misuse.

use super::spelling::tokens_as_written;
use faster_options::{OptionSpec, closest};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::{Expr, ExprLit, ExprPath, Lit};

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

/// The keywords `check` takes.
const CHOICES: [&str; 3] = ["eq", "skip", "approx"];

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

/// How to write `approx(...)`, for errors about it.
const APPROX_EXAMPLE: &str = "write `check = approx(1e-9)` for a relative tolerance, or \
     `check = approx(1e-9, 1e-12)` for a relative and an absolute one";

/// The value of `check`.
pub(super) fn check(option: &OptionSpec, value: Expr) -> syn::Result<Check> {
    let example = option.example;
    match value {
        Expr::Call(call) => {
            let callee = tokens_as_written(call.func.to_token_stream());
            if callee == "approx" {
                approx(&call)
            } else if call.args.is_empty() {
                Err(syn::Error::new_spanned(
                    &call,
                    format!(
                        "write the check function's path without calling it: `check = {callee}`"
                    ),
                ))
            } else {
                Err(syn::Error::new_spanned(
                    &call.func,
                    format!("unknown check `{callee}(...)`: {example}"),
                ))
            }
        }
        Expr::Path(path) if path.attrs.is_empty() && path.qself.is_none() => {
            let Some(ident) = path.path.get_ident() else {
                return Ok(Check::With(path));
            };
            let word = ident.unraw().to_string();
            match word.as_str() {
                "eq" => Ok(Check::Eq),
                "skip" => Ok(Check::Skip),
                "approx" => Err(syn::Error::new(
                    ident.span(),
                    format!("`approx` needs a tolerance: {APPROX_EXAMPLE}"),
                )),
                _ if CHECK_SYNONYMS.contains(&word.as_str())
                    || closest(&word, CHOICES).is_some() =>
                {
                    let hint = match closest(&word, CHOICES) {
                        Some(choice) => format!(" (did you mean `{choice}`?)"),
                        None => String::new(),
                    };
                    Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "unknown `check` value `{word}`{hint}: {example}; a function of yours \
                             called `{word}` is written `check = self::{word}`"
                        ),
                    ))
                }
                _ => Ok(Check::With(path)),
            }
        }
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => {
            let unquoted = string.value();
            let message = if CHOICES.contains(&unquoted.as_str()) {
                format!("write `{unquoted}` without quotes: `check = {unquoted}`")
            } else if syn::parse_str::<syn::Path>(&unquoted).is_ok() {
                format!("write the path without quotes: `check = {unquoted}`")
            } else {
                example.to_string()
            };
            Err(syn::Error::new(string.span(), message))
        }
        other => Err(syn::Error::new_spanned(other, example)),
    }
}

/// `approx(REL)`, `approx(REL, ABS)`, `approx(rel = REL, abs = ABS)`.
fn approx(call: &syn::ExprCall) -> syn::Result<Check> {
    if call.args.is_empty() {
        return Err(syn::Error::new_spanned(
            call,
            format!("`approx` needs a tolerance: {APPROX_EXAMPLE}"),
        ));
    }
    let mut rel: Option<f64> = None;
    let mut abs: Option<f64> = None;
    for (position, argument) in call.args.iter().enumerate() {
        let (name, value) = match argument {
            Expr::Assign(assign) => {
                let name = tokens_as_written(assign.left.to_token_stream());
                if name != "rel" && name != "abs" {
                    return Err(syn::Error::new_spanned(
                        &assign.left,
                        format!(
                            "`approx` takes `rel` (relative tolerance) and `abs` (absolute \
                             tolerance), not `{name}`: {APPROX_EXAMPLE}"
                        ),
                    ));
                }
                (name, &*assign.right)
            }
            _ if position == 0 => ("rel".to_string(), argument),
            _ if position == 1 => ("abs".to_string(), argument),
            extra => {
                return Err(syn::Error::new_spanned(
                    extra,
                    format!(
                        "`approx` takes at most two tolerances, relative and absolute: \
                         {APPROX_EXAMPLE}"
                    ),
                ));
            }
        };
        let slot = if name == "rel" { &mut rel } else { &mut abs };
        if slot.is_some() {
            return Err(syn::Error::new_spanned(
                argument,
                format!("the `{name}` tolerance is given twice: keep one"),
            ));
        }
        *slot = Some(tolerance(&name, value)?);
    }
    let (rel, abs) = (rel.unwrap_or(0.0), abs.unwrap_or(0.0));
    if rel == 0.0 && abs == 0.0 {
        return Err(syn::Error::new_spanned(
            &call.args,
            format!(
                "a tolerance of zero compares exactly: write `check = eq`, or {}",
                APPROX_EXAMPLE.trim_start_matches("write ")
            ),
        ));
    }
    Ok(Check::Approx { rel, abs })
}

/// One tolerance of `approx(...)`: a number literal, at least zero; a
/// relative one is a fraction under 1.
fn tolerance(name: &str, value: &Expr) -> syn::Result<f64> {
    let number = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => float.base10_parse::<f64>()?,
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int.base10_parse::<f64>()?,
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            ..
        }) => {
            return Err(syn::Error::new_spanned(
                value,
                format!(
                    "a tolerance is not negative: write the `{name}` tolerance as a positive \
                     number such as `1e-9`"
                ),
            ));
        }
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => {
            return Err(syn::Error::new(
                string.span(),
                format!("write the number without quotes: `{}`", string.value()),
            ));
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                format!(
                    "write the `{name}` tolerance as a number literal such as `1e-9` (the \
                     attribute checks it when it compiles)"
                ),
            ));
        }
    };
    if !number.is_finite() {
        return Err(syn::Error::new_spanned(
            value,
            format!("the `{name}` tolerance must be a finite number such as `1e-9`"),
        ));
    }
    if name == "rel" && number >= 1.0 {
        return Err(syn::Error::new_spanned(
            value,
            "a relative tolerance is a fraction of the values compared, under 1: write \
             `approx(1e-9)` for one part in a billion, `approx(0.01)` for 1%",
        ));
    }
    Ok(number)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{error_of, parse};
    use super::*;
    use proc_macro2::TokenStream;
    use quote::quote;

    #[test]
    fn check_takes_its_keywords() {
        assert!(matches!(
            parse(quote!(original = f, check = eq)).unwrap().check(),
            Check::Eq
        ));
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
            let Check::With(path) = options.check() else {
                panic!("{tokens} is not a check function");
            };
            assert_eq!(tokens_as_written(path.to_token_stream()), written);
        }
    }

    #[test]
    fn approx_reads_its_tolerances() {
        let tolerance = |tokens: TokenStream| match parse(quote!(original = f, check = #tokens))
            .unwrap()
            .check()
        {
            Check::Approx { rel, abs } => (*rel, *abs),
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
}
