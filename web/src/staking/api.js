// Staking: the member's page data and the admins' reserve monitor.
import { api, apiBytes, ApiError } from '../common/client.js';

/** {available, now, nfts, tiers, reserve, held, lvlxBalance, positions: {nft, lvlx}}. */
export const readStaking = (signal) => api('staking', { signal });
/** {available, warningWeeks, nft, lvlx}: each {free, reserved, funded, reservedLast30Days, weeksCovered, warning}. */
export const readReserve = (signal) => api('staking/reserve', { signal });

// docs/product/api.md#errors: statistics-nftstaking failing with 500 is shown as the 'TimeOut
// Connections!' notice.
const timeoutOn500 = (pending) =>
  pending.catch((e) => {
    throw e.status === 500 ? new ApiError(500, 'statistics-timeout', e.message) : e;
  });

/** The admin staking screens: `kind` is 'nft' or 'lvlx'. */
export const stakingStatistics = (kind) => (signal) =>
  timeoutOn500(api(`statistics-${kind}staking?limit=1`, { signal }));
export const stakingRows = (kind) => (signal) => timeoutOn500(apiBytes(`statistics-${kind}staking/rows`, { signal }));
