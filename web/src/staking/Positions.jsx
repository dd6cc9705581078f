// A member's staking positions (docs/product/screens.md#data-tables): amount, start and release
// dates, the LVLX rewards accrued so far ticking by the second with their USDT value (the core's
// figures at the chain's clock), interest already withdrawn, and per row the actions the contract
// allows now: withdraw interest, and after the release the principal with the rest of the interest
// (until then the button says until when). A position opened in a block not final yet is marked
// pending.
import { useTranslation } from 'react-i18next';
import Table from '../common/Table.jsx';
import Pagination from '../common/Pagination.jsx';
import EmptyTable from '../common/EmptyTable.jsx';
import useRowKeys from '../common/useRowKeys.js';
import { formatDate } from '../common/dates.js';
import { formatReward, localizeNumber, formatLvlx, lockTerms, stakingStanding } from '../core/index.js';
import settings from '../common/settings.js';
import PendingBadge from '../common/PendingBadge.jsx';

/**
 * What the contract allows on a position now: withdraw interest, and after the release the
 * principal with the rest of the interest (until then the button says until when).
 */
function PositionActions({ row, busy, onInterest, onRelease }) {
  const { t, i18n } = useTranslation();
  if (row.closedAt) return <span className="muted">{t('staking-returned')}</span>;
  return (
    <div className="row-actions">
      <button
        type="button"
        className="button secondary small"
        disabled={busy || row.standing.withdrawable === '0'}
        onClick={() => onInterest(row)}
        aria-label={t('staking-withdraw-interest-of', { n: row.position })}
      >
        {t('staking-withdraw-interest')}
      </button>
      {row.standing.released ? (
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => onRelease(row)}
          aria-label={t('staking-release-of', { n: row.position })}
        >
          {t('staking-release')}
        </button>
      ) : (
        // Locked: the button says until when, and cannot be pressed.
        <button type="button" className="button small" disabled data-testid="position-locked">
          {t('staking-locked-until', { date: formatDate(row.withdrawDate, i18n.language) })}
        </button>
      )}
    </div>
  );
}

/** The positions table's columns. */
function positionColumns(t, language, { nft, busy, onInterest, onRelease }) {
  const { product } = settings;
  const lvlx = (units) => `${formatLvlx(units)} ${product}`;
  return [
    nft
      ? { name: t('nft-id-column'), width: '90px', cell: (r) => <span translate="no">#{r.kind}</span> }
      : {
          name: t('staking-tier'),
          width: '110px',
          // The lock the position was opened with, in days (the tier's number says nothing).
          cell: (r) =>
            t('staking-days', { count: lockTerms(0, Math.round((r.withdrawDate - r.startDate) / 1000)).days }),
        },
    {
      name: nft ? t('nft-count') : t('lvlx-amount', { product }),
      right: true,
      cell: (r) => <span translate="no">{nft ? r.amount : lvlx(r.amount)}</span>,
    },
    {
      name: t('stake-start'),
      cell: (r) => (
        <span className="cell-stack">
          <span translate="no">{formatDate(r.startDate, language)}</span>
          {r.pending && <PendingBadge help="chain-pending-stake-help" />}
        </span>
      ),
    },
    { name: t('stake-release'), cell: (r) => <span translate="no">{formatDate(r.withdrawDate, language)}</span> },
    {
      name: t('stake-rewards', { product }),
      right: true,
      // The core's precision for a reward (six decimals: the figure visibly moves by the second);
      // its unit kept beside it in a phone's narrow card.
      cell: (r) => (
        <span className="amount" translate="no" data-testid="position-accrued">
          {`${formatReward(r.standing.accrued)}\u00a0${product}`}
        </span>
      ),
    },
    {
      name: t('stake-rewards-usdt'),
      right: true,
      cell: (r) => (
        <span className="amount" translate="no">
          {`${localizeNumber(r.standing.accruedUsdt)}\u00a0USDT`}
        </span>
      ),
    },
    { name: t('staking-withdrawn'), right: true, cell: (r) => <span translate="no">{lvlx(r.withdrawn)}</span> },
    {
      name: t('staking-actions'),
      minWidth: '220px',
      button: true,
      cell: (r) => <PositionActions row={r} busy={busy} onInterest={onInterest} onRelease={onRelease} />,
    },
  ];
}

/** `empty`: what an empty table says (instead of the tables' text); `filtered`: rows there are, a filter hides them. */
export default function Positions({ pool, rows, now, loading, busy, onInterest, onRelease, empty, filtered, label }) {
  const { t, i18n } = useTranslation();
  const nft = pool === 'nft';
  const keys = useRowKeys();
  const columns = positionColumns(t, i18n.language, { nft, busy, onInterest, onRelease });
  const data = (rows ?? []).map((r) => {
    const standing = stakingStanding(r, now);
    return { ...r, standing: r.closedAt ? { ...standing, withdrawable: '0' } : standing };
  });
  const pending = data.some((r) => r.pending);
  return (
    <div
      className="data-table"
      aria-busy={loading}
      data-testid={`${pool}-positions`}
      ref={keys.ref}
      onKeyDown={keys.onKeyDown}
    >
      <Table
        ariaLabel={label}
        columns={columns}
        data={data}
        keyField="position"
        loading={loading && !rows}
        empty={<EmptyTable hint={empty} filtered={filtered} />}
        pagination
        paginationComponent={Pagination}
      />
      {pending && <p className="muted">{t('chain-pending-stake-help')}</p>}
    </div>
  );
}
