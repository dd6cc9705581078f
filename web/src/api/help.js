// Help, identity and cards: the FAQ's data, the member's KYC, the admins' KYC
// corrections, the card on-ramp session and the dashboard's figures.
import { api } from './client.js';

/** {usdt, explorer, images: [{src, width, height}], videos: {faqsN: {id, url, title, duration, thumbnail}}, onramp}. */
export const readFaq = (language, signal) => api(`faq?lng=${encodeURIComponent(language)}`, { signal });
/** {status, updatedAt, startUrl, available}. */
export const readKyc = (signal) => api('kyc', { signal });
/** Admin: {status, updatedAt, history: [{at, status, admin, reason, event}]}. */
export const readUserKyc = (id, signal) => api(`users/${id}/kyc`, { signal });
export const putUserKyc = (id, status, reason) => api(`users/${id}/kyc`, { method: 'PUT', body: { status, reason } });
/** {id, clientSecret, redirectUrl, publishableKey, currency}. */
export const createOnrampSession = () => api('onramp/session', { method: 'POST' });
/** {balance, balanceUsdt, staking: {positions, nfts, lvlx, accrued, accruedUsdt}}. */
export const readDashboard = (signal) => api('dashboard', { signal });
