//! libFuzzer's entry to `lvlx_fuzz::amount` (fuzz/src/amount.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::amount::run(data));
