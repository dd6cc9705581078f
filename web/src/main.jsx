// Entry point: read the public settings, load translations, then hand over to the router. A page
// the server sent rendered (sign-in) is hydrated once the router has its code, keeping what was
// typed into it; a sign-in sent from it before the app arrived (accounts/early.js) ends first.
import { StrictMode } from 'react';
import { loadSettings } from './common/settings.js';
import { initI18n, keepLanguageCookie } from './common/i18n.js';
import { languages, setDisplayLanguage } from './core/index.js';
import App, { createRouter, routerReady } from './App.jsx';
import { takeOver } from './common/prerendered.js';
import { handOver } from './accounts/early.js';
import { toastError } from './common/toast.jsx';
import './styles/fonts.js';
import './styles/app.css';

const settings = await loadSettings();
// The server could not be reached: the languages are the core's.
if (!settings.languages.length) settings.languages = languages();
await initI18n(settings, setDisplayLanguage);
keepLanguageCookie();

// After an early sign-in the page is /verifycode (the router starts there); after a refused one,
// its message stays, as the app's own.
const refused = await handOver();
const router = createRouter(settings.product);
const root = document.getElementById('root');
if (root.dataset.prerendered) await routerReady(router);
takeOver(
  root,
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
if (refused) toastError({ code: refused });
