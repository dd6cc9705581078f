// The admin tables' filters: an inclusive date range (typed in the page's language, given to the
// core as YYYY-MM-DD, starting at the full range the data has) and a search box with a clear button.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import DateField from './DateField.jsx';

export function DateRange({ table, labelKey = 'filter-dates' }) {
  const { t } = useTranslation();
  const id = useId();
  // Per field: whether what is typed there is not (yet) a whole date; the table is not asked.
  const [malformed, setMalformed] = useState({ start: false, end: false });
  const [resets, setResets] = useState(0);
  const { query, range, queryError } = table;
  if (!query || !range) return null;
  const typing = malformed.start || malformed.end;
  const full = !typing && query.start === range.start && query.end === range.end;
  const error = typing ? 'error-date-malformed' : queryError;
  const errorId = `${id}x`;
  const described = error ? errorId : undefined;
  const field = (which) => (
    <DateField
      // A reset remounts the fields so they show the full range whatever was typed.
      key={`${which}${resets}`}
      id={`${id}${which}`}
      label={t(`filter-${which}`)}
      value={query[which]}
      min={which === 'end' ? query.start || undefined : undefined}
      max={which === 'start' ? query.end || undefined : undefined}
      disabled={which === 'end' && !query.start}
      invalid={Boolean(malformed[which] || (queryError && !typing))}
      describedBy={described}
      onMalformed={(bad) => setMalformed((m) => (m[which] === bad ? m : { ...m, [which]: bad }))}
      onChange={(day) => table.update({ [which]: day })}
    />
  );
  return (
    <fieldset className="filters" aria-describedby={described}>
      <legend>{t(labelKey)}</legend>
      <label htmlFor={`${id}start`}>{t('filter-start')}</label>
      {field('start')}
      <label htmlFor={`${id}end`}>{t('filter-end')}</label>
      {field('end')}
      <button
        type="button"
        className="button secondary small"
        disabled={full}
        onClick={() => {
          setMalformed({ start: false, end: false });
          setResets((n) => n + 1);
          table.update({ start: range.start, end: range.end });
        }}
      >
        {t('filter-reset')}
      </button>
      <p id={errorId} className="field-error" role="alert" data-testid="filter-error">
        {error ? t(error) : ''}
      </p>
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
      <input
        id={id}
        type="search"
        value={table.query.search}
        onChange={(e) => table.update({ search: e.target.value })}
      />
      <button
        type="button"
        className="button secondary small"
        disabled={!table.query.search}
        onClick={() => table.update({ search: '' })}
      >
        {t('filter-clear')}
      </button>
    </div>
  );
}
