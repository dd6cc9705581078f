// What the contracts' owners have announced.
import { api } from './client.js';

/** {blockTime, delaySeconds, claims: {paused, signer, maxPerClaim, maxPerDay, maxPerAccountDay}, pending: [{change, at, due, …}], owners: [{contract, address, owner, pendingOwner}]}. */
export const readOwners = (signal) => api('owners', { signal });
