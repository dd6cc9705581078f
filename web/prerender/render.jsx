// The pages the server sends already rendered, rendered here at build time in each language by
// the app's own components (webpack builds this for Node; web/prerender/plugin.mjs calls it):
// the landing page and sign-in, the two pages a visitor on a phone opens first. The product's
// name is left as PRODUCT_MARK for the server to fill in from its configuration.
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import settings from '../src/settings.js';
import { Prerendering } from '../src/prerendered.js';
import { baseOptions } from '../src/i18n.js';
import Landing from '../landing/Landing.jsx';
import Login from '../src/pages/Login.jsx';

export const PRODUCT_MARK = '__LVLX_PRODUCT__';

const PAGES = {
  landing: () => <Landing product={PRODUCT_MARK} />,
  login: () => (
    <MemoryRouter initialEntries={['/login']}>
      <Login />
    </MemoryRouter>
  ),
};
export const pages = Object.keys(PAGES);

/** The markup of `page` in `language`, from `translations` ({language: {key: text}}). */
export async function render(page, language, translations) {
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
  return renderToStaticMarkup(
    <Prerendering.Provider value>
      <I18nextProvider i18n={i18n}>
        <Page />
      </I18nextProvider>
    </Prerendering.Provider>,
  );
}
