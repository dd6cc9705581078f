// Wallet linking by a signed message.
import { api } from '../common/client.js';

export const walletNonce = () => api('wallet/nonce', { method: 'POST' });
export const linkWallet = (message, signature) => api('wallet/link', { method: 'POST', body: { message, signature } });
