// The admin's calls on content blocks (admin/edit-content); reading them is common/content.js.
import { api, apiUpload } from '../common/client.js';

export const listContent = (signal) => api('admin/content', { signal });
export const saveContent = (block, language, body) =>
  api(`admin/content/${block}/${language}`, { method: 'PUT', body });

export function uploadContentImage(block, language, file) {
  const body = new FormData();
  body.append('image', file, file.name);
  return apiUpload(`admin/content/${block}/${language}/image`, body);
}
