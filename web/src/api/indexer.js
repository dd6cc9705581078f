// Where the indexer stands (admins).
import { api } from './client.js';

/** {nextBlock, finalBlock, pending, reversalsDay}. */
export const readIndexer = (signal) => api('admin/indexer', { signal });
