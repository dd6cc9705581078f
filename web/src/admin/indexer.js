// Where the indexer stands (admins).
import { api } from '../common/client.js';

/**
 * {nextBlock, finalBlock, pending, reversalsDay, finalReversalsDay,
 *  moving: {indexing, head, lagBlocks, secondsSinceProgress, stalled, mismatch}}.
 */
export const readIndexer = (signal) => api('admin/indexer', { signal });
