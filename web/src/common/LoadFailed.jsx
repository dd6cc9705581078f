// The one way a screen says a load failed: what failed, in words (the server's code, or that it
// cannot be reached), and a button to try again (useLoad's `retry`).
import { useTranslation } from 'react-i18next';

export default function LoadFailed({ error, onRetry, testId = 'load-failed' }) {
  const { t, i18n } = useTranslation();
  const code = error?.code && i18n.exists(error.code) ? error.code : 'error-internal';
  return (
    <div className="notice error load-failed" role="alert" data-testid={testId}>
      <p>{t(code)}</p>
      <button type="button" className="button secondary small" onClick={onRetry}>
        {t('load-retry')}
      </button>
    </div>
  );
}
