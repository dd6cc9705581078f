// The frame of the public pages (login, registration, recovery): brand, language, a card.
import { useTranslation } from 'react-i18next';
import { useSettings } from '../settings.js';
import LanguageSwitcher from './LanguageSwitcher.jsx';

export default function PublicFrame({ title, subtitle, children }) {
  const { product } = useSettings();
  const { t } = useTranslation();
  return (
    <div className="public">
      <header className="public-top">
        <span className="brand">{t('app-name', { product })}</span>
        <LanguageSwitcher />
      </header>
      <main className="card">
        <h1>{title}</h1>
        {subtitle && <p className="muted">{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}
