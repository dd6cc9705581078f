//! The binding of what the sign-in page needs before the app has arrived (feature `forms`): the
//! captcha's proof of work. Built alone (`--features forms`) it is a second, small WebAssembly
//! file (web/pkg-forms, scripts/build-wasm.sh) that a phone loads in a few kilobytes; the full
//! binding (`wasm`) includes it, so the app calls the same function. No rule lives here.

use wasm_bindgen::prelude::*;

/// `solveCaptcha(challenge, difficulty)`: the proof-of-work solution the server expects.
#[wasm_bindgen(js_name = solveCaptcha)]
pub fn solve_captcha(challenge: &str, difficulty: u32) -> Result<f64, JsError> {
    crate::captcha::solve(challenge, difficulty)
        .map(|n| n as f64)
        .ok_or_else(|| JsError::new("error-internal: difficulty too high"))
}
