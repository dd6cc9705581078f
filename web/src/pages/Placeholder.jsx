// A page whose content a later issue builds: its translated title and a short note.
import { useTranslation } from 'react-i18next';

export default function Placeholder({ titleKey }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t(titleKey)}</h1>
      <p className="muted">{t('page-coming-soon')}</p>
    </section>
  );
}
