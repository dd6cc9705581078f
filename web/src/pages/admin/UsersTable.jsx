// admin/tables/users (SPEC §2 "Admin users table"): general data box, search, registration
// date filter, the members table, a filtered box when the filter narrows the list, a
// registrations chart and CSV export.
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLvlx, loadUserRows, truncateEmail } from '../../core/index.js';
import { userRows, userStatistics } from '../../api/statistics.js';
import settings from '../../settings.js';
import { useCoreTable } from '../../components/useCoreTable.js';
import useLoad from '../../api/useLoad.js';
import { toastError } from '../../toast.jsx';
import CoreDataTable from '../../components/CoreDataTable.jsx';
import SummaryBox from '../../components/SummaryBox.jsx';
import Copyable from '../../components/Copyable.jsx';
import Amount from '../../components/Amount.jsx';
import TimeChart from '../../components/TimeChart.jsx';
import { CsvButton } from '../../components/Exports.jsx';
import { DateRange, SearchBox } from '../../components/Filters.jsx';
import { formatDate } from '../../components/dates.js';
import { isTranslatedRank, rankName } from '../../network/rankName.js';
import { KycBadge, KycDialog, KycFilter } from '../../kyc/KycAdmin.jsx';

function summaryItems(s, product) {
  return [
    ['users-total', <Amount value={s.totalUsers} />],
    ['users-total-product', `${formatLvlx(s.totalUsersLVLX)} ${product}`],
    ['users-total-product-usdt', <Amount value={s.totalUsersUSDT} unit="USDT" />],
    ['users-rewards', `${formatLvlx(s.totalAddRewards)} ${product}`],
    ['users-rewards-usdt', <Amount value={s.totalUSDTAddReward} unit="USDT" />],
    ['users-product-with-rewards', `${formatLvlx(s.totalLVLXWithAddReward)} ${product}`],
    ['users-product-with-rewards-usdt', <Amount value={s.totalUSTDWithAddReward} unit="USDT" />],
    ['users-with-rewards', <Amount value={s.totalUsersAddReward} />],
    ['users-with-wallet', <Amount value={s.totalUsersWithWallet} />],
  ];
}

export default function UsersTable() {
  const { t, i18n } = useTranslation();
  const product = settings.product;
  // The totals and the newest rows first (one small call); the whole table follows.
  const { data: statistics } = useLoad(userStatistics, [], { onError: toastError });
  const general = statistics?.General ?? null;
  // A saved KYC change reloads the rows (the status is one of their columns).
  const [version, setVersion] = useState(0);
  const load = useCallback(async (signal, onProgress) => loadUserRows(await userRows(signal, onProgress)), [version]); // eslint-disable-line react-hooks/exhaustive-deps
  const [kycOf, setKycOf] = useState(null);
  const table = useCoreTable(load);

  // Remade when the answer changes, not with each render's `table` object.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const series = useMemo(() => (table.answer ? table.series() : null), [table.answer, table.series]);
  // Known rank names are translated; a rank an admin names later shows as written.
  const rank = (name) => (isTranslatedRank(i18n, name) ? rankName(t, i18n, name) : <span translate="no">{name}</span>);
  const columns = [
    { id: 'n', label: t('table-n'), cell: (r) => <Amount value={r.n} />, width: '90px', numeric: true },
    { id: 'names', label: t('users-name'), cell: (r) => <span translate="no">{r.names}</span> },
    {
      id: 'email',
      label: t('table-email'),
      minWidth: '230px',
      cell: (r) => <Copyable value={r.email} shown={truncateEmail(r.email)} toastKey="copied-email" />,
    },
    {
      id: 'createdAt',
      label: t('users-registered'),
      date: true,
      cell: (r) => <span translate="no">{formatDate(r.createdAt, i18n.language)}</span>,
    },
    {
      id: 'wallet',
      label: t('users-wallet'),
      cell: (r) => <Copyable value={r.wallet} shown={r.walletShort} toastKey="copied-wallet" />,
    },
    {
      id: 'totalReferredMembers',
      label: t('users-referred'),
      numeric: true,
      cell: (r) => <Amount value={r.totalReferredMembers} />,
    },
    {
      id: 'totalLVLX',
      label: t('users-product', { product }),
      numeric: true,
      minWidth: '170px',
      cell: (r) => <Amount value={r.totalLVLXText} unit={product} />,
    },
    {
      id: 'totalUSDT',
      label: t('users-usdt'),
      numeric: true,
      minWidth: '150px',
      cell: (r) => <Amount value={r.totalUSDT} unit="USDT" />,
    },
    {
      id: 'addRewards',
      label: t('users-add-rewards'),
      numeric: true,
      minWidth: '150px',
      cell: (r) => <Amount value={r.addRewardsText} unit={product} />,
    },
    { id: 'rank', label: t('users-rank'), cell: (r) => rank(r.rank) },
    {
      id: 'kyc',
      label: t('users-kyc'),
      minWidth: '170px',
      cell: (r) => (
        <span className="kyc-cell">
          <KycBadge status={r.kyc} />
          <button
            type="button"
            className="button secondary small"
            onClick={() => setKycOf(r)}
            aria-label={t('kyc-change-of', { name: r.names })}
          >
            {t('kyc-change')}
          </button>
        </span>
      ),
    },
  ];
  const narrowed = table.answer && table.answer.kept < table.total;
  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-users')}</h1>
      {general ? (
        <SummaryBox titleKey="summary-general-data" items={summaryItems(general, product)} testId="users-general" />
      ) : (
        <p className="muted">{t('loading')}</p>
      )}
      <div className="table-tools">
        <SearchBox table={table} labelKey="users-search" />
        <DateRange table={table} labelKey="filter-registration" />
        <KycFilter table={table} />
        <CsvButton table={table} name="users" />
      </div>
      {table.answer && (
        <SummaryBox
          titleKey="summary-filtered"
          items={summaryItems(table.answer.summary, product)}
          testId="users-filtered"
          reserved={!narrowed}
        />
      )}
      <CoreDataTable columns={columns} table={table} label={t('admin-menu-users')} preview={statistics?.firstPage} />
      {kycOf && (
        <KycDialog
          member={kycOf}
          onClose={() => setKycOf(null)}
          onChanged={() => {
            setKycOf(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
      <TimeChart
        titleKey="chart-registrations"
        series={series}
        value={(p) => p.registrations}
        label={(p) => t('chart-point-registrations', { count: p.registrations })}
      />
    </section>
  );
}
