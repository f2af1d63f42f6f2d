fn sum_unrolled(v: &[u64], k: &u64) -> u64 {
    v.iter().sum::<u64>() * k
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
const __FASTER_sum_unrolled: ::faster::__private::Comparison = ::faster::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_sum_unrolled"),
    label: "sum: unrolled vs sum_naive",
    original: "sum_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::faster::__private::Settings {
        expect: ::core::option::Option::Some(
            ::faster::__private::setting_types::expect::NotSlower,
        ),
        noise_floor: ::core::option::Option::Some(0.1f64),
        max_time: ::core::option::Option::Some(
            ::core::time::Duration::from_nanos(500000000u64),
        ),
        ..::faster::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    addresses: ::core::option::Option::Some(|| [
        {
            let callee = ::faster::__private::callee(&sum_naive)
                .checked::<_, (&[u64], &u64), u64>();
            use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
        {
            let callee = ::faster::__private::callee(&sum_unrolled)
                .checked::<_, (&[u64], &u64), u64>();
            use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
    ]),
    run: |
        config: &::faster::__private::Config,
    | -> ::core::result::Result<
        ::faster::__private::Measurement,
        ::faster::__private::Error,
    > {
        let inputs = {
            use ::faster::__private::{InputsByFunction as _, InputsOther as _};
            (&&::faster::__private::Inputs::<
                _,
                (::faster::__private::Vec<u64>, u64),
            >::of(&sum_inputs))
                .faster_inputs(sum_inputs)
        }?;
        let result = ::faster::__private::parts(
            "sum: unrolled vs sum_naive",
            &inputs,
            ::faster::__private::Eq,
            ::core::option::Option::None,
            (
                |input, ()| {
                    let callee = ::faster::__private::callee(&sum_naive)
                        .checked::<_, (&[u64], &u64), u64>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        2,
                        (&[u64], &u64),
                        _,
                        _,
                    >(input);
                    let input0 = &input.0;
                    let input1 = &input.1;
                    let arguments: (&[u64], &u64) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[u64],
                            ::faster::__private::Vec<u64>,
                        >::of(input0))
                            .faster_argument(input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &u64,
                            u64,
                        >::of(input1))
                            .faster_argument(input1),
                    );
                    callee.call(arguments)
                },
                |input, ()| {
                    let callee = ::faster::__private::callee(&sum_naive)
                        .checked::<_, (&[u64], &u64), u64>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        2,
                        (&[u64], &u64),
                        _,
                        _,
                    >(input);
                    let input0 = &input.0;
                    let input1 = &input.1;
                    let arguments: (&[u64], &u64) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[u64],
                            ::faster::__private::Vec<u64>,
                        >::of(input0))
                            .faster_argument(input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &u64,
                            u64,
                        >::of(input1))
                            .faster_argument(input1),
                    );
                    callee.call(arguments)
                },
            ),
            (
                |input, ()| {
                    let callee = ::faster::__private::callee(&sum_unrolled)
                        .checked::<_, (&[u64], &u64), u64>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        2,
                        (&[u64], &u64),
                        _,
                        _,
                    >(input);
                    let input0 = &input.0;
                    let input1 = &input.1;
                    let arguments: (&[u64], &u64) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[u64],
                            ::faster::__private::Vec<u64>,
                        >::of(input0))
                            .faster_argument(input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &u64,
                            u64,
                        >::of(input1))
                            .faster_argument(input1),
                    );
                    callee.call(arguments)
                },
                |input, ()| {
                    let callee = ::faster::__private::callee(&sum_unrolled)
                        .checked::<_, (&[u64], &u64), u64>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        2,
                        (&[u64], &u64),
                        _,
                        _,
                    >(input);
                    let input0 = &input.0;
                    let input1 = &input.1;
                    let arguments: (&[u64], &u64) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[u64],
                            ::faster::__private::Vec<u64>,
                        >::of(input0))
                            .faster_argument(input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &u64,
                            u64,
                        >::of(input1))
                            .faster_argument(input1),
                    );
                    callee.call(arguments)
                },
            ),
            |_| (),
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
    __FASTER_sum_unrolled
}
#[::core::prelude::v1::test]
fn faster_sum_unrolled() {
    ::faster::__private::run_test(&__FASTER_sum_unrolled)
}
