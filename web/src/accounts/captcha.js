// What the forms the server protects with the captcha (sign-in, registration, recovery) send
// besides their fields: the language in use and a fresh challenge, solved by the core's proof of
// work.
import { currentLanguage } from '../common/i18n.js';
import { solveCaptcha } from '../core/index.js';
import { api } from '../common/client.js';

/** `fields` with the language in use and a solved captcha. */
export async function withLanguageAndCaptcha(fields) {
  const { challenge, difficulty } = await api('captcha', { auth: false });
  return {
    ...fields,
    language: currentLanguage(),
    captcha: { challenge, solution: solveCaptcha(challenge, difficulty) },
  };
}
