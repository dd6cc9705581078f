// The offline landing page the server serves at /landing (the default landing site), in the
// landing theme's fonts (PT Sans headings, Didact Gothic text).
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import '@fontsource/pt-sans/latin-700.css';
import '@fontsource/didact-gothic/latin-400.css';
import { loadSettings } from '../src/settings.js';
import { initI18n } from '../src/i18n.js';
import LanguageSwitcher from '../src/components/LanguageSwitcher.jsx';
import '../src/styles/app.css';
import './landing.css';

function Landing({ product }) {
  const { t } = useTranslation();
  return (
    <div className="landing">
      <header className="public-top">
        <span className="brand">{product}</span>
        <LanguageSwitcher />
      </header>
      <main className="landing-hero">
        <h1>{t('landing-title', { product })}</h1>
        <p>{t('landing-text', { product })}</p>
        <a className="button" href="/login">
          {t('landing-login')}
        </a>
      </main>
    </div>
  );
}

const settings = await loadSettings();
await initI18n(settings);
createRoot(document.getElementById('root')).render(<Landing product={settings.product} />);
