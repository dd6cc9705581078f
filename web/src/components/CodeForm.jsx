// The form for a mailed code (4 digits, first not zero), shared by sign-in, registration and
// recovery.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../toast.jsx';
import TextField from './TextField.jsx';
import useCoreForm from './useCoreForm.js';

export default function CodeForm({ onCode, hint }) {
  const { t } = useTranslation();
  const form = useCoreForm({ code: {} });
  const [sending, setSending] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    if (!form.validateAll()) return;
    setSending(true);
    try {
      await onCode(form.values.code);
    } catch (e) {
      toastError(e);
      setSending(false);
    }
  };
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="muted">{hint ?? t('register-code-sent')}</p>
      <TextField name="code" label={t('code-label')} form={form} inputMode="numeric" autoComplete="one-time-code" maxLength={4} />
      <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
        {sending ? t('login-sending') : t('code-submit')}
      </button>
    </form>
  );
}
