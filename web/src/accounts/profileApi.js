// POST image (docs/product/api.md#calls): multipart, the file named after the user id → {path}. The
// image is then at base URL + path + user id + ".png".
import { apiUpload } from '../common/client.js';

export async function uploadAvatar(blob, userId) {
  const body = new FormData();
  body.append('profile', blob, `${userId}.png`);
  return apiUpload('image', body);
}

/** The avatar's address: its key (from the sign-in payload or the upload's answer) opens it. */
export const avatarUrl = (path, userId, key, version) =>
  `${path}${userId}.png?k=${key}${version ? `&v=${version}` : ''}`;
