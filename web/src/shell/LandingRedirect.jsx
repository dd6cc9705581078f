// /, /home, /faqs and /register: a spinner, then the landing site
// (docs/product/screens.md#public-routes).
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../common/settings.js';
import Spinner from '../common/Spinner.jsx';

export default function LandingRedirect() {
  const { landingUrl } = useSettings();
  const { t } = useTranslation();
  useEffect(() => {
    window.location.replace(landingUrl);
  }, [landingUrl]);
  return (
    <main className="center-page">
      <Spinner label={t('redirecting')} />
    </main>
  );
}
