// /dashboard: the member's situation on one screen — the notice admins write, the
// wallet box (connect, link, add token), the LVLX balance and its USDT value, staking, the
// network at a glance (rank, what is claimable, the node), identity verification and the
// referral link. Each box loads on its own, says when it is empty and links to its page.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx, formatReward } from '../core/index.js';
import ContentBlock, { useContent } from '../common/ContentBlock.jsx';
import Amount from '../common/Amount.jsx';
import MoneyAccount from '../token/MoneyAccount.jsx';
import LoadFailed from '../common/LoadFailed.jsx';
import WalletCard from '../wallet/WalletCard.jsx';
import ReferralLink from '../network/ReferralLink.jsx';
import KycCard from '../kyc/KycCard.jsx';
import ClaimableSplit from '../kyc/ClaimableSplit.jsx';
import useLoad from '../common/useLoad.js';
import { api } from '../common/client.js';
import { useLiveVersion } from '../common/live.js';
import { useLinkedWallet } from '../wallet/wallet.js';
import { rankName } from '../common/rankName.js';

function Box({ titleKey, testId, loading, error, retry, children, link }) {
  const { t } = useTranslation();
  return (
    <section className="summary-box dash-box" data-testid={testId} aria-busy={loading}>
      <h2>{t(titleKey)}</h2>
      {error ? (
        <LoadFailed error={error} onRetry={retry} />
      ) : loading ? (
        <p className="muted">{t('loading')}</p>
      ) : (
        children
      )}
      {link && <p className="dash-link">{link}</p>}
    </section>
  );
}

function Balance({ state }) {
  const { t } = useTranslation();
  const d = state.data;
  return (
    <Box
      titleKey="account-title"
      testId="dash-balance"
      loading={!d && !state.error}
      error={state.error}
      retry={state.retry}
      link={
        <>
          <Link to={`/token${settings.product}`}>{t('dashboard-buy')}</Link> ·{' '}
          <Link to="/myActives">{t('dashboard-see-actives')}</Link>
        </>
      }
    >
      {d && <MoneyAccount dashboard={d} />}
    </Box>
  );
}

function Staking({ state }) {
  const { t } = useTranslation();
  const s = state.data?.staking;
  return (
    <Box
      titleKey="dashboard-staking"
      testId="dash-staking"
      loading={!s && !state.error}
      error={state.error}
      retry={state.retry}
      link={
        <>
          <Link to="/staking">{t('dashboard-see-staking')}</Link> ·{' '}
          <Link to="/dashboardNFTs">{t('dashboard-see-nfts')}</Link>
        </>
      }
    >
      {s &&
        (s.positions === 0 && s.accrued === '0' ? (
          <p className="muted">{t('dashboard-staking-empty')}</p>
        ) : (
          <dl className="wallet-facts">
            <dt>{t('dashboard-positions')}</dt>
            <dd>
              <Amount value={s.positions} />
            </dd>
            <dt>{t('dashboard-nfts-staked')}</dt>
            <dd>
              <Amount value={s.nfts} />
            </dd>
            <dt>{t('dashboard-lvlx-staked', { product: settings.product })}</dt>
            <dd translate="no">
              {formatLvlx(s.lvlx)} {settings.product}
            </dd>
            <dt>{t('dashboard-rewards')}</dt>
            <dd translate="no" data-testid="dash-accrued">
              {formatReward(s.accrued)} {settings.product}{' '}
              <span className="muted">
                ≈ <Amount value={s.accruedUsdt} unit="USDT" />
              </span>
            </dd>
          </dl>
        ))}
    </Box>
  );
}

function NetworkGlance({ state }) {
  const { t, i18n } = useTranslation();
  const data = state.data;
  const name = rankName(t, i18n, data?.userRankData.rank?.name);
  return (
    <Box
      titleKey="network-glance"
      testId="network-glance"
      loading={!data && !state.error}
      error={state.error}
      retry={state.retry}
      link={
        <>
          <Link to="/rank-bonus">{t('network-see-ranks')}</Link> ·{' '}
          <Link to="/afiliates">{t('network-see-afiliates')}</Link>
        </>
      }
    >
      {data && (
        <dl className="wallet-facts">
          <dt>{t('rank-current')}</dt>
          <dd>{name}</dd>
          <ClaimableSplit split={data.claimSplit} claimTo="/rank-bonus" testId="glance-claimable" />
          <dt>{t('node-status-title')}</dt>
          <dd>{t(data.activationNode ? 'node-active' : 'node-inactive-short')}</dd>
        </dl>
      )}
    </Box>
  );
}

export default function Dashboard() {
  const { t } = useTranslation();
  const { block } = useContent('dashboard-notice');
  // Figures refresh when an indexed event moves them (purchases, stakes, the network).
  const network = useLiveVersion('network', 300);
  const stakes = useLiveVersion('stake', 300);
  const purchases = useLiveVersion('purchase', 300);
  // Linking a wallet changes what the server reads for this member (the wallet's balance, its
  // positions): every box that depends on it loads again, without a reload.
  const linked = useLinkedWallet();
  const glance = useLoad(network === null ? null : (signal) => api('network/glance', { signal }), [network, linked]);
  // The money account's claimable figures move with the network too (commissions, claims paid,
  // an identity verified).
  const figures = useLoad(
    stakes === null || purchases === null || network === null ? null : (signal) => api('dashboard', { signal }),
    [stakes, purchases, network, linked],
  );
  return (
    <section className="page">
      <h1>{t('menu-dashboard')}</h1>
      <ContentBlock block={block} className="notice-block" />
      <WalletCard />
      <div className="dash-grid">
        <Balance state={figures} />
        <Staking state={figures} />
        <NetworkGlance state={glance} />
        <KycCard />
      </div>
      {glance.data && <ReferralLink code={glance.data.userCodeLink} />}
    </section>
  );
}
