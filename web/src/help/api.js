// The FAQ's data.
import { api } from '../common/client.js';

/** {usdt, explorer, images: [{src, width, height}], videos: {faqsN: {id, url, title, duration, thumbnail}}, onramp}. */
export const readFaq = (language, signal) => api(`faq?lng=${encodeURIComponent(language)}`, { signal });
