// The secret-key tool's call (POST key, docs/product/admin.md#secret-key).
import { api } from '../common/client.js';

/** {privateKey}, for the admin secret sealed for transport by the core. */
export const revealKey = (sealed) => api('key', { method: 'POST', body: { key: sealed } });
