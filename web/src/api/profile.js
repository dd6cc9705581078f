// POST image (SPEC §7): multipart, the file named after the user id → {path}. The image is then
// at base URL + path + user id + ".png".
import { API_BASE, ApiError } from './client.js';
import { KEYS } from '../session/storage.js';

export async function uploadAvatar(blob, userId) {
  const body = new FormData();
  body.append('profile', blob, `${userId}.png`);
  const response = await fetch(`${API_BASE}/image`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localStorage.getItem(KEYS.sessionToken)}` },
    body,
    cache: 'no-store',
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.code ?? 'error-internal', data?.message);
  return data;
}

export const avatarUrl = (path, userId, version) => `${path}${userId}.png${version ? `?v=${version}` : ''}`;
