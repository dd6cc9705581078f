// Entry point: read the public settings, load translations, then hand over to the router. A page
// the server sent rendered (sign-in) is hydrated once the router has its code, keeping what was
// typed into it.
import { StrictMode } from 'react';
import { loadSettings } from './shared/settings.js';
import { initI18n, keepLanguageCookie } from './shared/i18n.js';
import { languages, setDisplayLanguage } from './core/index.js';
import App, { createRouter, routerReady } from './App.jsx';
import { takeOver } from './shared/prerendered.js';
import './styles/fonts.js';
import './styles/app.css';

const settings = await loadSettings();
// The server could not be reached: the languages are the core's.
if (!settings.languages.length) settings.languages = languages();
await initI18n(settings, setDisplayLanguage);
keepLanguageCookie();

const router = createRouter(settings.product);
const root = document.getElementById('root');
if (root.dataset.prerendered) await routerReady(router);
takeOver(
  root,
  <StrictMode>
    <App router={router} />
  </StrictMode>,
);
