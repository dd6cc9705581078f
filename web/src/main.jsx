// Entry point: read the public settings, load translations, then hand over to the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadSettings } from './settings.js';
import { initI18n } from './i18n.js';
import { languages, setDisplayLanguage } from './core/index.js';
import App from './App.jsx';
import './styles/fonts.js';
import './styles/app.css';

const settings = await loadSettings();
// The server could not be reached: the languages are the core's.
if (!settings.languages.length) settings.languages = languages();
await initI18n(settings, setDisplayLanguage);

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App settings={settings} />
  </StrictMode>,
);
