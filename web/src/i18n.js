// i18next with the flat translation files of locales/ (one namespace, no key separators).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import HttpBackend from 'i18next-http-backend';
import LanguageDetector from 'i18next-browser-languagedetector';
import { KEYS } from './session/storage.js';

/** What every i18next of the app reads: one namespace, flat keys, `product` in every text. */
export const baseOptions = (product) => ({
  ns: ['translation'],
  defaultNS: 'translation',
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  showSupportNotice: false,
  interpolation: { escapeValue: false, defaultVariables: { product } },
});

/**
 * `?lng=cimode` renders keys instead of text: the browser tests use it to find untranslated UI.
 * `onLanguage` hears the language in use at start and at each change (the app tells the core,
 * which formats numbers and dates in it).
 */
export function initI18n({ product, languages }, onLanguage = () => {}) {
  const keysOnly = new URLSearchParams(window.location.search).get('lng') === 'cimode';
  i18n.on('languageChanged', () => {
    document.documentElement.lang = i18n.resolvedLanguage ?? 'en';
    onLanguage(i18n.resolvedLanguage ?? 'en');
  });
  return i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      ...baseOptions(product),
      ...(keysOnly ? { lng: 'cimode' } : {}),
      supportedLngs: languages.length ? languages : false,
      nonExplicitSupportedLngs: true,
      fallbackLng: languages[0] ?? 'en',
      load: 'languageOnly',
      backend: { loadPath: '/locales/{{lng}}/{{lng}}.json' },
      detection: {
        order: ['querystring', 'localStorage', 'navigator'],
        lookupQuerystring: 'lng',
        lookupLocalStorage: KEYS.language,
        // Only a choice made with the switcher is stored (LanguageSwitcher): a detected language
        // is not a choice, and signing in adopts the account's language when none was made.
        caches: [],
      },
    });
}

export default i18n;
