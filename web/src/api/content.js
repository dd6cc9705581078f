// Content blocks (admin/edit-content): what user pages show, per language.
import { api, apiUpload } from './client.js';
import { languageTag } from '../i18n.js';

const lang = (language) => encodeURIComponent(languageTag(language) ?? 'en');

export const readContent = (block, language, signal) => api(`content/${block}?lang=${lang(language)}`, { signal });
export const listContent = (signal) => api('admin/content', { signal });
export const saveContent = (block, language, body) =>
  api(`admin/content/${block}/${language}`, { method: 'PUT', body });

export function uploadContentImage(block, language, file) {
  const body = new FormData();
  body.append('image', file, file.name);
  return apiUpload(`admin/content/${block}/${language}/image`, body);
}
/** A block anyone may read without a session: the landing page's terms, privacy and risk notices. */
export const readPublicContent = (block, language, signal) =>
  api(`public/content/${block}?lang=${lang(language)}`, { signal, auth: false });
