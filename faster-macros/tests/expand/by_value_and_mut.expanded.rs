fn pop_fast(v: &mut Vec<f64>, k: usize, extra: &[f64]) -> Option<f64> {
    v.truncate(k);
    v.extend_from_slice(extra);
    v.pop()
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
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
    addresses: ::core::option::Option::Some(|| [
        {
            let callee = ::faster::__private::callee(&pop_naive)
                .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
            use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
        {
            let callee = ::faster::__private::callee(&pop_fast)
                .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
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
                (Vec<f64>, usize, ::faster::__private::Vec<f64>),
            >::of(&pop_inputs))
                .faster_inputs(pop_inputs)
        }?;
        let result = ::faster::__private::parts(
            "pop_fast vs pop_naive",
            &inputs,
            ::faster::__private::Approx {
                rel: 0.000000001f64,
                abs: 0.000000000001f64,
            },
            ::core::option::Option::Some("(the output, `v` after the call)"),
            (
                |input, (prepared0, prepared1)| {
                    let callee = ::faster::__private::callee(&pop_naive)
                        .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        3,
                        (&mut Vec<f64>, usize, &[f64]),
                        _,
                        _,
                    >(input);
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.0))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, &input.0, argument_type)
                    };
                    let input1 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.1))
                            .faster_argument();
                        ::faster::__private::taken(prepared1, &input.1, argument_type)
                    };
                    let input2 = &input.2;
                    let arguments: (&mut Vec<f64>, usize, &[f64]) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByMut,
                            &mut Vec<f64>,
                            Vec<f64>,
                        >::of(&input0))
                            .faster_argument(&mut input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByValue,
                            usize,
                            usize,
                        >::of(&input1))
                            .faster_argument(input1),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[f64],
                            ::faster::__private::Vec<f64>,
                        >::of(input2))
                            .faster_argument(input2),
                    );
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
                |input, (prepared0, prepared1)| {
                    let callee = ::faster::__private::callee(&pop_naive)
                        .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        3,
                        (&mut Vec<f64>, usize, &[f64]),
                        _,
                        _,
                    >(input);
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.0))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, &input.0, argument_type)
                    };
                    let input1 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.1))
                            .faster_argument();
                        ::faster::__private::taken(prepared1, &input.1, argument_type)
                    };
                    let input2 = &input.2;
                    let arguments: (&mut Vec<f64>, usize, &[f64]) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByMut,
                            &mut Vec<f64>,
                            Vec<f64>,
                        >::of(&input0))
                            .faster_argument(&mut input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByValue,
                            usize,
                            usize,
                        >::of(&input1))
                            .faster_argument(input1),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[f64],
                            ::faster::__private::Vec<f64>,
                        >::of(input2))
                            .faster_argument(input2),
                    );
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            (
                |input, (prepared0, prepared1)| {
                    let callee = ::faster::__private::callee(&pop_fast)
                        .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        3,
                        (&mut Vec<f64>, usize, &[f64]),
                        _,
                        _,
                    >(input);
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.0))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, &input.0, argument_type)
                    };
                    let input1 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.1))
                            .faster_argument();
                        ::faster::__private::taken(prepared1, &input.1, argument_type)
                    };
                    let input2 = &input.2;
                    let arguments: (&mut Vec<f64>, usize, &[f64]) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByMut,
                            &mut Vec<f64>,
                            Vec<f64>,
                        >::of(&input0))
                            .faster_argument(&mut input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByValue,
                            usize,
                            usize,
                        >::of(&input1))
                            .faster_argument(input1),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[f64],
                            ::faster::__private::Vec<f64>,
                        >::of(input2))
                            .faster_argument(input2),
                    );
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
                |input, (prepared0, prepared1)| {
                    let callee = ::faster::__private::callee(&pop_fast)
                        .checked::<_, (&mut Vec<f64>, usize, &[f64]), Option<f64>>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let input = ::faster::__private::arguments_ref::<
                        3,
                        (&mut Vec<f64>, usize, &[f64]),
                        _,
                        _,
                    >(input);
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.0))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, &input.0, argument_type)
                    };
                    let input1 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(&input.1))
                            .faster_argument();
                        ::faster::__private::taken(prepared1, &input.1, argument_type)
                    };
                    let input2 = &input.2;
                    let arguments: (&mut Vec<f64>, usize, &[f64]) = (
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByMut,
                            &mut Vec<f64>,
                            Vec<f64>,
                        >::of(&input0))
                            .faster_argument(&mut input0),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByValue,
                            usize,
                            usize,
                        >::of(&input1))
                            .faster_argument(input1),
                        (&&&::faster::__private::Fit::<
                            _,
                            ::faster::__private::ByRef,
                            &[f64],
                            ::faster::__private::Vec<f64>,
                        >::of(input2))
                            .faster_argument(input2),
                    );
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            |input| {
                use ::faster::__private::{
                    PrepareClone as _, PrepareCopy as _, PrepareMade as _,
                };
                let input = ::faster::__private::arguments_ref::<
                    3,
                    (&mut Vec<f64>, usize, &[f64]),
                    _,
                    _,
                >(input);
                (
                    (&&::faster::__private::Prepare(&input.0)).faster_prepare(),
                    (&&::faster::__private::Prepare(&input.1)).faster_prepare(),
                )
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
