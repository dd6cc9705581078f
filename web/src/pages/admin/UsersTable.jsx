// admin/tables/users (docs/product/admin.md#users-table): general data box, search, registration
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
import TableTools from '../../components/TableTools.jsx';
import { formatDate } from '../../components/dates.js';
import { isTranslatedRank, rankName } from '../../network/rankName.js';
import { KycBadge, KycDialog, KycFilter } from '../../kyc/KycAdmin.jsx';
import { AccountStatusCell, AccountStatusDialog } from './AccountStatus.jsx';

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
  // A saved KYC or account status change reloads the rows (both are columns).
  const [version, setVersion] = useState(0);
  // `version` is a dependency on purpose: each saved change makes a new fetch, hence a reload.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const load = useCallback(async (signal, onProgress) => loadUserRows(await userRows(signal, onProgress)), [version]);
  const [kycOf, setKycOf] = useState(null);
  const [statusOf, setStatusOf] = useState(null);
  const table = useCoreTable(load);

  // Remade when the answer changes, not with each render's `table` object.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const series = useMemo(() => (table.answer ? table.series() : null), [table.answer, table.series]);
  // Known rank names are translated; a rank an admin names later shows as written.
  const rank = (name) => (isTranslatedRank(i18n, name) ? rankName(t, i18n, name) : <span translate="no">{name}</span>);
  const columns = [
    { id: 'n', width: '70px', label: t('table-n'), cell: (r) => <Amount value={r.n} />, numeric: true },
    { id: 'names', minWidth: '120px', label: t('users-name'), cell: (r) => <span translate="no">{r.names}</span> },
    {
      id: 'email',
      minWidth: '170px',
      label: t('table-email'),
      cell: (r) => <Copyable value={r.email} shown={truncateEmail(r.email)} toastKey="copied-email" />,
    },
    {
      id: 'createdAt',
      minWidth: '190px',
      optional: true,
      spec: true,
      label: t('users-registered'),
      date: true,
      cell: (r) => <span translate="no">{formatDate(r.createdAt, i18n.language)}</span>,
    },
    {
      id: 'wallet',
      minWidth: '130px',
      label: t('users-wallet'),
      cell: (r) => <Copyable value={r.wallet} shown={r.walletShort} toastKey="copied-wallet" />,
    },
    {
      id: 'totalReferredMembers',
      minWidth: '110px',
      optional: true,
      label: t('users-referred'),
      numeric: true,
      cell: (r) => <Amount value={r.totalReferredMembers} />,
    },
    {
      id: 'totalLVLX',
      minWidth: '150px',
      label: t('users-product', { product }),
      numeric: true,
      cell: (r) => <Amount value={r.totalLVLXText} unit={product} />,
    },
    {
      id: 'totalUSDT',
      minWidth: '140px',
      optional: true,
      spec: true,
      label: t('users-usdt'),
      numeric: true,
      cell: (r) => <Amount value={r.totalUSDT} unit="USDT" />,
    },
    {
      id: 'addRewards',
      minWidth: '150px',
      optional: true,
      spec: true,
      label: t('users-add-rewards', { product }),
      numeric: true,
      cell: (r) => <Amount value={r.addRewardsText} unit={product} />,
    },
    { id: 'rank', minWidth: '110px', label: t('users-rank'), cell: (r) => rank(r.rank) },
    {
      id: 'kyc',
      minWidth: '190px',
      label: t('users-kyc'),
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
    {
      id: 'status',
      minWidth: '170px',
      optional: true,
      label: t('users-account-status'),
      cell: (r) => <AccountStatusCell member={r} onChange={setStatusOf} />,
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
      <TableTools table={table} searchKey="users-search" datesKey="filter-registration">
        <KycFilter table={table} />
      </TableTools>
      {narrowed && (
        <SummaryBox
          titleKey="summary-filtered"
          items={summaryItems(table.answer.summary, product)}
          testId="users-filtered"
        />
      )}
      <CoreDataTable
        name="users"
        csv="users"
        columns={columns}
        table={table}
        label={t('admin-menu-users')}
        preview={statistics?.firstPage}
      />
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
      {statusOf && (
        <AccountStatusDialog
          member={statusOf}
          onClose={() => setStatusOf(null)}
          onChanged={() => {
            setStatusOf(null);
            setVersion((v) => v + 1);
          }}
        />
      )}
      <TimeChart
        titleKey="chart-registrations"
        series={series}
        value={(p) => p.registrations}
        whole
        label={(p) => t('chart-point-registrations', { count: p.registrations })}
      />
    </section>
  );
}
