// The FAQ's data and the card on-ramp session.
import { api } from './client.js';

/** {usdt, explorer, images: [{src, width, height}], videos: {faqsN: {id, url, title, duration, thumbnail}}, onramp}. */
export const readFaq = (language, signal) => api(`faq?lng=${encodeURIComponent(language)}`, { signal });
/** {id, clientSecret, redirectUrl, publishableKey, currency}. */
export const createOnrampSession = () => api('onramp/session', { method: 'POST' });
