// The wallet and transaction of ICO entries, for the CSV (the page's own 100 are asked by the
// page).
import { api } from '../common/client.js';

/** The wallet and transaction of every entry `ids` names: pages of 100 ids, four at a time. */
export async function icoTrailsOf(ids, signal) {
  const pages = [];
  for (let i = 0; i < ids.length; i += 100) pages.push(ids.slice(i, i + 100));
  const out = [];
  for (let i = 0; i < pages.length; i += 4) {
    const answers = pages.slice(i, i + 4).map((page) => api(`statistics-ico/trails?ids=${page.join(',')}`, { signal }));
    out.push(...(await Promise.all(answers)).flat());
  }
  return out;
}
