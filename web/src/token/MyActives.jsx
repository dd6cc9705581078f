// /myActives: the member's money account (as on the dashboard) and their money history: every
// credit and payment the server indexed from the chain or credited itself (never what a browser
// claimed), each with its transaction, pending or final, and its USDT value that day; exported
// as CSV by the core. Below, what a reorganisation took back. Refreshed live when a purchase of
// theirs is recorded, becomes final or leaves the chain.
import { useTranslation } from 'react-i18next';
import Table from '../common/Table.jsx';
import Pagination from '../common/Pagination.jsx';
import settings from '../common/settings.js';
import { api } from '../common/client.js';
import MoneyAccount from './MoneyAccount.jsx';
import useLoad from '../common/useLoad.js';
import {
  formatLvlx,
  formatToken,
  formatUsdt,
  historyKinds,
  localizeNumber,
  moneyHistoryCsv,
  moneyHistoryCsvIn,
} from '../core/index.js';
import { formatDate } from '../common/dates.js';
import TxLink from '../common/TxLink.jsx';
import { useLiveVersion } from '../common/live.js';
import LoadFailed from '../common/LoadFailed.jsx';
import PendingBadge from '../common/PendingBadge.jsx';
import { saveCsv } from '../common/Exports.jsx';
import EmptyTable from '../common/EmptyTable.jsx';

/** An entry's amount as people read it: NFTs counted, tokens in their decimals. */
function amountText(entry) {
  return entry.asset === 'NFT'
    ? `${localizeNumber(entry.amount)} NFT`
    : `${formatToken(entry.amount, entry.asset)} ${entry.asset}`;
}

const LIVE_KINDS = ['purchase', 'stake', 'network'];
/** The words of the history's CSV in the page's language (the core writes it: moneyHistoryCsvIn). */
function csvWords(t, language) {
  return {
    language,
    header: [
      'history-csv-date',
      'ico-type',
      'ico-amount',
      'ico-coin',
      'history-usdt-value',
      'tx-hash',
      'actives-status',
    ].map((key) => t(key)),
    kinds: Object.fromEntries(historyKinds().map((kind) => [kind, t(`history-kind-${kind}`)])),
    pending: t('chain-pending'),
    final: t('chain-final'),
  };
}

/** The money history's columns. */
function historyColumns(t, language) {
  return [
    { name: t('actives-date'), cell: (r) => <span translate="no">{formatDate(r.at, language)}</span> },
    { name: t('ico-type'), cell: (r) => t(`history-kind-${r.kind}`) },
    // Its coin named in the header: pt's "Valor" beside "Valor em USDT no dia" read as one value.
    { name: t('ico-amount-coin'), right: true, cell: (r) => <span translate="no">{amountText(r)}</span> },
    {
      name: t('history-usdt-value'),
      right: true,
      cell: (r) => <span translate="no">{r.usdtValue === null ? '—' : `${formatUsdt(r.usdtValue)} USDT`}</span>,
    },
    {
      name: t('actives-status'),
      cell: (r) => (r.pending ? <PendingBadge /> : <span className="chain-badge">{t('chain-final')}</span>),
    },
    {
      name: t('tx-hash'),
      cell: (r) => (r.txHash ? <TxLink hash={r.txHash} /> : <span className="muted">{t('history-no-tx')}</span>),
    },
  ];
}

/** The money history's title and its two CSV exports. */
function HistoryHead({ entries }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  return (
    <div className="section-head">
      <h2>{t('actives-history')}</h2>
      {/* In the page's language (the member's taxes, a spreadsheet in their language); the
          stable machine form (English header, kinds and decimals with a point) beside it. */}
      <span className="section-tools">
        <button
          type="button"
          className="button secondary small"
          disabled={!entries?.length}
          onClick={() =>
            saveCsv(
              moneyHistoryCsvIn(entries, csvWords(t, i18n.resolvedLanguage ?? 'en')),
              `${product.toLowerCase()}-${t('history-csv-file')}.csv`,
            )
          }
          data-testid="history-csv"
        >
          {t('table-export-csv')}
        </button>
        <button
          type="button"
          className="button secondary small"
          disabled={!entries?.length}
          onClick={() => saveCsv(moneyHistoryCsv(entries), `${product.toLowerCase()}-history.csv`)}
          data-testid="history-csv-machine"
        >
          {t('history-csv-machine')}
        </button>
      </span>
    </div>
  );
}

/** Purchases and stakes the chain took back (a reorganisation), each with its transaction. */
function Reversals({ reversals }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  return (
    <section data-testid="actives-reversals">
      <h2>{t('actives-reversals')}</h2>
      <p className="muted">{t('actives-reversals-help')}</p>
      <ul className="plain-list">
        {reversals.map((r) => (
          <li key={`${r.txHash}-${r.event}-${r.at}`}>
            <span translate="no">{formatDate(r.at, i18n.language)}</span> · {t(`reversal-${r.event}`)}
            {r.amount && r.event === 'purchase' ? (
              <span translate="no">{` · ${formatLvlx(r.amount)} ${product}`}</span>
            ) : null}{' '}
            · <TxLink hash={r.txHash} />
            {r.wasFinal && (
              <p className="muted" data-testid="reversal-was-final">
                {t('reversal-was-final')}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function MyActives() {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  // Loaded once the live channel is ready, and again on each of the member's purchases, staking
  // events (interest, releases, NFTs bought) and network credits (commissions, bonuses, claims).
  const version = useLiveVersion(LIVE_KINDS, 300);
  const history = useLoad(version === null ? null : (signal) => api('wallet/history', { signal }), [version]);
  const actives = useLoad(version === null ? null : (signal) => api('wallet/actives', { signal }), [version]);
  // The money account, the same as the dashboard's.
  const money = useLoad(version === null ? null : (signal) => api('dashboard', { signal }), [version]);
  const entries = history.data?.entries;
  const account = money.data;

  const columns = historyColumns(t, i18n.language);
  const reversals = actives.data?.reversals ?? [];
  const pending = (entries ?? []).some((r) => r.pending);
  return (
    <section className="page">
      <h1>{t('menu-myActives')}</h1>
      <div className="summary-box" data-testid="actives-balance" aria-busy={!account}>
        <h2>{t('account-title')}</h2>
        {account ? (
          <MoneyAccount dashboard={account} />
        ) : money.error ? (
          <LoadFailed error={money.error} onRetry={money.retry} />
        ) : (
          <p className="muted">{t('loading')}</p>
        )}
      </div>
      <HistoryHead entries={entries} />
      <p className="muted">{t('history-help', { product })}</p>
      {history.data?.wholeFrom != null && (
        <p className="muted" data-testid="history-whole-from">
          {t('history-whole-from', { date: formatDate(history.data.wholeFrom, i18n.language) })}
        </p>
      )}
      {pending && <p className="muted">{t('chain-pending-help')}</p>}
      {history.error && <LoadFailed error={history.error} onRetry={history.retry} testId="actives-failed" />}
      <div className="data-table" aria-busy={!entries} data-testid="actives-history">
        <Table
          ariaLabel={t('actives-history')}
          columns={columns}
          // One transaction can hold more than one entry (a release and its interest).
          data={(entries ?? []).map((entry, i) => ({ ...entry, key: `${entry.txHash ?? entry.kind}:${i}` }))}
          keyField="key"
          loading={!entries && !history.error}
          empty={<EmptyTable hint={t('actives-empty')} />}
          pagination
          paginationComponent={Pagination}
        />
      </div>
      {reversals.length > 0 && <Reversals reversals={reversals} />}
    </section>
  );
}
