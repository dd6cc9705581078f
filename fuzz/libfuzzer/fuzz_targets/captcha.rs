//! libFuzzer's entry to `lvlx_fuzz::captcha` (fuzz/src/captcha.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::captcha::run(data));
