// One line on the admin ICO page: how far the indexer read, up to which block events are final
// (count for commissions, volume and ranks), how many purchases are still pending and how many
// events reorganisations took back in the last day.
import { useTranslation } from 'react-i18next';
import { readIndexer } from '../../api/indexer.js';
import useLoad from '../../api/useLoad.js';
import { localizeNumber } from '../../core/index.js';

export default function IndexerStanding({ version }) {
  const { t } = useTranslation();
  const { data } = useLoad(readIndexer, [version]);
  if (!data || data.nextBlock === null) return null;
  const n = (v) => localizeNumber(String(v));
  return (
    <p className="muted" data-testid="indexer-standing" translate="no">
      {t('indexer-standing', {
        read: n(data.nextBlock - 1),
        final: n(data.finalBlock),
        pending: n(data.pending),
        reversals: n(data.reversalsDay),
      })}
    </p>
  );
}
