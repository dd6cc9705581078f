//! libFuzzer's entry to `lvlx_fuzz::arrow_ipc` (fuzz/src/arrow_ipc.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::arrow_ipc::run(data));
