// What the browser keeps after signing in (docs/product/api.md#shapes): the session token and the
// user or admin payload; the verifyCode marker and the steps are done with.
import { KEYS, write, writeJson, remove } from '../common/storage.js';

export function storeSignedIn({ token, user, admin }) {
  write(KEYS.sessionToken, token);
  remove(KEYS.verifyCode);
  remove(KEYS.userCodeLink);
  write(KEYS.loginStep, '1');
  write(KEYS.registerStep, '1');
  if (admin) {
    writeJson(KEYS.adminInfo, admin);
    remove(KEYS.userInfo);
  } else {
    writeJson(KEYS.userInfo, user);
    // The stored wallet: tokenData holds the linked wallet's address.
    if (user.wallet) writeJson(KEYS.tokenData, { address: user.wallet });
    else remove(KEYS.tokenData);
    // These two are kept under their own keys too (docs/product/api.md#local-storage).
    writeJson(KEYS.userRankData, user.userRankData ?? null);
    write(KEYS.maticClaim, user.maticClaim ?? '0');
    remove(KEYS.adminInfo);
    // The language in use stays: it went with the code (VerifyCode.jsx) and is the account's
    // now, so user.language names it too.
  }
}
