// Cookie consent (SPEC "Other UI"): shown until the visitor decides; the decision is kept in a
// cookie for 365 days.
import { useState } from 'react';
import Cookies from 'js-cookie';
import { useTranslation } from 'react-i18next';

export const CONSENT_COOKIE = 'cookieConsent';
const DAYS = 365;

export default function CookieBanner() {
  const { t } = useTranslation();
  const [decision, setDecision] = useState(() => Cookies.get(CONSENT_COOKIE));
  if (decision === 'accepted' || decision === 'declined') return null;
  const decide = (value) => {
    Cookies.set(CONSENT_COOKIE, value, {
      expires: DAYS,
      sameSite: 'Lax',
      secure: window.location.protocol === 'https:',
    });
    setDecision(value);
  };
  return (
    <section className="cookie-banner" role="region" aria-label={t('cookie-label')}>
      <p>{t('cookie-text')}</p>
      <div className="cookie-actions">
        <button type="button" className="button secondary" onClick={() => decide('declined')}>
          {t('cookie-decline')}
        </button>
        <button type="button" className="button" onClick={() => decide('accepted')}>
          {t('cookie-accept')}
        </button>
      </div>
    </section>
  );
}
