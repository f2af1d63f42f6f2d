fn pop_fast(v: &mut Vec<f64>, k: usize, extra: &[f64]) -> Option<f64> {
    v.truncate(k);
    v.extend_from_slice(extra);
    v.pop()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update)]
const __FASTER_pop_fast: ::faster::__private::Comparison = ::faster::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_pop_fast"),
    label: "pop_fast vs pop_naive",
    original: "pop_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::faster::__private::Settings {
        ..::faster::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    run: |
        config: &::faster::__private::Config,
    | -> ::core::result::Result<::faster::__private::Report, ::faster::__private::Error> {
        let inputs = ::faster::__private::collect_inputs(pop_inputs)?;
        let result = ::faster::__private::by_value(
            "pop_fast vs pop_naive",
            &inputs,
            ::faster::__private::Approx {
                rel: 0.000000001f64,
                abs: 0.000000000001f64,
            },
            ::core::option::Option::Some("(the output, `v` after the call)"),
            |(mut owned0, owned1, owned2)| {
                let function: fn(&mut Vec<f64>, usize, &[f64]) -> Option<f64> = pop_naive;
                {
                    let output = function(&mut owned0, owned1, &owned2);
                    ((output, owned0), (owned2,))
                }
            },
            |(mut owned0, owned1, owned2)| {
                let function: fn(&mut Vec<f64>, usize, &[f64]) -> Option<f64> = pop_fast;
                {
                    let output = function(&mut owned0, owned1, &owned2);
                    ((output, owned0), (owned2,))
                }
            },
            config,
        );
        ::faster::__private::show_input(
            result,
            &inputs,
            |input| {
                use ::faster::__private::{ShowAny as _, ShowDebug as _};
                (&&::faster::__private::Shown(input)).show()
            },
        )
    },
};
::faster::__private::inventory::submit! {
    __FASTER_pop_fast
}
#[::core::prelude::v1::test]
fn faster_pop_fast() {
    ::faster::__private::run_test(&__FASTER_pop_fast)
}
