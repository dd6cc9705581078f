// /afiliates: the member's referral link (copy, QR) and their network by level — each member's
// name, when they joined, the USDT their purchases paid and the LVLX commission those earned the
// member — with each level's totals. Amounts are the server's exact base units, formatted by the
// core. Refreshed live when a purchase in the network pays a commission.
import { Link } from 'react-router';
import Table from '../common/Table.jsx';
import Pagination from '../common/Pagination.jsx';
import { useTranslation } from 'react-i18next';
import settings from '../common/settings.js';
import { formatLvlx, formatUsdt } from '../core/index.js';
import { formatDate } from '../common/dates.js';
import Spinner from '../common/Spinner.jsx';
import SummaryBox from '../common/SummaryBox.jsx';
import ReferralLink from './ReferralLink.jsx';
import useNetwork from './useNetwork.js';
import { formatRate } from '../common/format.js';
import usePhone from '../common/usePhone.js';
import { PAGE_SIZES } from '../common/useCoreTable.js';
import { useState } from 'react';

/**
 * A level on a phone: its totals in one line that opens to its members, one compact row each
 * (name; joined, purchases, commission), paged: six levels of ten full cards were nine screens.
 */
function PhoneLevel({ level, heading }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const [page, setPage] = useState({ number: 1, size: PAGE_SIZES[0] });
  const rows = level.members.slice((page.number - 1) * page.size, page.number * page.size);
  return (
    <section className="network-level" aria-labelledby={`level-${level.level}`} data-testid={`level-${level.level}`}>
      <details className="level-fold" data-testid={`level-${level.level}-fold`}>
        <summary>
          {heading}
          <span className="level-fold-totals" translate="no" data-testid={`level-${level.level}-totals`}>
            {t('network-level-summary', {
              members: level.totals.members,
              volume: `${formatUsdt(level.totals.volume)} USDT`,
              commission: `${formatLvlx(level.totals.commission)} ${product}`,
            })}
          </span>
        </summary>
        <ul className="level-rows" aria-label={t('network-level', { level: level.level })}>
          {rows.map((m, i) => (
            <li key={i} data-testid="level-row">
              <strong translate="no">{m.names}</strong>
              <span className="muted small" translate="no">
                {formatDate(m.joinedAt, i18n.language)} · {formatUsdt(m.volume)} USDT ·{' '}
                {t('network-row-commission', { amount: `${formatLvlx(m.commission)} ${product}` })}
              </span>
            </li>
          ))}
        </ul>
        <Pagination
          rowsPerPage={page.size}
          rowCount={level.members.length}
          currentPage={page.number}
          onChangePage={(number) => setPage((p) => ({ ...p, number }))}
          onChangeRowsPerPage={(size) => setPage({ size, number: 1 })}
        />
      </details>
    </section>
  );
}

function Level({ level, hasNode }) {
  const { t, i18n } = useTranslation();
  const { product } = settings;
  const phone = usePhone();
  const columns = [
    { name: t('network-member'), cell: (m) => <span translate="no">{m.names}</span>, grow: 2 },
    { name: t('network-joined'), cell: (m) => <span translate="no">{formatDate(m.joinedAt, i18n.language)}</span> },
    { name: t('network-volume'), cell: (m) => <span translate="no">{formatUsdt(m.volume)} USDT</span>, right: true },
    {
      name: t('network-commission', { product }),
      cell: (m) => (
        <span translate="no">
          {formatLvlx(m.commission)} {product}
        </span>
      ),
      right: true,
    },
  ];
  const empty = t(hasNode ? 'table-empty-network' : 'table-empty');
  const heading = (
    <h2 id={`level-${level.level}`}>
      {t('network-level', { level: level.level })}{' '}
      <span className="muted">· {t('network-level-rate', { rate: formatRate(level.bps, i18n.language) })}</span>
    </h2>
  );
  // An empty level is one line, not an empty table under zero totals.
  if (level.members.length === 0) {
    return (
      <section
        className="network-level empty"
        aria-labelledby={`level-${level.level}`}
        data-testid={`level-${level.level}`}
      >
        {heading}
        <p className="table-empty">{empty}</p>
      </section>
    );
  }
  if (phone) return <PhoneLevel level={level} heading={heading} />;
  return (
    <section className="network-level" aria-labelledby={`level-${level.level}`} data-testid={`level-${level.level}`}>
      {heading}
      <SummaryBox
        titleKey="network-level-totals"
        testId={`level-${level.level}-totals`}
        items={[
          ['network-members', level.totals.members],
          ['network-volume', `${formatUsdt(level.totals.volume)} USDT`],
          ['network-commission-total', `${formatLvlx(level.totals.commission)} ${product}`],
        ]}
      />
      <div className="data-table">
        <Table
          columns={columns}
          data={level.members.map((m, i) => ({ ...m, key: i }))}
          keyField="key"
          dense
          empty={<p className="table-empty">{empty}</p>}
          // Paged like every table (10, 25, 50, 100; docs/product/screens.md#data-tables).
          pagination
          paginationComponent={Pagination}
        />
      </div>
    </section>
  );
}

/** Nobody in any level yet: said once, with what each level would pay, not an empty box per level. */
function EmptyNetwork({ levels }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="network-level empty" aria-labelledby="network-empty-title" data-testid="network-empty">
      <h2 id="network-empty-title">{t('network-levels-title')}</h2>
      <p className="table-empty">{t('network-empty')}</p>
      <ul className="network-rates">
        {levels.map((level) => (
          <li key={level.level}>
            {t('network-level', { level: level.level })}{' '}
            <span className="muted">· {t('network-level-rate', { rate: formatRate(level.bps, i18n.language) })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function Afiliates() {
  const { t } = useTranslation();
  const network = useNetwork();
  const data = network.data;
  return (
    <section className="page network-page">
      <h1>{t('menu-afiliates')}</h1>
      {network.error && (
        <p className="notice error" role="alert">
          {t(network.error.code ?? 'error-internal')}
        </p>
      )}
      {!data ? (
        !network.error && <Spinner />
      ) : (
        <>
          <ReferralLink code={data.userCodeLink} />
          {!data.activationNode && (
            <div className="notice" role="status" data-testid="network-no-node">
              <p>{t('network-no-node')}</p>
              <p>
                <Link to="/activation-node">{t('network-get-node')}</Link>
              </p>
            </div>
          )}
          {data.levels.every((level) => level.members.length === 0) ? (
            <EmptyNetwork levels={data.levels} />
          ) : (
            data.levels.map((level) => <Level key={level.level} level={level} hasNode={Boolean(data.activationNode)} />)
          )}
        </>
      )}
    </section>
  );
}
