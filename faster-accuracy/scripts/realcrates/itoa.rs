//! `cargo faster` tracking for itoa, on its benchmarks' integers
//! (`benches/bench.rs`: 0, `u32::MAX` and `u64::MAX` as u64; 0 and
//! `i16::MIN`; 0 and `u128::MAX`), each input one of them 512 times.
//! Written into both revisions of a pair by faster-accuracy/scripts/realcrates.py.

extern crate std;

use core::hint::black_box;
use std::vec;
use std::vec::Vec;

fn u64s() -> Vec<Vec<u64>> {
    vec![vec![0; 512], vec![u64::from(u32::MAX); 512], vec![u64::MAX; 512]]
}

fn i16s() -> Vec<Vec<i16>> {
    vec![vec![0; 512], vec![i16::MIN; 512]]
}

fn u128s() -> Vec<Vec<u128>> {
    vec![vec![0; 512], vec![u128::MAX; 512]]
}

#[faster::track(inputs = u64s)]
fn format_u64(values: &[u64]) -> usize {
    let mut buffer = crate::Buffer::new();
    values.iter().map(|&value| black_box(buffer.format(value)).len()).sum()
}

#[faster::track(inputs = i16s)]
fn format_i16(values: &[i16]) -> usize {
    let mut buffer = crate::Buffer::new();
    values.iter().map(|&value| black_box(buffer.format(value)).len()).sum()
}

#[faster::track(inputs = u128s)]
fn format_u128(values: &[u128]) -> usize {
    let mut buffer = crate::Buffer::new();
    values.iter().map(|&value| black_box(buffer.format(value)).len()).sum()
}
