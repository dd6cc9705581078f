// /admin/audit: every admin change (content, images, ranks, node terms, identity decisions,
// secret-key reveals, admins created), newest first, filtered live by subject, admin and dates
// (as every admin table), 50 a page, with the change's before and after; a secret-key reveal
// says its outcome on the row. The rows the filters keep download as CSV. The audit cannot be
// edited: `lvlx audit verify` proves it (docs/security.md#the-admin-audit).
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditCsv, readAudit } from './audit.js';
import useLoad from '../common/useLoad.js';
import Spinner from '../common/Spinner.jsx';
import LoadFailed from '../common/LoadFailed.jsx';
import { DateRangeFields } from '../common/Filters.jsx';
import { formatDate } from '../common/dates.js';
import { localizeNumber } from '../core/index.js';
import { declaredColumns } from '../common/declaredColumns.jsx';
import settings from '../common/settings.js';
import useDateRange from '../common/useDateRange.js';
import { toastError } from '../common/toast.jsx';

/** Local midnight of a YYYY-MM-DD day, in ms; the day after for an end date (excluded). */
const dayStart = (day, after = false) => {
  if (!day) return '';
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + (after ? 1 : 0)).getTime();
};

function Change({ label, json }) {
  if (json == null) return null;
  let shown = json;
  try {
    shown = JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    // Shown as written.
  }
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <pre className="audit-json" translate="no">
          {shown}
        </pre>
      </dd>
    </>
  );
}

/** How long typing in the admin box waits before it filters (as the tables' search). */
const TYPING_MS = 300;

/** A secret-key reveal's outcome (revealed, wrong-secret, rate-limited), from the row's after. */
function revealOutcome(row) {
  if (row.subject !== 'secret-reveal') return null;
  try {
    return JSON.parse(row.after)?.outcome ?? null;
  } catch {
    return null;
  }
}

/** What changed, in words when the subject is known (its code otherwise). */
function useSubject() {
  const { t } = useTranslation();
  return (subject) => t(`audit-subject-${subject}`, { defaultValue: subject });
}

/**
 * The audit's columns (core-wasm/src/admin/audit.rs COLUMNS, which the CSV writes) that a card
 * places itself; any other follows them in the card with its label.
 */
const PLACED = new Set(['id', 'at', 'adminEmail', 'subject', 'item', 'before', 'after']);

function Row({ row, more }) {
  const { t, i18n } = useTranslation();
  const subject = useSubject();
  const outcome = revealOutcome(row);
  return (
    <li className="summary-box audit-row" data-testid="audit-row">
      <p>
        <strong translate="no">{formatDate(row.at, i18n.language)}</strong> · {subject(row.subject)}
        {row.item != null && <span translate="no"> #{row.item}</span>}
        {outcome && (
          <>
            {' '}
            <span
              className={`kyc-badge audit-outcome audit-outcome-${outcome === 'revealed' ? 'ok' : 'refused'}`}
              data-testid="audit-outcome"
              data-outcome={outcome}
            >
              {t(`audit-outcome-${outcome}`, { defaultValue: outcome })}
            </span>
          </>
        )}
      </p>
      <p className="muted">
        <span translate="no">
          {row.adminName} &lt;{row.adminEmail}&gt;
        </span>
      </p>
      {more.length > 0 && (
        <dl className="audit-more">
          {more.map((c) => (
            <div key={c.id}>
              <dt>{c.label}</dt>
              <dd>{c.cell(row)}</dd>
            </div>
          ))}
        </dl>
      )}
      <details>
        <summary>{t('audit-change')}</summary>
        <dl>
          <Change label={t('audit-before')} json={row.before} />
          <Change label={t('audit-after')} json={row.after} />
        </dl>
      </details>
    </li>
  );
}

/**
 * The filters as typed (`form`, `range`) and as applied: the admin box once typing pauses, the
 * subject and a valid date range at once; a new filter starts at its first page. `query`: what
 * the server is asked.
 */
function useAuditQuery() {
  const [form, setForm] = useState({ subject: '', admin: '' });
  const range = useDateRange();
  const [admin, setAdmin] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAdmin(form.admin), TYPING_MS);
    return () => clearTimeout(timer);
  }, [form.admin]);
  const applied = { subject: form.subject, admin, ...range.applied };
  const [page, setPage] = useState(1);
  const filters = JSON.stringify(applied);
  const [filtered, setFiltered] = useState(filters);
  if (filtered !== filters) {
    setFiltered(filters);
    setPage(1);
  }
  const query = {
    subject: applied.subject,
    admin: applied.admin.trim(),
    from: dayStart(applied.start),
    to: dayStart(applied.end, true),
    page,
  };
  return { form, setForm, range, applied, page, setPage, query };
}

/** Saves the rows `query` selects, every page, as a CSV named after the applied dates. */
async function downloadCsv(query, applied) {
  try {
    const text = await auditCsv(query);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = applied.start && applied.end ? `admin-audit-${applied.start}-${applied.end}.csv` : 'admin-audit.csv';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (e) {
    toastError(e);
  }
}

/** Previous and next page, and where the admin is. */
function AuditPages({ page, pages, setPage }) {
  const { t, i18n } = useTranslation();
  return (
    <nav className="audit-pages" aria-label={t('audit-pages')}>
      <button
        type="button"
        className="button secondary small"
        disabled={page <= 1}
        onClick={() => setPage((p) => p - 1)}
      >
        {t('audit-previous')}
      </button>
      <span>
        {t('audit-page', {
          page: localizeNumber(String(page), i18n.language),
          pages: localizeNumber(String(pages), i18n.language),
        })}
      </span>
      <button
        type="button"
        className="button secondary small"
        disabled={page >= pages}
        onClick={() => setPage((p) => p + 1)}
      >
        {t('audit-next')}
      </button>
    </nav>
  );
}

export default function Audit() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const { form, setForm, range, applied, page, setPage, query } = useAuditQuery();
  const subject = useSubject();
  const more = declaredColumns('audit', { t, language: i18n.language, product: settings.product }).filter(
    (c) => !PLACED.has(c.id),
  );
  const key = JSON.stringify(query);
  const { data, error, retry } = useLoad((signal) => readAudit(query, signal), [key]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const download = () => downloadCsv(query, applied);
  return (
    <section className="page audit-page">
      <h1>{t('admin-menu-audit')}</h1>
      <p className="muted">{t('audit-intro')}</p>
      <form className="audit-filters" onSubmit={(e) => e.preventDefault()} role="search">
        <label htmlFor={`${id}subject`}>{t('audit-subject')}</label>
        <select
          id={`${id}subject`}
          value={form.subject}
          onChange={(e) => setForm((f) => ({ ...f, subject: e.target.value }))}
        >
          <option value="">{t('audit-subject-all')}</option>
          {(data?.subjects ?? []).map((s) => (
            <option key={s} value={s}>
              {subject(s)}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}admin`}>{t('audit-admin')}</label>
        <input
          id={`${id}admin`}
          type="search"
          maxLength={200}
          value={form.admin}
          onChange={(e) => setForm((f) => ({ ...f, admin: e.target.value }))}
        />
        <DateRangeFields
          value={range.typed}
          onChange={(which, day) => range.set({ ...range.typed, [which]: day })}
          onReset={() => range.set({ start: '', end: '' })}
          atReset={!range.typed.start && !range.typed.end}
          error={range.error}
          kept={applied}
          labelKey="filter-dates"
        />
        <div className="audit-actions">
          <button type="button" className="button secondary small" onClick={download} disabled={!data?.total}>
            {t('audit-export')}
          </button>
        </div>
      </form>
      {error && <LoadFailed error={error} onRetry={retry} />}
      {!data && !error && <Spinner />}
      {data && (
        <>
          <p data-testid="audit-total">
            {t('audit-total', { count: localizeNumber(String(data.total), i18n.language) })}
          </p>
          {data.rows.length ? (
            <ul className="plain-list audit-list">
              {data.rows.map((row) => (
                <Row key={row.id} row={row} more={more} />
              ))}
            </ul>
          ) : (
            <p>{t('audit-none')}</p>
          )}
          {pages > 1 && <AuditPages page={page} pages={pages} setPage={setPage} />}
        </>
      )}
    </section>
  );
}
