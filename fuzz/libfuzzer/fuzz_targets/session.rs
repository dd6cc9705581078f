//! libFuzzer's entry to `lvlx_fuzz::session` (fuzz/src/session.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::session::run(data));
