// POST image (SPEC §7): multipart, the file named after the user id → {path}. The image is then
// at base URL + path + user id + ".png".
import { apiUpload } from './client.js';

export async function uploadAvatar(blob, userId) {
  const body = new FormData();
  body.append('profile', blob, `${userId}.png`);
  return apiUpload('image', body);
}

export const avatarUrl = (path, userId, version) => `${path}${userId}.png${version ? `?v=${version}` : ''}`;
