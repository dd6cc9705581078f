// An amount typed by the member: its label, the field with its unit and (where given) a Max
// button, then what the page says under it and the field's error, read out as it changes.

/**
 * `error`: the translated message or ''; `describedBy`: ids of further text the field is
 * explained by; `onMax`: fills the field with everything available (the button is left out without it).
 */
export default function AmountField({
  id,
  label,
  unit,
  value,
  onChange,
  disabled,
  error,
  describedBy = '',
  onMax,
  maxDisabled,
  maxLabel,
  children,
}) {
  const errorId = `${id}-error`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="amount-field">
        <input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={value}
          disabled={disabled}
          aria-invalid={Boolean(error)}
          aria-describedby={`${errorId} ${describedBy}`.trim()}
          onChange={(e) => onChange(e.target.value)}
        />
        <span className="unit" translate="no">
          {unit}
        </span>
        {onMax && (
          <button type="button" className="button secondary small" disabled={disabled || maxDisabled} onClick={onMax}>
            {maxLabel}
          </button>
        )}
      </div>
      {children}
      <p id={errorId} className="field-error" role="alert">
        {error}
      </p>
    </>
  );
}
