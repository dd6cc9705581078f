// admin/tables/ICO (docs/product/admin.md#ico-table): general statistics, date filter, the ledger
// table, filtered totals when the filter hides rows, purchases chart and CSV export. Purchases
// the indexer records reload it live (at most every 2 s), keeping the viewer's filters.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLvlx, formatUsdt, loadIcoRows, localizeNumber, shortWallet } from '../core/index.js';
import { api, apiBytes } from '../common/client.js';
import { icoTrails, icoTrailsOf } from './icoTrails.js';
import settings from '../common/settings.js';
import { useCoreTable, useStatistics } from '../common/useCoreTable.js';
import CoreDataTable from '../common/CoreDataTable.jsx';
import Amount from '../common/Amount.jsx';
import SummaryBox from '../common/SummaryBox.jsx';
import Copyable from '../common/Copyable.jsx';
import TxLink from '../common/TxLink.jsx';
import TimeChart from '../common/TimeChart.jsx';
import TableTools from '../common/TableTools.jsx';
import { declaredColumns } from '../common/declaredColumns.jsx';
import { useLiveVersion } from '../common/live.js';
import IndexerStanding from './IndexerStanding.jsx';
import PendingBadge from '../common/PendingBadge.jsx';

/** The ICO totals of docs/product/api.md#statistics as summary items (filtered: the six of "ICO filtered totals"). */
function totalsItems(totals, product, filtered) {
  const items = [
    ['ico-total-transactions', totals.totalTransactions],
    ['ico-total-buy', totals.totalBuyTransactions],
    ['ico-total-withdraw', totals.totalWithdrawTransactions],
    [`ico-total-product`, `${formatLvlx(totals.totalLVLX)} ${product}`],
    ['ico-total-usdt', <Amount value={totals.totalUSDT} unit="USDT" />],
  ];
  if (filtered) return [['ico-total-users', totals.totalUsers], ...items];
  return [...items, ['ico-usdt-retired', `${formatUsdt(totals.usdtRetired)} USDT`]];
}

/** The wallet, transaction and pending mark of the page's entries, asked for once the page shows (the rows
 * stream leaves them out: 64 bytes a row at 10^6 rows). Undefined while loading, null on error. */
function useTrails(rows, version) {
  const [trails, setTrails] = useState(new Map());
  const ids = rows.map((r) => r.id).join(',');
  // Asked again at each live push too: a purchase's pending mark ends when it becomes final.
  useEffect(() => {
    if (!ids) return undefined;
    const aborter = new AbortController();
    icoTrails(ids.split(','), aborter.signal)
      .then((list) => setTrails(new Map(list.map((t) => [t.id, t]))))
      .catch(() => aborter.signal.aborted || setTrails(null));
    return () => aborter.abort();
  }, [ids, version]);
  return (id) => (trails === null ? null : trails.get(id));
}

function TrailCell({ trail, children }) {
  if (trail === null) return <span className="muted">—</span>;
  if (trail === undefined)
    return (
      <span className="muted" aria-busy="true">
        …
      </span>
    );
  return children(trail);
}

/**
 * The ICO table's columns: the ones the core declares (core-wasm/src/admin/ico.rs COLUMNS), with
 * here only the cells that read more than the row: the operation in words with its pending mark,
 * the amount with its row's coin, and the wallet and transaction (`trail(id)`, once read). The
 * exact amount shows only when the admin chooses it.
 */
function icoColumns(t, language, trail) {
  return declaredColumns(
    'ico',
    { t, language, product: settings.product },
    {
      operation: {
        minWidth: '110px',
        // A purchase in a block not final yet is marked pending (its trail says so).
        cell: (r) => (
          <span className="cell-stack">
            {t(r.purchase ? 'ico-purchase' : 'ico-retirement')}
            {trail(r.id)?.pending && <PendingBadge />}
          </span>
        ),
      },
      purchasedToken: { minWidth: '90px' },
      // Purchases are in LVLX and cash-outs in USDT (or MATIC): each amount names its coin.
      amount: { minWidth: '160px', cell: (r) => <Amount value={r.amountText} unit={r.purchasedToken} /> },
      wallet: {
        minWidth: '140px',
        cell: (r) => (
          <TrailCell trail={trail(r.id)}>
            {(x) => <Copyable value={x.wallet} shown={x.wallet && shortWallet(x.wallet)} toastKey="copied-wallet" />}
          </TrailCell>
        ),
      },
      txHash: { cell: (r) => <TrailCell trail={trail(r.id)}>{(x) => <TxLink hash={x.txHash} />}</TrailCell> },
      amountExact: { hidden: true },
    },
  );
}

export default function IcoTable() {
  const { t, i18n } = useTranslation();
  const product = settings.product;
  const version = useLiveVersion('purchase', 2000);
  // `version` is a dependency on purpose: each live push makes a new fetch, hence a reload.
  // Nothing loads before the live channel is ready (or gave up waiting): see useLiveVersion.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const statistics = useCallback((signal) => api('statistics-ico?limit=100', { signal }), [version]);
  const answered = useStatistics(version === null ? null : statistics);
  const general = answered?.General ?? null;
  const rows = useCallback(
    async (signal) => loadIcoRows(await apiBytes('statistics-ico/rows', { signal }), product),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [product, version],
  );
  const load = version === null ? null : rows;
  const table = useCoreTable(load);

  // Remade when the answer changes, not with each render's `table` object.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const series = useMemo(() => (table.answer ? table.series() : null), [table.answer, table.series]);
  const columns = icoColumns(t, i18n.language, (id) => trail(id));
  // While the ledger streams, the preview's entries (the table's first page) get theirs.
  const trail = useTrails(table.loading ? (answered?.firstPage ?? []).slice(0, table.page.size) : table.rows, version);
  const hidden = table.answer && table.answer.kept < table.total;
  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-ico')}</h1>
      <IndexerStanding version={version} />
      {general ? (
        <SummaryBox titleKey="summary-general" items={totalsItems(general, product, false)} testId="ico-general" />
      ) : (
        <p className="muted">{t('loading')}</p>
      )}
      <TableTools table={table} searchKey="ico-search" datesKey="filter-dates" />
      {hidden && (
        <SummaryBox
          titleKey="summary-filtered"
          items={totalsItems(table.answer.totals, product, true)}
          testId="ico-filtered"
        />
      )}
      <CoreDataTable
        name="ico"
        csv="ico"
        // The CSV has the table's columns: the wallets and transactions the rows stream leaves out.
        trails={icoTrailsOf}
        columns={columns}
        table={table}
        label={t('admin-menu-ico')}
        preview={answered?.firstPage}
      />
      <TimeChart
        titleKey="chart-purchases"
        series={series}
        value={(p) => Number(p.usdt)}
        label={(p) =>
          t('chart-point-purchases', {
            count: p.purchases,
            usdt: localizeNumber(p.usdt),
            lvlx: formatLvlx(p.lvlx),
            product,
          })
        }
      />
    </section>
  );
}
