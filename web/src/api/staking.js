// Staking: the member's page data and the admins' reserve monitor.
import { api } from './client.js';

/** {available, now, nfts, tiers, reserve, held, lvlxBalance, positions: {nft, lvlx}}. */
export const readStaking = (signal) => api('staking', { signal });
/** {available, warningWeeks, nft, lvlx}: each {free, reserved, funded, reservedLast30Days, weeksCovered, warning}. */
export const readReserve = (signal) => api('staking/reserve', { signal });
