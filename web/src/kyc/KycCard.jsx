// The member's identity verification on the dashboard: the status and what to do
// next — start (or restart) at the provider, wait, or nothing; refreshed when it moves. A link
// to /dashboard#kyc (a claim held for identity) brings the card into view once it has loaded.
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { useLiveVersion } from '../common/live.js';
import { KycBadge } from './KycAdmin.jsx';
import SupportContact from '../common/SupportContact.jsx';

export default function KycCard() {
  const { t } = useTranslation();
  // The provider's webhook and admins' changes arrive as a network push of event "kyc".
  const version = useLiveVersion('network', 300);
  const kyc = useLoad(version === null ? null : (signal) => api('kyc', { signal }), [version]);
  const data = kyc.data;
  const { hash } = useLocation();
  const card = useRef(null);
  const loaded = Boolean(data);
  useEffect(() => {
    if (hash === '#kyc' && loaded) card.current?.scrollIntoView({ block: 'start' });
  }, [hash, loaded]);
  return (
    <section
      ref={card}
      className="summary-box dash-box"
      aria-labelledby="kyc-title"
      id="kyc"
      data-testid="kyc-card"
      aria-busy={kyc.loading}
    >
      <h2 id="kyc-title">{t('kyc-title')}</h2>
      {!data ? (
        <p className="muted">{kyc.error ? t('kyc-load-failed') : t('loading')}</p>
      ) : (
        <>
          <p data-testid="kyc-status">
            <KycBadge status={data.status} />
          </p>
          <p>{t(`kyc-next-${data.status}`)}</p>
          {data.startUrl ? (
            <a
              className="button"
              href={data.startUrl}
              target="_blank"
              rel="noreferrer noopener"
              data-testid="kyc-start"
            >
              {t(data.status === 'rejected' ? 'kyc-restart' : 'kyc-start')}
            </a>
          ) : (data.status === 'none' || data.status === 'rejected') && !data.available ? (
            <>
              <p className="muted" data-testid="kyc-unavailable">
                {t('kyc-unavailable')}
              </p>
              <SupportContact />
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
