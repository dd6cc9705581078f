// The sign-in page before the app has arrived (docs/performance.md#mobile-first-load). The server
// sends /login rendered (web/prerender); on a slow phone the app and its WebAssembly core take
// seconds more. This small entry, run first, lets the rendered form be sent meanwhile: to the same
// API the app calls, the captcha solved by the core's small build (core/forms.js). Fields are
// checked by the server; its answer is shown translated, in words the build put into the page
// (accounts/earlyWords.js). On success it leaves the state the app's sign-in leaves (the code
// step stored, /verifycode). The app calls `handOver` before it takes the page over (main.jsx).
import { api } from '../common/client.js';
import { WORDS_ID } from './earlyWords.js';
import { KEYS, write } from '../common/storage.js';

const root = document.getElementById('root');
const form = root?.dataset.prerendered === 'login' ? root.querySelector('form') : null;
const button = form?.querySelector('button[type="submit"]');
let sending = null;
let shown = null;
let handedOver = false;
let message = null;

function t(key) {
  const words = JSON.parse(document.getElementById(WORDS_ID)?.textContent || '{}');
  return words[key] ?? words['error-internal'] ?? key;
}

/** The button as the page was sent (disabled, busy) or as it acts. */
function arm(on) {
  button.disabled = !on;
  button.setAttribute('aria-busy', String(!on));
}

function show(code) {
  shown = code;
  if (!message) {
    message = document.createElement('p');
    message.className = 'field-error';
    message.setAttribute('role', 'alert');
    button.before(message);
  }
  message.textContent = t(code);
}

/** What the app's sign-in does on success: the code step stored, then /verifycode (the app shows it). */
function signedIn(token, email) {
  write(KEYS.sessionToken, token);
  write(KEYS.verifyCode, 'true');
  write(KEYS.loginStep, '2');
  write(KEYS.userEmail, email);
  history.pushState(null, '', '/verifycode');
  delete root.dataset.prerendered;
  const spinner = document.createElement('div');
  spinner.className = 'boot-spinner';
  spinner.setAttribute('role', 'status');
  spinner.setAttribute('aria-busy', 'true');
  const label = document.createElement('span');
  label.className = 'visually-hidden';
  label.textContent = t('spinner-label');
  spinner.append(label);
  root.replaceChildren(spinner);
}

async function send(email, password) {
  const label = button.textContent;
  arm(false);
  button.textContent = t('login-sending');
  try {
    const [{ challenge, difficulty }, { solveCaptcha }] = await Promise.all([
      api('captcha', { auth: false }),
      import(/* webpackChunkName: "forms-core" */ '../core/forms.js'),
    ]);
    const body = {
      email,
      password,
      language: document.documentElement.lang,
      captcha: { challenge, solution: solveCaptcha(challenge, difficulty) },
    };
    const { token } = await api('login', { method: 'POST', auth: false, body });
    signedIn(token, email);
  } catch (e) {
    button.textContent = label;
    arm(true);
    show(e?.code ?? 'error-internal');
  }
}

function submit(event) {
  event.preventDefault();
  if (sending || handedOver || button.disabled) return;
  sending = send(form.elements.email.value, form.elements.password.value).finally(() => {
    sending = null;
  });
}

/**
 * Called by the app before it takes the page over: waits for a sending under way, puts the form
 * back as it was sent (what the app hydrates) and answers the error code shown, if any, for the
 * app to show as its own sign-in does.
 */
export async function handOver() {
  handedOver = true;
  while (sending) await sending;
  if (!form?.isConnected) return null;
  form.removeEventListener('submit', submit);
  message?.remove();
  arm(false);
  return shown;
}

if (form && button) {
  form.addEventListener('submit', submit);
  // The small core loads at once: the form can be sent when it has arrived.
  import(/* webpackChunkName: "forms-core" */ '../core/forms.js').then(
    () => {
      if (!handedOver) arm(true);
    },
    () => {},
  );
}
