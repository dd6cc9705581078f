// Session calls (docs/product/api.md#calls): tokenVerify (refresh) and signout.
import { api } from '../common/client.js';
import { KEYS, read } from '../common/storage.js';

/** GET tokenVerify → {auth, token}. */
export const verifyToken = (signal) => api('tokenVerify', { signal });

/** POST signout with the token → {auth}. */
export const signout = () => api('signout', { method: 'POST', body: { token: read(KEYS.sessionToken) ?? '' } });
