//! `#[faster::methods]` on `impl` blocks of a crate shaped like `itoa`:
//! `Buffer::format<I: Integer>(&mut self, i: I) -> &str`, with `Integer` a
//! sealed trait implemented for `u32`, `u64` and `i64`, compared and
//! tracked at each type without a hand-written wrapper; methods taking
//! `&self` and `self`, an associated function, a trait's implementation.
//! The plain tests at the end read the registry and run the comparisons.

#![deny(warnings)]

use faster::Config;
use faster_runtime::__internal::{Comparison, comparisons, tracked};
use std::time::Duration;

mod itoa {
    /// A buffer integers are formatted into, as `itoa::Buffer`.
    #[derive(Clone)]
    pub struct Buffer {
        bytes: [u8; 20],
    }

    mod private {
        pub trait Sealed {}
    }

    /// The integers a `Buffer` formats; sealed, as `itoa::Integer` is.
    pub trait Integer: private::Sealed + Copy {
        /// The digits, from the last, and whether it is negative.
        fn split(self) -> (u64, bool);
    }

    macro_rules! integer {
        ($($ty:ty),*) => {$(
            impl private::Sealed for $ty {}
            impl Integer for $ty {
                #[allow(unused_comparisons)]
                fn split(self) -> (u64, bool) {
                    (self.unsigned_abs() as u64, self < 0)
                }
            }
        )*};
    }

    trait UnsignedAbs {
        fn unsigned_abs(self) -> Self;
    }
    impl UnsignedAbs for u32 {
        fn unsigned_abs(self) -> u32 {
            self
        }
    }
    impl UnsignedAbs for u64 {
        fn unsigned_abs(self) -> u64 {
            self
        }
    }

    integer!(u32, u64, i64);

    /// A method's comparison says where the methods it calls start, by
    /// their paths.
    #[test]
    fn both_methods_addresses_are_registered() {
        let addresses = super::registered("itoa::faster_buffer_format_u64")
            .addresses
            .expect("a comparison on the CPU has the addresses");
        assert_eq!(
            addresses(),
            [
                Buffer::format_naive::<u64> as *const () as usize,
                Buffer::format::<u64> as *const () as usize
            ]
        );
    }

    #[faster::methods]
    impl Buffer {
        pub fn new() -> Buffer {
            Buffer { bytes: [0; 20] }
        }

        /// Two digits at a time from a table, as `itoa` does. Calls of a
        /// few nanoseconds, whose real verdict a busy machine may leave
        /// undecided: the test is about the shape, so it only reports.
        #[faster::compare(
            original = Self::format_naive,
            inputs = format_inputs,
            types = [u32, u64, i64],
            expect = report,
            max_time = "300ms",
        )]
        #[faster::track(inputs = format_inputs, types = [u32, u64, i64])]
        pub fn format<I: Integer>(&mut self, i: I) -> &str {
            const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
                2021222324252627282930313233343536373839\
                4041424344454647484950515253545556575859\
                6061626364656667686970717273747576777879\
                8081828384858687888990919293949596979899";
            let (mut n, negative) = i.split();
            let mut at = self.bytes.len();
            while n >= 100 {
                let pair = (n % 100) as usize * 2;
                n /= 100;
                at -= 2;
                self.bytes[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
            }
            if n >= 10 {
                let pair = n as usize * 2;
                at -= 2;
                self.bytes[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
            } else {
                at -= 1;
                self.bytes[at] = b'0' + n as u8;
            }
            if negative {
                at -= 1;
                self.bytes[at] = b'-';
            }
            std::str::from_utf8(&self.bytes[at..]).expect("digits are ASCII")
        }

        /// Through `format!`, allocating.
        fn format_naive<I: Integer>(&mut self, i: I) -> &str {
            let (n, negative) = i.split();
            let written = if negative {
                format!("-{n}")
            } else {
                format!("{n}")
            };
            let at = self.bytes.len() - written.len();
            self.bytes[at..].copy_from_slice(written.as_bytes());
            std::str::from_utf8(&self.bytes[at..]).expect("digits are ASCII")
        }
    }

    /// The receiver first: a fresh buffer and the integer to format.
    fn format_inputs<I: From<u32>>() -> Vec<(Buffer, I)> {
        [0, 7, 4_294_967_295]
            .into_iter()
            .map(|n| (Buffer::new(), I::from(n)))
            .collect()
    }
}

mod shapes {
    /// Samples to summarize, with the receivers of every kind.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Samples(pub Vec<f64>);

    // As `#[cfg_attr(test, ...)]` writes them under `cargo test` (`all()`
    // holds everywhere, as `test` does there).
    #[cfg_attr(all(), faster::methods)]
    impl Samples {
        fn sum_naive(&self) -> f64 {
            self.0
                .iter()
                .fold(0.0, |sum, x| std::hint::black_box(sum + x))
        }

        /// `&self`: every call borrows the case's receiver.
        #[faster::compare(
            original = Self::sum_naive,
            inputs = sample_inputs,
            expect = report,
            max_time = "500ms",
            processes = 1
        )]
        #[faster::track(inputs = sample_inputs)]
        pub fn sum(&self) -> f64 {
            self.0.iter().sum()
        }

        fn into_sorted_naive(mut self) -> Vec<f64> {
            self.0.sort_by(f64::total_cmp);
            self.0
        }

        /// `self`: every call takes its own clone of the receiver.
        #[faster::compare(
            original = Samples::into_sorted_naive,
            inputs = sample_inputs,
            expect = report,
            max_time = "500ms",
            processes = 1
        )]
        pub fn into_sorted(mut self) -> Vec<f64> {
            self.0.sort_unstable_by(f64::total_cmp);
            self.0
        }

        fn scale_naive(&mut self, by: f64) {
            for x in &mut self.0 {
                *x *= by;
            }
        }

        /// `&mut self` returning nothing: its state after the call is
        /// compared.
        #[faster::compare(
            original = Self::scale_naive,
            inputs = scale_inputs,
            expect = report,
            max_time = "500ms",
            processes = 1
        )]
        pub fn scale(&mut self, by: f64) {
            self.0.iter_mut().for_each(|x| *x *= by);
        }

        fn from_text_naive(text: &str) -> Samples {
            Samples(text.split(',').map(|x| x.trim().parse().unwrap()).collect())
        }

        /// An associated function: inputs as for a free function.
        #[cfg_attr(
            all(),
            inline,
            faster::compare(
                original = Self::from_text_naive,
                inputs = text_inputs,
                expect = report,
                max_time = "500ms",
            processes = 1
            )
        )]
        pub fn from_text(text: &str) -> Samples {
            Samples::from_text_naive(text)
        }
    }

    /// A trait's implementation, its method named through the trait.
    #[faster::methods]
    impl std::str::FromStr for Samples {
        type Err = std::num::ParseFloatError;

        #[faster::track(inputs = text_inputs)]
        fn from_str(text: &str) -> Result<Self, Self::Err> {
            text.split(',')
                .map(|x| x.trim().parse())
                .collect::<Result<_, _>>()
                .map(Samples)
        }
    }

    fn sample_inputs() -> Vec<Samples> {
        vec![Samples(
            (0..1_000).map(|i| f64::from(i * 37 % 101)).collect(),
        )]
    }

    fn scale_inputs() -> Vec<(Samples, f64)> {
        vec![(sample_inputs().remove(0), 0.5)]
    }

    fn text_inputs() -> Vec<&'static str> {
        vec!["1, 2.5, 3"]
    }
}

mod engine {
    //! A crate shaped like `base64`, whose API is a trait's provided
    //! method: `Engine::encode`, marked where it is written and measured
    //! on the types that implement the trait.

    /// Encodes bytes as hex digits from a table of its own.
    #[faster::methods]
    pub trait Engine {
        /// The sixteen digits.
        fn digits(&self) -> &'static [u8; 16];

        /// The bytes `input` decodes to, as the trait fixes it: its
        /// `estimate` by value, of a type that is not `Clone`.
        fn decoded_len(&self, input: &[u8], estimate: Estimate) -> usize;

        /// Two digits per byte, into a `String` sized once.
        #[faster::track(inputs = payloads, implementors = [Lower, Upper], types = [Vec<u8>])]
        #[faster::compare(
            original = Self::encode_naive,
            inputs = payloads,
            implementors = [Lower],
            types = [Vec<u8>],
            expect = report,
            max_time = "500ms",
            processes = 1
        )]
        fn encode<T: AsRef<[u8]>>(&self, input: T) -> String {
            let digits = self.digits();
            let mut encoded = String::with_capacity(2 * input.as_ref().len());
            for byte in input.as_ref() {
                encoded.push(char::from(digits[usize::from(byte >> 4)]));
                encoded.push(char::from(digits[usize::from(byte & 15)]));
            }
            encoded
        }

        /// What it replaced: a `String` grown one digit at a time.
        fn encode_naive<T: AsRef<[u8]>>(&self, input: T) -> String {
            input
                .as_ref()
                .iter()
                .flat_map(|byte| [byte >> 4, byte & 15])
                .map(|digit| char::from(self.digits()[usize::from(digit)]))
                .collect()
        }
    }

    /// What `decoded_len` is handed, and consumes: not `Clone`, so each
    /// call's is made by a `faster::PerCall` in its input case.
    #[derive(Debug, Hash)]
    pub struct Estimate {
        pairs: usize,
    }

    #[derive(Clone, Debug, Default)]
    pub struct Lower;

    #[faster::methods]
    impl Engine for Lower {
        fn digits(&self) -> &'static [u8; 16] {
            b"0123456789abcdef"
        }

        #[faster::track(inputs = encoded)]
        fn decoded_len(&self, input: &[u8], estimate: Estimate) -> usize {
            input.len().min(2 * estimate.pairs) / 2
        }
    }

    #[derive(Clone, Debug, Default)]
    pub struct Upper;

    impl Engine for Upper {
        fn digits(&self) -> &'static [u8; 16] {
            b"0123456789ABCDEF"
        }

        fn decoded_len(&self, input: &[u8], _: Estimate) -> usize {
            input.len() / 2
        }
    }

    /// The receiver, the text, and the estimate each call consumes.
    fn encoded() -> Vec<(Lower, Vec<u8>, faster::PerCall<Estimate>)> {
        [2, 512]
            .into_iter()
            .map(|len| {
                let estimate = faster::PerCall::new(move || Estimate { pairs: len / 2 });
                (Lower, vec![b'f'; len], estimate)
            })
            .collect()
    }

    /// The engine first, then the bytes: generic over the engine, which
    /// each of `implementors` instantiates.
    fn payloads<E: Default>() -> Vec<(E, Vec<u8>)> {
        vec![
            (E::default(), vec![0, 15, 255]),
            (E::default(), (0..=255).collect()),
        ]
    }
}

fn registered(test_name: &str) -> &'static Comparison {
    comparisons()
        .into_iter()
        .find(|comparison| comparison.test_name() == test_name)
        .unwrap_or_else(|| panic!("no comparison named {test_name:?} is registered"))
}

#[test]
fn every_method_is_registered_under_its_type_and_name() {
    let names: Vec<&str> = comparisons()
        .iter()
        .map(|comparison| comparison.test_name())
        .collect();
    assert_eq!(
        names,
        [
            "engine::faster_lower_encode_vec_u8",
            "itoa::faster_buffer_format_i64",
            "itoa::faster_buffer_format_u32",
            "itoa::faster_buffer_format_u64",
            "shapes::faster_samples_from_text",
            "shapes::faster_samples_into_sorted",
            "shapes::faster_samples_scale",
            "shapes::faster_samples_sum",
        ]
    );
    let tracked: Vec<&str> = tracked().iter().map(|tracked| tracked.name).collect();
    assert_eq!(
        tracked,
        [
            "methods::engine::Lower::decoded_len",
            "methods::engine::Lower::encode::<Vec<u8>>",
            "methods::engine::Upper::encode::<Vec<u8>>",
            "methods::itoa::Buffer::format::<i64>",
            "methods::itoa::Buffer::format::<u32>",
            "methods::itoa::Buffer::format::<u64>",
            "methods::shapes::Samples::from_str",
            "methods::shapes::Samples::sum",
        ]
    );
    let format = registered("itoa::faster_buffer_format_u64");
    assert_eq!(format.original, "Buffer::format_naive");
    assert_eq!(
        format.label,
        "Buffer::format::<u64> vs Buffer::format_naive"
    );
}

#[test]
fn a_provided_method_runs_as_each_implementors() {
    let first_output = |name: &str| {
        let tracked = tracked()
            .into_iter()
            .find(|tracked| tracked.name == name)
            .unwrap_or_else(|| panic!("{name} is not registered"));
        let mut served = (tracked.open)().expect("the inputs are collected");
        served.digest_inputs().expect("the inputs are digested")[0]
            .output_shown
            .clone()
    };
    assert_eq!(
        first_output("methods::engine::Lower::encode::<Vec<u8>>"),
        "\"000fff\""
    );
    assert_eq!(
        first_output("methods::engine::Upper::encode::<Vec<u8>>"),
        "\"000FFF\""
    );
    // A by-value argument that is not `Clone`, made for each call.
    assert_eq!(first_output("methods::engine::Lower::decoded_len"), "1");
    let encode = registered("engine::faster_lower_encode_vec_u8");
    assert_eq!(
        encode.label,
        "Lower::encode::<Vec<u8>> vs <Lower as Engine>::encode_naive"
    );
}

#[test]
fn a_borrowed_output_is_compared_as_its_value() {
    let mut config = Config::default();
    config.max_time = Duration::from_millis(500);
    config.processes = 1;
    let report = (registered("itoa::faster_buffer_format_i64").run)(&config)
        .unwrap_or_else(|error| panic!("the comparison did not run: {error}"));
    assert!(report.outputs_checked);
    assert_eq!(report.inputs.len(), 3);
}
