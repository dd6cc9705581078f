// Local-storage keys of SPEC §3 and the few reads and writes of them. No decisions here: the
// core decides from these raw values.

export const KEYS = {
  userInfo: 'userInfo',
  adminInfo: 'adminInfo',
  stripeData: 'stripeData',
  sessionToken: 'sessionToken',
  verifyCode: 'verifyCode',
  userToken: 'userToken',
  resetToken: 'resetToken',
  maticClaim: 'maticClaim',
  userRankData: 'userRankData',
  tokenData: 'tokenData',
  language: 'language',
  loginStep: 'loginStep',
  registerStep: 'registerStep',
};

/** The raw values the route guards read. */
export function readStored() {
  const get = (key) => localStorage.getItem(key) ?? undefined;
  return {
    sessionToken: get(KEYS.sessionToken),
    verifyCode: get(KEYS.verifyCode),
    userToken: get(KEYS.userToken),
    resetToken: get(KEYS.resetToken),
    adminInfo: get(KEYS.adminInfo),
  };
}

/** Clears all local storage but the chosen language, which is a preference, not a session. */
export function clearStorage() {
  const language = localStorage.getItem(KEYS.language);
  localStorage.clear();
  if (language) localStorage.setItem(KEYS.language, language);
}

export function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}
