// The frame of the public pages (login, registration, recovery, solvency): brand, language, a
// card, and a link to the platform's solvency that anyone may read.
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useSettings } from './settings.js';
import LanguageSwitcher from './LanguageSwitcher.jsx';

export default function PublicFrame({ title, subtitle, children, wide = false }) {
  const { pathname } = useLocation();
  const { product } = useSettings();
  const { t } = useTranslation();
  return (
    <div className="public">
      <header className="public-top">
        <span className="brand">{t('app-name', { product })}</span>
        <LanguageSwitcher />
      </header>
      <main className={wide ? 'card wide' : 'card'}>
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
        {children}
      </main>
      {pathname !== '/solvency' && (
        <footer className="public-foot">
          <Link to="/solvency">{t('solvency-title')}</Link>
        </footer>
      )}
    </div>
  );
}
