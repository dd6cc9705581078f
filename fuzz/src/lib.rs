//! The fuzz targets: every parser that takes outside bytes, as a function of the bytes. libFuzzer
//! drives them coverage-guided (`fuzz/libfuzzer/`, `scripts/fuzz.sh`); the test command runs each
//! on its kept corpus and on pseudo-random inputs for a moment (`tests/smoke.rs`), in the
//! workspace's own build.

use arbitrary::{Arbitrary, Unstructured};

pub mod amount;
pub mod arrow_ipc;
pub mod captcha;
pub mod events;
pub mod image;
pub mod kyc_webhook;
pub mod session;
pub mod siwe;
pub mod validation;

/// A target: what it does with one input's bytes.
pub type Target = fn(&[u8]);

/// Every target by the name libFuzzer's binary and corpus folder carry.
pub const TARGETS: &[(&str, Target)] = &[
    ("amount", amount::run),
    ("arrow_ipc", arrow_ipc::run),
    ("captcha", captcha::run),
    ("events", events::run),
    ("image", image::run),
    ("kyc_webhook", kyc_webhook::run),
    ("session", session::run),
    ("siwe", siwe::run),
    ("validation", validation::run),
];

/// What libFuzzer's `fuzz_target!` does with a typed input: `data` read as a `T`, or nothing
/// when it does not make one.
pub fn typed<'a, T: Arbitrary<'a>>(data: &'a [u8], run: impl FnOnce(T)) {
    if let Ok(input) = T::arbitrary_take_rest(Unstructured::new(data)) {
        run(input);
    }
}
