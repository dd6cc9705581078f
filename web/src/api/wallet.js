// Wallet calls: linking by a signed message, and the member's ledger (myActives).
import { api } from './client.js';

export const walletNonce = () => api('wallet/nonce', { method: 'POST' });
export const linkWallet = (message, signature) => api('wallet/link', { method: 'POST', body: { message, signature } });
/** {wallet, balance, entries}: the indexed ledger of the signed-in member. */
export const readActives = (signal) => api('wallet/actives', { signal });
