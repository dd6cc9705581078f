// The admin tables' filters: an inclusive date range (YYYY-MM-DD, starting at the full range
// the data has) and a search box with a clear button.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function DateRange({ table, labelKey = 'filter-dates' }) {
  const { t } = useTranslation();
  const id = useId();
  const { query, range, queryError } = table;
  if (!query || !range) return null;
  const full = query.start === range.start && query.end === range.end;
  const errorId = `${id}x`;
  const described = queryError ? errorId : undefined;
  return (
    <fieldset className="filters" aria-describedby={described}>
      <legend>{t(labelKey)}</legend>
      <label htmlFor={`${id}s`}>{t('filter-start')}</label>
      <input id={`${id}s`} type="date" value={query.start} max={query.end || undefined} aria-invalid={Boolean(queryError)} aria-describedby={described} onChange={(e) => table.update({ start: e.target.value })} />
      <label htmlFor={`${id}e`}>{t('filter-end')}</label>
      <input id={`${id}e`} type="date" value={query.end} min={query.start || undefined} disabled={!query.start} aria-invalid={Boolean(queryError)} aria-describedby={described} onChange={(e) => table.update({ end: e.target.value })} />
      <button type="button" className="button secondary small" disabled={full} onClick={() => table.update({ start: range.start, end: range.end })}>
        {t('filter-reset')}
      </button>
      <p id={errorId} className="field-error" role="alert" data-testid="filter-error">{queryError ? t(queryError) : ''}</p>
    </fieldset>
  );
}

export function SearchBox({ table, labelKey }) {
  const { t } = useTranslation();
  const id = useId();
  if (!table.query) return null;
  return (
    <div className="search-box">
      <label htmlFor={id}>{t(labelKey)}</label>
      <input id={id} type="search" value={table.query.search} onChange={(e) => table.update({ search: e.target.value })} />
      <button type="button" className="button secondary small" disabled={!table.query.search} onClick={() => table.update({ search: '' })}>
        {t('filter-clear')}
      </button>
    </div>
  );
}
