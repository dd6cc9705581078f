//! libFuzzer's entry to `lvlx_fuzz::siwe` (fuzz/src/siwe.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::siwe::run(data));
