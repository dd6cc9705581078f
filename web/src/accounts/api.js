// Account calls (register, login, codes, recovery). Forms that the server protects with the
// captcha get a fresh challenge, solved here by the core's proof of work.
import { currentLanguage as language } from '../common/i18n.js';
import { solveCaptcha } from '../core/index.js';
import { api } from '../common/client.js';

async function captcha() {
  const { challenge, difficulty } = await api('captcha', { auth: false });
  return { challenge, solution: solveCaptcha(challenge, difficulty) };
}

const post = (path, body, auth = false) => api(path, { method: 'POST', auth, body });

/** Step 1 of sign-in → {token (verify scope), verifyCode: true}; a code is mailed. */
export const login = async ({ email, password }) =>
  post('login', { email, password, language: language(), captcha: await captcha() });

/**
 * Step 2: the mailed code, with the step-1 token in Authorization → {token, role, user | admin}.
 * The language in use now goes with it and becomes the account's.
 */
export const verifyCode = (code) => post('verifycode', { code, language: language() }, true);
/** A new sign-in code (the step-1 token in Authorization) → {token, verifyCode}; the old code stops working. */
export const resendLoginCode = () => post('verifycode/resend', { language: language() }, true);

/** Registration through a referral link → {attemptId}; a code is mailed. */
export const register = async (form, referralCode) =>
  post('register', { ...form, referralCode, language: language(), captcha: await captcha() });

/** {name}: who invited someone registering through `code` (first name and initial). */
export const readInviter = (code, signal) =>
  api(`register/inviter/${encodeURIComponent(code)}`, { auth: false, signal });
export const registerVerify = (attemptId, code) => post('register/verify', { attemptId, code });

/** Recovery → {attemptId}, the same whether or not the email has an account. */
export const recover = async (email) => post('recover', { email, language: language(), captcha: await captcha() });

export const recoverVerify = (attemptId, code) => post('recover/verify', { attemptId, code });

export const resetPassword = (body) => post('reset', body);
