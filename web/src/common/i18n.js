// i18next with the flat translation files of locales/ (one namespace, no key separators).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import HttpBackend from 'i18next-http-backend';
import LanguageDetector from 'i18next-browser-languagedetector';
import Cookies from 'js-cookie';
import { KEYS, read, write } from './storage.js';

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

/**
 * The app's language a tag names ('es-ES' → 'es', 'pt_BR' → 'pt', 'EN' → 'en'), else null: the
 * browser side's one normalisation of a language tag (the server's is lvlx_core::language_tag).
 * Every language the app sends the server passes through it.
 */
export function languageTag(tag) {
  const primary = String(tag ?? '')
    .trim()
    .split(/[-_]/)[0]
    .toLowerCase();
  const ours = i18n.options?.supportedLngs;
  if (Array.isArray(ours)) return primary !== 'cimode' && ours.includes(primary) ? primary : null;
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}

/** The language the person is using now, as the server names it. */
export const currentLanguage = () => languageTag(i18n.resolvedLanguage) ?? languageTag(i18n.language) ?? 'en';

/**
 * The language chosen with the switcher, kept for this browser: in storage for the app, and in
 * a cookie for the server, which sends the pages it renders in the same language (backend
 * web::LANGUAGE_COOKIE). A preference, like the choice itself: it names no one.
 */
export function chooseLanguage(lng) {
  write(KEYS.language, lng);
  languageCookie(lng);
  return i18n.changeLanguage(lng);
}

const languageCookie = (lng) => Cookies.set(LANGUAGE_COOKIE, lng, { expires: 365, sameSite: 'Lax', path: '/' });

/** A choice made before the server read the cookie: told once, at start. */
export function keepLanguageCookie() {
  const chosen = read(KEYS.language);
  if (chosen && Cookies.get(LANGUAGE_COOKIE) !== chosen) languageCookie(chosen);
}

export const LANGUAGE_COOKIE = 'lng';

export default i18n;
