// admin/tables/users (docs/product/admin.md#users-table): general data box, search, registration
// date filter, the members table, a filtered box when the filter narrows the list, a
// registrations chart and CSV export.
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLvlx, loadUserRows, truncateEmail } from '../core/index.js';
import { api, apiBytes } from '../common/client.js';
import settings from '../common/settings.js';
import { useCoreTable } from '../common/useCoreTable.js';
import useLoad from '../common/useLoad.js';
import { toastError } from '../common/toast.jsx';
import CoreDataTable from '../common/CoreDataTable.jsx';
import SummaryBox from '../common/SummaryBox.jsx';
import Copyable from '../common/Copyable.jsx';
import Amount from '../common/Amount.jsx';
import TimeChart from '../common/TimeChart.jsx';
import TableTools from '../common/TableTools.jsx';
import { declaredColumns } from '../common/declaredColumns.jsx';
import { isTranslatedRank, rankName } from '../common/rankName.js';
import { KycBadge, KycDialog, KycFilter } from '../kyc/KycAdmin.jsx';
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

/**
 * The members table's columns: the ones the core declares (core-wasm/src/admin/users.rs COLUMNS),
 * with here only the cells that do more than show the value. `onKyc(row)` and `onStatus(row)`
 * open the member's KYC and account status dialogs.
 */
function userColumns(t, i18n, { onKyc, onStatus }) {
  // Known rank names are translated; a rank an admin names later shows as written.
  const rank = (name) => (isTranslatedRank(i18n, name) ? rankName(t, i18n, name) : <span translate="no">{name}</span>);
  return declaredColumns(
    'users',
    { t, language: i18n.language, product: settings.product },
    {
      email: {
        minWidth: '170px',
        cell: (r) => <Copyable value={r.email} shown={truncateEmail(r.email)} toastKey="copied-email" />,
      },
      rank: { minWidth: '110px', cell: (r) => rank(r.rank) },
      kyc: {
        minWidth: '190px',
        cell: (r) => (
          <span className="kyc-cell">
            <KycBadge status={r.kyc} />
            <button
              type="button"
              className="button secondary small"
              onClick={() => onKyc(r)}
              aria-label={t('kyc-change-of', { name: r.names })}
            >
              {t('kyc-change')}
            </button>
          </span>
        ),
      },
      status: { minWidth: '170px', cell: (r) => <AccountStatusCell member={r} onChange={onStatus} /> },
    },
  );
}

export default function UsersTable() {
  const { t, i18n } = useTranslation();
  const product = settings.product;
  // The totals and the newest rows first (one small call); the whole table follows.
  const { data: statistics } = useLoad((signal) => api('statistics-users?limit=100', { signal }), [], {
    onError: toastError,
  });
  const general = statistics?.General ?? null;
  // A saved KYC or account status change reloads the rows (both are columns).
  const [version, setVersion] = useState(0);
  // `version` is a dependency on purpose: each saved change makes a new fetch, hence a reload.
  const load = useCallback(
    async (signal, onProgress) => loadUserRows(await apiBytes('statistics-users/rows', { signal, onProgress })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version],
  );
  const [kycOf, setKycOf] = useState(null);
  const [statusOf, setStatusOf] = useState(null);
  const table = useCoreTable(load);

  // Remade when the answer changes, not with each render's `table` object.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const series = useMemo(() => (table.answer ? table.series() : null), [table.answer, table.series]);
  const columns = userColumns(t, i18n, { onKyc: setKycOf, onStatus: setStatusOf });
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
