//! `cargo faster` tracking for base64's standard engine, on its
//! benchmarks' payload sizes (`benches/benchmarks.rs`, `BYTE_SIZES`: 3, 50,
//! 100, 500 and 3 KiB of random bytes; here the same bytes every run).
//! Written into both revisions of a pair by faster-accuracy/scripts/realcrates.py.

use crate::engine::general_purpose::STANDARD;
use crate::Engine as _;
use std::string::String;
use std::vec;
use std::vec::Vec;

/// The same bytes every run: a linear congruential generator's high bytes.
fn bytes(len: usize) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

fn payloads() -> Vec<Vec<u8>> {
    [3, 50, 100, 500, 3 * 1024].iter().map(|&len| bytes(len)).collect()
}

fn encoded() -> Vec<String> {
    payloads().iter().map(|data| STANDARD.encode(data)).collect()
}

#[faster::track(inputs = payloads)]
fn encode(data: &[u8]) -> String {
    STANDARD.encode(data)
}

#[faster::track(inputs = payloads)]
fn encode_slice(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0; data.len() * 4 / 3 + 4];
    let written = STANDARD.encode_slice(data, &mut out).unwrap();
    out.truncate(written);
    out
}

#[faster::track(inputs = encoded)]
fn decode(text: &str) -> Vec<u8> {
    STANDARD.decode(text).unwrap()
}

#[faster::track(inputs = encoded)]
fn decode_slice(text: &str) -> Vec<u8> {
    let mut out = vec![0; text.len() * 3 / 4 + 3];
    let written = STANDARD.decode_slice(text, &mut out).unwrap();
    out.truncate(written);
    out
}
