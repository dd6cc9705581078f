// admin/tables/NFTStaking and admin/tables/LVLXStaking (docs/product/admin.md#staking-screens):
// the summary box, the searchable stakers table (with the NFT detail modal for NFTs), and the
// staking entries filtered on release date with a filtered box when the filter hides some.
// Both tables are the core's, loaded from one Arrow stream.
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLvlx, loadStakeRows } from '../../core/index.js';
import { api, apiBytes, ApiError } from '../../common/client.js';
import { declaredColumns } from '../../common/declaredColumns.jsx';
import settings from '../../common/settings.js';
import { sharedFetch, useCoreTable, useGeneral } from '../../common/useCoreTable.js';
import CoreDataTable from '../../common/CoreDataTable.jsx';
import Amount from '../../common/Amount.jsx';
import SummaryBox from '../../common/SummaryBox.jsx';
import TableTools from '../../common/TableTools.jsx';
import Dialog from '../../common/Dialog.jsx';
import ReserveMonitor from '../ReserveMonitor.jsx';
import PendingBadge from '../../common/PendingBadge.jsx';
import { useLiveVersion } from '../../common/live.js';

// docs/product/api.md#errors: statistics-nftstaking failing with 500 is shown as the 'TimeOut
// Connections!' notice.
const timeoutOn500 = (pending) =>
  pending.catch((e) => {
    throw e.status === 500 ? new ApiError(500, 'statistics-timeout', e.message) : e;
  });

/** The summary box of each kind, in the documented order (NFT) or the same measures (LVLX). */
function summaryItems(kind, s, product) {
  if (kind === 'nft') {
    return [
      ['nft-summary-staking', s.totalNFTStakingProcess],
      ['nft-summary-users', s.totalUserNFTStaking],
      ['nft-summary-in-stake', s.totalNFTInStake],
      ['nft-summary-product', `${formatLvlx(s.totalLVLXByNFT)} ${product}`],
      ['nft-summary-usdt', <Amount value={s.totalUSDTByNFT} unit="USDT" />],
    ];
  }
  return [
    ['lvlx-summary-stakes', s.totalLVLXStakes],
    ['lvlx-summary-users', s.totalUserLVLXStaking],
    ['lvlx-summary-in-stake', `${formatLvlx(s.totalLVLXInStake)} ${product}`],
    ['lvlx-summary-staking', `${formatLvlx(s.totalLVLXStaking)} ${product}`],
    ['lvlx-summary-rewards', `${formatLvlx(s.totalLVLXRewards)} ${product}`],
    ['lvlx-summary-usdt', <Amount value={s.totalUSDTRewards} unit="USDT" />],
  ];
}

/** The NFT detail: the count of each NFT id the core's row holds (ids from 1), odd ids in one
 *  column and even in the other. */
function NftDetail({ staker, onClose }) {
  const { t } = useTranslation();
  const counts = (staker?.byId ?? []).map((count, i) => [i + 1, count]);
  const column = (odd) => (
    <dl className="nft-column" data-testid={odd ? 'nft-odd' : 'nft-even'}>
      {counts
        .filter(([id]) => id % 2 === (odd ? 1 : 0))
        .map(([id, count]) => (
          <div key={id} className="summary-item" data-id={id}>
            <dt>{t('nft-id', { id })}</dt>
            <dd translate="no">{count}</dd>
          </div>
        ))}
    </dl>
  );
  return (
    <Dialog
      open={Boolean(staker)}
      title={staker?.names ?? ''}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('dialog-close')}
        </button>
      }
    >
      <div className="nft-columns">
        {column(true)}
        {column(false)}
      </div>
    </Dialog>
  );
}

/**
 * The screen's figures, loaded again on each recorded staking event: the summary and the two core
 * tables (stakers and entries), both from one Arrow stream.
 */
function useStakingTables(kind) {
  // Each recorded staking event (the live channel) reloads the screen: `version` is a
  // dependency on purpose, and nothing loads before the channel is ready.
  const version = useLiveVersion('stake', 2000);
  const statistics = useMemo(
    () => (signal) => timeoutOn500(api(`statistics-${kind}staking?limit=1`, { signal })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kind, version],
  );
  const general = useGeneral(version === null ? null : statistics);
  const bytes = useMemo(
    () => sharedFetch((signal) => timeoutOn500(apiBytes(`statistics-${kind}staking/rows`, { signal }))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kind, version],
  );
  const loadStakers = useCallback(
    async (signal) => loadStakeRows(await bytes(signal), kind, 'stakers', Date.now()),
    [bytes, kind],
  );
  const loadEntries = useCallback(
    async (signal) => loadStakeRows(await bytes(signal), kind, 'entries', Date.now()),
    [bytes, kind],
  );
  const stakers = useCoreTable(version === null ? null : loadStakers);
  const entries = useCoreTable(version === null ? null : loadEntries);
  return { version, general, stakers, entries };
}

/**
 * The stakers table's columns: the ones the core declares for the pool
 * (core-wasm/src/admin/stakes/stakers.rs), with here only the NFT counts by id, which open in a
 * dialog (`onDetail(row)`).
 */
function stakerColumns(t, language, { nft, product, onDetail }) {
  return declaredColumns(
    nft ? 'nft-stakers' : 'lvlx-stakers',
    { t, language, product },
    {
      byId: {
        minWidth: '110px',
        action: true,
        cell: (r) => (
          <button
            type="button"
            className="button secondary small"
            onClick={() => onDetail(r)}
            aria-label={t('nft-detail-of', { name: r.names })}
          >
            {t('nft-detail')}
          </button>
        ),
      },
    },
  );
}

/**
 * The staking entries table's columns: the ones the core declares for the pool
 * (core-wasm/src/admin/stakes/entries.rs), with here only the amount's cell, which marks an entry
 * opened in a block not final yet.
 */
function entryColumns(t, language, { nft, product }) {
  return declaredColumns(
    nft ? 'nft-entries' : 'lvlx-entries',
    { t, language, product },
    {
      amount: {
        minWidth: '110px',
        cell: (r) => (
          <>
            <Amount value={r.amountText} unit={nft ? null : product} />
            {r.pending && <PendingBadge help="chain-pending-entry-help" />}
          </>
        ),
      },
    },
  );
}

export default function StakingScreen({ kind }) {
  const { t, i18n } = useTranslation();
  const product = settings.product;
  const nft = kind === 'nft';
  const { version, general, stakers, entries } = useStakingTables(kind);
  const [detail, setDetail] = useState(null);
  const failed = entries.error ?? stakers.error;
  const hidden = entries.answer && entries.answer.kept < entries.total;
  const title = nft ? 'admin-menu-nft-staking' : 'admin-menu-lvlx-staking';
  return (
    <section className="page admin-page">
      <h1>{t(title)}</h1>
      {failed && (
        <p className="notice error" role="alert" data-testid="staking-error">
          {t(failed.code && i18n.exists(failed.code) ? failed.code : 'error-internal')}
        </p>
      )}
      {general ? (
        <SummaryBox
          titleKey="summary-general"
          items={summaryItems(kind, general, product)}
          testId={`${kind}-general`}
        />
      ) : (
        !failed && <p className="muted">{t('loading')}</p>
      )}
      <ReserveMonitor kind={kind} version={version} />

      <h2>{t('stake-stakers')}</h2>
      <TableTools table={stakers} searchKey="users-search" />
      <CoreDataTable
        name={`${kind}-stakers`}
        csv={`${kind}-stakers`}
        columns={stakerColumns(t, i18n.language, { nft, product, onDetail: setDetail })}
        table={stakers}
        label={t('stake-stakers')}
      />

      <h2>{t('stake-entries')}</h2>
      <TableTools table={entries} datesKey="filter-release" />
      {hidden && (
        <SummaryBox
          titleKey="summary-filtered"
          items={summaryItems(kind, entries.answer.summary, product)}
          testId={`${kind}-filtered`}
        />
      )}
      <CoreDataTable
        name={`${kind}-entries`}
        csv={`${kind}-stakes`}
        columns={entryColumns(t, i18n.language, { nft, product })}
        table={entries}
        label={t('stake-entries')}
      />
      {nft && <NftDetail staker={detail} onClose={() => setDetail(null)} />}
    </section>
  );
}
