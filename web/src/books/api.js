// The books checked against the chain (admins) and the platform's solvency (anyone).
import { api } from '../common/client.js';

/** The platform's solvency: the OpenAPI document's `Solvency`. */
export const readSolvency = (signal) => api('solvency', { signal, auth: false });
/** {available, everyHours, running, latest: {at, block, finalBlock, lines, differences, report} | null}. */
export const readBooks = (signal) => api('books', { signal });
/** Starts a check in the background: {running: true}; ApiError error-books-running while one runs. */
export const checkBooks = () => api('books', { method: 'POST' });
