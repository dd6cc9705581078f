// /login (SPEC §2): email and password, checked by the core's rules before anything is sent.
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.js';
import { toastError } from '../toast.jsx';
import PublicFrame from '../components/PublicFrame.jsx';
import TextField from '../components/TextField.jsx';
import useCoreForm from '../components/useCoreForm.js';

const FIELDS = { email: {}, password: {} };

export default function Login() {
  const { t } = useTranslation();
  const form = useCoreForm(FIELDS);
  const [sending, setSending] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    if (!form.validateAll()) return;
    setSending(true);
    try {
      await api('login', { method: 'POST', auth: false, body: form.values });
    } catch (e) {
      toastError(e);
    } finally {
      setSending(false);
    }
  };

  return (
    <PublicFrame title={t('login-title')} subtitle={t('login-subtitle')}>
      <form className="form" onSubmit={submit} noValidate>
        <TextField name="email" type="email" label={t('login-email')} form={form} autoComplete="username" maxLength={254} />
        <TextField name="password" type="password" label={t('login-password')} form={form} autoComplete="current-password" maxLength={20} />
        <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
          {sending ? t('login-sending') : t('login-submit')}
        </button>
        <Link to="/recover" className="link">
          {t('login-forgot')}
        </Link>
        <p className="muted small">{t('login-no-account')}</p>
      </form>
    </PublicFrame>
  );
}
