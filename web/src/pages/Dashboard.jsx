// /dashboard: the notice admins write in admin/edit-content, the wallet box (connect, link,
// add token) that the wallet check sends members to, the member's referral link, and their
// network at a glance (rank, what is claimable).
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import settings from '../settings.js';
import { formatLvlx } from '../core/index.js';
import ContentBlock, { useContent } from '../components/ContentBlock.jsx';
import WalletCard from '../wallet/WalletCard.jsx';
import ReferralLink from '../network/ReferralLink.jsx';
import useLoad from '../api/useLoad.js';
import { readGlance } from '../api/network.js';
import { useLiveVersion } from '../live.js';

function NetworkGlance({ data }) {
  const { t, i18n } = useTranslation();
  const rank = data.userRankData.rank;
  const key = rank ? `rank-${rank.name.toLowerCase()}` : 'rank-none';
  // Known rank names are translated; a rank an admin names later shows as written.
  const name = !rank || i18n.exists(key) ? t(key) : rank.name;
  return (
    <div className="summary-box" data-testid="network-glance">
      <h2>{t('network-glance')}</h2>
      <dl className="wallet-facts">
        <dt>{t('rank-current')}</dt><dd>{name}</dd>
        <dt>{t('claims-claimable')}</dt><dd translate="no">{formatLvlx(data.claimable)} {settings.product}</dd>
        <dt>{t('node-status-title')}</dt><dd>{t(data.activationNode ? 'node-active' : 'node-inactive-short')}</dd>
      </dl>
      <p><Link to="/rank-bonus">{t('network-see-ranks')}</Link> · <Link to="/afiliates">{t('network-see-afiliates')}</Link></p>
    </div>
  );
}

export default function Dashboard() {
  const { t } = useTranslation();
  const { block } = useContent('dashboard-notice');
  // The card's figures only (the downline is /afiliates'), refreshed when they move.
  const version = useLiveVersion('network', 300);
  const network = useLoad(version === null ? null : readGlance, [version]);
  return (
    <section className="page">
      <h1>{t('menu-dashboard')}</h1>
      <ContentBlock block={block} className="notice-block" />
      <WalletCard />
      {network.data && (
        <>
          <ReferralLink code={network.data.userCodeLink} />
          <NetworkGlance data={network.data} />
        </>
      )}
    </section>
  );
}
