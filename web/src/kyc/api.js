// Identity verification: the member's status and the admins' corrections.
import { api } from '../common/client.js';

/** {status, updatedAt, startUrl, available}. */
export const readKyc = (signal) => api('kyc', { signal });
/** Admin: {status, updatedAt, history: [{at, status, admin, reason, event}]}. */
export const readUserKyc = (id, signal) => api(`users/${id}/kyc`, { signal });
export const putUserKyc = (id, status, reason) => api(`users/${id}/kyc`, { method: 'PUT', body: { status, reason } });
