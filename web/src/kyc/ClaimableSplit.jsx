// What is claimable, as two figures the server's core computed (lvlx_core::kyc::claim_split):
// what a claim pays now, with the way to claim, and what is held until the member's identity is
// verified, with the way to verify. When nothing is held, only the first, under `label`.
// Rows of the <dl> it is placed in.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx } from '../core/index.js';

export default function ClaimableSplit({ split, label = 'claims-claimable', claimTo = null, testId = 'claimable' }) {
  const { t } = useTranslation();
  const lvlx = (units) => `${formatLvlx(units)} ${settings.product}`;
  const held = split.held !== '0';
  return (
    <>
      <dt>{t(held ? 'claims-available-now' : label)}</dt>
      <dd data-testid={`${testId}-now`}>
        <span translate="no" data-testid={testId}>
          {lvlx(split.available)}
        </span>
        {claimTo && split.available !== '0' && (
          <>
            {' '}
            <Link className="small" to={claimTo}>
              {t('account-claim')}
            </Link>
          </>
        )}
      </dd>
      {held && (
        <>
          <dt>{t('claims-held-identity')}</dt>
          <dd data-testid={`${testId}-held`}>
            <span translate="no">{lvlx(split.held)}</span>{' '}
            <Link className="small" to="/dashboard#kyc">
              {t('claims-kyc-verify')}
            </Link>
          </dd>
        </>
      )}
    </>
  );
}
