// A labelled input whose error is a translation key from the core.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldMaxLength } from '../core/index.js';
import { usePrerendering } from './prerendered.js';

/** The message line under a field (empty until the field fails a check). */
export function FieldError({ id, error }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="field-error" aria-live="polite">
      {error ? t(error) : ''}
    </p>
  );
}

/** `maxLength` defaults to what the core's rule for the field `name` accepts. */
/** `autoFocus` for the first field of a form that replaces what had the focus (a next step). */
export default function TextField({
  name,
  label,
  form,
  type = 'text',
  autoComplete,
  inputMode,
  maxLength = fieldMaxLength(name),
  autoFocus = false,
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const waiting = usePrerendering();
  const error = form.errors[name];
  const id = `field-${name}`;
  const isPassword = type === 'password';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-wrap">
        <input
          id={id}
          name={name}
          type={isPassword && visible ? 'text' : type}
          value={form.values[name]}
          autoComplete={autoComplete}
          inputMode={inputMode}
          autoFocus={autoFocus}
          maxLength={maxLength}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => form.set(name, e.target.value)}
        />
        {isPassword && (
          <button
            type="button"
            className="reveal"
            disabled={waiting}
            onClick={() => setVisible((v) => !v)}
            aria-pressed={visible}
          >
            {visible ? t('password-hide') : t('password-show')}
          </button>
        )}
      </div>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
