// /recover (docs/product/accounts.md#recovery): email → code by email → userToken and resetToken
// stored → /reset. The server answers the same whether or not the email has an account.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../common/client.js';
import { withLanguageAndCaptcha } from './captcha.js';
import { KEYS, write } from '../common/storage.js';
import PublicFrame from '../common/PublicFrame.jsx';
import CodeForm from '../common/CodeForm.jsx';
import TextField from '../common/TextField.jsx';
import useCoreForm from '../common/useCoreForm.js';
import useSubmit from '../common/useSubmit.js';

export default function Recover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useCoreForm({ email: {} });
  const [attemptId, setAttemptId] = useState(null);
  // The answer is the same whether or not the email has an account.
  const [sending, send] = useSubmit(async () => {
    const body = await withLanguageAndCaptcha({ email: form.values.email });
    setAttemptId((await api('recover', { method: 'POST', auth: false, body })).attemptId);
  });

  const submit = (event) => {
    event.preventDefault();
    if (form.validateAll()) send();
  };

  const onCode = async (code) => {
    const { userToken, resetToken } = await api('recover/verify', {
      method: 'POST',
      auth: false,
      body: { attemptId, code },
    });
    write(KEYS.userToken, userToken);
    write(KEYS.resetToken, resetToken);
    navigate('/reset', { replace: true });
  };

  return (
    <PublicFrame title={t('recover-title')} subtitle={attemptId ? null : t('recover-subtitle')}>
      {attemptId ? (
        <CodeForm onCode={onCode} hint={t('recover-code-sent')} />
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <TextField name="email" type="email" label={t('login-email')} form={form} autoComplete="email" />
          <button type="submit" className="button wide" disabled={sending} aria-busy={sending}>
            {sending ? t('login-sending') : t('recover-submit')}
          </button>
        </form>
      )}
      <Link to="/login" className="link">
        {t('recover-back')}
      </Link>
    </PublicFrame>
  );
}
