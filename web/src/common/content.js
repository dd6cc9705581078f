// Content blocks (admin/edit-content): what user pages and the landing page show, per language
// (the admin writes them in admin/EditContent.jsx).
import { api } from './client.js';
import { languageTag } from './i18n.js';

const lang = (language) => encodeURIComponent(languageTag(language) ?? 'en');

export const readContent = (block, language, signal) => api(`content/${block}?lang=${lang(language)}`, { signal });
/** A block anyone may read without a session: the landing page's terms, privacy and risk notices. */
export const readPublicContent = (block, language, signal) =>
  api(`public/content/${block}?lang=${lang(language)}`, { signal, auth: false });
