//! Each option's value: a function's path, a keyword, a check with its
//! tolerances, a noise floor, a duration, a count, a name. Each parser
//! takes the value's expression and answers with the typed value or an
//! error at its tokens saying what to write.

use super::spelling::{closest, tokens_as_written};
use super::{CHECK_SYNONYMS, Check, Expect, MAX_PROCESSES, example_for};
use quote::ToTokens;
use std::time::Duration;
use syn::ext::IdentExt;
use syn::{Expr, ExprLit, ExprPath, Ident, Lit, LitStr};

/// The value of `original` or `inputs`: the path of a function.
pub(crate) fn function_path(option: &str, value: Expr) -> syn::Result<ExprPath> {
    match value {
        Expr::Path(path) if path.attrs.is_empty() => Ok(path),
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => {
            let unquoted = string.value();
            let message = if syn::parse_str::<syn::Path>(&unquoted).is_ok() {
                format!("write the path without quotes: `{option} = {unquoted}`")
            } else {
                format!("write the path without quotes: {}", example_for(option))
            };
            Err(syn::Error::new(string.span(), message))
        }
        Expr::Call(call) if call.args.is_empty() => Err(syn::Error::new_spanned(
            &call,
            format!(
                "write the function's path without calling it: `{option} = {}`",
                tokens_as_written(call.func.to_token_stream())
            ),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "`{option}` takes the path of a function: {}",
                example_for(option)
            ),
        )),
    }
}

/// A bare identifier value such as `not_slower`, or an error saying what to
/// write. `choices` are the accepted words, for the "did you mean" hint.
pub(super) fn keyword(option: &str, value: &Expr, choices: &[&str]) -> syn::Result<Ident> {
    if let Expr::Path(path) = value
        && path.attrs.is_empty()
        && path.qself.is_none()
        && let Some(ident) = path.path.get_ident()
    {
        return Ok(ident.clone());
    }
    if let Expr::Lit(ExprLit {
        lit: Lit::Str(string),
        ..
    }) = value
    {
        let unquoted = string.value();
        if choices.contains(&unquoted.as_str()) {
            return Err(syn::Error::new(
                string.span(),
                format!("write `{unquoted}` without quotes: `{option} = {unquoted}`"),
            ));
        }
    }
    Err(syn::Error::new_spanned(value, example_for(option)))
}

pub(super) fn unknown_keyword(option: &str, ident: &Ident, choices: &[&str]) -> syn::Error {
    let given = ident.unraw().to_string();
    let hint = match closest(&given, choices) {
        Some(choice) => format!(" (did you mean `{choice}`?)"),
        None => String::new(),
    };
    syn::Error::new(
        ident.span(),
        format!(
            "unknown `{option}` value `{given}`{hint}: {}",
            example_for(option)
        ),
    )
}

pub(crate) fn expect(value: Expr) -> syn::Result<Expect> {
    const CHOICES: [&str; 3] = ["faster", "not_slower", "report"];
    let ident = keyword("expect", &value, &CHOICES)?;
    match ident.unraw().to_string().as_str() {
        "faster" => Ok(Expect::Faster),
        "not_slower" => Ok(Expect::NotSlower),
        "report" => Ok(Expect::Report),
        _ => Err(unknown_keyword("expect", &ident, &CHOICES)),
    }
}

pub(super) fn check(value: Expr) -> syn::Result<Check> {
    const CHOICES: [&str; 3] = ["eq", "skip", "approx"];
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
                    format!("unknown check `{callee}(...)`: {}", example_for("check")),
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
                    format!("`approx` needs a tolerance: {}", example_for("approx")),
                )),
                _ if CHECK_SYNONYMS.contains(&word.as_str())
                    || closest(&word, &CHOICES).is_some() =>
                {
                    let hint = match closest(&word, &CHOICES) {
                        Some(choice) => format!(" (did you mean `{choice}`?)"),
                        None => String::new(),
                    };
                    Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "unknown `check` value `{word}`{hint}: {}; a function of yours \
                             called `{word}` is written `check = self::{word}`",
                            example_for("check")
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
                example_for("check").to_string()
            };
            Err(syn::Error::new(string.span(), message))
        }
        other => Err(syn::Error::new_spanned(other, example_for("check"))),
    }
}

/// `approx(REL)`, `approx(REL, ABS)`, `approx(rel = REL, abs = ABS)`.
pub(super) fn approx(call: &syn::ExprCall) -> syn::Result<Check> {
    let needs = || format!("`approx` needs a tolerance: {}", example_for("approx"));
    if call.args.is_empty() {
        return Err(syn::Error::new_spanned(call, needs()));
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
                             tolerance), not `{name}`: {}",
                            example_for("approx")
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
                        "`approx` takes at most two tolerances, relative and absolute: {}",
                        example_for("approx")
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
                example_for("approx").trim_start_matches("write ")
            ),
        ));
    }
    Ok(Check::Approx { rel, abs })
}

/// One tolerance of `approx(...)`: a number literal, at least zero; a
/// relative one is a fraction under 1.
pub(super) fn tolerance(name: &str, value: &Expr) -> syn::Result<f64> {
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

pub(crate) fn noise_floor(value: Expr) -> syn::Result<f64> {
    let (fraction, span) = match &value {
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) => (float.base10_parse::<f64>()?, float.span()),
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => {
            // An integer is almost always a percentage: `5` meant 5%.
            let percent: u64 = int.base10_parse().unwrap_or(0);
            let message = if (1..100).contains(&percent) {
                format!(
                    "`noise_floor` is a fraction, not a percentage: write `noise_floor = {}` for {percent}%",
                    percent as f64 / 100.0
                )
            } else {
                NOT_A_FLOOR.to_string()
            };
            return Err(syn::Error::new(int.span(), message));
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "`noise_floor` takes a number: write a fraction such as 0.05 for 5%",
            ));
        }
    };
    // As the runtime's: any finite fraction above 0 (1.0 asks for at least 2x).
    if fraction > 0.0 && fraction.is_finite() {
        Ok(fraction)
    } else {
        Err(syn::Error::new(span, NOT_A_FLOOR))
    }
}

/// What a `noise_floor` that is not a fraction above 0 is told.
const NOT_A_FLOOR: &str = "`noise_floor` is a fraction above 0: write a fraction such as 0.05 for 5% \
     (1.0 for at least 2x)";

pub(crate) fn max_time(value: Expr) -> syn::Result<Duration> {
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) => parse_duration(&string.value()).map_err(|reason| {
            syn::Error::new(
                string.span(),
                format!("{reason}: write a duration such as \"500ms\", \"3s\" or \"1.5s\" (units: ns, us, ms, s, m)"),
            )
        }),
        // `max_time = 3s` lexes as the integer 3 with the suffix `s`.
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) if !int.suffix().is_empty() => Err(syn::Error::new(
            int.span(),
            format!(
                "write the duration in quotes: `max_time = \"{}\"`",
                int.token()
            ),
        )),
        Expr::Lit(ExprLit {
            lit: Lit::Float(float),
            ..
        }) if !float.suffix().is_empty() => Err(syn::Error::new(
            float.span(),
            format!(
                "write the duration in quotes: `max_time = \"{}\"`",
                float.token()
            ),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            "`max_time` takes a duration with its unit, in quotes: write `max_time = \"3s\"` or `max_time = \"500ms\"`",
        )),
    }
}

/// Reads `"500ms"`, `"3s"`, `"1.5s"`, `"750us"`, `"2m"`. Exact decimal
/// arithmetic, so `"1.1s"` is 1 100 000 000 ns and not a float's neighbour.
pub(super) fn parse_duration(text: &str) -> Result<Duration, String> {
    const UNITS: [(&str, u128); 7] = [
        ("ns", 1),
        ("us", 1_000),
        ("µs", 1_000),
        ("ms", 1_000_000),
        ("s", 1_000_000_000),
        ("m", 60_000_000_000),
        ("min", 60_000_000_000),
    ];
    let trimmed = text.trim();
    let number_len = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(number_len);
    let unit = unit.trim_start();
    let cannot_read = || format!("cannot read {text:?} as a duration");
    if unit.is_empty() {
        return Err(format!("{text:?} has no unit"));
    }
    let Some(&(_, unit_ns)) = UNITS.iter().find(|(name, _)| *name == unit) else {
        return Err(format!("unknown unit {unit:?} in {text:?}"));
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits_only = |part: &str| part.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !digits_only(whole) || !digits_only(fraction) || fraction.len() > 18 {
        return Err(cannot_read());
    }
    let whole: u128 = whole.parse().map_err(|_| cannot_read())?;
    let fraction_value: u128 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| cannot_read())?
    };
    let scale = 10u128.pow(fraction.len() as u32);
    let nanos = whole
        .checked_mul(unit_ns)
        .and_then(|whole_ns| whole_ns.checked_add(fraction_value * unit_ns / scale))
        .ok_or_else(|| format!("{text:?} is too long"))?;
    let nanos = u64::try_from(nanos).map_err(|_| format!("{text:?} is too long"))?;
    if nanos == 0 {
        return Err(format!("{text:?} leaves no time to measure"));
    }
    Ok(Duration::from_nanos(nanos))
}

pub(super) fn processes(value: Expr) -> syn::Result<u64> {
    let out_of_range = format!("`processes` is a whole number from 1 to {MAX_PROCESSES}");
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => match int.base10_parse::<u64>() {
            Ok(count) if (1..=MAX_PROCESSES).contains(&count) => Ok(count),
            _ => Err(syn::Error::new(
                int.span(),
                format!(
                    "{out_of_range}: write `processes = 3`, or leave it out to measure in this process only"
                ),
            )),
        },
        Expr::Lit(ExprLit {
            lit: Lit::Str(string),
            ..
        }) if string.value().trim().parse::<u64>().is_ok() => Err(syn::Error::new(
            string.span(),
            format!(
                "write the number without quotes: `processes = {}`",
                string.value().trim()
            ),
        )),
        other => Err(syn::Error::new_spanned(
            other,
            format!("{out_of_range}: {}", example_for("processes")),
        )),
    }
}

pub(crate) fn name(value: Expr) -> syn::Result<LitStr> {
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
            "the name is empty: write a name such as `name = \"sum: unrolled\"`, or leave `name` out to use the function's path",
        )),
        Expr::Path(path) if path.path.get_ident().is_some() => {
            let ident = path.path.get_ident().expect("checked by the guard");
            Err(syn::Error::new(
                ident.span(),
                format!("write the name as a string: `name = \"{}\"`", ident.unraw()),
            ))
        }
        other => Err(syn::Error::new_spanned(other, example_for("name"))),
    }
}
