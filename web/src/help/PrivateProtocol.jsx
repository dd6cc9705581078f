// /vanguardprivateprotocol: the private-protocol page, written by admins per language.
import { useTranslation } from 'react-i18next';
import ContentBlock, { useContent } from '../common/ContentBlock.jsx';
import Spinner from '../common/Spinner.jsx';

export default function PrivateProtocol() {
  const { t } = useTranslation();
  const { loading, block } = useContent('private-protocol');
  return (
    <section className="page">
      <h1>{t('menu-vanguard')}</h1>
      {loading && !block ? (
        <Spinner />
      ) : block?.title ? (
        <ContentBlock block={block} />
      ) : (
        <p className="muted">{t('content-empty')}</p>
      )}
    </section>
  );
}
