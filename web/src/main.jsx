// Entry point: read the public settings, load translations, then hand over to the router.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadSettings } from './settings.js';
import { initI18n } from './i18n.js';
import App from './App.jsx';
import './styles/fonts.js';
import './styles/app.css';

const settings = await loadSettings();
await initI18n(settings);

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App settings={settings} />
  </StrictMode>,
);
