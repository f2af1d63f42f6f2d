//! The `#[faster::compare]`, `#[faster::compare_gpu]` and `#[faster::track]`
//! attributes. Use them through the `faster-test` package (whose library is
//! `faster`); this crate only turns them into code that calls `faster`'s
//! runtime.
//!
//! `attr` reads every attribute's options (one parser, driven by the table
//! of options of `faster-options`, the crate that declares every option
//! and parses every value for this crate and the runtime),
//! `validate` decides which functions can be compared (with `enclosing`,
//! which finds the `impl` or `trait` block a function is written in),
//! `expand` writes the comparison and the registration and test every
//! attribute shares; `track` writes what `#[faster::track]` registers, with
//! those pieces; `gpu` the same for `#[faster::compare_gpu]`; `methods` the
//! `impl` block's attribute (`provided` the `trait` block's). Each adds
//! nothing in a library's file that an integration test compiles again
//! (`recompiled`).

mod attr;
mod enclosing;
mod expand;
mod gpu;
mod marked;
mod methods;
mod owner;
mod provided;
mod recompiled;
mod runtime;
#[cfg(test)]
mod snapshots;
mod source_digest;
mod track;
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
/// `faster_<function>` (here `faster_sum_fast`; `faster_<function>_<type>`
/// per type of `types = [...]`) and registers the comparison for
/// `faster::main()`, which lists, filters and reports it under the same
/// name, with its module path in front (`sum::faster_sum_fast`). `#[cfg_attr(test, ...)]` keeps all of it out of the
/// library's normal build. Run `cargo test --release`: in a build with
/// `debug_assertions` the timing is reported but not enforced.
///
/// # Options
///
/// | option | meaning | default |
/// | --- | --- | --- |
/// | `original = path` | the function it replaces, with the same signature | required |
/// | `inputs = path` | a `fn() -> impl IntoIterator<Item = T>`; each item is one input case | required exactly when the function has parameters |
/// | `check = eq \| approx(REL) \| approx(REL, ABS) \| path \| skip` | how outputs are compared before timing (below) | `eq` |
/// | `flops = path`, `bytes = path` | a `fn(&Input) -> u64` counting one call's floating-point operations or bytes on an input case; the report adds GFLOP/s or GB/s | none |
/// | `name = "..."` | the report's heading (`NAME vs original`); the test keeps its name | the function's name |
/// | `types = [u32, u64]` | for a function generic over one type: one comparison per type | none |
/// | `implementors = [MyType]` | for a provided method of a `trait` block (with [`macro@methods`] on the block): the types implementing the trait to compare it on, one comparison each | none |
/// | `crate = path` | the path `faster-test` is known by, for a crate that renames the dependency (`my_faster = { package = "faster-test", ... }`) or reaches it through a re-export: the expansion names `path::...` instead of `::faster::...` | `::faster` |
///
/// Every setting the guide's [table of settings] gives an attribute
/// column is an option too, the strongest source of that setting: what
/// the comparison must show, the noise floor, the time budget, the
/// processes (`expect = not_slower`, `noise_floor = 0.1` and `max_time =
/// "500ms"` in an example below).
///
/// [table of settings]: https://docs.rs/faster-test/latest/faster/guide/running/index.html#settings-and-their-precedence
///
/// # Parameters and inputs
///
/// The candidate is a function (not `async`; a method or an associated
/// function with [`macro@methods`] on its `impl` block) with any number of
/// parameters, each taken
///
/// - by shared reference (`&[u64]`, `&str`, `&T`): every call borrows its
///   part of the input case;
/// - by value: a `Copy` argument (`u64`) is copied by the call, as any
///   call copies its arguments; any other (`Vec<u64>`) is cloned for each
///   call, outside the timed region, and one that is not `Clone` is made
///   for each call by a `faster::PerCall` the input case holds in its
///   place;
/// - by `&mut` (`&mut Vec<u64>`, `&mut [f64]`): every call mutates its own
///   fresh clone, and the argument's state after the call is compared
///   between the original and the candidate, as the output is.
///
/// `const fn`, `extern "C" fn` and `unsafe fn` are fine. For an `unsafe fn`
/// the comparison calls both functions inside `unsafe {}` with every input
/// case: annotating it vouches that every case the `inputs` function yields
/// meets the function's safety contract. (A safe candidate cannot replace
/// an `unsafe fn` original.)
///
/// The `inputs` items are the argument itself for one parameter, or a tuple
/// of the arguments for several; the function may return any
/// `IntoIterator` (a `Vec`, an array, a range, an iterator). A parameter
/// taken by reference borrows from the item (`Vec<u64>` for `&[u64]`,
/// `String` or `&'static str` for `&str`). An item that does not fit the
/// parameters is a compile error at `inputs = ...`; an `inputs` function
/// that yields nothing, or panics, fails the generated test saying so.
/// Parts of an item that a call only borrows are dropped after the clock
/// stops, never inside the timed region. Outputs must not borrow from the
/// input.
///
/// A function generic over one type parameter is compared at the types
/// `types = [...]` lists, one comparison and one test per type
/// (`faster_sum_u32`, `faster_sum_u64`). The original, the `inputs`
/// function and the count functions may be generic too: each is
/// instantiated by inference from the candidate's signature at that type.
///
/// # Output checks
///
/// Every input case runs through both functions once before any timing, and
/// the outputs (with the `&mut` arguments after the call) must agree:
///
/// - `check = eq`: by `PartialEq`; the output type needs `PartialEq` and
///   `Debug`.
/// - `check = approx(1e-9)`, `approx(1e-9, 1e-12)` (also `approx(rel = ...,
///   abs = ...)`): floating-point values agree within a relative tolerance,
///   or an absolute one near zero; NaN agrees with NaN. It reaches through
///   `Vec`s, slices, arrays, tuples, `Option` and `Result` (integers and
///   strings in them must be equal); implement `faster::ApproxEq` for a
///   type of your own.
/// - `check = path::to::fn`: a `fn(&O, &O) -> bool` of yours, `O` the
///   output type (a `fn(&[T], &[T]) -> bool` serves `Vec<T>` outputs).
///   With `&mut` parameters `O` is what is compared: the argument after the
///   call (a tuple of them for several), preceded by the output when it is
///   not `()`.
/// - `check = skip`: not compared, for nondeterministic outputs; the report
///   says so.
///
/// A mismatch fails the test with the input's index, the input (with
/// `Debug` where it has it, cut when huge), both outputs and, for
/// sequences and nested values, where they first differ.
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
///     check = approx(1e-12), // scaling once rounds differently
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
/// #     // Doctests share a binary: find this one's registration by name,
/// #     // where the expansion submitted it.
/// #     use faster::__private::{Comparison, inventory};
/// #     let dot = inventory::iter::<Comparison>.into_iter().find(|c| c.test_name().ends_with("faster_dot_scaled_once")).unwrap();
/// #     assert_eq!((dot.original, dot.label), ("dot_naive", "dot: scale once vs dot_naive"));
/// # }
/// ```
///
/// `&mut` parameters and a generic function, compared at two types:
///
/// ```
/// fn sort_naive<T: PartialOrd>(v: &mut [T]) {
///     for i in 1..v.len() {
///         let mut j = i;
///         while j > 0 && v[j - 1] > v[j] {
///             v.swap(j - 1, j);
///             j -= 1;
///         }
///     }
/// }
///
/// #[faster::compare(original = sort_naive, inputs = sort_inputs, types = [u32, f64])]
/// fn sort_fast<T: PartialOrd>(v: &mut [T]) {
///     v.sort_unstable_by(|a, b| a.partial_cmp(b).expect("no NaN"));
/// }
///
/// fn sort_inputs<T: From<u16>>() -> Vec<Vec<T>> {
///     vec![(0..300_u16).map(|i| T::from(i * 7 % 101)).collect()]
/// }
/// # fn main() {
/// #     use faster::__private::{Comparison, inventory};
/// #     let mut names: Vec<&str> = inventory::iter::<Comparison>.into_iter().map(|c| c.test_name())
/// #         .filter(|name| name.contains("sort_fast")).collect();
/// #     names.sort();
/// #     assert_eq!(names.len(), 2, "{names:?}");
/// #     assert!(names[0].ends_with("faster_sort_fast_f64") && names[1].ends_with("faster_sort_fast_u32"));
/// # }
/// ```
///
/// Mistakes are compile errors at the offending token that say what to
/// write instead: a missing or misspelt option, a value of the wrong kind, a
/// signature that differs from the original's, an `inputs` that is not a
/// function (a static, a constant), `inputs` items that do not fit the
/// parameters, an output the check cannot compare, a check function of the
/// wrong type, an unsupported function, a method whose `impl` block lacks
/// [`macro@methods`].
#[proc_macro_attribute]
pub fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    if recompiled::borrowed_from_the_library() {
        return item;
    }
    expand::compare(args.into(), item.into()).into()
}

/// Proves in `cargo test` that the annotated GPU kernel (the candidate)
/// writes what `original` writes and is faster than it, timed on the GPU's
/// own timestamps. Needs `faster`'s `gpu` feature.
///
/// Both kernels are given by their record functions, which set the
/// kernel's pipeline and bind groups for a case and dispatch it; the
/// framework owns the pass, its timestamps and the submission. `inputs`
/// makes the cases on the device the comparisons share, and each case
/// names the buffer the kernels write (`faster::gpu::GpuInput`):
///
/// ```ignore
/// use faster::gpu::{Gpu, GpuInput, wgpu};
///
/// fn matmul_naive(pass: &mut wgpu::ComputePass<'_>, case: &Matmul) {
///     pass.set_pipeline(&case.naive);
///     pass.set_bind_group(0, &case.naive_bindings, &[]);
///     pass.dispatch_workgroups(case.n / 16, case.n / 16, 1);
/// }
///
/// #[cfg_attr(test, faster::compare_gpu(
///     original = matmul_naive,
///     inputs = matmul_cases,
///     check = approx(1e-4, 1e-5),
///     flops = matmul_flops,
/// ))]
/// fn matmul_tiled(pass: &mut wgpu::ComputePass<'_>, case: &Matmul) {
///     pass.set_pipeline(&case.tiled);
///     pass.set_bind_group(0, &case.tiled_bindings, &[]);
///     pass.dispatch_workgroups(case.n / 16, case.n / 16, 1);
/// }
///
/// fn matmul_cases(gpu: &Gpu) -> Vec<Matmul> { /* buffers on gpu.device() */ }
/// fn matmul_flops(case: &Matmul) -> u64 { 2 * u64::from(case.n).pow(3) }
/// impl GpuInput for Matmul {
///     type Element = f32;
///     fn output(&self) -> &wgpu::Buffer { &self.c }
/// }
/// ```
///
/// (The repository's `tests/gpu` compiles and runs this form.)
///
/// The options are `#[faster::compare]`'s — `original`, `inputs` (here a
/// `fn(&faster::gpu::Gpu) -> impl IntoIterator<Item = Case>`), `check`
/// (`eq`, `approx(...)` or `skip`), `flops`, `bytes`, `name`, `crate` and
/// its settings — and `cache_flush = false` for kernels meant to run warm (by
/// default a buffer larger than the last-level cache is written over
/// before every sample).
#[proc_macro_attribute]
pub fn compare_gpu(args: TokenStream, item: TokenStream) -> TokenStream {
    if recompiled::borrowed_from_the_library() {
        return item;
    }
    gpu::compare_gpu(args.into(), item.into()).into()
}

/// Tracks the annotated function across git revisions: `cargo faster
/// --against REV` compares it with the function of the same name at
/// revision `REV` (a branch, a tag, a commit), built from a git worktree,
/// both measured interleaved as in `#[faster::compare]`. By default it
/// fails only when the function became slower beyond the noise floor, or
/// returns something else than at `REV` on some input.
///
/// ```
/// #[cfg_attr(test, faster::track(inputs = parse_inputs))]
/// pub fn parse(line: &str) -> Vec<u32> {
///     line.split(',').filter_map(|field| field.trim().parse().ok()).collect()
/// }
///
/// #[cfg(test)]
/// fn parse_inputs() -> Vec<&'static str> {
///     vec!["1, 2, 3", "40,50,,60"]
/// }
/// # fn main() {}
/// ```
///
/// # Options
///
/// | option | meaning | default |
/// | --- | --- | --- |
/// | `inputs = path` | a `fn() -> impl IntoIterator<Item = T>`; each item is one input case | required exactly when the function has parameters |
/// | `name = "..."` | what matches it across revisions (keep it when you move or rename the function) | its path with its crate, `my_crate::text::parse` |
/// | `types = [u32, u64]` | for a function generic over one type: tracked once per type (`my_crate::text::parse::<u32>`) | none |
/// | `implementors = [MyType]` | for a provided method of a `trait` block (with [`macro@methods`] on the block): the types implementing the trait to track it on, once each (`my_crate::engine::MyType::encode`) | none |
/// | `crate = path` | the path `faster-test` is known by, for a crate that renames the dependency (`my_faster = { package = "faster-test", ... }`) or reaches it through a re-export: the expansion names `path::...` instead of `::faster::...` | `::faster` |
///
/// The settings the guide's [table of settings] gives an attribute column
/// are options too, as for `#[faster::compare]`, but for the processes
/// (how many pairs of processes measure it is the run's, `--processes N`).
/// What the comparison with the base revision must show defaults to
/// `not_slower` here.
///
/// [table of settings]: https://docs.rs/faster-test/latest/faster/guide/running/index.html#settings-and-their-precedence
///
/// Parameters are taken as `#[faster::compare]` takes them (by reference,
/// by value, by `&mut`); a method needs [`macro@methods`] on its block. The
/// attribute also adds a test, `faster_track_<function>`
/// (`faster_track_<function>_<type>` per type), which calls the function
/// on every input, so `cargo test` catches an inputs function or a call
/// that panics.
///
/// Outputs are compared across revisions by digest: by `Hash` where the
/// output type has it, else by its `Debug` rendering; an output with
/// neither is not compared, and the report says so.
#[proc_macro_attribute]
pub fn track(args: TokenStream, item: TokenStream) -> TokenStream {
    if recompiled::borrowed_from_the_library() {
        return item;
    }
    track::track(args.into(), item.into()).into()
}

/// Lets the methods and associated functions of an `impl` block carry
/// `#[faster::compare]` and `#[faster::track]`: put it on the block, as
/// `#[cfg_attr(test, faster::methods)]`.
///
/// ```
/// #[derive(Clone)]
/// pub struct Buffer {
///     bytes: [u8; 20],
/// }
///
/// #[cfg_attr(test, faster::methods)]
/// impl Buffer {
///     pub fn new() -> Buffer {
///         Buffer { bytes: [0; 20] }
///     }
///
///     /// Formats `n` into the buffer and returns it.
///     #[cfg_attr(test, faster::compare(original = Self::format_naive, inputs = format_inputs))]
///     pub fn format(&mut self, mut n: u64) -> &str {
///         let mut at = self.bytes.len();
///         loop {
///             at -= 1;
///             self.bytes[at] = b'0' + (n % 10) as u8;
///             n /= 10;
///             if n == 0 {
///                 break;
///             }
///         }
///         std::str::from_utf8(&self.bytes[at..]).unwrap()
///     }
///
///     #[cfg(test)]
///     fn format_naive(&mut self, n: u64) -> &str {
///         let written = n.to_string();
///         let at = self.bytes.len() - written.len();
///         self.bytes[at..].copy_from_slice(written.as_bytes());
///         std::str::from_utf8(&self.bytes[at..]).unwrap()
///     }
/// }
///
/// /// The receiver comes first in each input case.
/// #[cfg(test)]
/// fn format_inputs() -> Vec<(Buffer, u64)> {
///     vec![(Buffer::new(), 0), (Buffer::new(), u64::MAX)]
/// }
/// # fn main() {}
/// ```
///
/// The block's attribute writes the tests: libtest runs only the `#[test]`
/// functions of a module, never one nested in a function or a constant,
/// and an attribute on a method can only write items of the block. It
/// takes its methods' attributes, and after the block adds for each what
/// the attribute adds next to a free function, calling the method by its
/// path (`<Buffer>::format`); their options name `Self` as the block does.
///
/// - A method's receiver is its first parameter: each input case starts
///   with it, `(Buffer::new(), 42)`. `&self` borrows it, `self` takes a
///   clone, `&mut self` works on a clone (a copy, where it is `Copy`)
///   whose state after the call is compared where the method returns
///   nothing; a method that returns a value is compared by that value.
/// - An associated function without a receiver takes its inputs as a free
///   function does.
/// - A generic method takes `types = [...]`, as a generic function does.
/// - The tests are `faster_<type>_<method>` and
///   `faster_track_<type>_<method>` (`faster_buffer_format`), with the
///   type's suffix for each of `types = [...]`.
///
/// On a `trait` block it does the same for the trait's provided methods
/// (those with a body in the block), whose attribute names the types that
/// implement the trait to measure them on, `implementors = [MyType]`: one
/// comparison or tracked function per type, as if the method were written
/// in that type's `impl` of the trait (`<MyType as Trait>::method`; tests
/// `faster_my_type_method`). A required method is marked where a type
/// implements it.
///
/// The block must be of a concrete type (`impl Buffer`, `impl
/// Parser<u8>`, `impl Display for Buffer`), not generic (`impl<T>`), and a
/// trait must have no parameters. A
/// method's output may borrow from its receiver or its arguments (`&str`):
/// it is compared as the owned value it points to, made after the call.
#[proc_macro_attribute]
pub fn methods(args: TokenStream, item: TokenStream) -> TokenStream {
    if recompiled::borrowed_from_the_library() {
        return methods::unmarked(item.into()).into();
    }
    methods::methods(args.into(), item.into()).into()
}
