//! libFuzzer's entry to `lvlx_fuzz::kyc_webhook` (fuzz/src/kyc_webhook.rs says what it fuzzes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| lvlx_fuzz::kyc_webhook::run(data));
