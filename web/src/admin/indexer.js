// Where the indexer stands (admins).
import { api } from '../shared/client.js';

/**
 * {nextBlock, finalBlock, pending, reversalsDay, finalReversalsDay,
 *  moving: {indexing, head, lagBlocks, secondsSinceProgress, stalled, mismatch}}.
 */
export const readIndexer = (signal) => api('admin/indexer', { signal });
