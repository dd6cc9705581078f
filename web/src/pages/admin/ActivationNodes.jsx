// admin/activation-node: every node sold (member, wallet, date, USDT paid) with totals, and the
// node's terms as the contract holds them (price, on sale), which an admin changes here: on the
// development chain the server sends the owner's transaction; in production the owner signs
// with their own key and the page says so. Each change is audited (listed, newest first).
import { useMemo, useState } from 'react';
import DataTable from 'react-data-table-component';
import 'react-data-table-component/css';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { formatUnits, formatUsdt, parseUnits, shortWallet, sumUnits, truncateEmail } from '../../core/index.js';
import useLoad from '../../api/useLoad.js';
import { putNodeTerms, readNodes } from '../../api/network.js';
import Copyable from '../../components/Copyable.jsx';
import SummaryBox from '../../components/SummaryBox.jsx';
import Spinner from '../../components/Spinner.jsx';
import TxLink from '../../components/TxLink.jsx';
import { formatDate } from '../../components/dates.js';
import { toastError } from '../../toast.jsx';

function Terms({ terms, ownerStep, onSaved }) {
  const { t } = useTranslation();
  const [price, setPrice] = useState(formatUnits(terms.price, 6));
  const [onSale, setOnSale] = useState(terms.onSale);
  const [error, setError] = useState(null);
  const [saving, setSaving] = useState(false);
  const save = async (event) => {
    event.preventDefault();
    let units;
    try {
      units = parseUnits(price.trim(), 6);
    } catch {
      setError('validations-amount-msg');
      return;
    }
    if (units === '0') return setError('validations-amount-msg');
    setError(null);
    setSaving(true);
    try {
      await putNodeTerms({ price: units, onSale });
      toast.success(t('nodes-terms-saved'), { toastId: 'nodes-terms' });
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
        <input value={price} onChange={(e) => setPrice(e.target.value)} inputMode="decimal" aria-invalid={Boolean(error)} aria-describedby="node-terms-error" disabled={ownerStep} />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={onSale} onChange={(e) => setOnSale(e.target.checked)} disabled={ownerStep} /> {t('nodes-on-sale')}
      </label>
      <button type="submit" className="button small" disabled={saving || ownerStep} aria-busy={saving}>{t('ranks-save')}</button>
      <p id="node-terms-error" className="field-error" role="alert">{error ? t(error) : ''}</p>
      {ownerStep && <p className="muted">{t('error-owner-step')}</p>}
    </form>
  );
}

export default function ActivationNodes() {
  const { t, i18n } = useTranslation();
  const [saved, setSaved] = useState(0);
  const [search, setSearch] = useState('');
  const { data, error } = useLoad(readNodes, [saved]);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const rows = data?.nodes ?? [];
    return needle ? rows.filter((n) => [n.email, n.names, n.wallet].some((v) => v?.toLowerCase().includes(needle))) : rows;
  }, [data, search]);
  const columns = [
    { name: t('table-n'), cell: (_, i) => i + 1, width: '70px' },
    { name: t('table-email'), cell: (n) => (n.email ? <Copyable value={n.email} shown={truncateEmail(n.email)} toastKey="copied-email" /> : <span className="muted">{t('nodes-unlinked')}</span>), minWidth: '220px' },
    { name: t('users-wallet'), cell: (n) => <Copyable value={n.wallet} shown={shortWallet(n.wallet)} toastKey="copied-wallet" /> },
    { name: t('nodes-date'), cell: (n) => <span translate="no">{formatDate(n.createdAt, i18n.language)}</span> },
    { name: t('nodes-paid'), cell: (n) => <span translate="no">{formatUsdt(n.usdtPaid)} USDT</span>, right: true },
    { name: t('tx-hash'), cell: (n) => <TxLink hash={n.txHash} /> },
  ];
  return (
    <section className="page admin-page">
      <h1>{t('admin-menu-activation-node')}</h1>
      {error && <p className="notice error" role="alert">{t(error.code ?? 'error-internal')}</p>}
      {!data ? !error && <Spinner /> : (
        <>
          <SummaryBox titleKey="summary-general" testId="nodes-summary" items={[
            ['nodes-count', shown.length],
            ['nodes-paid-total', `${formatUsdt(sumUnits(shown.map((n) => n.usdtPaid)))} USDT`],
          ]} />
          {data.terms ? <Terms key={`${data.terms.price}:${data.terms.onSale}`} terms={data.terms} ownerStep={data.ownerStep} onSaved={() => setSaved((n) => n + 1)} />
            : <p className="notice error" role="alert">{t('error-chain-unavailable')}</p>}
          <div className="table-tools">
            <div className="search-box">
              <label htmlFor="nodes-search">{t('nodes-search')}</label>
              <input id="nodes-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
          </div>
          <div className="data-table">
            <DataTable columns={columns} data={shown} keyField="wallet" colorMode="dark" pagination paginationPerPage={25}
              noDataComponent={<p className="table-empty">{t(search ? 'table-no-results' : 'nodes-none')}</p>} />
          </div>
          <div className="summary-box">
            <h2>{t('ranks-audit')}</h2>
            {data.audit.length === 0 ? <p className="muted">{t('ranks-audit-none')}</p> : (
              <ul className="plain-list">
                {data.audit.map((a, i) => (
                  <li key={i}>{formatDate(a.at, i18n.language)} · <span translate="no">{a.admin}</span> · {t('nodes-audit', { price: formatUnits(a.after.price, 6), sale: t(a.after.onSale ? 'nodes-on-sale' : 'nodes-off-sale') })}</li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
