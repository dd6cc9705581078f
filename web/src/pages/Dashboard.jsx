// /dashboard: the notice admins write in admin/edit-content, and the wallet box (connect, link,
// add token) that the wallet check sends members to.
import { useTranslation } from 'react-i18next';
import ContentBlock, { useContent } from '../components/ContentBlock.jsx';
import WalletCard from '../wallet/WalletCard.jsx';

export default function Dashboard() {
  const { t } = useTranslation();
  const { block } = useContent('dashboard-notice');
  return (
    <section className="page">
      <h1>{t('menu-dashboard')}</h1>
      <ContentBlock block={block} className="notice-block" />
      <WalletCard />
    </section>
  );
}
