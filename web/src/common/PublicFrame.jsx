// The frame of the public pages (login, registration, recovery, solvency): brand, language, a
// card, and a link to the platform's solvency that anyone may read; on the solvency page, the way
// back (sign-in's guard sends a signed-in member on to the dashboard, an admin to the admin area).
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useSettings } from './settings.js';
import LanguageSwitcher from './LanguageSwitcher.jsx';
import { KEYS, read } from './storage.js';

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
      <footer className="public-foot">
        {pathname !== '/solvency' ? (
          <Link to="/solvency">{t('solvency-title')}</Link>
        ) : (
          <Link to="/login" data-testid="public-back">
            {read(KEYS.sessionToken) ? t('public-back-signed-in') : t('login-title')}
          </Link>
        )}
      </footer>
    </div>
  );
}
