// The generic router error page (docs/product/screens.md#public-routes): 'Unexpected Application
// Error!' and the text.
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const text = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : (error?.message ?? String(error));
  return (
    <main className="center-page" role="alert">
      <h1>{t('error-unexpected')}</h1>
      <pre className="error-text">{text}</pre>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('error-reload')}
      </button>
    </main>
  );
}
