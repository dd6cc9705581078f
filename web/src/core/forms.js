// The core's small build for the sign-in page before the app has arrived (feature `forms`,
// core-wasm/src/forms.rs): the same Rust function the full core exports, in a few kilobytes.
// Only web/src/accounts/early.js loads it; the app uses web/src/core/index.js.
import * as forms from '../../pkg-forms/lvlx_forms.js';

/** Proof-of-work solution for a captcha challenge from the server. */
export const solveCaptcha = (challenge, difficulty) => forms.solveCaptcha(challenge, difficulty);
