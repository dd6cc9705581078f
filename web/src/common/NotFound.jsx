// A path nothing answers: in the public frame (the brand, the language switcher) with the way back.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import PublicFrame from './PublicFrame.jsx';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <PublicFrame title={t('notfound-title')}>
      <p>{t('notfound-text')}</p>
      <Link className="button" to="/login">
        {t('notfound-back')}
      </Link>
    </PublicFrame>
  );
}
