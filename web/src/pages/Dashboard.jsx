// /dashboard: the notice admins write in admin/edit-content, above the dashboard's content.
import { useTranslation } from 'react-i18next';
import ContentBlock, { useContent } from '../components/ContentBlock.jsx';

export default function Dashboard() {
  const { t } = useTranslation();
  const { block } = useContent('dashboard-notice');
  return (
    <section className="page">
      <h1>{t('menu-dashboard')}</h1>
      <ContentBlock block={block} className="notice-block" />
      <p className="muted">{t('page-coming-soon')}</p>
    </section>
  );
}
