// The admin audit: every admin change, newest first.
import { api, apiText } from '../common/client.js';

const search = (query) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== '' && value != null) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** {total, pageSize, rows: [{id, at, adminEmail, adminName, subject, item, before, after}], subjects}. */
export const readAudit = (query, signal) => api(`audit${search(query)}`, { signal });
/** The rows the filters keep as CSV text. */
export const auditCsv = (query) => apiText(`audit/csv${search({ ...query, page: undefined })}`);
