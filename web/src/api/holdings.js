// What the member holds as indexed: myActives' money history and reversals, and the dashboard's figures.
import { api } from './client.js';

/** {wallet, balance, entries}: the indexed ledger of the signed-in member. */
export const readActives = (signal) => api('wallet/actives', { signal });
/** {entries, prices}: every credit and payment of the member, newest first, each with its USDT value that day. */
export const readHistory = (signal) => api('wallet/history', { signal });
/** {balance, balanceUsdt, staking: {positions, nfts, lvlx, accrued, accruedUsdt}, account, walletLvlx}. */
export const readDashboard = (signal) => api('dashboard', { signal });
