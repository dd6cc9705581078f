// One line on the admin ICO page: how far the indexer read, up to which block events are final
// (count for commissions, volume and ranks), how many purchases are still pending and how many
// events reorganisations took back in the last day; this instance's lag, and a warning when its
// indexer is stuck, its node serves another chain, or events shown final were taken back.
import { useTranslation } from 'react-i18next';
import { api } from '../common/client.js';
import useLoad from '../common/useLoad.js';
import { localizeNumber } from '../core/index.js';

export default function IndexerStanding({ version }) {
  const { t } = useTranslation();
  const { data } = useLoad((signal) => api('admin/indexer', { signal }), [version]);
  if (!data || data.nextBlock === null) return null;
  const n = (v) => localizeNumber(String(v));
  // This instance's indexer (the one that holds the lease reports its lag).
  const moving = data.moving?.indexing ? data.moving : null;
  return (
    <>
      <p className="muted" data-testid="indexer-standing" translate="no">
        {t('indexer-standing', {
          read: n(data.nextBlock - 1),
          final: n(data.finalBlock),
          pending: n(data.pending),
          reversals: n(data.reversalsDay),
        })}
        {moving && moving.lagBlocks != null && (
          <>
            {' · '}
            {t('indexer-lag', { lag: n(moving.lagBlocks), seconds: n(moving.secondsSinceProgress ?? 0) })}
          </>
        )}
      </p>
      {moving?.mismatch && (
        <p className="notice error" role="alert" data-testid="indexer-mismatch">
          {t('indexer-mismatch')}
        </p>
      )}
      {moving?.stalled && (
        <p className="notice error" role="alert" data-testid="indexer-stalled">
          {t('indexer-stalled')}
        </p>
      )}
      {data.finalReversalsDay > 0 && (
        <p className="notice error" role="alert" data-testid="indexer-final-reversals">
          {t('indexer-final-reversals', { count: n(data.finalReversalsDay) })}
        </p>
      )}
    </>
  );
}
