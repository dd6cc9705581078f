// The admin tables' filters: an inclusive date range (typed in the page's language, given to the
// core as YYYY-MM-DD, starting at the full range the data has) and a search box with a clear button.
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import DateField from './DateField.jsx';
import { formatLocalDay } from '../core/index.js';

/** What a refused range leaves on screen: the last good range, named in the page's language. */
function KeptRange({ kept }) {
  const { t, i18n } = useTranslation();
  // As the date fields write it (DateField): the resolved language, never the browser's "en-GB".
  const day = (d) => (d ? formatLocalDay(d, i18n.resolvedLanguage ?? 'en') : '…');
  return (
    <p className="muted small filter-kept" data-testid="filter-kept">
      {kept.start || kept.end
        ? t('filter-kept', { range: `${day(kept.start)} – ${day(kept.end)}` })
        : t('filter-kept-all')}
    </p>
  );
}

/**
 * An inclusive date range typed in the page's language: `value` {start, end} (YYYY-MM-DD or ''),
 * `onChange(which, day)`, `onReset()` back to what `atReset` says is shown already; a half-typed
 * date is said beside the fields and never given to `onChange`; `error` is the caller's verdict
 * on a whole range (the core's rangeError), and `kept` the range still applied meanwhile.
 */
export function DateRangeFields({ value, onChange, onReset, atReset, error: rangeError, kept, startMin, labelKey }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  // Per field: why what is typed there is not passed on (a translation key), or false.
  const [malformed, setMalformed] = useState({ start: false, end: false });
  const [resets, setResets] = useState(0);
  const typing = malformed.start || malformed.end;
  const error = typing ? malformed.start || malformed.end : rangeError;
  const errorId = `${id}x`;
  const described = error ? errorId : undefined;
  const field = (which, props) => (
    <DateField
      // A reset remounts the fields so they show the reset range whatever was typed.
      key={`${which}${resets}`}
      id={`${id}${which}`}
      label={t(`filter-${which}`)}
      value={value[which]}
      invalid={Boolean(malformed[which] || (rangeError && !typing))}
      describedBy={described}
      onMalformed={(bad) => setMalformed((m) => (m[which] === bad ? m : { ...m, [which]: bad }))}
      onChange={(day) => onChange(which, day)}
      {...props}
    />
  );
  return (
    <fieldset className="filters" aria-describedby={described} data-tool="dates">
      <legend>{t(labelKey)}</legend>
      {/* Each label stays on its field's line (at 390 px "End date" ended one row and its field
          began the next); either end may be left open, so neither field is ever disabled. */}
      <span className="filter-date">
        <label htmlFor={`${id}start`}>{t('filter-start')}</label>
        {field('start', { floor: startMin, max: value.end || undefined })}
      </span>
      <span className="filter-date">
        <label htmlFor={`${id}end`}>{t('filter-end')}</label>
        {field('end', { min: value.start || startMin || undefined })}
      </span>
      <button
        type="button"
        className="button secondary small"
        disabled={!typing && atReset}
        onClick={() => {
          setMalformed({ start: false, end: false });
          setResets((n) => n + 1);
          onReset();
        }}
      >
        {t('filter-reset')}
      </button>
      <p id={errorId} className="field-error" role="alert" data-testid="filter-error">
        {error ? t(error, { date: startMin ? formatLocalDay(startMin, i18n.resolvedLanguage ?? 'en') : '' }) : ''}
      </p>
      {error && kept && <KeptRange kept={kept} />}
    </fieldset>
  );
}

/** The admin tables' date filter: the core table's query, starting at the full range its data has. */
export function DateRange({ table, labelKey = 'filter-dates' }) {
  const { query, range, queryError, applied } = table;
  if (!query || !range) return null;
  return (
    <DateRangeFields
      value={query}
      onChange={(which, day) => table.update({ [which]: day })}
      onReset={() => table.update({ start: range.start, end: range.end })}
      atReset={query.start === range.start && query.end === range.end}
      error={queryError}
      kept={applied}
      labelKey={labelKey}
    />
  );
}

export function SearchBox({ table, labelKey }) {
  const { t } = useTranslation();
  const id = useId();
  if (!table.query) return null;
  return (
    <div className="search-box" data-tool="search">
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
