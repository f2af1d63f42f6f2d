unsafe fn answer() -> u64 {
    42
}
#[doc(hidden)]
#[allow(non_upper_case_globals, clippy::needless_update, deprecated)]
const __FASTER_answer: ::faster::__private::Comparison = ::faster::__private::Comparison {
    test: ::core::concat!(::core::module_path!(), "::faster_answer"),
    label: "answer vs answer_naive",
    original: "answer_naive",
    file: ::core::file!(),
    line: ::core::line!(),
    settings: ::faster::__private::Settings {
        ..::faster::__private::Settings::NONE
    },
    debug_build: ::core::cfg!(debug_assertions),
    addresses: ::core::option::Option::Some(|| [
        {
            let function: unsafe fn() -> u64 = answer_naive;
            function as *const () as usize
        },
        {
            let function: unsafe fn() -> u64 = answer;
            function as *const () as usize
        },
    ]),
    run: |
        config: &::faster::__private::Config,
    | -> ::core::result::Result<
        ::faster::__private::Measurement,
        ::faster::__private::Error,
    > {
        let inputs = [()];
        let result = ::faster::__private::parts(
            "answer vs answer_naive",
            &inputs,
            ::faster::__private::Skip,
            ::core::option::Option::None,
            (
                |input, ()| {
                    let function: unsafe fn() -> u64 = answer_naive;
                    unsafe { function() }
                },
                |input, ()| {
                    let function: unsafe fn() -> u64 = answer_naive;
                    unsafe { function() }
                },
            ),
            (
                |input, ()| {
                    let function: unsafe fn() -> u64 = answer;
                    unsafe { function() }
                },
                |input, ()| {
                    let function: unsafe fn() -> u64 = answer;
                    unsafe { function() }
                },
            ),
            |_| (),
            config,
        );
        let result = ::faster::__private::with_throughput(
            result,
            &inputs,
            ::core::option::Option::None,
            ::core::option::Option::Some(|_| answer_bytes()),
        );
        result
    },
};
::faster::__private::inventory::submit! {
    __FASTER_answer
}
#[::core::prelude::v1::test]
fn faster_answer() {
    ::faster::__private::run_test(&__FASTER_answer)
}
