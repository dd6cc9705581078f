// The secret-key tool's call (SPEC §7 POST key).
import { api } from './client.js';

/** {privateKey}, for the admin secret sealed for transport by the core. */
export const revealKey = (sealed) => api('key', { method: 'POST', body: { key: sealed } });
