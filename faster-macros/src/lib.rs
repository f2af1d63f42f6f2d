//! The `#[faster::compare]` attribute. Use it through the `faster` crate;
//! this crate only turns the attribute into code that calls `faster`'s
//! runtime.
//!
//! `attr` reads the options, `validate` decides which functions can be
//! compared, `expand` writes the registration and the test.

mod attr;
mod expand;
mod validate;

use proc_macro::TokenStream;

/// Proves in `cargo test` that the annotated function (the candidate) returns
/// what `original` returns and is faster than it.
///
/// ```
/// fn sum_naive(v: &[u64]) -> u64 {
///     v.iter().fold(0, |acc, x| std::hint::black_box(acc + x))
/// }
///
/// #[cfg_attr(test, faster::compare(original = sum_naive, inputs = sum_inputs))]
/// fn sum_fast(v: &[u64]) -> u64 {
///     v.iter().sum()
/// }
///
/// #[cfg(test)]
/// fn sum_inputs() -> Vec<Vec<u64>> {
///     vec![(0..1_000).collect(), (0..100_000).collect()]
/// }
/// # fn main() {}
/// ```
///
/// The function is kept as it is. Next to it the attribute adds a test named
/// `faster_<function>` (here `faster_sum_fast`) and registers the comparison
/// for `faster::main()`. `#[cfg_attr(test, ...)]` keeps all of it out of the
/// library's normal build. Run `cargo test --release`: in a build with
/// `debug_assertions` the timing is reported but not enforced.
///
/// # Options
///
/// | option | meaning | default |
/// | --- | --- | --- |
/// | `original = path` | the function it replaces, with the same signature | required |
/// | `inputs = path` | a `fn() -> impl IntoIterator<Item = T>`; each item is one input case | required exactly when the function has parameters |
/// | `expect = faster \| not_slower \| report` | `faster`: faster by at least the noise floor; `not_slower`: fails only when slower by at least the floor; `report`: never fails on timing | `faster` |
/// | `noise_floor = 0.05` | the smallest relative difference that counts, a fraction between 0 and 1 | the run's (5%, 10% on CI) |
/// | `check = eq \| skip` | compare outputs with `==` before timing, or not at all | `eq` |
/// | `max_time = "3s"` | time budget for this pair: `"750us"`, `"500ms"`, `"1.5s"`, `"2m"` | the run's (3 s) |
/// | `processes = 3` | measure in this many fresh processes, from 1 to 100 | the run's (1) |
/// | `flops = path`, `bytes = path` | a `fn(&Input) -> u64` counting one call's floating-point operations or bytes on an input case; the report adds GFLOP/s or GB/s | none |
/// | `name = "..."` | the name reports show and filters match | the function's path in its crate |
///
/// # Parameters and inputs
///
/// The candidate is a free function (not a method, not generic, not `async`
/// or `unsafe`) taking each parameter by value (`u64`, `Vec<u64>`) or by
/// shared reference (`&[u64]`, `&str`, `&T`). `const fn` and `extern "C"`
/// functions are fine; a function without parameters needs no `inputs`.
///
/// The `inputs` items are the argument itself for one parameter, or a tuple
/// of the arguments for several. A parameter taken by reference borrows from
/// the item (`Vec<u64>` for `&[u64]`, `String` or `&'static str` for `&str`);
/// a parameter taken by value gets a fresh clone of it per call, made outside
/// the timed region. The output must implement `PartialEq` and `Debug` for
/// `check = eq`, and must not borrow from the input. Count functions
/// (`flops`, `bytes`) take a reference to the input case the way the
/// candidate would (`&[f64]` for a `Vec<f64>` case), or nothing when the
/// candidate takes nothing.
///
/// ```
/// fn dot_naive(a: &[f64], b: &[f64], scale: f64) -> f64 {
///     a.iter().zip(b).map(|(x, y)| x * y * scale).sum()
/// }
///
/// #[faster::compare(
///     original = dot_naive,
///     inputs = dot_inputs,
///     expect = not_slower,
///     noise_floor = 0.1,
///     check = skip, // scaling once may round differently
///     max_time = "500ms",
///     flops = dot_flops,
///     name = "dot: scale once",
/// )]
/// fn dot_scaled_once(a: &[f64], b: &[f64], scale: f64) -> f64 {
///     a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() * scale
/// }
///
/// fn dot_inputs() -> Vec<(Vec<f64>, Vec<f64>, f64)> {
///     let a: Vec<f64> = (0..1_000).map(f64::from).collect();
///     vec![(a.clone(), a, 0.3)]
/// }
///
/// fn dot_flops((a, _, _): &(Vec<f64>, Vec<f64>, f64)) -> u64 {
///     2 * a.len() as u64
/// }
/// # fn main() {
/// #     let registered = faster::comparisons();
/// #     assert_eq!(registered.len(), 1);
/// #     assert_eq!(registered[0].display_name(), "dot: scale once");
/// #     assert_eq!(registered[0].original, "dot_naive");
/// # }
/// ```
///
/// Mistakes are compile errors at the offending token that say what to
/// write instead: a missing or misspelt option, a value of the wrong kind, a
/// signature that differs from the original's, `inputs` items that do not
/// fit the parameters, an unsupported function.
#[proc_macro_attribute]
pub fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::compare(args.into(), item.into()).into()
}
