// The wallet and transaction of ICO entries: a page's 100 (the table) or every entry the
// filters keep (the CSV, asked 100 ids at a time, four at once).
import { api } from '../common/client.js';

/** The wallet and transaction of each of `ids` (at most 100). */
export const icoTrails = (ids, signal) => api(`statistics-ico/trails?ids=${ids.join(',')}`, { signal });

/** The wallet and transaction of every entry `ids` names: pages of 100 ids, four at a time. */
export async function icoTrailsOf(ids, signal) {
  const pages = [];
  for (let i = 0; i < ids.length; i += 100) pages.push(ids.slice(i, i + 100));
  const out = [];
  for (let i = 0; i < pages.length; i += 4)
    out.push(...(await Promise.all(pages.slice(i, i + 4).map((page) => icoTrails(page, signal)))).flat());
  return out;
}
