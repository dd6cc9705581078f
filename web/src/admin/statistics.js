// Admin statistics of users and ICO purchases (docs/product/api.md#calls): the JSON summaries and
// the Arrow row streams the core loads (the staking screens' are in staking/api.js).
import { api, apiBytes } from '../common/client.js';

export const icoStatistics = (signal) => api('statistics-ico?limit=100', { signal });
export const icoRows = (signal) => apiBytes('statistics-ico/rows', { signal });
/** The wallet and transaction of one page of ICO entries (at most 100 ids). */
export const icoTrails = (ids, signal) => api(`statistics-ico/trails?ids=${ids.join(',')}`, { signal });
/** The wallet and transaction of every entry `ids` names, for the CSV: pages of 100 ids, four at a time. */
export async function icoTrailsOf(ids, signal) {
  const pages = [];
  for (let i = 0; i < ids.length; i += 100) pages.push(ids.slice(i, i + 100));
  const out = [];
  for (let i = 0; i < pages.length; i += 4)
    out.push(...(await Promise.all(pages.slice(i, i + 4).map((page) => icoTrails(page, signal)))).flat());
  return out;
}
// The table's first 100 rows come with the totals: the first page shows before the rows stream lands.
export const userStatistics = (signal) => api('statistics-users?limit=100', { signal });
export const userRows = (signal, onProgress) => apiBytes('statistics-users/rows', { signal, onProgress });
