// /admin/audit: every admin change (content, images, ranks, node terms, identity decisions,
// secret-key reveals, admins created), newest first, filtered by subject, admin and dates, 50 a
// page, with the change's before and after; the rows the filters keep download as CSV. The audit
// cannot be edited: `lvlx audit verify` proves it (docs/security.md#the-admin-audit).
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { auditCsv, readAudit } from '../../api/audit.js';
import useLoad from '../../api/useLoad.js';
import Spinner from '../../components/Spinner.jsx';
import LoadFailed from '../../components/LoadFailed.jsx';
import { DateRangeFields } from '../../components/Filters.jsx';
import { formatDate } from '../../components/dates.js';
import { localizeNumber } from '../../core/index.js';
import useDateRange from '../../components/useDateRange.js';
import { toastError } from '../../toast.jsx';

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

/** What changed, in words when the subject is known (its code otherwise). */
function useSubject() {
  const { t } = useTranslation();
  return (subject) => t(`audit-subject-${subject}`, { defaultValue: subject });
}

function Row({ row }) {
  const { t, i18n } = useTranslation();
  const subject = useSubject();
  return (
    <li className="summary-box audit-row" data-testid="audit-row">
      <p>
        <strong translate="no">{formatDate(row.at, i18n.language)}</strong> · {subject(row.subject)}
        {row.item != null && <span translate="no"> #{row.item}</span>}
      </p>
      <p className="muted">
        <span translate="no">
          {row.adminName} &lt;{row.adminEmail}&gt;
        </span>
      </p>
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

export default function Audit() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [form, setForm] = useState({ subject: '', admin: '' });
  const range = useDateRange();
  const [applied, setApplied] = useState({ subject: '', admin: '', start: '', end: '' });
  const [page, setPage] = useState(1);
  const subject = useSubject();
  const query = {
    subject: applied.subject,
    admin: applied.admin.trim(),
    from: dayStart(applied.start),
    to: dayStart(applied.end, true),
    page,
  };
  const key = JSON.stringify(query);
  const { data, error, retry } = useLoad((signal) => readAudit(query, signal), [key]);
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const apply = (e) => {
    e.preventDefault();
    if (range.error) return;
    setApplied({ ...form, ...range.typed });
    setPage(1);
  };
  const download = async () => {
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
  };
  return (
    <section className="page audit-page">
      <h1>{t('admin-menu-audit')}</h1>
      <p className="muted">{t('audit-intro')}</p>
      <form className="audit-filters" onSubmit={apply}>
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
          <button type="submit" className="button small" data-testid="audit-apply">
            {t('audit-apply')}
          </button>
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
                <Row key={row.id} row={row} />
              ))}
            </ul>
          ) : (
            <p>{t('audit-none')}</p>
          )}
          {pages > 1 && (
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
          )}
        </>
      )}
    </section>
  );
}
