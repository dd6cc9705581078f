// Public settings from the server (landing site, token symbol, languages), read once before the
// first render. The defaults match the server's and keep the app usable if it cannot be reached
// (the app's entry then takes the languages from the core; this module never loads the core, so
// the landing page does not download it).
import { api } from './client.js';

const settings = {
  landingUrl: '/landing',
  product: 'LVLX',
  languages: [],
  secretPassKey: 'lvlx-secret-key-transport',
  maxImageBytes: 2 * 1024 * 1024,
};

export async function loadSettings() {
  try {
    Object.assign(settings, await api('config', { auth: false }));
  } catch (e) {
    console.warn('settings unavailable, using defaults', e);
  }
  return settings;
}

export const useSettings = () => settings;

export default settings;
