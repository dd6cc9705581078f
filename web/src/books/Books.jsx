// /admin/books: the books checked against the chain — the newest check (when, as of which block,
// how many lines, what differed, section by section, the store's line beside the chain's), the
// schedule, and "Check now", which runs a check in the background and shows it when it ends.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../common/client.js';
import useLoad from '../common/useLoad.js';
import Spinner from '../common/Spinner.jsx';
import LoadFailed from '../common/LoadFailed.jsx';
import { formatDate } from '../common/dates.js';
import { localizeNumber } from '../core/index.js';
import { toastError } from '../common/toast.jsx';

function Lines({ label, lines }) {
  if (!lines.length) return null;
  return (
    <>
      <h4>{label}</h4>
      <ul className="books-lines mono">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}

function Latest({ latest }) {
  const { t, i18n } = useTranslation();
  const count = (n) => localizeNumber(String(n), i18n.language);
  if (!latest) return <p data-testid="books-never">{t('books-never')}</p>;
  const when = formatDate(latest.at, i18n.language);
  if (latest.report?.error)
    return (
      <p className="notice error" role="alert" data-testid="books-failed">
        {t('books-failed', { date: when })} <span className="mono">{latest.report.error}</span>
      </p>
    );
  return (
    <>
      <p className={`notice ${latest.differences ? 'error' : 'success'}`} data-testid="books-verdict">
        {latest.differences
          ? t('books-differ', { date: when, count: latest.differences })
          : t('books-agree', { date: when, count: count(latest.lines) })}
      </p>
      <dl className="wallet-facts">
        <dt>{t('books-block')}</dt>
        <dd translate="no">
          {count(latest.block)} ({t('books-final', { block: count(latest.finalBlock) })})
        </dd>
        <dt>{t('books-lines')}</dt>
        <dd>{count(latest.lines)}</dd>
      </dl>
      {latest.report.differences.map((d) => (
        <section key={d.section} className="summary-box" data-testid={`books-section-${d.section}`}>
          <h3>
            {t(`books-section-${d.section.replace(/ /g, '-')}`)} ({count(d.count)})
          </h3>
          <Lines label={t('books-only-store')} lines={d.onlyInStore} />
          <Lines label={t('books-only-chain')} lines={d.onlyOnChain} />
        </section>
      ))}
    </>
  );
}

export default function Books() {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const { data, error, retry } = useLoad((signal) => api('books', { signal }), [version]);
  const [starting, setStarting] = useState(false);
  const running = data?.running || starting;
  // While a check runs, read again every 2 s until it ends.
  useEffect(() => {
    if (!data?.running) return undefined;
    const id = setTimeout(() => setVersion((v) => v + 1), 2000);
    return () => clearTimeout(id);
  }, [data]);
  const start = async () => {
    setStarting(true);
    try {
      // A check starts in the background; error-books-running while one runs.
      await api('books', { method: 'POST' });
    } catch (e) {
      if (e.code !== 'error-books-running') toastError(e);
    } finally {
      setStarting(false);
      setVersion((v) => v + 1);
    }
  };
  return (
    <section className="page books-page">
      <h1>{t('admin-menu-books')}</h1>
      <p className="muted">{t('books-intro')}</p>
      {error && <LoadFailed error={error} onRetry={retry} />}
      {!data && !error && <Spinner />}
      {data && (
        <>
          <p>
            {data.everyHours ? t('books-every', { count: data.everyHours }) : t('books-unscheduled')}{' '}
            <Link to="/solvency">{t('books-public')}</Link>
          </p>
          <button
            type="button"
            className="button"
            onClick={start}
            disabled={running || !data.available}
            data-testid="books-check"
          >
            {running ? t('books-checking') : t('books-check-now')}
          </button>
          {running && <Spinner />}
          <Latest latest={data.latest} />
        </>
      )}
    </section>
  );
}
