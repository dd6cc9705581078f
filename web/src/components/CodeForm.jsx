// The form for a mailed code (4 digits, first not zero), shared by sign-in, registration and
// recovery.
import { useTranslation } from 'react-i18next';
import TextField from './TextField.jsx';
import useCoreForm from './useCoreForm.js';
import useSubmit from './useSubmit.js';

export default function CodeForm({ onCode, hint }) {
  const { t } = useTranslation();
  const form = useCoreForm({ code: {} });
  const [sending, send] = useSubmit(() => onCode(form.values.code));
  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send();
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="muted">{hint ?? t('register-code-sent')}</p>
      <TextField name="code" label={t('code-label')} form={form} inputMode="numeric" autoComplete="one-time-code" />
      <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
        {sending ? t('login-sending') : t('code-submit')}
      </button>
    </form>
  );
}
