//! `cargo faster` tracking for hex, on payloads of 16 B, 256 B, 4 KiB and
//! 16 KiB (its benchmark encodes and decodes its own `src/lib.rs`, about
//! 16 KiB, which differs between revisions: fixed bytes of those sizes keep
//! the input the same at both).
//! Written into both revisions of a pair by faster-accuracy/scripts/realcrates.py.

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
    [16, 256, 4096, 16384].iter().map(|&len| bytes(len)).collect()
}

fn encoded() -> Vec<String> {
    payloads().iter().map(crate::encode).collect()
}

#[faster::track(inputs = payloads)]
fn encode(data: &[u8]) -> String {
    crate::encode(data)
}

#[faster::track(inputs = payloads)]
fn encode_to_slice(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0; data.len() * 2];
    crate::encode_to_slice(data, &mut out).unwrap();
    out
}

#[faster::track(inputs = encoded)]
fn decode(text: &str) -> Vec<u8> {
    crate::decode(text).unwrap()
}

#[faster::track(inputs = encoded)]
fn decode_to_slice(text: &str) -> Vec<u8> {
    let mut out = vec![0; text.len() / 2];
    crate::decode_to_slice(text, &mut out).unwrap();
    out
}
