import { useTranslation } from 'react-i18next';

export default function Spinner({ label }) {
  const { t } = useTranslation();
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="spinner-text">{label ?? t('spinner-label')}</span>
    </div>
  );
}
