fn sum_fast(v: &[u64]) -> u64 {
    v.iter().sum()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
const __FASTER_sum_fast: ::bench_kit::__private::Comparison = ::bench_kit::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_sum_fast"),
    label: "sum_fast vs sum_naive",
    original: "sum_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::bench_kit::__private::Settings {
        expect: ::core::option::Option::Some(
            ::bench_kit::__private::setting_types::expect::Report,
        ),
        ..::bench_kit::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    addresses: ::core::option::Option::Some(|| [
        {
            let callee = ::bench_kit::__private::callee(&sum_naive)
                .checked::<_, &[u64], u64>();
            use ::bench_kit::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
        {
            let callee = ::bench_kit::__private::callee(&sum_fast)
                .checked::<_, &[u64], u64>();
            use ::bench_kit::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
    ]),
    run: |
        config: &::bench_kit::__private::Config,
    | -> ::core::result::Result<
        ::bench_kit::__private::Measurement,
        ::bench_kit::__private::Error,
    > {
        let inputs = {
            use ::bench_kit::__private::{InputsByFunction as _, InputsOther as _};
            (&&::bench_kit::__private::Inputs::<
                _,
                ::bench_kit::__private::Vec<u64>,
            >::of(&sum_inputs))
                .faster_inputs(sum_inputs)
        }?;
        let result = ::bench_kit::__private::parts(
            "sum_fast vs sum_naive",
            &inputs,
            ::bench_kit::__private::Eq,
            ::core::option::Option::None,
            (
                |input, ()| {
                    let callee = ::bench_kit::__private::callee(&sum_naive)
                        .checked::<_, &[u64], u64>();
                    use ::bench_kit::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input0 = input;
                    let arguments: &[u64] = (&&&::bench_kit::__private::Fit::<
                        _,
                        ::bench_kit::__private::ByRef,
                        &[u64],
                        ::bench_kit::__private::Vec<u64>,
                    >::of(input0))
                        .faster_argument(input0);
                    callee.call(arguments)
                },
                |input, ()| {
                    let callee = ::bench_kit::__private::callee(&sum_naive)
                        .checked::<_, &[u64], u64>();
                    use ::bench_kit::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input0 = input;
                    let arguments: &[u64] = (&&&::bench_kit::__private::Fit::<
                        _,
                        ::bench_kit::__private::ByRef,
                        &[u64],
                        ::bench_kit::__private::Vec<u64>,
                    >::of(input0))
                        .faster_argument(input0);
                    callee.call(arguments)
                },
            ),
            (
                |input, ()| {
                    let callee = ::bench_kit::__private::callee(&sum_fast)
                        .checked::<_, &[u64], u64>();
                    use ::bench_kit::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input0 = input;
                    let arguments: &[u64] = (&&&::bench_kit::__private::Fit::<
                        _,
                        ::bench_kit::__private::ByRef,
                        &[u64],
                        ::bench_kit::__private::Vec<u64>,
                    >::of(input0))
                        .faster_argument(input0);
                    callee.call(arguments)
                },
                |input, ()| {
                    let callee = ::bench_kit::__private::callee(&sum_fast)
                        .checked::<_, &[u64], u64>();
                    use ::bench_kit::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input0 = input;
                    let arguments: &[u64] = (&&&::bench_kit::__private::Fit::<
                        _,
                        ::bench_kit::__private::ByRef,
                        &[u64],
                        ::bench_kit::__private::Vec<u64>,
                    >::of(input0))
                        .faster_argument(input0);
                    callee.call(arguments)
                },
            ),
            |_| (),
            config,
        );
        ::bench_kit::__private::show_input(
            result,
            &inputs,
            |input| {
                use ::bench_kit::__private::{ShowAny as _, ShowDebug as _};
                (&&::bench_kit::__private::Shown(input)).show()
            },
        )
    },
};
::bench_kit::__private::inventory::submit! {
    __FASTER_sum_fast
}
#[::core::prelude::v1::test]
fn faster_sum_fast() {
    ::bench_kit::__private::run_test(&__FASTER_sum_fast)
}
