// /owner-changes (members) and /admin/owner-changes: what the contracts' owner has announced and
// from when it can take effect, the claims contract's limits now, and who owns each contract
// (with a transfer waiting for the new owner's acceptance). Read from the chain by the server.
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx, shortWallet } from '../core/index.js';
import { api } from '../common/client.js';
import useLoad from '../common/useLoad.js';
import Spinner from '../common/Spinner.jsx';
import { formatDate } from '../common/dates.js';
import LoadFailed from '../common/LoadFailed.jsx';

function Wallet({ address }) {
  return (
    <span translate="no" title={address} className="mono">
      {shortWallet(address)}
    </span>
  );
}

function Change({ change, delay }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  const what = {
    signer: () => t('owner-change-signer', { to: shortWallet(change.to), from: shortWallet(change.from) }),
    caps: () =>
      t('owner-change-caps', {
        toPerClaim: lvlx(change.toPerClaim),
        toPerDay: lvlx(change.toPerDay),
        fromPerClaim: lvlx(change.fromPerClaim),
        fromPerDay: lvlx(change.fromPerDay),
        toPerAccountDay: lvlx(change.toPerAccountDay),
        fromPerAccountDay: lvlx(change.fromPerAccountDay),
      }),
    unpause: () => t('owner-change-unpause'),
  }[change.change];
  return (
    <li className={change.due ? 'owner-change due' : 'owner-change'} data-testid={`owner-change-${change.change}`}>
      <strong>{what()}</strong>
      <br />
      <span className="muted">
        {change.lapsed
          ? t('owner-change-lapsed')
          : change.due
            ? t('owner-change-due')
            : change.change !== 'signer'
              ? t('owner-change-at', { date: formatDate(change.at * 1000, i18n.language) })
              : change.earliest
                ? t('owner-change-signer-earliest', { date: formatDate(change.earliest * 1000, i18n.language) })
                : t('owner-change-signer-closed', { delay })}
      </span>
      {!change.lapsed && (
        <>
          <br />
          <span className="muted small">
            {t('owner-change-lapses', { date: formatDate(change.lapsesAt * 1000, i18n.language) })}
          </span>
        </>
      )}
    </li>
  );
}

/** The claim contract's state and limits now, and its voucher signer. */
function ClaimLimits({ claims }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  return (
    <div className="summary-box" data-testid="owner-claims">
      <h2>{t('owner-changes-claims')}</h2>
      <dl className="wallet-facts">
        <dt>{t('owner-changes-state')}</dt>
        <dd>
          {claims.paused
            ? t('owner-changes-paused')
            : claims.openSince == null
              ? t('owner-changes-open-under-floors')
              : t('owner-changes-open')}
        </dd>
        <dt>{t('owner-changes-per-claim')}</dt>
        <dd translate="no">
          {formatLvlx(claims.maxPerClaim)} {product}
        </dd>
        <dt>{t('owner-changes-per-day')}</dt>
        <dd translate="no">
          {formatLvlx(claims.maxPerDay)} {product}
        </dd>
        <dt>{t('owner-changes-per-account-day')}</dt>
        <dd translate="no">
          {formatLvlx(claims.maxPerAccountDay)} {product}
        </dd>
        <dt>{t('owner-changes-floors')}</dt>
        <dd>
          {t('owner-changes-floors-value', {
            perClaim: `${formatLvlx(claims.minPerClaim)} ${product}`,
            perDay: `${formatLvlx(claims.minPerDay)} ${product}`,
            perAccountDay: `${formatLvlx(claims.minPerAccountDay)} ${product}`,
          })}
        </dd>
        {claims.openSince != null && (
          <>
            <dt>{t('owner-changes-open-since')}</dt>
            <dd>{formatDate(claims.openSince * 1000, i18n.language)}</dd>
          </>
        )}
        <dt>{t('owner-changes-signer')}</dt>
        <dd>
          <Wallet address={claims.signer} />
        </dd>
      </dl>
    </div>
  );
}

export default function OwnerChanges() {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const { data, error, retry } = useLoad((signal) => api('owners', { signal }), []);
  const hours = (seconds) =>
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(seconds / 3600);
  return (
    <section className="page owner-changes-page">
      <h1>{t('menu-owner-changes')}</h1>
      {error && <LoadFailed error={error} onRetry={retry} />}
      {!data && !error && <Spinner />}
      {data && (
        <>
          <p className="muted">{t('owner-changes-intro', { product, delay: hours(data.delaySeconds) })}</p>
          <div className="summary-box" data-testid="owner-pending">
            <h2>{t('owner-changes-pending')}</h2>
            {data.pending.length ? (
              <ul className="plain-list">
                {data.pending.map((change) => (
                  <Change key={change.change} change={change} delay={hours(data.delaySeconds)} />
                ))}
              </ul>
            ) : (
              <p>{t('owner-changes-none')}</p>
            )}
          </div>
          <ClaimLimits claims={data.claims} />
          <h2>{t('owner-changes-owners')}</h2>
          <ul className="plain-list owner-list" data-testid="owner-list">
            {data.owners.map((o) => (
              <li key={o.contract} className="summary-box">
                <strong translate="no">{o.contract}</strong> <Wallet address={o.address} />
                <br />
                <span className="muted">{t('owner-changes-owner')}:</span> <Wallet address={o.owner} />
                {o.pendingOwner && (
                  <>
                    <br />
                    <span className="muted">{t('owner-changes-next-owner')}:</span> <Wallet address={o.pendingOwner} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
