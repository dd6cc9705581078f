// What the member holds as indexed: myActives' ledger and the dashboard's figures.
import { api } from './client.js';

/** {wallet, balance, entries}: the indexed ledger of the signed-in member. */
export const readActives = (signal) => api('wallet/actives', { signal });
/** {balance, balanceUsdt, staking: {positions, nfts, lvlx, accrued, accruedUsdt}, account, walletLvlx}. */
export const readDashboard = (signal) => api('dashboard', { signal });
