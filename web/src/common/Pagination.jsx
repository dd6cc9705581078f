// The pages under a table (docs/product/screens.md#data-tables: page sizes 10/25/50/100, 2 pages in
// range and 3 margin pages), for react-data-table-component's `paginationComponent` and the phone
// cards; nothing under a table whose rows fit the smallest page.
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from './useCoreTable.js';

const PAGES_IN_RANGE = 2;
const MARGIN_PAGES = 3;

/**
 * Page numbers to show, with null where pages are skipped; a gap of one page shows that page
 * (an ellipsis standing for a single number hides it for nothing).
 */
export function pageItems(current, count) {
  const shown = new Set();
  for (let p = 1; p <= Math.min(MARGIN_PAGES, count); p++) shown.add(p);
  for (let p = Math.max(1, count - MARGIN_PAGES + 1); p <= count; p++) shown.add(p);
  for (let p = current - PAGES_IN_RANGE; p <= current + PAGES_IN_RANGE; p++) if (p >= 1 && p <= count) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const gap = (p, i) => (i > 0 ? p - sorted[i - 1] - 1 : 0);
  return sorted.flatMap((p, i) => (gap(p, i) === 1 ? [p - 1, p] : gap(p, i) > 1 ? [null, p] : [p]));
}

export default function Pagination({ rowsPerPage, rowCount, currentPage, onChangePage, onChangeRowsPerPage }) {
  const { t } = useTranslation();
  // Rows that fit the smallest page need no pages, no size to choose and no "1–3 of 3".
  if (rowCount <= PAGE_SIZES[0]) return null;
  const count = Math.max(1, Math.ceil(rowCount / rowsPerPage));
  const from = rowCount === 0 ? 0 : (currentPage - 1) * rowsPerPage + 1;
  const to = Math.min(rowCount, currentPage * rowsPerPage);
  const go = (p) => onChangePage(p, rowCount);
  return (
    <nav className="pagination" aria-label={t('table-pages')}>
      <label className="page-size">
        {t('table-rows-per-page')}
        <select value={rowsPerPage} onChange={(e) => onChangeRowsPerPage(Number(e.target.value), currentPage)}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <span className="page-range" translate="no">
        {t('table-range', { from, to, count: rowCount })}
      </span>
      <button
        type="button"
        className="page-button"
        disabled={currentPage <= 1}
        onClick={() => go(currentPage - 1)}
        aria-label={t('table-previous')}
      >
        ‹
      </button>
      {pageItems(currentPage, count).map((p, i) =>
        p === null ? (
          <span key={`gap${i}`} className="page-gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={p}
            type="button"
            className="page-button"
            aria-current={p === currentPage ? 'page' : undefined}
            onClick={() => go(p)}
          >
            {p}
          </button>
        ),
      )}
      <button
        type="button"
        className="page-button"
        disabled={currentPage >= count}
        onClick={() => go(currentPage + 1)}
        aria-label={t('table-next')}
      >
        ›
      </button>
    </nav>
  );
}
