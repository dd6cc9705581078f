// The one way the app talks to the server: JSON under /api/v1, no caching, the session token in
// the Authorization header, errors as ApiError with the server's stable code (a translation key).
import { KEYS, read } from './storage.js';

export const API_BASE = '/api/v1';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

/** The Authorization header of the stored session, if any. */
function authorization() {
  const token = read(KEYS.sessionToken);
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * The one fetch: `init` under /api/v1 with no caching and the session's Authorization (unless
 * `auth` is false). A failed connection is ApiError `error-network`; an answer that is not 2xx
 * is ApiError with the server's code. An abort is passed through as it is.
 */
async function send(path, { headers = {}, auth = true, ...init }) {
  let response;
  try {
    response = await fetch(`${API_BASE}/${path}`, {
      ...init,
      headers: { ...headers, ...(auth ? authorization() : {}) },
      cache: 'no-store',
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'error-network', e.message);
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data?.code ?? 'error-internal', data?.message);
  }
  return response;
}

/**
 * An Arrow stream. `onProgress({received, total})` is told as its bytes arrive (total: the
 * answer's Content-Length, null when the server does not say).
 */
export async function apiBytes(path, { signal, onProgress } = {}) {
  const response = await send(path, { headers: { Accept: 'application/vnd.apache.arrow.stream' }, signal });
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : null;
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  const parts = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    onProgress({ received, total });
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A JSON call: `body` sent as JSON when given; the answer's JSON (null when it has none). */
export async function api(path, { method = 'GET', body, auth = true, signal } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await send(path, {
    method,
    headers,
    auth,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  return response.json().catch(() => null);
}

/** A text answer (a CSV export), as text. */
export async function apiText(path, { accept = 'text/csv', signal } = {}) {
  const response = await send(path, { headers: { Accept: accept }, signal });
  return response.text();
}

/** A multipart upload (images); the browser writes the boundary. */
export async function apiUpload(path, body) {
  const response = await send(path, { method: 'POST', body });
  return response.json().catch(() => null);
}
