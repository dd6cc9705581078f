// admin/activation-node: every node sold (member, wallet, date, USDT paid, transaction) in the
// core's table engine (date range, search, sort, totals, CSV), and the node's terms as the
// contract holds them (price, on sale). A change is proposed to the owners' Safe and takes
// effect once the owners sign and execute it on the owner proposals page.
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import {
  localizeNumber,
  formatUnits,
  formatUsdt,
  loadNodeRows,
  parseAmount,
  editableNumber,
  coreErrorKey,
  USDT_DECIMALS,
} from '../../core/index.js';
import useLoad from '../../common/useLoad.js';
import { api, apiBytes } from '../../common/client.js';
import { useCoreTable } from '../../common/useCoreTable.js';
import CoreDataTable from '../../common/CoreDataTable.jsx';
import TableTools from '../../common/TableTools.jsx';
import SummaryBox from '../../common/SummaryBox.jsx';
import { formatDate } from '../../common/dates.js';
import { declaredColumns } from '../../common/declaredColumns.jsx';
import settings from '../../common/settings.js';
import { toastError } from '../../common/toast.jsx';

function Terms({ terms, onSaved }) {
  const { t } = useTranslation();
  const [price, setPrice] = useState(editableNumber(formatUnits(terms.price, USDT_DECIMALS)));
  const [onSale, setOnSale] = useState(terms.onSale);
  const [error, setError] = useState(null);
  const [saving, setSaving] = useState(false);
  const [proposed, setProposed] = useState(false);
  const save = async (event) => {
    event.preventDefault();
    let units;
    try {
      units = parseAmount(price, USDT_DECIMALS);
    } catch (e) {
      setError(coreErrorKey(e));
      return;
    }
    if (units === '0') return setError('validations-amount-msg');
    setError(null);
    setSaving(true);
    try {
      await api('activation-node', { method: 'PUT', body: { price: units, onSale } });
      toast.success(t('nodes-terms-saved'), { toastId: 'nodes-terms' });
      setProposed(true);
      onSaved();
    } catch (e) {
      toastError(e);
    } finally {
      setSaving(false);
    }
    return undefined;
  };
  return (
    <form className="summary-box node-terms" onSubmit={save} data-testid="node-terms">
      <h2>{t('nodes-terms')}</h2>
      <label className="rank-field">
        <span>{t('nodes-price')}</span>
        <input
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          inputMode="decimal"
          aria-invalid={Boolean(error)}
          aria-describedby="node-terms-error"
        />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={onSale} onChange={(e) => setOnSale(e.target.checked)} /> {t('nodes-on-sale')}
      </label>
      <button type="submit" className="button small" disabled={saving} aria-busy={saving}>
        {t('owner-proposals-propose')}
      </button>
      <p id="node-terms-error" className="field-error" role="alert">
        {error ? t(error) : ''}
      </p>
      {proposed && (
        <p className="notice" data-testid="node-proposed">
          {t('owner-proposals-proposed')} <Link to="/admin/owner-proposals">{t('owner-proposals-open')}</Link>
        </p>
      )}
    </form>
  );
}

function summaryItems(s) {
  return [
    ['nodes-count', s.nodes],
    ['nodes-linked', s.linked],
    ['nodes-paid-total', `${formatUsdt(s.usdtPaid)} USDT`],
  ];
}

/**
 * The nodes table's columns: the ones the core declares (core-wasm/src/admin/nodes.rs COLUMNS), with
 * here only the name's cell, which says so when the buying wallet is not linked to an account.
 */
function nodeColumns(t, language) {
  return declaredColumns(
    'nodes',
    { t, language, product: settings.product },
    {
      names: {
        minWidth: '140px',
        cell: (r) =>
          r.names ? <span translate="no">{r.names}</span> : <span className="muted">{t('nodes-unlinked')}</span>,
      },
    },
  );
}

export default function ActivationNodes() {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState(0);
  const { data, error } = useLoad((signal) => api('activation-nodes', { signal }), [saved]);
  // `saved` on purpose: a saved change reloads the rows.
  const rows = useCallback(
    async (signal) => loadNodeRows(await apiBytes('activation-nodes/rows', { signal })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [saved],
  );
  const table = useCoreTable(rows);
  const columns = nodeColumns(t, i18n.language);
  const narrowed = table.answer && table.answer.kept < table.total;
  // The general box: every node's totals, taken again at each load (a new node, a saved change).
  const general = table.whole?.summary;
  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-activation-node')}</h1>
      {error && (
        <p className="notice error" role="alert">
          {t(error.code ?? 'error-internal')}
        </p>
      )}
      {data &&
        (data.terms ? (
          <Terms
            // A new language fills the price again in its form ("1,125" is 1125 in English).
            key={`${data.terms.price}:${data.terms.onSale}:${i18n.language}`}
            terms={data.terms}
            onSaved={() => setSaved((n) => n + 1)}
          />
        ) : (
          <p className="notice error" role="alert">
            {t('error-chain-unavailable')}
          </p>
        ))}
      {general && <SummaryBox titleKey="summary-general" items={summaryItems(general)} testId="nodes-summary" />}
      <TableTools table={table} searchKey="nodes-search" datesKey="nodes-date" />
      {narrowed && (
        <SummaryBox titleKey="summary-filtered" items={summaryItems(table.answer.summary)} testId="nodes-filtered" />
      )}
      <CoreDataTable
        name="nodes"
        csv="activation-nodes"
        columns={columns}
        table={table}
        label={t('admin-menu-activation-node')}
      />
      {data && (
        <div className="summary-box">
          <h2>{t('ranks-audit')}</h2>
          {data.audit.length === 0 ? (
            <p className="muted">{t('ranks-audit-none')}</p>
          ) : (
            <ul className="plain-list">
              {data.audit.map((a, i) => (
                <li key={i}>
                  {formatDate(a.at, i18n.language)} · <span translate="no">{a.admin}</span> ·{' '}
                  {t('nodes-audit', {
                    price: localizeNumber(formatUnits(a.after.price, USDT_DECIMALS)),
                    sale: t(a.after.onSale ? 'nodes-on-sale' : 'nodes-off-sale'),
                  })}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
