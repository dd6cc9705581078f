// The admin's calls on one member's account (the KYC status is kyc/api.js's).
import { api } from '../common/client.js';

/** Admin: blocks (`blocked`: no sign-in, sessions ended) or unblocks (`active`) a member → {status}. */
export const putUserStatus = (id, status, reason) =>
  api(`users/${id}/status`, { method: 'PUT', body: { status, reason } });
