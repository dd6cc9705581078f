// What the member holds as indexed (myActives' money history and reversals, the dashboard's
// figures) and what buying needs: the sponsor, the card on-ramp session.
import { api } from '../common/client.js';

/** {wallet, balance, entries}: the indexed ledger of the signed-in member. */
export const readActives = (signal) => api('wallet/actives', { signal });
/** {entries, prices}: every credit and payment of the member, newest first, each with its USDT value that day. */
export const readHistory = (signal) => api('wallet/history', { signal });
/** {balance, balanceUsdt, staking: {positions, nfts, lvlx, accrued, accruedUsdt}, account, walletLvlx}. */
export const readDashboard = (signal) => api('dashboard', { signal });
/** {wallet}: the sponsor's linked wallet, the purchase's on-chain referrer (null without one). */
export const readSponsor = (signal) => api('network/sponsor', { signal });
/** The card on-ramp: {id, clientSecret, redirectUrl, publishableKey, currency}. */
export const createOnrampSession = () => api('onramp/session', { method: 'POST' });
