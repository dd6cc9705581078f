// Buying crypto by card: with the card payment provider configured, a button that
// creates the provider's on-ramp session for the member's linked wallet on Polygon (the server
// holds the secret key) and opens its hosted page; without it, the FAQ's two on-ramp providers.
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { api } from '../common/client.js';
import { KEYS, writeJson } from '../common/storage.js';
import useSubmit from '../common/useSubmit.js';

export default function Onramp() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(null);
  const [sending, open] = useSubmit(async () => {
    const session = await api('onramp/session', { method: 'POST' });
    // stripeData (docs/product/help.md#card-on-ramp): the session the member last opened.
    writeJson(KEYS.stripeData, {
      id: session.id,
      clientSecret: session.clientSecret,
      redirectUrl: session.redirectUrl,
      currency: session.currency,
      createdAt: Date.now(),
    });
    setOpened(session.redirectUrl);
    window.open(session.redirectUrl, '_blank', 'noopener');
  });
  if (!settings.cardPaymentKey) {
    return (
      <p className="muted onramp" data-testid="onramp-faq">
        {t('onramp-faq')} <Link to="/dashboardfaqs/card">{t('onramp-faq-link')}</Link>
      </p>
    );
  }
  const currency = (settings.cardCurrency ?? 'usdc').toUpperCase();
  return (
    <div className="summary-box onramp" data-testid="onramp">
      <h2>{t('onramp-title')}</h2>
      <p>{t('onramp-help', { currency })}</p>
      <button
        type="button"
        className="button secondary"
        onClick={() => open()}
        disabled={sending}
        aria-busy={sending}
        data-testid="onramp-open"
      >
        {t('onramp-open', { currency })}
      </button>
      {opened && (
        <p role="status" className="muted">
          {t('onramp-opened')}{' '}
          <a href={opened} target="_blank" rel="noreferrer noopener">
            {t('onramp-open-again')}
          </a>
        </p>
      )}
    </div>
  );
}
