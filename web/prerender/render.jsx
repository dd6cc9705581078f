// The pages the server sends already rendered, rendered here at build time in each language by
// the app's own components (renderToString: the markers hydration needs; webpack builds this
// for Node, web/prerender/plugin.mjs calls it): the landing page and sign-in, the two pages a
// visitor on a phone opens first. The product's name is left as PRODUCT_MARK for the server to
// fill in from its configuration.
import { renderToString } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import Root from '../src/common/Root.jsx';
import settings from '../src/common/settings.js';
import { ConsentSeen, Prerendering } from '../src/common/prerendered.js';
import { baseOptions } from '../src/common/i18n.js';
import Landing from '../landing/Landing.jsx';
import Login from '../src/accounts/Login.jsx';
import { needsWord, WORDS_ID } from '../src/accounts/earlyWords.js';

export const PRODUCT_MARK = '__LVLX_PRODUCT__';

const PAGES = {
  landing: () => <Landing product={PRODUCT_MARK} />,
  // Inside the app's root (toasts, cookie banner), as the router renders it: the app hydrates
  // exactly this.
  login: () => (
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route element={<Root />}>
          <Route path="/login" element={<Login />} />
        </Route>
      </Routes>
    </MemoryRouter>
  ),
};
export const pages = Object.keys(PAGES);

/**
 * What goes into the head of `page` besides its markup: for sign-in, the words its early sending
 * shows before the app's translations arrive (web/src/accounts/early.js), from `translation`.
 */
export function head(page, translation) {
  if (page !== 'login') return '';
  const words = Object.fromEntries(Object.entries(translation).filter(([key]) => needsWord(key)));
  // As JSON in a script element: `<` escaped, so no text closes the element.
  const json = JSON.stringify(words).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${WORDS_ID}">${json}</script>`;
}

/**
 * The markup of `page` in `language`, from `translations` ({language: {key: text}}): for a
 * visitor who has not decided on cookies yet (the banner shows), or, `decided`, one who has.
 */
export async function render(page, language, translations, decided = false) {
  const languages = Object.keys(translations);
  Object.assign(settings, { product: PRODUCT_MARK, languages });
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    supportedLngs: languages,
    fallbackLng: languages[0],
    resources: Object.fromEntries(languages.map((l) => [l, { translation: translations[l] }])),
    ...baseOptions(PRODUCT_MARK),
  });
  const Page = PAGES[page];
  const markup = renderToString(
    <Prerendering.Provider value>
      <ConsentSeen.Provider value={decided ? 'accepted' : undefined}>
        <I18nextProvider i18n={i18n}>
          <Page />
        </I18nextProvider>
      </ConsentSeen.Provider>
    </Prerendering.Provider>,
  );
  // React puts image preloads first for want of a <head>; the app's render has none of them.
  return markup.replace(/<link rel="preload"[^>]*\/>/g, '');
}
