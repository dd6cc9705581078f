// The referral network: the member's network, claims, and the admins' ranks and nodes.
import { api, apiBytes } from '../common/client.js';

/** The member's network page: the OpenAPI document's `NetworkPage`. */
export const readNetwork = (signal) => api('network', { signal });
/** Mails a 6-digit claimCode for a claim of everything claimable → {attempt, amount}. */
export const requestClaim = (language) => api('claims', { method: 'POST', body: { language } });
/** The code confirms the claim → the signed voucher (`SignedVoucher`) the wallet submits. */
export const confirmClaim = (attempt, claimCode) =>
  api('claims/confirm', { method: 'POST', body: { attempt, claimCode } });

export const readRanks = (signal) => api('ranks', { signal });
export const putRank = (id, rank) => api(`ranks/${id}`, { method: 'PUT', body: rank });
export const readNodes = (signal) => api('activation-nodes', { signal });
/** Every node sold, as the Arrow stream the core's table engine loads. */
export const nodeRows = (signal) => apiBytes('activation-nodes/rows', { signal });
export const putNodeTerms = (terms) => api('activation-node', { method: 'PUT', body: terms });
