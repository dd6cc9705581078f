// What the browser keeps after signing in (SPEC §3): the session token and the user or admin
// payload; the verifyCode marker and the steps are done with.
import { KEYS } from './storage.js';

export function storeSignedIn({ token, user, admin }) {
  localStorage.setItem(KEYS.sessionToken, token);
  localStorage.removeItem(KEYS.verifyCode);
  localStorage.removeItem('userCodeLink');
  localStorage.setItem(KEYS.loginStep, '1');
  localStorage.setItem(KEYS.registerStep, '1');
  if (admin) {
    localStorage.setItem(KEYS.adminInfo, JSON.stringify(admin));
    localStorage.removeItem(KEYS.userInfo);
  } else {
    localStorage.setItem(KEYS.userInfo, JSON.stringify(user));
    localStorage.removeItem(KEYS.adminInfo);
  }
}
