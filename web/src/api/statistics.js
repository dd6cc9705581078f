// Admin statistics (SPEC §7): the JSON summaries and the Arrow row streams the core loads.
import { api, apiBytes } from './client.js';

export const icoStatistics = (signal) => api('statistics-ico?limit=1', { signal });
export const icoRows = (signal) => apiBytes('statistics-ico/rows', { signal });
export const userStatistics = (signal) => api('statistics-users?limit=1', { signal });
export const userRows = (signal) => apiBytes('statistics-users/rows', { signal });
