// A date field written in the page's language (mm/dd/yyyy in en, dd/mm/aaaa in es and pt; the
// browser's own date input follows the browser's locale instead), with a calendar button that
// opens the browser's picker. The value given and taken is YYYY-MM-DD ('' when emptied); the
// core converts both ways. A date typed incompletely or impossibly, or before `floor` (the
// earliest the filter allows), is not passed on: `onMalformed` gets the reason's key (false when
// none), the field says so and the table keeps its last good state.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLocalDay, parseLocalDay } from '../core/index.js';

const local = (day, language) => {
  try {
    return day ? formatLocalDay(day, language) : '';
  } catch {
    return day;
  }
};

/** The YYYY-MM-DD day `text` names in `language`, or null when it names none. */
function dayOf(text, language) {
  try {
    return parseLocalDay(text, language);
  } catch {
    return null;
  }
}

/** A typed date written again in full (01/02/2026 for 1/2/2026); as typed when it names no day. */
function tidy(text, language) {
  try {
    return text.trim() ? formatLocalDay(parseLocalDay(text, language), language) : text;
  } catch {
    return text;
  }
}

function CalendarIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7 2h2v2h6V2h2v2h3a1 1 0 0 1 1 1v15a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h3V2Zm12 8H5v9h14v-9ZM5 6v2h14V6H5Z"
      />
    </svg>
  );
}

export default function DateField({
  id,
  label,
  value,
  onChange,
  onMalformed,
  min,
  max,
  floor,
  disabled,
  invalid,
  describedBy,
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const [text, setText] = useState(() => local(value, language));
  const typing = useRef(false);
  const picker = useRef(null);

  // The value changed from outside (reset, full range, language): show it, unless the user is
  // in the middle of typing this very date.
  useEffect(() => {
    if (!typing.current) setText(local(value, language));
  }, [value, language]);

  const typed = (next) => {
    setText(next);
    typing.current = true;
    if (!next.trim()) {
      onMalformed(false);
      onChange('');
      return;
    }
    const day = dayOf(next, language);
    // YYYY-MM-DD compares as text.
    const early = day !== null && floor && day < floor;
    onMalformed(day === null ? 'error-date-malformed' : early ? 'error-date-before' : false);
    if (day !== null && !early) onChange(day);
  };

  return (
    <span className="date-field">
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('date-placeholder')}
        value={text}
        disabled={disabled}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => typed(e.target.value)}
        onBlur={() => {
          typing.current = false;
          setText((now) => tidy(now, language));
        }}
      />
      <button
        type="button"
        className="date-pick"
        disabled={disabled}
        aria-label={t('date-pick', { field: label })}
        onClick={() => picker.current?.showPicker?.()}
      >
        <CalendarIcon />
      </button>
      {/* The browser's calendar, opened by the button; never focused or read on its own. */}
      <input
        ref={picker}
        className="date-native"
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        value={value || ''}
        min={min ?? floor}
        max={max}
        onChange={(e) => {
          typing.current = false;
          onMalformed(false);
          onChange(e.target.value);
        }}
      />
    </span>
  );
}
