//! libFuzzer's entry to `lvlx_fuzz::events` (fuzz/src/events.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::events::run(data));
