//! libFuzzer's entry to `lvlx_fuzz::validation` (fuzz/src/validation.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::validation::run(data));
