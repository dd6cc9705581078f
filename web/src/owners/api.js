// What the contracts' owners have announced, and the owner actions proposed to their Safe.
import { api } from '../common/client.js';

/** What the contracts' owners have announced: the OpenAPI document's `Owners`. */
export const readOwners = (signal) => api('owners', { signal });

/**
 * The owners' Safe and the newest owner-action proposals: {safe: {address, owners, threshold,
 * nonce}|null, delaySeconds, proposals: [{id, contract, target, function, delayed, args: [{name,
 * kind, value, now}], state, nonce, safeTxHash, typedData, signatures, status, execCalldata,
 * executedTx, proposedAt, executedAt}]}.
 */
export const readProposals = (signal) => api('owner-proposals', { signal });
/** Proposes `contract.function(args…)` (the proposal's texts) to the Safe: {id}. */
export const propose = (contract, fn, args) =>
  api('owner-proposals', { method: 'POST', body: { contract, function: fn, args } });
/** An owner's EIP-712 signature of proposal `id`: {id, signer}. */
export const signProposal = (id, signature) =>
  api(`owner-proposals/${id}/signatures`, { method: 'POST', body: { signature } });
/** The transaction that executed proposal `id`. */
export const recordExecuted = (id, tx) => api(`owner-proposals/${id}/executed`, { method: 'POST', body: { tx } });
/** Proposes to reject proposal `id` (an empty Safe transaction at its nonce): {id}. */
export const rejectProposal = (id) => api(`owner-proposals/${id}/rejection`, { method: 'POST' });
