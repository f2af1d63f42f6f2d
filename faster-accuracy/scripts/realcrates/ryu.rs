//! `cargo faster` tracking for ryu, on its benchmarks' floats
//! (`benches/bench.rs`: 0, 0.1234, e and MAX, as f64 and f32), each input
//! one of them 512 times; `d2d` and `f2d` on the nonzero ones (the
//! formatter handles zero before them), and `pow5_factor`, which `d2d`
//! calls, on multiples of powers of five.
//! Written into both revisions of a pair by faster-accuracy/scripts/realcrates.py.

extern crate std;

use core::hint::black_box;
use std::vec;
use std::vec::Vec;

fn f64s() -> Vec<Vec<f64>> {
    [0.0, 0.1234, core::f64::consts::E, f64::MAX].iter().map(|&value| vec![value; 512]).collect()
}

fn f32s() -> Vec<Vec<f32>> {
    [0.0, 0.1234, core::f32::consts::E, f32::MAX].iter().map(|&value| vec![value; 512]).collect()
}

fn nonzero_f64s() -> Vec<Vec<f64>> {
    f64s().split_off(1)
}

fn nonzero_f32s() -> Vec<Vec<f32>> {
    f32s().split_off(1)
}

fn multiples_of_powers_of_five() -> Vec<Vec<u64>> {
    let small: Vec<u64> = (0..16).map(|k| 3 * 5u64.pow(k)).collect();
    let large: Vec<u64> = (0..16).map(|k| 7 * 5u64.pow(k + 4) + 1).collect();
    vec![small.repeat(32), large.repeat(32)]
}

#[faster::track(inputs = f64s)]
fn format64(values: &[f64]) -> usize {
    let mut buffer = crate::Buffer::new();
    values.iter().map(|&value| black_box(buffer.format_finite(value)).len()).sum()
}

#[faster::track(inputs = f32s)]
fn format32(values: &[f32]) -> usize {
    let mut buffer = crate::Buffer::new();
    values.iter().map(|&value| black_box(buffer.format_finite(value)).len()).sum()
}

#[faster::track(inputs = nonzero_f64s)]
fn d2d(values: &[f64]) -> u64 {
    values.iter().fold(0, |sum, &value| {
        let bits = value.to_bits();
        let decimal = crate::d2s::d2d(bits & ((1 << 52) - 1), ((bits >> 52) & 0x7ff) as u32);
        sum.wrapping_add(decimal.mantissa ^ decimal.exponent as u64)
    })
}

#[faster::track(inputs = nonzero_f32s)]
fn f2d(values: &[f32]) -> u64 {
    values.iter().fold(0, |sum, &value| {
        let bits = value.to_bits();
        let decimal = crate::f2s::f2d(bits & ((1 << 23) - 1), (bits >> 23) & 0xff);
        sum.wrapping_add(u64::from(decimal.mantissa) ^ decimal.exponent as u64)
    })
}

#[faster::track(inputs = multiples_of_powers_of_five)]
fn pow5_factor(values: &[u64]) -> u64 {
    values.iter().map(|&value| u64::from(crate::d2s_intrinsics::pow5_factor(black_box(value)))).sum()
}
