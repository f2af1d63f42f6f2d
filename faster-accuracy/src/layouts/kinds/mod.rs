//! The real functions of `accuracy --layouts` and the fixture's source made
//! of them: one module per kind of work, each with an identical-work pair
//! (judged at the default 5% floor and again at 2%), a known multiple and a
//! difference of about 5%.
//!
//! Every kind's work is written once, as a function body; the module around
//! it is the same for every kind, the body pasted into each function as a
//! user copies a function to optimize it:
//!
//! - `original` and `copy` (the identical-work pair, `expect = report`):
//!   the same body, preceded by a constant passed through `black_box` that
//!   differs between the two, so neither the compiler nor the linker can
//!   fold one into the other. What the compiler inlines (the iterator
//!   loops, the FNV chain, the tokenizer, the map's probes) is each copy's
//!   own code at its own place; what stays out of line (`Split::next`,
//!   `u64::from_str`, std's char counter, `sort_unstable`, the map's
//!   `insert`) is one function both call, as it would be for two real
//!   functions. (Written once as a shared `#[inline(always)]` helper
//!   instead, parsing's and searching's loops stayed out of line, one
//!   function for both sides, and those pairs read 1.00x in every layout.)
//! - `twice` and `once` (the known multiple, `expect = faster`): the
//!   original runs the body twice (the first time on its argument through
//!   `black_box`, its result through `black_box`, so neither can be
//!   skipped), the candidate once; the true ratio is about 2.
//! - `with_rework` and `without_rework` (the ~5% difference, `expect =
//!   report` at a 2% floor): the original runs the body, then the body again
//!   on about a twentieth of its work (a prefix of the input, or a smaller
//!   count: [`Kind::part`]), as a library that calls its own work again on a
//!   part of its input; the candidate runs the body once. The suite reads
//!   whether the verdict found the difference (`faster`).
//! - `copy_at_2_percent` against `original` (`expect = report` at a 2%
//!   floor): the identical-work pair again, judged at the floor the ~5%
//!   difference needs; any `faster` or `slower` verdict is false.
//!
//! Each function is `#[inline(never)]`, so it is a symbol of its own in the
//! test binary, which the suite checks (`fixture::check_symbols`).
//! The kinds themselves are in `catalog`.

mod catalog;
pub use catalog::KINDS;

/// One kind of work.
pub struct Kind {
    /// The module's name, and the kind's in tables.
    pub name: &'static str,
    /// What it does, for the header.
    pub what: &'static str,
    /// The functions' parameter, `name: Type`.
    parameter: &'static str,
    /// The argument of `twice`'s first, discarded run of the body.
    again: &'static str,
    /// The argument of `with_rework`'s second, discarded run of the body:
    /// about a twentieth of the work of the whole argument (a prefix of
    /// the input, cut where the body can take it, or a smaller count).
    part: &'static str,
    output: &'static str,
    /// The work: statements and a last expression on the parameter,
    /// indented as a function's body.
    body: &'static str,
    /// `fn inputs() -> Vec<...>` (the module's `use super::*` brings the
    /// fixture's input helpers).
    inputs: &'static str,
}

/// The constant that tells each function's body from the others'.
const ORIGINAL_TAG: u8 = 1;
const COPY_TAG: u8 = 2;
const ONCE_TAG: u8 = 3;
const COPY_AT_2_PERCENT_TAG: u8 = 4;
const WITHOUT_REWORK_TAG: u8 = 5;

impl Kind {
    /// The kind's module source.
    pub fn module(&self) -> String {
        let Kind {
            name: _,
            what,
            parameter,
            again,
            part,
            output,
            body,
            inputs,
        } = self;
        let argument = parameter.split(':').next().expect("a name").trim();
        let nested = body.replace('\n', "\n    ");
        format!(
            "//! {what}.

#[cfg(test)]
use super::*;
use std::hint::black_box;

{original}
{copy}
/// The known multiple's original: the same work twice.
#[inline(never)]
pub fn twice({parameter}) -> {output} {{
    black_box::<{output}>({{
        let {argument} = {again};
    {nested}
    }});
{body}
}}

{once}
{copy_at_2_percent}
/// The ~5% difference's original: the work, then the work again on about a
/// twentieth of it, as a library calling its own work again on a part of
/// its input.
#[inline(never)]
pub fn with_rework({parameter}) -> {output} {{
    let rework = {part};
    let result: {output} = {{
    {nested}
    }};
    black_box::<{output}>({{
        let {argument} = rework;
    {nested}
    }});
    result
}}

{without_rework}
#[cfg(test)]
{inputs}
",
            original = self.function(
                "/// The original of the identical-work pair.\n#[inline(never)]\n",
                "original",
                ORIGINAL_TAG
            ),
            copy = self.function(
                "/// `original`'s copy: only the constant differs.\n\
                 #[cfg_attr(test, faster::compare(original = original, inputs = inputs, expect = report))]\n\
                 #[inline(never)]\n",
                "copy",
                COPY_TAG
            ),
            once = self.function(
                "/// The work once: about twice as fast as `twice`.\n\
                 #[cfg_attr(test, faster::compare(original = twice, inputs = inputs))]\n\
                 #[inline(never)]\n",
                "once",
                ONCE_TAG
            ),
            copy_at_2_percent = self.function(
                "/// `original`'s second copy, judged at the 2% floor the ~5% difference\n\
                 /// needs.\n\
                 #[cfg_attr(test, faster::compare(original = original, inputs = inputs, noise_floor = 0.02, expect = report))]\n\
                 #[inline(never)]\n",
                "copy_at_2_percent",
                COPY_AT_2_PERCENT_TAG
            ),
            without_rework = self.function(
                "/// The work once: about 5% faster than `with_rework`.\n\
                 #[cfg_attr(test, faster::compare(original = with_rework, inputs = inputs, noise_floor = 0.02, expect = report))]\n\
                 #[inline(never)]\n",
                "without_rework",
                WITHOUT_REWORK_TAG
            ),
        )
    }

    /// The kind's work as a function of its own, `name`, after `head` (its
    /// doc comment and attributes, a line each): the body, preceded by
    /// `tag` passed through `black_box`, a constant that tells it from
    /// every other function of the same work, so that neither the compiler
    /// nor the linker folds one into another. Its module imports
    /// `std::hint::black_box`.
    pub fn function(&self, head: &str, name: &str, tag: u8) -> String {
        let Kind {
            parameter,
            output,
            body,
            ..
        } = self;
        format!(
            "{head}pub fn {name}({parameter}) -> {output} {{\n    black_box({tag}_u8);\n{body}\n}}\n"
        )
    }

    /// `fn inputs() -> Vec<...>`: the inputs the kind is measured on.
    pub fn inputs(&self) -> &'static str {
        self.inputs
    }

    /// The identical-work pair's test, as libtest and the report name it.
    pub fn identical_test(&self) -> String {
        format!("{}::faster_copy", self.name)
    }

    /// The known multiple's test.
    pub fn multiple_test(&self) -> String {
        format!("{}::faster_once", self.name)
    }

    /// The ~5% difference's test.
    pub fn rework_test(&self) -> String {
        format!("{}::faster_without_rework", self.name)
    }

    /// The identical-work pair's test at the 2% floor.
    pub fn identical_at_2_percent_test(&self) -> String {
        format!("{}::faster_copy_at_2_percent", self.name)
    }

    /// The fixture's symbols (demangled, without the hash) of each
    /// comparison's two functions: `[[original, copy], [twice, once],
    /// [with_rework, without_rework], [original, copy_at_2_percent]]`.
    pub fn symbols(&self, crate_name: &str) -> [[String; 2]; 4] {
        let symbol = |function: &str| format!("{crate_name}::{}::{function}", self.name);
        [
            [symbol("original"), symbol("copy")],
            [symbol("twice"), symbol("once")],
            [symbol("with_rework"), symbol("without_rework")],
            [symbol("original"), symbol("copy_at_2_percent")],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identical_pair_differs_only_in_its_constant() {
        for kind in KINDS {
            let module = kind.module();
            let body = |function: &str| -> String {
                let start = module
                    .find(&format!("pub fn {function}("))
                    .unwrap_or_else(|| panic!("{}: no {function}", kind.name));
                let end = start + module[start..].find("\n}\n").expect("a body's end");
                module[start..end].replace(function, "FUNCTION")
            };
            let (original, copy) = (body("original"), body("copy"));
            assert_ne!(original, copy, "{}", kind.name);
            assert_eq!(
                original.replace("black_box(1_u8)", "black_box(2_u8)"),
                copy,
                "{}",
                kind.name
            );
            assert_eq!(
                original.replace("black_box(1_u8)", "black_box(4_u8)"),
                body("copy_at_2_percent"),
                "{}",
                kind.name
            );
            let argument = kind.parameter.split(':').next().unwrap();
            let twice = body("twice");
            assert!(twice.contains(&format!("let {argument} = {};", kind.again)));
            let nested = format!("    {}\n    }});\n", kind.body.replace('\n', "\n    "));
            let (_, after) = twice
                .split_once(&nested)
                .expect("the body run once, nested");
            assert!(after.contains(kind.body), "{}: and once more", kind.name);
            // The work first, then again on the part, cut beforehand.
            let with_rework = body("with_rework");
            let nested_body = kind.body.replace('\n', "\n    ");
            let at = |text: &str| {
                with_rework
                    .find(text)
                    .unwrap_or_else(|| panic!("{}: no {text}", kind.name))
            };
            let part = at(&format!("let rework = {};", kind.part));
            let work = at(&format!("{} = {{\n    {nested_body}\n    }};", kind.output));
            let rework = at(&format!(
                "let {argument} = rework;\n    {nested_body}\n    }});"
            ));
            assert!(part < work && work < rework, "{}", kind.name);
            assert_eq!(
                module.matches("faster::compare(").count(),
                4,
                "{}",
                kind.name
            );
            assert!(module.contains("original = original, inputs = inputs, expect = report"));
            assert!(module.contains("original = twice, inputs = inputs))]"));
            for original in ["original", "with_rework"] {
                assert!(module.contains(&format!(
                    "original = {original}, inputs = inputs, noise_floor = 0.02, expect = report"
                )));
            }
        }
    }

    #[test]
    fn every_kind_has_distinct_names() {
        let mut names: Vec<&str> = KINDS.iter().map(|kind| kind.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len());
        assert!(KINDS.len() >= 6);
        assert_eq!(
            KINDS[0].symbols("fixture")[1],
            ["fixture::parse::twice", "fixture::parse::once"]
        );
        assert_eq!(KINDS[0].identical_test(), "parse::faster_copy");
        assert_eq!(KINDS[0].rework_test(), "parse::faster_without_rework");
    }
}
