// Local-storage keys (docs/product/api.md#local-storage) and every read and write of them: the one
// module that touches localStorage. No decisions here: the core decides from these raw values.

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
  userCodeLink: 'userCodeLink',
  /** The email a sign-in code went to (userEmail). */
  userEmail: 'userEmail',
  /** The browser wallet the person chose among several (its EIP-6963 rdns). */
  walletChoice: 'walletChoice',
};

export const read = (key) => localStorage.getItem(key);
export const write = (key, value) => localStorage.setItem(key, value);
export const writeJson = (key, value) => localStorage.setItem(key, JSON.stringify(value));
export const remove = (key) => localStorage.removeItem(key);

/** The raw values the route guards read. */
export function readStored() {
  const get = (key) => read(key) ?? undefined;
  return {
    sessionToken: get(KEYS.sessionToken),
    verifyCode: get(KEYS.verifyCode),
    userToken: get(KEYS.userToken),
    resetToken: get(KEYS.resetToken),
    adminInfo: get(KEYS.adminInfo),
  };
}

/** A person's display choices (an admin's table columns): kept when the session ends. */
const PREFERENCE = 'preference.';
export const readPreference = (name) => readJson(PREFERENCE + name);
export const writePreference = (name, value) => writeJson(PREFERENCE + name, value);

/** Clears all local storage but the chosen language and the preferences: they are not a session. */
export function clearStorage() {
  const kept = Object.keys(localStorage)
    .filter((key) => key === KEYS.language || key.startsWith(PREFERENCE))
    .map((key) => [key, localStorage.getItem(key)]);
  localStorage.clear();
  for (const [key, value] of kept) localStorage.setItem(key, value);
}

export function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}
