//! libFuzzer's entry to `lvlx_fuzz::image` (fuzz/src/image.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::image::run(data));
