// The form for a mailed code (4 digits, first not zero), shared by sign-in, registration and
// recovery. It is sent as soon as a well-formed fourth digit is typed (or pasted); a wrong code
// is said beside the field, not only in a toast.
import { useTranslation } from 'react-i18next';
import { validateField } from '../core/index.js';
import TextField from './TextField.jsx';
import useCoreForm from './useCoreForm.js';
import useSubmit from './useSubmit.js';

const FIELD_CODES = ['error-code', 'validations-code-msg'];

export default function CodeForm({ onCode, hint, children }) {
  const { t } = useTranslation();
  const form = useCoreForm({ code: {} });
  const [sending, send] = useSubmit(async (code) => {
    try {
      await onCode(code);
    } catch (e) {
      if (FIELD_CODES.includes(e?.code)) form.fail('code', e.code);
      throw e;
    }
  });
  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send(form.values.code);
  };
  const typed = (value) => {
    form.set('code', value);
    if (!sending && value.length === 4 && !validateField('code', value)) send(value);
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="muted">{hint ?? t('register-code-sent')}</p>
      <TextField name="code" label={t('code-label')} form={{ ...form, set: (_, v) => typed(v) }} inputMode="numeric" autoComplete="one-time-code" />
      <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
        {sending ? t('login-sending') : t('code-submit')}
      </button>
      {children}
    </form>
  );
}
