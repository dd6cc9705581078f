// The form for a mailed code (4 digits, first not zero; a claim's claimCode has 6), shared by
// sign-in, registration, recovery and claims. It is sent as soon as the last digit of a
// well-formed code is typed (or pasted); a wrong code is said once, beside the field (no toast).
// The field takes the focus: the form replaces what was pressed to ask for the code.
import { useTranslation } from 'react-i18next';
import { validateField } from '../core/index.js';
import TextField from './TextField.jsx';
import useCoreForm from './useCoreForm.js';
import useSubmit from './useSubmit.js';

const FIELD_CODES = ['error-code', 'validations-code-msg', 'validations-claim-code-msg'];

export default function CodeForm({ onCode, hint, children, field = 'code', length = 4, submitKey = 'code-submit' }) {
  const { t } = useTranslation();
  const form = useCoreForm({ [field]: {} });
  const [sending, send] = useSubmit(async (code) => {
    try {
      await onCode(code);
    } catch (e) {
      // A wrong code is said once, beside the field (a toast said it a second time).
      if (!FIELD_CODES.includes(e?.code)) throw e;
      form.fail(field, e.code);
    }
  });
  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send(form.values[field]);
  };
  const typed = (value) => {
    form.set(field, value);
    if (!sending && value.length === length && !validateField(field, value)) send(value);
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="muted">{hint ?? t('register-code-sent')}</p>
      <TextField
        name={field}
        label={t('code-label')}
        form={{ ...form, set: (_, v) => typed(v) }}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
      />
      <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
        {sending ? t('login-sending') : t(submitKey)}
      </button>
      {children}
    </form>
  );
}
