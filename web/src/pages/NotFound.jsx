import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <main className="center-page">
      <h1 className="big-number">{t('notfound-title')}</h1>
      <p>{t('notfound-text')}</p>
      <Link className="button" to="/login">
        {t('notfound-back')}
      </Link>
    </main>
  );
}
