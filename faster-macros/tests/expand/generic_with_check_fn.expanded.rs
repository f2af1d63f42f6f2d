fn sort_fast<T: PartialOrd + Copy>(v: &mut [T]) {
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
const __FASTER_sort_fast_u32: ::faster::__private::Comparison = ::faster::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_sort_fast_u32"),
    label: "sort_fast::<u32> vs sort_naive",
    original: "sort_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::faster::__private::Settings {
        ..::faster::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    addresses: ::core::option::Option::Some(|| [
        {
            let callee = ::faster::__private::callee(&sort_naive)
                .checked::<_, &mut [u32], ()>();
            use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
        {
            let callee = ::faster::__private::callee(&sort_fast::<u32>)
                .checked::<_, &mut [u32], ()>();
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
                ::faster::__private::Vec<u32>,
            >::of(&sort_inputs))
                .faster_inputs(sort_inputs)
        }?;
        let result = ::faster::__private::parts_with(
            "sort_fast::<u32> vs sort_naive",
            &inputs,
            ::core::option::Option::Some("`v` after the call"),
            (
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_naive)
                        .checked::<_, &mut [u32], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [u32] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [u32],
                        ::faster::__private::Vec<u32>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        callee.call(arguments);
                        input0
                    }
                },
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_naive)
                        .checked::<_, &mut [u32], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [u32] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [u32],
                        ::faster::__private::Vec<u32>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            (
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_fast::<u32>)
                        .checked::<_, &mut [u32], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [u32] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [u32],
                        ::faster::__private::Vec<u32>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        callee.call(arguments);
                        input0
                    }
                },
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_fast::<u32>)
                        .checked::<_, &mut [u32], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [u32] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [u32],
                        ::faster::__private::Vec<u32>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            |original, candidate| -> bool { same_order(original, candidate) },
            |value| {
                use ::faster::__private::{ShowAny as _, ShowDebug as _};
                (&&::faster::__private::Shown(value)).show()
            },
            |input| {
                use ::faster::__private::{
                    PrepareClone as _, PrepareCopy as _, PrepareMade as _,
                };
                ((&&::faster::__private::Prepare(input)).faster_prepare(),)
            },
            config,
        );
        let result = ::faster::__private::with_throughput(
            result,
            &inputs,
            ::core::option::Option::Some(|input| sort_flops(input)),
            ::core::option::Option::None,
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
    __FASTER_sort_fast_u32
}
#[::core::prelude::v1::test]
fn faster_sort_fast_u32() {
    ::faster::__private::run_test(&__FASTER_sort_fast_u32)
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
const __FASTER_sort_fast_f64: ::faster::__private::Comparison = ::faster::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_sort_fast_f64"),
    label: "sort_fast::<f64> vs sort_naive",
    original: "sort_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::faster::__private::Settings {
        ..::faster::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    addresses: ::core::option::Option::Some(|| [
        {
            let callee = ::faster::__private::callee(&sort_naive)
                .checked::<_, &mut [f64], ()>();
            use ::faster::__private::{FitMatching as _, FitOther as _, FitPlain as _};
            callee.function() as *const () as usize
        },
        {
            let callee = ::faster::__private::callee(&sort_fast::<f64>)
                .checked::<_, &mut [f64], ()>();
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
                ::faster::__private::Vec<f64>,
            >::of(&sort_inputs))
                .faster_inputs(sort_inputs)
        }?;
        let result = ::faster::__private::parts_with(
            "sort_fast::<f64> vs sort_naive",
            &inputs,
            ::core::option::Option::Some("`v` after the call"),
            (
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_naive)
                        .checked::<_, &mut [f64], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [f64] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [f64],
                        ::faster::__private::Vec<f64>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        callee.call(arguments);
                        input0
                    }
                },
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_naive)
                        .checked::<_, &mut [f64], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [f64] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [f64],
                        ::faster::__private::Vec<f64>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            (
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_fast::<f64>)
                        .checked::<_, &mut [f64], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [f64] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [f64],
                        ::faster::__private::Vec<f64>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        callee.call(arguments);
                        input0
                    }
                },
                |input, (prepared0,)| {
                    let callee = ::faster::__private::callee(&sort_fast::<f64>)
                        .checked::<_, &mut [f64], ()>();
                    use ::faster::__private::{
                        FitMatching as _, FitOther as _, FitPlain as _,
                    };
                    let mut input0 = {
                        use ::faster::__private::{
                            ArgumentClone as _, ArgumentMade as _, ArgumentOther as _,
                        };
                        let argument_type = (&&::faster::__private::ArgumentOf(input))
                            .faster_argument();
                        ::faster::__private::taken(prepared0, input, argument_type)
                    };
                    let arguments: &mut [f64] = (&&&::faster::__private::Fit::<
                        _,
                        ::faster::__private::ByMut,
                        &mut [f64],
                        ::faster::__private::Vec<f64>,
                    >::of(&input0))
                        .faster_argument(&mut input0);
                    {
                        let output = callee.call(arguments);
                        (output, input0)
                    }
                },
            ),
            |original, candidate| -> bool { same_order(original, candidate) },
            |value| {
                use ::faster::__private::{ShowAny as _, ShowDebug as _};
                (&&::faster::__private::Shown(value)).show()
            },
            |input| {
                use ::faster::__private::{
                    PrepareClone as _, PrepareCopy as _, PrepareMade as _,
                };
                ((&&::faster::__private::Prepare(input)).faster_prepare(),)
            },
            config,
        );
        let result = ::faster::__private::with_throughput(
            result,
            &inputs,
            ::core::option::Option::Some(|input| sort_flops(input)),
            ::core::option::Option::None,
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
    __FASTER_sort_fast_f64
}
#[::core::prelude::v1::test]
fn faster_sort_fast_f64() {
    ::faster::__private::run_test(&__FASTER_sort_fast_f64)
}
