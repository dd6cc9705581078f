// /rank-bonus: the member's rank, a progress bar to the next one with the exact USDT of network
// volume still missing, the bonuses received, and claims: everything credited (commissions and
// bonuses) minus what was paid can be claimed — a 6-digit code by mail confirms it, the server
// signs a voucher, the member's wallet submits it to the ClaimDistributor, and the claim shows
// as pending until the indexer records the payment. Before the click the page shows the claim
// contract's limits and the room they leave now, and an announced new voucher signer.
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx, formatUsdt } from '../core/index.js';
import { api } from '../common/client.js';
import { storedWallet } from '../wallet/wallet.js';
import useChainAction, { BUSY } from '../wallet/useChainAction.js';
import TxStatus from '../wallet/TxStatus.jsx';
import ConnectOr from '../wallet/ConnectOr.jsx';
import CodeForm from '../common/CodeForm.jsx';
import TxLink from '../common/TxLink.jsx';
import { formatDate } from '../common/dates.js';
import { toastError } from '../common/toast.jsx';
import NetworkFrame from './NetworkFrame.jsx';
import SupportContact from '../common/SupportContact.jsx';
import ClaimableSplit from '../kyc/ClaimableSplit.jsx';
import { rankName } from '../common/rankName.js';

function Standing({ standing }) {
  const { t, i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(
    standing.progressBps / 10_000,
  );
  return (
    <div className="summary-box" data-testid="rank-standing">
      <h2>
        {t('rank-current')}: <span data-testid="rank-name">{rankName(t, i18n, standing.rank?.name)}</span>
      </h2>
      <p>
        {t('rank-volume')}:{' '}
        <strong translate="no" data-testid="rank-volume">
          {formatUsdt(standing.volume)} USDT
        </strong>
      </p>
      {standing.next ? (
        <>
          <label htmlFor="rank-progress">{t('rank-next', { rank: rankName(t, i18n, standing.next?.name) })}</label>
          <progress id="rank-progress" max="10000" value={standing.progressBps} aria-valuetext={percent}>
            {percent}
          </progress>
          <p data-testid="rank-missing">
            {t('rank-missing', {
              amount: `${formatUsdt(standing.missing)} USDT`,
              rank: rankName(t, i18n, standing.next?.name),
              bonus: `${formatLvlx(standing.next.bonus)} ${settings.product}`,
            })}
          </p>
        </>
      ) : (
        <p>{t('rank-top')}</p>
      )}
    </div>
  );
}

/**
 * The claim contract's limits now: the most one claim pays, the room left for all members and
 * for this member (each comes back gradually over 24 hours), and an announced new voucher signer,
 * with when it could apply at the earliest: claims signed until then stop paying once it does.
 */
function ClaimRoom({ caps }) {
  const { t } = useTranslation();
  const { product } = settings;
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  const perHour = (max) => lvlx((BigInt(max) / 24n).toString());
  const change = caps.signerChange;
  return (
    <div data-testid="claims-room">
      <h3>{t('claims-room-title')}</h3>
      <dl className="wallet-facts">
        <dt>{t('claims-room-per-claim')}</dt>
        <dd translate="no">{lvlx(caps.maxPerClaim)}</dd>
        <dt>{t('claims-room-all')}</dt>
        <dd data-testid="claims-room-all">
          {t('claims-room-of', { left: lvlx(caps.left), max: lvlx(caps.maxPerDay) })}
        </dd>
        {caps.leftForYou !== null && caps.leftForYou !== undefined && (
          <>
            <dt>{t('claims-room-yours')}</dt>
            <dd data-testid="claims-room-yours">
              {t('claims-room-of', { left: lvlx(caps.leftForYou), max: lvlx(caps.maxPerAccountDay) })}
            </dd>
          </>
        )}
      </dl>
      <p className="muted small">
        {t('claims-room-back', { perHourAll: perHour(caps.maxPerDay), perHourYours: perHour(caps.maxPerAccountDay) })}
      </p>
      <SignerChange change={change} />
    </div>
  );
}

/** An announced new voucher signer, with when it could apply at the earliest. */
function SignerChange({ change }) {
  const { t, i18n } = useTranslation();
  if (!change) return null;
  const hours = (seconds) =>
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(seconds / 3600);
  return (
    <p className="notice" role="status" data-testid="claims-signer-change">
      {change.earliest
        ? t('claims-signer-change-at', { date: formatDate(change.earliest * 1000, i18n.language) })
        : t('claims-signer-change-closed', { delay: hours(change.delaySeconds) })}
    </p>
  );
}

/** Why the claim button waits, said before the click (null: it does not). */
function claimReason(available, linked, claimable, now) {
  return !available
    ? 'network-unavailable'
    : !linked
      ? 'error-wallet-required'
      : claimable === 0n
        ? 'error-nothing-to-claim'
        : now === 0n
          ? 'claims-kyc-needed'
          : null;
}

/** What was earned, paid and can be claimed: now, and held until the identity is verified. */
function ClaimFigures({ data }) {
  const { t } = useTranslation();
  const { product } = settings;
  return (
    <dl className="wallet-facts">
      <dt>{t('claims-earned')}</dt>
      <dd translate="no">
        {formatLvlx(data.rewards)} {product}
      </dd>
      <dt>{t('claims-paid')}</dt>
      <dd translate="no" data-testid="claims-total">
        {formatLvlx(data.claims.total)} {product}
      </dd>
      <ClaimableSplit split={data.claimSplit} />
    </dl>
  );
}

/** What a claim pays now without a verified identity, and what waits for one. */
function HeldForIdentity({ data, room, heldBack }) {
  const { t } = useTranslation();
  const { product } = settings;
  return (
    <div className="notice" role="status" data-testid="claims-kyc">
      <p>
        {t(room === 0n ? 'claims-kyc-none-now' : 'claims-kyc-part', {
          threshold: `${formatLvlx(data.kycThreshold)} ${product}`,
          now: `${formatLvlx(room.toString())} ${product}`,
          rest: `${formatLvlx(heldBack.toString())} ${product}`,
        })}
      </p>
      <p>
        <Link to="/dashboard#kyc">{t('claims-kyc-verify')}</Link>
      </p>
      <SupportContact />
    </div>
  );
}

/** Why what this claim does not pay waits: the identity rule's part, and the contract's caps'. */
function ClaimInParts({ asked }) {
  const { t } = useTranslation();
  const { product } = settings;
  const byIdentity = BigInt(asked?.heldForIdentity ?? '0');
  const byCaps = BigInt(asked?.rest ?? '0') - byIdentity;
  return (
    <>
      {byCaps > 0n && (
        <p className="notice" role="status" data-testid="claims-rest">
          {t('claims-in-parts', {
            amount: `${formatLvlx(asked.amount)} ${product}`,
            rest: `${formatLvlx(byCaps.toString())} ${product}`,
          })}
        </p>
      )}
      {byIdentity > 0n && (
        <div className="notice" role="status" data-testid="claims-rest-identity">
          <p>
            {t('claims-in-parts-identity', {
              amount: `${formatLvlx(asked.amount)} ${product}`,
              rest: `${formatLvlx(byIdentity.toString())} ${product}`,
            })}
          </p>
          <p>
            <Link to="/dashboard#kyc">{t('claims-kyc-verify')}</Link>
          </p>
        </div>
      )}
    </>
  );
}

/** The claims waiting to be paid, and those paid. */
function ClaimHistory({ data }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const claims = data.claims.claims;
  return (
    <>
      {data.pendingClaims.length > 0 && (
        <ul className="plain-list" data-testid="pending-claims">
          {data.pendingClaims.map((c) => (
            <li key={c.id}>
              {t(c.status === 'signed' ? 'claims-pending' : 'claims-requested', {
                amount: `${formatLvlx(c.amount)} ${product}`,
                date: formatDate(c.createdAt, i18n.language),
              })}
            </li>
          ))}
        </ul>
      )}
      <h3>{t('claims-history')}</h3>
      {claims.length === 0 ? (
        <p className="muted">{t('claims-none')}</p>
      ) : (
        <ul className="plain-list" data-testid="paid-claims">
          {claims.map((c) => (
            <li key={c.id}>
              <span translate="no">
                {formatLvlx(c.amount)} {product}
              </span>{' '}
              · {formatDate(c.paidAt, i18n.language)} {c.txHash && <TxLink hash={c.txHash} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Claims({ data, account, connect, reload, available }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const [asked, setAsked] = useState(null);
  const [step, run] = useChainAction();
  const linked = storedWallet();
  const claimable = BigInt(data.claimable);
  // The identity rule, said before the click: what a claim pays now without a verified
  // identity, and what waits for one (the server's core splits it: claimSplit).
  const now = BigInt(data.claimSplit.available);
  const heldBack = BigInt(data.claimSplit.held);
  const reason = claimReason(available, linked, claimable, now);
  const ask = async () => {
    try {
      // A 6-digit claimCode is mailed for a claim of everything claimable → {attempt, amount}.
      setAsked(await api('claims', { method: 'POST', body: { language: i18n.resolvedLanguage } }));
    } catch (e) {
      toastError(e);
    }
  };
  const onCode = async (code) => {
    // The code confirms the claim → the signed voucher the wallet submits.
    const body = { attempt: asked.attempt, claimCode: code };
    const voucher = await api('claims/confirm', { method: 'POST', body });
    const values = { amount: formatLvlx(asked.amount), product };
    setAsked(null);
    reload();
    if (account)
      await run(
        account,
        [{ to: voucher.contract, data: voucher.calldata, simulate: true }],
        { action: 'claim', values },
        reload,
      );
  };
  return (
    <div className="summary-box" data-testid="claims">
      <h2>{t('claims-title')}</h2>
      <ClaimFigures data={data} />
      {/* The contract's limits mean something only with something to claim; an announced signer
          change is said either way. */}
      {data.claimCaps &&
        (claimable > 0n ? <ClaimRoom caps={data.claimCaps} /> : <SignerChange change={data.claimCaps.signerChange} />)}
      {heldBack > 0n && !asked && <HeldForIdentity data={data} room={now} heldBack={heldBack} />}
      {asked && <ClaimInParts asked={asked} />}
      {asked ? (
        <CodeForm
          field="claimCode"
          length={6}
          onCode={onCode}
          submitKey="claims-confirm"
          hint={t('claims-code-sent', { amount: `${formatLvlx(asked.amount)} ${product}` })}
        />
      ) : (
        <ConnectOr
          connect={!account && linked && claimable > 0n}
          onConnect={connect}
          onClick={ask}
          disabled={Boolean(reason) || BUSY.includes(step.state)}
          describedBy="claim-reason"
        >
          {t('claims-claim')}
        </ConnectOr>
      )}
      <p id="claim-reason" className="muted small">
        {reason && !asked ? t(reason, { threshold: `${formatLvlx(data.kycThreshold ?? '0')} ${product}` }) : ''}
      </p>
      <TxStatus step={step} testId="claim-status" />
      <p className="small">
        <Link to="/owner-changes">{t('claims-owner-changes')}</Link>
      </p>
      <ClaimHistory data={data} />
    </div>
  );
}

function Ranks(props) {
  const { t, i18n } = useTranslation();
  const { data } = props;
  return (
    <>
      <Standing standing={data.userRankData} />
      <div className="summary-box">
        <h2>{t('rank-bonuses')}</h2>
        {data.bonuses.length === 0 ? (
          <p className="muted">{t('rank-bonuses-none')}</p>
        ) : (
          <ul className="plain-list" data-testid="rank-bonuses">
            {data.bonuses.map((b) => (
              <li key={b.rankId}>
                {rankName(t, i18n, b.name)} ·{' '}
                <span translate="no">
                  {formatLvlx(b.amount)} {settings.product}
                </span>{' '}
                · {formatDate(b.createdAt, i18n.language)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <Claims {...props} />
    </>
  );
}

export default function RankBonus() {
  return <NetworkFrame titleKey="menu-rank-bonus">{(props) => <Ranks {...props} />}</NetworkFrame>;
}
